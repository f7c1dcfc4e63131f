// ExportTableToPointInTime: a FULL_EXPORT of a PITR-enabled table as it was at ExportTime
// (default: now), or an INCREMENTAL_EXPORT of the items changed in [ExportFromTime, ExportToTime)
// (at most 24 hours; AWS also wants at least 15 minutes, monotable takes any length so that
// short windows can be tested), as DynamoDB JSON or Amazon Ion, into the bucket of the object store
// (`serve --export-dir` or `--s3-endpoint`, backup/object_store.h, export_import.h). Answers IN_PROGRESS; the worker writes the files,
// then COMPLETED.
// A ClientToken makes the request idempotent: the same request again answers the same export,
// a different one with the same token is an ExportConflictException.
#include <cmath>

#include "api/ops/backup_common.h"
#include "api/ops/operations.h"
#include "api/ops/transfer_common.h"
#include "api/request_fields.h"

namespace monotable::api {
namespace {

constexpr const char* kShape = R"({
  "TableArn": {"type": "String", "required": true, "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 1024},
  "ExportTime": "Double",
  "ClientToken": {"type": "String", "regex": "[^$]+"},
  "S3Bucket": {"type": "String", "required": true, "lengthLessThanOrEqual": 255,
               "regex": "[a-z0-9A-Z]+[\\.\\-\\w]*[a-z0-9A-Z]+"},
  "S3BucketOwner": {"type": "String", "regex": "[0-9]{12}"},
  "S3Prefix": {"type": "String", "lengthLessThanOrEqual": 1024},
  "S3SseAlgorithm": {"type": "String", "enum": ["AES256", "KMS"]},
  "S3SseKmsKeyId": {"type": "String", "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 2048},
  "ExportFormat": {"type": "String", "enum": ["DYNAMODB_JSON", "ION"]},
  "ExportType": {"type": "String", "enum": ["FULL_EXPORT", "INCREMENTAL_EXPORT"]},
  "IncrementalExportSpecification": {"type": "FieldStruct<IncrementalExportSpecification>", "children": {
    "ExportFromTime": "Double", "ExportToTime": "Double",
    "ExportViewType": {"type": "String", "enum": ["NEW_IMAGE", "NEW_AND_OLD_IMAGES"]}}}
})";

constexpr int64_t kMaxIncrementalMs = 24LL * 3600 * 1000;

int64_t Ms(const rapidjson::Value& seconds) { return static_cast<int64_t>(std::floor(seconds.GetDouble() * 1000.0)); }

// Texts as AWS answers them (ack-api-quirks DDB-EXPORT-001..005, DDB-TABLE-442).
Status Validate(OperationContext& ctx) {
  std::string_view arn = StringOr(ctx.request, "TableArn", "");
  if (arn.substr(0, 4) != "arn:") {
    return Status::Validation("One or more parameter values were invalid: tableArn is not a valid ARN");
  }
  auto table = arn.find(":table/");
  if (table == std::string_view::npos || arn.find('/', table + 7) != std::string_view::npos) {
    return Status::Validation("Invalid Request: Table ARN is invalid.");
  }
  const auto* type = Member(ctx.request, "ExportType");
  bool incremental = StringOr(ctx.request, "ExportType", "FULL_EXPORT") == "INCREMENTAL_EXPORT";
  const auto* spec = Member(ctx.request, "IncrementalExportSpecification");
  if (spec && !type) {
    return Status::Validation(
        "Invalid Request: Export Type expected to be Incremental Export when incremental export specification is "
        "provided");
  }
  if (spec && !incremental) {
    return Status::Validation(
        "Invalid Request: When Export Type is Full Export , Incremental Export Specification should not be provided");
  }
  if (incremental && !spec) {
    return Status::Validation(
        "Invalid Request: Incremental Export Specification expected when export type is set as Incremental Export");
  }
  if (incremental && !Member(*spec, "ExportFromTime")) {
    return Status::Validation("Invalid Request: ExportFromTime must be provided in IncrementalExportSpecification");
  }
  if (incremental && Member(ctx.request, "ExportTime")) {
    return Status::Validation(
        "ExportTime cannot be specified for an incremental export; use IncrementalExportSpecification");
  }
  if (Member(ctx.request, "S3SseKmsKeyId") && StringOr(ctx.request, "S3SseAlgorithm", "") != "KMS") {
    return Status::Validation("Invalid Request: KMS Key Id is not supported for this encryption type");
  }
  if (!backup::SafeLocation(StringOr(ctx.request, "S3Bucket", ""), StringOr(ctx.request, "S3Prefix", ""))) {
    return Status::Validation("S3Prefix may not contain a '..' segment");
  }
  return Status::Ok();
}

Status Run(OperationContext& ctx) {
  MT_ASSIGN_OR_RETURN(backup::BackupService * service, Backups(ctx));
  const auto& req = ctx.request;
  std::string name = TableNameOf(req, "TableArn");
  std::string_view arn = StringOr(req, "TableArn", "");
  // DDB-EXPORT-002: another account's table is denied; the ARN's region is not compared, and a
  // missing table is quoted by the ARN as given.
  std::string_view account = arn;
  for (int i = 0; i < 4 && account.find(':') != std::string_view::npos; ++i)
    account.remove_prefix(account.find(':') + 1);
  if (account.substr(0, account.find(':')) != ctx.identity.account) {
    return Status(ErrorCode::kAccessDenied, "Access is denied");
  }
  auto handle = ctx.db.catalog().Find(name);
  if (!handle) return Status(ErrorCode::kTableNotFound, "Table not found: " + std::string(arn));
  auto pitr = service->pitr().Find(*handle->description);
  if (!pitr && StringOr(req, "ExportType", "FULL_EXPORT") == "INCREMENTAL_EXPORT") {
    // DDB-EXPORT-001: without PITR an incremental export fails on its window, not on PITR.
    return Status(ErrorCode::kInvalidExportTime,
                  "Incremental export period from time cannot be less than the table creation time : " +
                      IsoSeconds(Ms(*Member(*Member(req, "IncrementalExportSpecification"), "ExportFromTime"))));
  }
  if (!pitr) {
    return Status(ErrorCode::kPointInTimeRecoveryUnavailable,
                  "Point in time recovery is not enabled for table '" + name + "'");
  }
  int64_t now = service->NowMs();
  backup::ExportRecord r;
  r.export_ms = now;
  if (const auto* when = Member(req, "ExportTime")) {
    r.export_ms = static_cast<int64_t>(std::floor(when->GetDouble() * 1000.0));
    int64_t earliest = service->pitr().Earliest(*pitr);
    if (r.export_ms < earliest / 1000 * 1000 || r.export_ms > now) {
      return Status(ErrorCode::kInvalidExportTime, "Export Time is invalid");
    }
    r.export_ms = std::max(r.export_ms, earliest);
  }
  if (StringOr(req, "ExportType", "FULL_EXPORT") == "INCREMENTAL_EXPORT") {
    const auto& spec = *Member(req, "IncrementalExportSpecification");
    int64_t earliest = service->pitr().Earliest(*pitr);
    r.export_type = "INCREMENTAL_EXPORT";
    r.from_ms = Ms(*Member(spec, "ExportFromTime"));
    r.to_ms = Member(spec, "ExportToTime") ? Ms(*Member(spec, "ExportToTime")) : now;
    r.view_type = std::string(StringOr(spec, "ExportViewType", "NEW_AND_OLD_IMAGES"));
    if (r.from_ms < earliest / 1000 * 1000) {
      return Status(
          ErrorCode::kInvalidExportTime,
          "Incremental export period from time cannot be less than the table creation time : " + IsoSeconds(r.from_ms));
    }
    if (r.to_ms > now) {
      return Status(
          ErrorCode::kInvalidExportTime,
          "Incremental export period to time cannot be greater than the current time : " + IsoSeconds(r.to_ms));
    }
    if (r.from_ms >= r.to_ms) {
      return Status(ErrorCode::kInvalidExportTime,
                    "ExportFromTime and ExportToTime must lie in the point in time recovery window of the table, "
                    "ExportFromTime before ExportToTime");
    }
    if (r.to_ms - r.from_ms > kMaxIncrementalMs) {
      return Status(ErrorCode::kInvalidExportTime, "The incremental export period may not be longer than 24 hours");
    }
    r.from_ms = std::max(r.from_ms, earliest);
    r.export_ms = r.to_ms;
  }
  r.table_name = name;
  r.table_id = handle->description->table_id;
  r.table_arn = TableArn(ctx.identity, name);
  r.bucket = std::string(StringOr(req, "S3Bucket", ""));
  r.bucket_owner = std::string(StringOr(req, "S3BucketOwner", ""));
  r.prefix = std::string(StringOr(req, "S3Prefix", ""));
  r.sse_algorithm = std::string(StringOr(req, "S3SseAlgorithm", ""));
  r.sse_kms_key = std::string(StringOr(req, "S3SseKmsKeyId", ""));
  r.format = std::string(StringOr(req, "ExportFormat", "DYNAMODB_JSON"));
  r.client_token = std::string(StringOr(req, "ClientToken", ""));
  if (!r.client_token.empty()) {
    for (const auto& e : service->Exports()) {
      if (e.client_token != r.client_token) continue;
      bool same = e.table_arn == r.table_arn && e.bucket == r.bucket && e.prefix == r.prefix &&
                  e.bucket_owner == r.bucket_owner && e.export_type == r.export_type && e.format == r.format &&
                  e.from_ms == r.from_ms && e.to_ms == r.to_ms && e.view_type == r.view_type &&
                  (!Member(req, "ExportTime") || e.export_ms == r.export_ms);
      if (!same) {
        return Status(ErrorCode::kExportConflict,
                      "Export conflict: Duplicate request detected with conflicting parameters");
      }
      ctx.out.StartObject();
      ctx.out.Key("ExportDescription");
      WriteExportDescription(ctx.out, e);
      ctx.out.EndObject();
      return Status::Ok();
    }
  }
  MT_ASSIGN_OR_RETURN(backup::ExportRecord started, service->Export(handle, *pitr, std::move(r)));
  ctx.out.StartObject();
  ctx.out.Key("ExportDescription");
  WriteExportDescription(ctx.out, started);
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kExportTableToPointInTime{"ExportTableToPointInTime", kShape, Validate, Run};

}  // namespace monotable::api
