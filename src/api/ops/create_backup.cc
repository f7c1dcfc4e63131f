// CreateBackup: an on-demand backup of a table, consistent at the request's instant; answers at
// once with the backup CREATING (it becomes AVAILABLE once copied, see backup/backup_store.h).
#include "api/ops/backup_common.h"
#include "api/ops/operations.h"
#include "api/request_fields.h"

namespace monotable::api {
namespace {

constexpr const char* kShape = R"({
  "TableName": {"type": "String", "required": true, "tableName": true, "regex": "[a-zA-Z0-9_.-]+"},
  "BackupName": {"type": "String", "required": true, "lengthGreaterThanOrEqual": 3, "lengthLessThanOrEqual": 255,
                 "regex": "[a-zA-Z0-9_.-]+"}
})";

Status Run(OperationContext& ctx) {
  MT_ASSIGN_OR_RETURN(backup::BackupService * service, Backups(ctx));
  std::string name = TableNameOf(ctx.request);
  auto handle = ctx.db.catalog().Find(name);
  if (!handle) return Status(ErrorCode::kTableNotFound, "Table not found: " + name);
  const std::string& id = handle->description->table_id;
  if (auto restore = service->RestoreOf(id); (restore && restore->in_progress) || service->Importing(id)) {
    // DDB-BACKUP-001: a CREATING table is not found, byte for byte like a missing one.
    return Status(ErrorCode::kTableNotFound, "Table not found: " + name);
  }
  MT_ASSIGN_OR_RETURN(backup::BackupRecord record,
                      service->CreateBackup(*handle, std::string(StringOr(ctx.request, "BackupName", ""))));
  ctx.out.StartObject();
  ctx.out.Key("BackupDetails");
  WriteBackupDetails(ctx.out, ctx.identity, record);
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kCreateBackup{"CreateBackup", kShape, nullptr, Run};

}  // namespace monotable::api
