// DescribeBackup: a backup's details, its source table and the source's features.
#include "api/ops/backup_common.h"
#include "api/ops/operations.h"
#include "api/request_fields.h"

namespace monotable::api {
namespace {

constexpr const char* kShape = R"({
  "BackupArn": {"type": "String", "required": true, "lengthGreaterThanOrEqual": 37, "lengthLessThanOrEqual": 1024}
})";

Status Run(OperationContext& ctx) {
  MT_ASSIGN_OR_RETURN(backup::BackupRecord record, FindBackup(ctx, StringOr(ctx.request, "BackupArn", "")));
  ctx.out.StartObject();
  ctx.out.Key("BackupDescription");
  WriteBackupDescription(ctx.out, ctx.identity, record);
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kDescribeBackup{"DescribeBackup", kShape, nullptr, Run};

}  // namespace monotable::api
