// Export to and import from S3 objects (object_store.h: a directory standing in for S3 with
// `serve --export-dir DIR`, or an S3-compatible endpoint with `serve --s3-endpoint URL`), in
// DynamoDB's export layout:
//
//   [prefix/]AWSDynamoDB/<export id>/manifest-summary.json   the export's summary (one JSON object)
//   [prefix/]AWSDynamoDB/<export id>/manifest-summary.checksum  its MD5, base64 (AWS's documented
//                                                             name; the content is not documented)
//   [prefix/]AWSDynamoDB/<export id>/manifest-files.json     one JSON line per data file: itemCount,
//                                                             md5Checksum (base64), etag (hex MD5),
//                                                             dataFileS3Key
//   [prefix/]AWSDynamoDB/<export id>/manifest-files.checksum
//   [prefix/]AWSDynamoDB/<export id>/data/<name>.json.gz      gzip, one {"Item":{...}} line per item
//       (an incremental export: one line per changed item, {"Metadata":{"WriteTime":{"N":"<us>"}},
//       "Keys":{...},"OldImage":{...},"NewImage":{...}}, an image left out when the item was absent
//       or, OldImage, under the NEW_IMAGE view); ExportFormat ION: data/<name>.ion.gz, the same
//       records as Amazon Ion text (ion_text.h), the first line after the $ion_1_0 marker
//   [prefix/]AWSDynamoDB/<export id>/_started                 written first (AWS writes it too)
//
// Contract:
// - WriteExport() checks the bucket (CheckBucket), then writes every object of one export from the
//   lines it is given, a data file holding at most kItemsPerDataFile items and `max_file_bytes` of
//   uncompressed lines (the one line that passes the bound ends the file), and fills in the record's
//   counts and manifest key; a failure returns the store's Status (no manifest is written).
// - ReadImport() reads every object whose key starts with the import's S3KeyPrefix (listed page by
//   page, in key order), each streamed in chunks (never held whole), decompressed as it arrives
//   (ZSTD: zstd frames; otherwise gunzipped when it starts with gzip's magic bytes), as DYNAMODB_JSON
//   lines or CSV (a header line unless HeaderList is given; the delimiter of CsvOptions; key attributes typed by the
//   definitions, every other value a String, empty cells left out). A line that does not make a valid item (bad JSON,
//   missing or mistyped key, over 400 KB) is counted and reported to `bad_line`; every good item goes to `item`.
// - A missing bucket fails either with kResourceNotFound, refused credentials with kAccessDenied.
// - Paths never leave the export directory: a bucket or prefix with a ".." segment is refused.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "backup/object_store.h"
#include "common/status.h"
#include "model/table_description.h"

namespace monotable::backup {

struct ExportRecord {
  std::string id;  // "<14-digit ms>-<8 hex>"
  std::string table_name, table_id, table_arn, export_arn;
  std::string status = "IN_PROGRESS";  // IN_PROGRESS | COMPLETED | FAILED
  int64_t start_ms = 0, end_ms = 0, export_ms = 0;
  std::string bucket, bucket_owner, prefix, sse_algorithm, sse_kms_key, format = "DYNAMODB_JSON";
  std::string export_type = "FULL_EXPORT";  // or INCREMENTAL_EXPORT: the changes in [from_ms, to_ms)
  int64_t from_ms = 0, to_ms = 0;
  std::string view_type;  // INCREMENTAL_EXPORT: NEW_AND_OLD_IMAGES | NEW_IMAGE
  std::string client_token;
  std::string manifest;  // S3 key of manifest-summary.json, once COMPLETED
  int64_t item_count = 0, billed_bytes = 0;
  std::string failure_code, failure_message;
};

struct ImportRecord {
  std::string id;
  std::string table_name, table_id, table_arn, import_arn;
  std::string status = "IN_PROGRESS";  // IN_PROGRESS | COMPLETED | FAILED
  int64_t start_ms = 0, end_ms = 0;
  std::string bucket, bucket_owner, key_prefix;
  std::string input_format;          // DYNAMODB_JSON | CSV | ION (ion_text.h)
  std::string compression = "NONE";  // GZIP | ZSTD | NONE
  std::string csv_delimiter = ",";
  std::vector<std::string> csv_headers;
  std::string client_token;
  std::string creation_parameters;  // TableCreationParameters as JSON, echoed back
  int64_t processed_bytes = 0, processed_items = 0, imported_items = 0, error_count = 0;
  std::string failure_code, failure_message;
};

// `data` as one gzip member (zlib, default level): what an export writes.
std::string Gzip(std::string_view data);

std::string EncodeExport(const ExportRecord& r);
Result<ExportRecord> DecodeExport(std::string_view json);
std::string EncodeImport(const ImportRecord& r);
Result<ImportRecord> DecodeImport(std::string_view json);
// Sort keys in the system partition (records.h: kRecordsPartition): ['E'][id], ['I'][id].
std::string ExportKey(std::string_view id);
std::string ExportKeysBegin();
std::string ExportKeysEnd();
std::string ImportKey(std::string_view id);
std::string ImportKeysBegin();
std::string ImportKeysEnd();

// Whether a bucket name and key prefix stay inside the export directory.
bool SafeLocation(std::string_view bucket, std::string_view prefix);

constexpr int64_t kItemsPerDataFile = 100000;
constexpr int64_t kDataFileBytes = 32 << 20;  // 32 MiB of uncompressed lines
// Calls its argument with every data line (a full export's {"Item":...}, an incremental export's
// {"Metadata":...,"Keys":...,"OldImage":...,"NewImage":...}) and the bytes it bills.
using LineSource = std::function<Status(const std::function<Status(std::string_view line, int64_t bytes)>&)>;
Status WriteExport(ObjectStore& store, ExportRecord& record, const LineSource& lines,
                   int64_t max_file_bytes = kDataFileBytes);

Status ReadImport(ObjectStore& store, ImportRecord& record, const TableDescription& table,
                  const std::function<Status(const Item&)>& item,
                  const std::function<void(const std::string& where, const std::string& why)>& bad_line);

}  // namespace monotable::backup
