#include "api/ops/backup_common.h"

#include <cmath>
#include <ctime>
#include <vector>

#include "api/request_fields.h"
#include "api/table_json.h"
#include "api/table_request.h"
#include "table/description_codec.h"

namespace monotable::api {
namespace {

constexpr const char* kThroughputShape = R"({"type": "FieldStruct<ProvisionedThroughput>", "children": {
      "WriteCapacityUnits": {"type": "Long", "notNull": true, "greaterThanOrEqual": 1},
      "ReadCapacityUnits": {"type": "Long", "notNull": true, "greaterThanOrEqual": 1}}})";

void WriteUnits(JsonWriter& w, const Throughput& t) {
  w.StartObject();
  w.Key("ReadCapacityUnits");
  w.Int64(t.read_units);
  w.Key("WriteCapacityUnits");
  w.Int64(t.write_units);
  w.EndObject();
}

// A backup's LocalSecondaryIndexes / GlobalSecondaryIndexes (the global ones with their throughput).
void WriteIndexDetails(JsonWriter& w, const std::vector<IndexDescription>& indexes, bool global, bool on_demand) {
  w.StartArray();
  for (const auto& index : indexes) {
    w.StartObject();
    WriteIndexIdentity(w, index);
    if (global) {
      w.Key("ProvisionedThroughput");
      WriteUnits(w, on_demand ? Throughput{} : index.throughput);
    }
    w.EndObject();
  }
  w.EndArray();
}

std::string IndexShape(bool global) {
  std::string keys = R"({"type": "List", "notNull": true, "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 2,
      "children": {"type": "ValueStruct<KeySchemaElement>", "children": {
        "AttributeName": {"type": "String", "notNull": true, "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 255},
        "KeyType": {"type": "String", "notNull": true, "enum": ["HASH", "RANGE"]}}}})";
  std::string projection = R"({"type": "FieldStruct<Projection>", "notNull": true, "children": {
      "ProjectionType": {"type": "String", "enum": ["ALL", "INCLUDE", "KEYS_ONLY"]},
      "NonKeyAttributes": {"type": "List", "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 20,
                           "children": {"type": "String", "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 255}}}})";
  std::string name = R"({"type": "String", "notNull": true, "regex": "[a-zA-Z0-9_.-]+",
      "lengthGreaterThanOrEqual": 3, "lengthLessThanOrEqual": 255})";
  std::string out = std::string(R"({"type": "List", "children": {"type": "ValueStruct<)") +
                    (global ? "GlobalSecondaryIndex" : "LocalSecondaryIndex") + R"(>", "children": {"KeySchema": )" +
                    keys + R"(, "Projection": )" + projection + R"(, "IndexName": )" + name;
  if (global) out += R"(, "ProvisionedThroughput": )" + std::string(kThroughputShape);
  return out + "}}}";
}

}  // namespace

std::string BackupArn(const ServerIdentity& identity, const backup::BackupRecord& backup) {
  return TableArn(identity, backup.table_name) + "/backup/" + backup.id;
}

Result<backup::BackupService*> Backups(OperationContext& ctx) {
  if (!ctx.backups) return Status(ErrorCode::kInternal, "backups are not set up");
  MT_RETURN_IF_ERROR(ctx.backups->load_status());
  return ctx.backups;
}

namespace {

// The regions of the aws partition: a BackupArn naming another one is not valid (DDB-BACKUP-012).
bool KnownRegion(std::string_view region, const ServerIdentity& identity) {
  static const char* const kRegions[] = {
      "us-east-1",      "us-east-2",      "us-west-1",      "us-west-2",      "af-south-1",     "ap-east-1",
      "ap-east-2",      "ap-south-1",     "ap-south-2",     "ap-southeast-1", "ap-southeast-2", "ap-southeast-3",
      "ap-southeast-4", "ap-southeast-5", "ap-southeast-7", "ap-northeast-1", "ap-northeast-2", "ap-northeast-3",
      "ca-central-1",   "ca-west-1",      "eu-central-1",   "eu-central-2",   "eu-west-1",      "eu-west-2",
      "eu-west-3",      "eu-south-1",     "eu-south-2",     "eu-north-1",     "il-central-1",   "me-south-1",
      "me-central-1",   "mx-central-1",   "sa-east-1"};
  if (region == identity.region) return true;
  for (const char* r : kRegions) {
    if (region == r) return true;
  }
  return false;
}

}  // namespace

