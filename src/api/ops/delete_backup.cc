// DeleteBackup: removes an AVAILABLE backup (not one still being created or restored from) and
// answers with its description, BackupStatus DELETED.
#include "api/ops/backup_common.h"
#include "api/ops/operations.h"
#include "api/request_fields.h"

namespace monotable::api {
namespace {

constexpr const char* kShape = R"({
  "BackupArn": {"type": "String", "required": true, "lengthGreaterThanOrEqual": 37, "lengthLessThanOrEqual": 1024}
})";

Status Run(OperationContext& ctx) {
  std::string arn(StringOr(ctx.request, "BackupArn", ""));
  MT_ASSIGN_OR_RETURN(backup::BackupRecord record, FindBackup(ctx, arn));
  // DDB-BACKUP-015 / DDB-TABLE-442: a SYSTEM backup only expires.
  if (record.type == "SYSTEM") {
    return Status::Validation("Invalid Request: User is not allowed to delete the system backup with arn " + arn +
                              ". It will automatically expire on " + IsoSeconds(record.expiry_ms));
  }
  auto deleted = ctx.backups->backups().Delete(record.id);
  if (!deleted.ok()) {
    switch (deleted.status().code()) {
      case ErrorCode::kBackupNotFound:
        return Status(ErrorCode::kBackupNotFound, "Backup not found: " + arn);
      case ErrorCode::kBackupInUse:
        return Status(ErrorCode::kBackupInUse, record.status == backup::BackupStatus::kCreating
                                                   ? "Backup is being created: " + arn
                                                   : "Backup is being used to restore table: " + arn);
      default:
        return deleted.status();
    }
  }
  ctx.out.StartObject();
  ctx.out.Key("BackupDescription");
  WriteBackupDescription(ctx.out, ctx.identity, *deleted);
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kDeleteBackup{"DeleteBackup", kShape, nullptr, Run};

}  // namespace monotable::api
