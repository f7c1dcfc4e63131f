// DescribeImport: an import's status and counts (ErrorCount: lines that made no valid item).
#include "api/ops/backup_common.h"
#include "api/ops/operations.h"
#include "api/ops/transfer_common.h"
#include "api/request_fields.h"

namespace monotable::api {
namespace {

constexpr const char* kShape = R"({
  "ImportArn": {"type": "String", "required": true, "lengthGreaterThanOrEqual": 37, "lengthLessThanOrEqual": 1024}
})";

Status Run(OperationContext& ctx) {
  MT_ASSIGN_OR_RETURN(backup::BackupService * service, Backups(ctx));
  std::string arn(StringOr(ctx.request, "ImportArn", ""));
  // ack-api-quirks DDB-IMPORT-010: a non-import ARN is a ValidationException, another account's
  // AccessDenied, another region's not found.
  switch (ClassifyTransferArn(ctx.identity, arn, "import")) {
    case TransferArnKind::kMalformed:
      return Status::Validation("Invalid Import ARN");
    case TransferArnKind::kOtherAccount:
      return Status(ErrorCode::kAccessDenied, "Access is denied");
    case TransferArnKind::kOtherRegion:
    case TransferArnKind::kOurs:
      break;
  }
  auto found = service->FindImport(arn);
  if (!found) return Status(ErrorCode::kImportNotFound, "Import not found: " + arn);
  ctx.out.StartObject();
  ctx.out.Key("ImportTableDescription");
  WriteImportDescription(ctx.out, *found);
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kDescribeImport{"DescribeImport", kShape, nullptr, Run};

}  // namespace monotable::api