Result<std::string> BackupIdOf(const ServerIdentity& identity, std::string_view arn) {
  // arn:<partition>:<service>:<region>:<account>:table/<name>/backup/<id>
  std::vector<std::string_view> parts;
  std::string_view rest = arn;
  for (int i = 0; i < 5; ++i) {
    auto colon = rest.find(':');
    if (colon == std::string_view::npos) return Status::Validation("Invalid Backup ARN");
    parts.push_back(rest.substr(0, colon));
    rest.remove_prefix(colon + 1);
  }
  auto slash = rest.find("/backup/");
  if (parts[0] != "arn" || rest.substr(0, 6) != "table/" || slash == std::string_view::npos || slash <= 6 ||
      slash + 8 >= rest.size() || rest.find('/', 6) != slash || rest.find('/', slash + 8) != std::string_view::npos) {
    return Status::Validation("Invalid Backup ARN");
  }
  if (parts[1] != "aws" || parts[2] != "dynamodb" || (!parts[3].empty() && !KnownRegion(parts[3], identity))) {
    return Status::Validation("Invalid Request: BackupArn is not valid");
  }
  if (parts[3].empty() || parts[4] != identity.account) return Status(ErrorCode::kAccessDenied, "Access is denied");
  return std::string(rest.substr(slash + 8));
}

Result<backup::BackupRecord> FindBackup(OperationContext& ctx, std::string_view arn) {
  MT_ASSIGN_OR_RETURN(std::string id, BackupIdOf(ctx.identity, arn));
  MT_ASSIGN_OR_RETURN(backup::BackupService * service, Backups(ctx));
  // AWS looks a backup up by account, table name and id: the ARN's region is not compared (DDB-BACKUP-012).
  auto found = service->backups().Find(id);
  if (found) {
    std::string ours = BackupArn(ctx.identity, *found);
    std::string_view table_part = arn.substr(arn.find(":table/"));
    if (ours.substr(ours.find(":table/")) == table_part) return *found;
  }
  return Status(ErrorCode::kBackupNotFound, "Backup not found: " + std::string(arn));
}

void WriteTimestamp(JsonWriter& w, std::string_view key, int64_t ms) {
  w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
  w.Double(static_cast<double>(ms) / 1000.0);
}

std::string IsoSeconds(int64_t ms) {
  time_t secs = static_cast<time_t>(ms >= 0 ? ms / 1000 : (ms - 999) / 1000);
  struct tm tm {};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

void WriteBackupDetails(JsonWriter& w, const ServerIdentity& identity, const backup::BackupRecord& b) {
  w.StartObject();
  WriteString(w, "BackupArn", BackupArn(identity, b));
  WriteString(w, "BackupName", b.name);
  w.Key("BackupSizeBytes");
  w.Int64(b.size_bytes);
  WriteString(w, "BackupStatus", backup::BackupStatusName(b.status));
  WriteString(w, "BackupType", b.type);
  WriteTimestamp(w, "BackupCreationDateTime", b.created_ms);
  if (b.expiry_ms > 0) WriteTimestamp(w, "BackupExpiryDateTime", b.expiry_ms);
  w.EndObject();
}

void WriteBackupDescription(JsonWriter& w, const ServerIdentity& identity, const backup::BackupRecord& b) {
  auto decoded = table::DecodeDescription(b.description);
  TableDescription t = decoded.ok() ? *decoded : TableDescription{};
  bool on_demand = t.billing_mode == BillingMode::kPayPerRequest;
  w.StartObject();
  w.Key("BackupDetails");
  WriteBackupDetails(w, identity, b);
  w.Key("SourceTableDetails");
  w.StartObject();
  WriteString(w, "TableName", b.table_name);
  WriteString(w, "TableId", b.table_id);
  WriteString(w, "TableArn", TableArn(identity, b.table_name));
  w.Key("TableSizeBytes");
  w.Int64(b.size_bytes);
  w.Key("KeySchema");
  WriteKeySchema(w, t.key_schema);
  w.Key("TableCreationDateTime");
  w.Double(t.creation_time);
  w.Key("ProvisionedThroughput");
  WriteUnits(w, on_demand ? Throughput{} : t.throughput);
  w.Key("ItemCount");
  w.Int64(b.item_count);
  WriteString(w, "BillingMode", on_demand ? "PAY_PER_REQUEST" : "PROVISIONED");
  w.EndObject();
  w.Key("SourceTableFeatureDetails");
  w.StartObject();
  if (!t.local_indexes.empty()) {
    w.Key("LocalSecondaryIndexes");
    WriteIndexDetails(w, t.local_indexes, false, on_demand);
  }
  if (!t.global_indexes.empty()) {
    w.Key("GlobalSecondaryIndexes");
    WriteIndexDetails(w, t.global_indexes, true, on_demand);
  }
  if (t.stream.enabled) {
    w.Key("StreamDescription");
    w.StartObject();
    w.Key("StreamEnabled");
    w.Bool(true);
    WriteString(w, "StreamViewType", t.stream.view_type);
    w.EndObject();
  }
  if (t.ttl.enabled) {
    w.Key("TimeToLiveDescription");
    w.StartObject();
    WriteString(w, "TimeToLiveStatus", "ENABLED");
    WriteString(w, "AttributeName", t.ttl.attribute);
    w.EndObject();
  }
  WriteSseDescription(w, identity, t);
  w.EndObject();
  w.EndObject();
}

void WriteBackupSummary(JsonWriter& w, const ServerIdentity& identity, const backup::BackupRecord& b) {
  w.StartObject();
  WriteString(w, "TableName", b.table_name);
  WriteString(w, "TableId", b.table_id);
  WriteString(w, "TableArn", TableArn(identity, b.table_name));
  WriteString(w, "BackupArn", BackupArn(identity, b));
  WriteString(w, "BackupName", b.name);
  WriteTimestamp(w, "BackupCreationDateTime", b.created_ms);
  if (b.expiry_ms > 0) WriteTimestamp(w, "BackupExpiryDateTime", b.expiry_ms);
  WriteString(w, "BackupStatus", backup::BackupStatusName(b.status));
  WriteString(w, "BackupType", b.type);
  w.Key("BackupSizeBytes");
  w.Int64(b.size_bytes);
  w.EndObject();
}

void WriteContinuousBackups(JsonWriter& w, backup::BackupService& service,
                            const std::optional<backup::PitrRecord>& pitr) {
  w.StartObject();
  WriteString(w, "ContinuousBackupsStatus", "ENABLED");
  w.Key("PointInTimeRecoveryDescription");
  w.StartObject();
  WriteString(w, "PointInTimeRecoveryStatus", pitr ? "ENABLED" : "DISABLED");
  if (pitr) {
    w.Key("RecoveryPeriodInDays");
    w.Int64(pitr->recovery_days);
    WriteTimestamp(w, "EarliestRestorableDateTime", service.pitr().Earliest(*pitr) / 1000 * 1000);
    WriteTimestamp(w, "LatestRestorableDateTime", service.NowMs() / 1000 * 1000);
  }
  w.EndObject();
  w.EndObject();
}

std::string RestoreOverrideShapes() {
  return R"("BillingModeOverride": {"type": "String", "enum": ["PROVISIONED", "PAY_PER_REQUEST"]},
  "GlobalSecondaryIndexOverride": )" +
         IndexShape(true) + R"(,
  "LocalSecondaryIndexOverride": )" +
         IndexShape(false) + R"(,
  "ProvisionedThroughputOverride": )" +
         std::string(kThroughputShape) + R"(,
  "SSESpecificationOverride": {"type": "FieldStruct<SSESpecification>", "children": {
    "Enabled": "Boolean", "SSEType": {"type": "String", "enum": ["AES256", "KMS"]}, "KMSMasterKeyId": "String"}})";
}

