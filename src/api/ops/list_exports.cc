// ListExports: exports oldest first, optionally of one table (TableArn), MaxResults (1..25, default
// 25) per page with NextToken (the last ARN of the page) paging.
#include "api/ops/backup_common.h"
#include "api/ops/operations.h"
#include "api/request_fields.h"

namespace monotable::api {
namespace {

constexpr const char* kShape = R"({
  "TableArn": {"type": "String", "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 1024},
  "MaxResults": {"type": "Integer", "greaterThanOrEqual": 1, "lessThanOrEqual": 25},
  "NextToken": "String"
})";

Status Run(OperationContext& ctx) {
  MT_ASSIGN_OR_RETURN(backup::BackupService * service, Backups(ctx));
  std::string_view table = StringOr(ctx.request, "TableArn", "");
  std::string_view token = StringOr(ctx.request, "NextToken", "");
  size_t limit = static_cast<size_t>(IntMember(ctx.request, "MaxResults").value_or(25));
  std::vector<backup::ExportRecord> matching;
  for (auto& e : service->Exports()) {
    if (!table.empty() && e.table_arn != table) continue;
    matching.push_back(std::move(e));
  }
  size_t from = 0;
  if (!token.empty()) {
    // A token is an export's ARN; anything else (a ListImports token, say) is rejected as AWS does
    // (DDB-EXPORT-006). A token of another TableArn's listing is accepted.
    bool known = false;
    for (const auto& e : service->Exports()) known = known || e.export_arn == token;
    if (!known) return Status::Validation("Invalid Request: Provided nextToken is invalid: " + std::string(token));
    from = matching.size();
    for (size_t i = 0; i < matching.size(); ++i) {
      if (matching[i].export_arn == token) from = i + 1;
    }
  }
  size_t end = std::min(matching.size(), from + limit);
  ctx.out.StartObject();
  ctx.out.Key("ExportSummaries");
  ctx.out.StartArray();
  for (size_t i = from; i < end; ++i) {
    ctx.out.StartObject();
    WriteString(ctx.out, "ExportArn", matching[i].export_arn);
    WriteString(ctx.out, "ExportStatus", matching[i].status);
    WriteString(ctx.out, "ExportType", matching[i].export_type);
    ctx.out.EndObject();
  }
  ctx.out.EndArray();
  if (end < matching.size()) WriteString(ctx.out, "NextToken", matching[end - 1].export_arn);
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kListExports{"ListExports", kShape, nullptr, Run};

}  // namespace monotable::api
