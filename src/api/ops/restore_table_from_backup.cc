// RestoreTableFromBackup: a new table with the backup's items and the source's definition, with
// the overrides AWS allows (backup/restore_plan.h). Answers at once with the table CREATING and a
// RestoreSummary in progress; the items are loaded in the background, then the table is ACTIVE.
#include "api/ops/backup_common.h"
#include "api/ops/operations.h"
#include "api/request_fields.h"
#include "api/table_json.h"

namespace monotable::api {
namespace {

std::string ShapeText() {
  return R"({
  "TargetTableName": {"type": "String", "required": true, "lengthGreaterThanOrEqual": 3, "lengthLessThanOrEqual": 255,
                      "regex": "[a-zA-Z0-9_.-]+"},
  "BackupArn": {"type": "String", "required": true, "lengthGreaterThanOrEqual": 37, "lengthLessThanOrEqual": 1024},
  )" + RestoreOverrideShapes() +
         "\n}";
}

Status Run(OperationContext& ctx) {
  std::string arn(StringOr(ctx.request, "BackupArn", ""));
  MT_ASSIGN_OR_RETURN(backup::BackupRecord record, FindBackup(ctx, arn));
  if (record.status != backup::BackupStatus::kAvailable) {
    return Status(ErrorCode::kBackupInUse, "Backup is being created: " + arn);
  }
  // DDB-BACKUP-010: one restore at a time per backup.
  if (ctx.backups->backups().Held(record.id)) {
    return Status(ErrorCode::kBackupInUse, "Backup is being used to restore another table: " + arn);
  }
  std::string target(StringOr(ctx.request, "TargetTableName", ""));
  if (auto existing = ctx.db.catalog().Find(target)) {
    // DDB-TABLE-219: a target whose own restore from a backup is still running is in use.
    auto restore = ctx.backups->RestoreOf(existing->description->table_id);
    if (restore && restore->in_progress && !restore->source_backup_arn.empty()) {
      return Status(ErrorCode::kTableInUse,
                    "Table: " + target + " is already being restored from backup: " + restore->source_backup_arn);
    }
    return Status(ErrorCode::kTableAlreadyExists, "Table already exists: " + target);
  }
  std::string source_arn = TableArn(ctx.identity, record.table_name);
  auto created = ctx.backups->RestoreFromBackup(record, target, ReadRestoreOverrides(ctx.request), arn, source_arn);
  return AnswerRestore(ctx, created, target, arn, source_arn, record.created_ms);
}

}  // namespace

const Operation kRestoreTableFromBackup{"RestoreTableFromBackup", ShapeText, nullptr, Run};

}  // namespace monotable::api
