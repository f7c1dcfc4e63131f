// DescribeExport: an export's status, counts and manifest key.
#include "api/ops/backup_common.h"
#include "api/ops/operations.h"
#include "api/ops/transfer_common.h"
#include "api/request_fields.h"

namespace monotable::api {
namespace {

constexpr const char* kShape = R"({
  "ExportArn": {"type": "String", "required": true, "lengthGreaterThanOrEqual": 37, "lengthLessThanOrEqual": 1024}
})";

Status Run(OperationContext& ctx) {
  MT_ASSIGN_OR_RETURN(backup::BackupService * service, Backups(ctx));
  std::string arn(StringOr(ctx.request, "ExportArn", ""));
  // ack-api-quirks DDB-EXPORT-006 / DDB-IMPORT-010: what AWS answers for each kind of ARN (the
  // doubled "Export not found: " is AWS's).
  switch (ClassifyTransferArn(ctx.identity, arn, "export")) {
    case TransferArnKind::kMalformed:
      return Status::Validation("Invalid Export ARN");
    case TransferArnKind::kOtherAccount:
      return Status(ErrorCode::kAccessDenied, "Access is denied");
    case TransferArnKind::kOtherRegion:
      return Status(ErrorCode::kExportNotFound, "Export not found: Invalid export arn");
    case TransferArnKind::kOurs:
      break;
  }
  auto found = service->FindExport(arn);
  if (!found) return Status(ErrorCode::kExportNotFound, "Export not found: Export not found: " + arn);
  ctx.out.StartObject();
  ctx.out.Key("ExportDescription");
  WriteExportDescription(ctx.out, *found);
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kDescribeExport{"DescribeExport", kShape, nullptr, Run};

}  // namespace monotable::api
