// DescribeContinuousBackups: continuous backups (always ENABLED, as on AWS) and the table's
// point-in-time recovery status with its restorable window.
#include "api/ops/backup_common.h"
#include "api/ops/operations.h"
#include "api/request_fields.h"

namespace monotable::api {
namespace {

constexpr const char* kShape = R"({
  "TableName": {"type": "String", "required": true, "tableName": true, "regex": "[a-zA-Z0-9_.-]+"}
})";

Status Run(OperationContext& ctx) {
  MT_ASSIGN_OR_RETURN(backup::BackupService * service, Backups(ctx));
  std::string name = TableNameOf(ctx.request);
  auto handle = ctx.db.catalog().Find(name);
  if (!handle) return Status(ErrorCode::kTableNotFound, "Table not found: " + name);
  ctx.out.StartObject();
  ctx.out.Key("ContinuousBackupsDescription");
  WriteContinuousBackups(ctx.out, *service, service->pitr().Find(*handle->description));
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kDescribeContinuousBackups{"DescribeContinuousBackups", kShape, nullptr, Run};

}  // namespace monotable::api
