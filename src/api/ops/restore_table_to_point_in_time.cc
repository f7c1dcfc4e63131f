// RestoreTableToPointInTime: a new table holding a PITR-enabled table's items as they were at
// RestoreDateTime (any millisecond of the restorable window) or at the latest restorable time,
// with the overrides RestoreTableFromBackup takes. Loaded in the background like a backup restore.
#include <cmath>

#include "api/ops/backup_common.h"
#include "api/ops/operations.h"
#include "api/request_fields.h"
#include "api/table_json.h"

namespace monotable::api {
namespace {

std::string ShapeText() {
  return R"({
  "SourceTableArn": {"type": "String", "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 1024},
  "SourceTableName": {"type": "String", "tableName": true, "lengthGreaterThanOrEqual": 3, "lengthLessThanOrEqual": 255,
                      "regex": "[a-zA-Z0-9_.-]+"},
  "TargetTableName": {"type": "String", "required": true, "lengthGreaterThanOrEqual": 3, "lengthLessThanOrEqual": 255,
                      "regex": "[a-zA-Z0-9_.-]+"},
  "UseLatestRestorableTime": "Boolean",
  "RestoreDateTime": "Double",
  )" + RestoreOverrideShapes() +
         "\n}";
}

// Texts and order as AWS answers them (ack-api-quirks DDB-TABLE-272, DDB-TABLE-100, DDB-TABLE-442):
// the source members first, then the time members, all before any table is looked at.
Status Validate(OperationContext& ctx) {
  const auto& req = ctx.request;
  bool by_name = Member(req, "SourceTableName") != nullptr, by_arn = Member(req, "SourceTableArn") != nullptr;
  if (by_name && by_arn) return Status::Validation("Must provide exactly one of: sourceTableArn, sourceTableName");
  if (!by_name && !by_arn) {
    return Status::Validation("The parameter 'TableName' is required but was not present in the request");
  }
  if (by_arn) {
    std::string_view arn = StringOr(req, "SourceTableArn", "");
    if (arn.substr(0, 4) != "arn:") {
      return Status::Validation("One or more parameter values were invalid: ARNs must start with 'arn:': " +
                                std::string(arn));
    }
    if (arn.find(":table/") == std::string_view::npos) {
      return Status::Validation("sourceTableArn is not a valid ARN");
    }
  }
  bool latest = BoolMember(req, "UseLatestRestorableTime").value_or(false);
  if (latest && Member(req, "RestoreDateTime")) {
    return Status::Validation(
        "Invalid Request: Both RestoreDateTime and UseLatestRestorableTime cannot be set for point-in-time restore "
        "request. Please specify either RestoreDateTime time or UseLatestRestorableTime");
  }
  if (!latest && !Member(req, "RestoreDateTime")) {
    return Status::Validation(
        "Invalid Request: Either one of RestoreDateTime or UseLatestRestorableTime must be specified, but not both");
  }
  return Status::Ok();
}

Status Run(OperationContext& ctx) {
  MT_ASSIGN_OR_RETURN(backup::BackupService * service, Backups(ctx));
  const auto& req = ctx.request;
  std::string source =
      Member(req, "SourceTableName") ? TableNameOf(req, "SourceTableName") : TableNameOf(req, "SourceTableArn");
  auto handle = ctx.db.catalog().Find(source);
  if (!handle) return Status(ErrorCode::kTableNotFound, "Table not found: " + source);
  auto pitr = service->pitr().Find(*handle->description);
  if (!pitr) {
    return Status(ErrorCode::kPointInTimeRecoveryUnavailable,
                  "Point in time recovery is not enabled for table '" + source + "'");
  }
  int64_t now = service->NowMs();
  int64_t at = now;
  if (const auto* when = Member(req, "RestoreDateTime")) {
    at = static_cast<int64_t>(std::floor(when->GetDouble() * 1000.0));
    int64_t earliest = service->pitr().Earliest(*pitr);
    // The window as DescribeContinuousBackups shows it: whole seconds.
    if (at < earliest / 1000 * 1000 || at > now) {
      return Status(ErrorCode::kInvalidRestoreTime,
                    "RestoreDateTime '" + IsoSeconds(at) + "' must be within EarliestRestorableDateTime '" +
                        IsoSeconds(earliest) + "' and LatestRestorableDateTime '" + IsoSeconds(now) + "'");
    }
    at = std::max(at, earliest);
  }
  std::string target(StringOr(req, "TargetTableName", ""));
  if (ctx.db.catalog().Find(target)) return Status(ErrorCode::kTableAlreadyExists, "Table already exists: " + target);
  std::string source_arn = TableArn(ctx.identity, source);
  auto created = service->RestoreToTime(handle, *pitr, at, target, ReadRestoreOverrides(req), source_arn);
  return AnswerRestore(ctx, created, target, "", source_arn, at);
}

}  // namespace

const Operation kRestoreTableToPointInTime{"RestoreTableToPointInTime", ShapeText, Validate, Run};

}  // namespace monotable::api
