// UpdateContinuousBackups: turns point-in-time recovery on (a new restorable window starts now,
// RecoveryPeriodInDays 1..35, default 35) or off (the window and its history are dropped).
#include "api/ops/backup_common.h"
#include "api/ops/operations.h"
#include "api/request_fields.h"

namespace monotable::api {
namespace {

constexpr const char* kShape = R"({
  "TableName": {"type": "String", "required": true, "tableName": true, "regex": "[a-zA-Z0-9_.-]+"},
  "PointInTimeRecoverySpecification": {"type": "FieldStruct<PointInTimeRecoverySpecification>", "required": true,
    "children": {
      "PointInTimeRecoveryEnabled": {"type": "Boolean", "notNull": true},
      "RecoveryPeriodInDays": {"type": "Integer", "greaterThanOrEqual": 1, "lessThanOrEqual": 35}}}
})";

Status Validate(OperationContext& ctx) {
  const auto& spec = *Member(ctx.request, "PointInTimeRecoverySpecification");
  if (!BoolMember(spec, "PointInTimeRecoveryEnabled").value_or(false) && Member(spec, "RecoveryPeriodInDays")) {
    // DDB-TABLE-442 (ack-api-quirks, AWS 2026-10).
    return Status::Validation(
        "Invalid Request: Cannot specify RecoveryPeriodInDays when disabling point-in-time recovery.");
  }
  return Status::Ok();
}

Status Run(OperationContext& ctx) {
  MT_ASSIGN_OR_RETURN(backup::BackupService * service, Backups(ctx));
  std::string name = TableNameOf(ctx.request);
  auto handle = ctx.db.catalog().Find(name);
  if (!handle) return Status(ErrorCode::kTableNotFound, "Table not found: " + name);
  // A table still being loaded by a restore or an import: its history would miss the load.
  const std::string& id = handle->description->table_id;
  if (auto restore = service->RestoreOf(id); (restore && restore->in_progress) || service->Importing(id)) {
    return Status(ErrorCode::kContinuousBackupsUnavailable,
                  "Backups are being enabled for the table: " + name + ". Please retry later");
  }
  const auto& spec = *Member(ctx.request, "PointInTimeRecoverySpecification");
  std::optional<backup::PitrRecord> pitr;
  if (BoolMember(spec, "PointInTimeRecoveryEnabled").value_or(false)) {
    MT_ASSIGN_OR_RETURN(
        pitr, service->pitr().Enable(*handle->description, IntMember(spec, "RecoveryPeriodInDays").value_or(35)));
  } else {
    MT_RETURN_IF_ERROR(service->pitr().Disable(*handle->description));
  }
  ctx.out.StartObject();
  ctx.out.Key("ContinuousBackupsDescription");
  WriteContinuousBackups(ctx.out, *service, pitr);
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kUpdateContinuousBackups{"UpdateContinuousBackups", kShape, Validate, Run};

}  // namespace monotable::api
