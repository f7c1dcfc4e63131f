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

Status Validate(OperationContext& ctx) {
  const auto& req = ctx.request;
  bool by_name = Member(req, "SourceTableName") != nullptr, by_arn = Member(req, "SourceTableArn") != nullptr;
  if (by_name == by_arn) {
    return Status::Validation(by_name ? "Only one of SourceTableName or SourceTableArn may be specified"
                                      : "Either SourceTableName or SourceTableArn must be specified");
  }
  bool latest = BoolMember(req, "UseLatestRestorableTime").value_or(false);
  if (latest && Member(req, "RestoreDateTime")) {
    return Status::Validation("Only one of RestoreDateTime or UseLatestRestorableTime may be specified");
  }
  if (!latest && !Member(req, "RestoreDateTime")) {
    return Status::Validation("Either RestoreDateTime or UseLatestRestorableTime must be specified");
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
  std::string target(StringOr(req, "TargetTableName", ""));
  if (ctx.db.catalog().Find(target)) return Status(ErrorCode::kTableAlreadyExists, "Table already exists: " + target);
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
                    "Invalid restore time specified. RestoreDateTime must be between EarliestRestorableDateTime and "
                    "LatestRestorableDateTime.");
    }
    at = std::max(at, earliest);
  }
  std::string source_arn = TableArn(ctx.identity, source);
  auto created = service->RestoreToTime(handle, *pitr, at, target, ReadRestoreOverrides(req), source_arn);
  if (!created.ok()) {
    if (created.status().code() == ErrorCode::kTableAlreadyExists) {
      return Status(ErrorCode::kTableAlreadyExists, "Table already exists: " + target);
    }
    return created.status();
  }
  ctx.out.StartObject();
  ctx.out.Key("TableDescription");
  WriteTableDescription(ctx.out, ctx.identity, *created, nullptr, "CREATING", DescriptionView::kFull,
                        [&](JsonWriter& w) {
                          w.Key("RestoreSummary");
                          w.StartObject();
                          WriteString(w, "SourceTableArn", source_arn);
                          WriteTimestamp(w, "RestoreDateTime", at);
                          w.Key("RestoreInProgress");
                          w.Bool(true);
                          w.EndObject();
                        });
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kRestoreTableToPointInTime{"RestoreTableToPointInTime", ShapeText, Validate, Run};

}  // namespace monotable::api