backup::RestoreOverrides ReadRestoreOverrides(const rapidjson::Value& req) {
  backup::RestoreOverrides o;
  if (auto mode = StringMember(req, "BillingModeOverride")) {
    o.billing_mode = *mode == "PAY_PER_REQUEST" ? BillingMode::kPayPerRequest : BillingMode::kProvisioned;
  }
  if (const auto* t = Member(req, "ProvisionedThroughputOverride")) o.throughput = ReadThroughput(t);
  if (const auto* list = Member(req, "GlobalSecondaryIndexOverride")) {
    o.global_indexes.emplace();
    for (const auto& index : list->GetArray()) o.global_indexes->push_back(ReadIndex(index, true));
  }
  if (const auto* list = Member(req, "LocalSecondaryIndexOverride")) {
    o.local_indexes.emplace();
    for (const auto& index : list->GetArray()) o.local_indexes->push_back(ReadIndex(index, false));
  }
  if (const auto* sse = Member(req, "SSESpecificationOverride")) {
    o.sse_enabled = BoolMember(*sse, "Enabled").value_or(false);
    o.kms_master_key = std::string(StringOr(*sse, "KMSMasterKeyId", ""));
  }
  return o;
}

Status AnswerRestore(OperationContext& ctx, const Result<TableDescription>& created, const std::string& target,
                     std::string_view source_backup_arn, std::string_view source_table_arn, int64_t restore_ms) {
  if (!created.ok()) {
    if (created.status().code() == ErrorCode::kTableAlreadyExists) {
      return Status(ErrorCode::kTableAlreadyExists, "Table already exists: " + target);
    }
    return created.status();
  }
  ctx.out.StartObject();
  ctx.out.Key("TableDescription");
  WriteTableDescription(ctx.out, ctx.identity, *created, nullptr, "CREATING", DescriptionView::kFull,
                        [&](JsonWriter& w) {
                          w.Key("RestoreSummary");
                          w.StartObject();
                          if (!source_backup_arn.empty()) WriteString(w, "SourceBackupArn", source_backup_arn);
                          WriteString(w, "SourceTableArn", source_table_arn);
                          WriteTimestamp(w, "RestoreDateTime", restore_ms);
                          w.Key("RestoreInProgress");
                          w.Bool(true);
                          w.EndObject();
                        });
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace monotable::api
