// ListImports: imports oldest first, optionally into one table (TableArn), PageSize (1..25, default
// 25) per page. NextToken is the hex of the page's last import ARN, zero-padded to whole 16-digit
// groups of at least 112 digits (the pattern AWS's tokens follow).
#include "api/ops/backup_common.h"
#include "api/ops/operations.h"
#include "api/ops/transfer_common.h"
#include "api/request_fields.h"

namespace monotable::api {
namespace {

constexpr const char* kShape = R"({
  "TableArn": {"type": "String", "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 1024},
  "PageSize": {"type": "Integer", "greaterThanOrEqual": 1, "lessThanOrEqual": 25},
  "NextToken": {"type": "String", "lengthGreaterThanOrEqual": 112, "lengthLessThanOrEqual": 1024,
                "regex": "([0-9a-f]{16})+"}
})";

std::string Token(std::string_view arn) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : arn) out += {kDigits[c >> 4], kDigits[c & 15]};
  while (out.size() < 112 || out.size() % 16 != 0) out += "00";
  return out;
}

std::string Untoken(std::string_view token) {
  std::string out;
  for (size_t i = 0; i + 1 < token.size(); i += 2) {
    auto digit = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
    char c = static_cast<char>(digit(token[i]) * 16 + digit(token[i + 1]));
    if (c == 0) break;
    out.push_back(c);
  }
  return out;
}

Status Run(OperationContext& ctx) {
  MT_ASSIGN_OR_RETURN(backup::BackupService * service, Backups(ctx));
  std::string_view table = StringOr(ctx.request, "TableArn", "");
  std::string after = Untoken(StringOr(ctx.request, "NextToken", ""));
  size_t limit = static_cast<size_t>(IntMember(ctx.request, "PageSize").value_or(25));
  std::vector<backup::ImportRecord> matching;
  for (auto& r : service->Imports()) {
    if (!table.empty() && r.table_arn != table) continue;
    matching.push_back(std::move(r));
  }
  size_t from = 0;
  if (!after.empty() || Member(ctx.request, "NextToken")) {
    // A token that names none of the imports is rejected as AWS does (DDB-EXPORT-006).
    bool known = false;
    for (const auto& r : service->Imports()) known = known || r.import_arn == after;
    if (!known) {
      return Status::Validation("Invalid Request: Provided nextToken is invalid: " +
                                std::string(StringOr(ctx.request, "NextToken", "")));
    }
    from = matching.size();
    for (size_t i = 0; i < matching.size(); ++i) {
      if (matching[i].import_arn == after) from = i + 1;
    }
  }
  size_t end = std::min(matching.size(), from + limit);
  ctx.out.StartObject();
  ctx.out.Key("ImportSummaryList");
  ctx.out.StartArray();
  for (size_t i = from; i < end; ++i) WriteImportSummary(ctx.out, matching[i]);
  ctx.out.EndArray();
  if (end < matching.size()) WriteString(ctx.out, "NextToken", Token(matching[end - 1].import_arn));
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kListImports{"ListImports", kShape, nullptr, Run};

}  // namespace monotable::api
