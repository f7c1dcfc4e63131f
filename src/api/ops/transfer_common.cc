#include "api/ops/transfer_common.h"

#include "api/ops/backup_common.h"
#include "api/request_fields.h"

namespace monotable::api {
namespace {

void WriteBucketSource(JsonWriter& w, const backup::ImportRecord& r) {
  w.Key("S3BucketSource");
  w.StartObject();
  if (!r.bucket_owner.empty()) WriteString(w, "S3BucketOwner", r.bucket_owner);
  WriteString(w, "S3Bucket", r.bucket);
  if (!r.key_prefix.empty()) WriteString(w, "S3KeyPrefix", r.key_prefix);
  w.EndObject();
}

}  // namespace

void WriteExportDescription(JsonWriter& w, const backup::ExportRecord& r) {
  w.StartObject();
  WriteString(w, "ExportArn", r.export_arn);
  WriteString(w, "ExportStatus", r.status);
  WriteTimestamp(w, "StartTime", r.start_ms);
  if (r.status != "IN_PROGRESS") WriteTimestamp(w, "EndTime", r.end_ms);
  if (!r.manifest.empty()) WriteString(w, "ExportManifest", r.manifest);
  WriteString(w, "TableArn", r.table_arn);
  WriteString(w, "TableId", r.table_id);
  WriteTimestamp(w, "ExportTime", r.export_ms);
  if (!r.client_token.empty()) WriteString(w, "ClientToken", r.client_token);
  WriteString(w, "S3Bucket", r.bucket);
  if (!r.bucket_owner.empty()) WriteString(w, "S3BucketOwner", r.bucket_owner);
  if (!r.prefix.empty()) WriteString(w, "S3Prefix", r.prefix);
  WriteString(w, "S3SseAlgorithm", r.sse_algorithm.empty() ? "AES256" : r.sse_algorithm);
  if (!r.sse_kms_key.empty()) WriteString(w, "S3SseKmsKeyId", r.sse_kms_key);
  if (!r.failure_code.empty()) {
    WriteString(w, "FailureCode", r.failure_code);
    WriteString(w, "FailureMessage", r.failure_message);
  }
  WriteString(w, "ExportFormat", r.format);
  if (r.status == "COMPLETED") {
    w.Key("BilledSizeBytes");
    w.Int64(r.billed_bytes);
    w.Key("ItemCount");
    w.Int64(r.item_count);
  }
  WriteString(w, "ExportType", r.export_type);
  if (r.export_type == "INCREMENTAL_EXPORT") {
    w.Key("IncrementalExportSpecification");
    w.StartObject();
    WriteTimestamp(w, "ExportFromTime", r.from_ms);
    WriteTimestamp(w, "ExportToTime", r.to_ms);
    WriteString(w, "ExportViewType", r.view_type);
    w.EndObject();
  }
  w.EndObject();
}

void WriteImportDescription(JsonWriter& w, const backup::ImportRecord& r) {
  w.StartObject();
  WriteString(w, "ImportArn", r.import_arn);
  WriteString(w, "ImportStatus", r.status);
  WriteString(w, "TableArn", r.table_arn);
  WriteString(w, "TableId", r.table_id);
  if (!r.client_token.empty()) WriteString(w, "ClientToken", r.client_token);
  WriteBucketSource(w, r);
  w.Key("ErrorCount");
  w.Int64(r.error_count);
  WriteString(w, "InputFormat", r.input_format);
  if (r.input_format == "CSV") {
    w.Key("InputFormatOptions");
    w.StartObject();
    w.Key("Csv");
    w.StartObject();
    WriteString(w, "Delimiter", r.csv_delimiter);
    if (!r.csv_headers.empty()) {
      w.Key("HeaderList");
      w.StartArray();
      for (const auto& h : r.csv_headers) w.String(h);
      w.EndArray();
    }
    w.EndObject();
    w.EndObject();
  }
  WriteString(w, "InputCompressionType", r.compression);
  if (!r.creation_parameters.empty()) {
    w.Key("TableCreationParameters");
    w.RawValue(r.creation_parameters.data(), r.creation_parameters.size(), rapidjson::kObjectType);
  }
  WriteTimestamp(w, "StartTime", r.start_ms);
  if (r.status != "IN_PROGRESS") WriteTimestamp(w, "EndTime", r.end_ms);
  w.Key("ProcessedSizeBytes");
  w.Int64(r.processed_bytes);
  w.Key("ProcessedItemCount");
  w.Int64(r.processed_items);
  w.Key("ImportedItemCount");
  w.Int64(r.imported_items);
  if (!r.failure_code.empty()) {
    WriteString(w, "FailureCode", r.failure_code);
    WriteString(w, "FailureMessage", r.failure_message);
  }
  w.EndObject();
}

void WriteImportSummary(JsonWriter& w, const backup::ImportRecord& r) {
  w.StartObject();
  WriteString(w, "ImportArn", r.import_arn);
  WriteString(w, "ImportStatus", r.status);
  WriteString(w, "TableArn", r.table_arn);
  WriteBucketSource(w, r);
  WriteString(w, "InputFormat", r.input_format);
  WriteTimestamp(w, "StartTime", r.start_ms);
  if (r.status != "IN_PROGRESS") WriteTimestamp(w, "EndTime", r.end_ms);
  w.EndObject();
}

TransferArnKind ClassifyTransferArn(const ServerIdentity& identity, std::string_view arn, std::string_view kind) {
  std::string_view parts[5];
  std::string_view rest = arn;
  for (auto& part : parts) {
    auto colon = rest.find(':');
    if (colon == std::string_view::npos) return TransferArnKind::kMalformed;
    part = rest.substr(0, colon);
    rest.remove_prefix(colon + 1);
  }
  std::string marker = "/" + std::string(kind) + "/";
  auto at = rest.find(marker);
  // The table name of the ARN obeys TableName's rules (3..255 characters).
  if (parts[0] != "arn" || parts[2] != "dynamodb" || rest.substr(0, 6) != "table/" || at == std::string_view::npos ||
      at < 9 || at > 261 || rest.find('/', 6) != at || at + marker.size() >= rest.size() ||
      rest.find('/', at + marker.size()) != std::string_view::npos) {
    return TransferArnKind::kMalformed;
  }
  if (parts[4] != identity.account) return TransferArnKind::kOtherAccount;
  if (parts[3] != identity.region) return TransferArnKind::kOtherRegion;
  return TransferArnKind::kOurs;
}

}  // namespace monotable::api
