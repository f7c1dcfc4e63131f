// ListBackups: the account's backups, oldest first, filtered by table, creation time
// ([TimeRangeLowerBound, TimeRangeUpperBound)) and type (USER by default, SYSTEM: made when a
// table with PITR was deleted, ALL; monotable makes no AWS_BACKUP backups), Limit per page with LastEvaluatedBackupArn
// / ExclusiveStartBackupArn paging.
#include <cmath>

#include "api/ops/backup_common.h"
#include "api/ops/operations.h"
#include "api/request_fields.h"

namespace monotable::api {
namespace {

constexpr const char* kShape = R"({
  "TableName": {"type": "String", "tableName": true, "lengthGreaterThanOrEqual": 3, "lengthLessThanOrEqual": 255,
                "regex": "[a-zA-Z0-9_.-]+"},
  "Limit": {"type": "Integer", "greaterThanOrEqual": 1, "lessThanOrEqual": 100},
  "TimeRangeLowerBound": "Double",
  "TimeRangeUpperBound": "Double",
  "ExclusiveStartBackupArn": {"type": "String", "lengthGreaterThanOrEqual": 37, "lengthLessThanOrEqual": 1024},
  "BackupType": {"type": "String", "enum": ["USER", "SYSTEM", "AWS_BACKUP", "ALL"]}
})";

std::optional<int64_t> TimeMs(const rapidjson::Value& req, std::string_view name) {
  const rapidjson::Value* v = Member(req, name);
  if (!v || !v->IsNumber()) return std::nullopt;
  return static_cast<int64_t>(std::llround(v->GetDouble() * 1000.0));
}

Status Validate(OperationContext& ctx) {
  auto lower = TimeMs(ctx.request, "TimeRangeLowerBound"), upper = TimeMs(ctx.request, "TimeRangeUpperBound");
  if (lower && upper && *lower > *upper) {
    return Status::Validation(
        "One or more parameter values were invalid: Time range lower bound must be less than or equal to upper bound");
  }
  // DDB-BACKUP-012: the cursor must name this region (an ARN of another region is rejected).
  std::string_view start = StringOr(ctx.request, "ExclusiveStartBackupArn", "");
  if (!start.empty()) {
    std::string_view rest = start;
    for (int i = 0; i < 3 && rest.find(':') != std::string_view::npos; ++i) rest.remove_prefix(rest.find(':') + 1);
    if (rest.substr(0, rest.find(':')) != ctx.identity.region) {
      return Status::Validation("Invalid Request: The supplied ExclusiveStartBackupArn does not match the region");
    }
  }
  return Status::Ok();
}

Status Run(OperationContext& ctx) {
  MT_ASSIGN_OR_RETURN(backup::BackupService * service, Backups(ctx));
  const auto& req = ctx.request;
  std::optional<std::string> table;
  if (Member(req, "TableName")) table = TableNameOf(req);
  auto lower = TimeMs(req, "TimeRangeLowerBound"), upper = TimeMs(req, "TimeRangeUpperBound");
  std::string_view type = StringOr(req, "BackupType", "USER");
  size_t limit = static_cast<size_t>(IntMember(req, "Limit").value_or(100));
  std::string_view start = StringOr(req, "ExclusiveStartBackupArn", "");

  std::vector<backup::BackupRecord> matching;
  for (auto& b : service->backups().List()) {
    if (type != "ALL" && b.type != type) continue;
    if (table && b.table_name != *table) continue;
    if (lower && b.created_ms < *lower) continue;
    if (upper && b.created_ms >= *upper) continue;
    matching.push_back(std::move(b));
  }
  // Backups are listed in id order (an id starts with its creation time): the page resumes after
  // the start's id, even when that backup has been deleted since.
  size_t from = 0;
  if (!start.empty()) {
    std::string_view start_id = start.substr(start.rfind('/') + 1);
    while (from < matching.size() && matching[from].id <= start_id) ++from;
  }
  size_t end = std::min(matching.size(), from + limit);
  ctx.out.StartObject();
  ctx.out.Key("BackupSummaries");
  ctx.out.StartArray();
  for (size_t i = from; i < end; ++i) WriteBackupSummary(ctx.out, ctx.identity, matching[i]);
  ctx.out.EndArray();
  if (end < matching.size() && end > from)
    WriteString(ctx.out, "LastEvaluatedBackupArn", BackupArn(ctx.identity, matching[end - 1]));
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kListBackups{"ListBackups", kShape, Validate, Run};

}  // namespace monotable::api
