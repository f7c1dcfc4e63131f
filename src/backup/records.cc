#include "backup/records.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <atomic>
#include <random>

#include "model/json_writer.h"
#include "changelog/keys.h"

namespace monotable::backup {
namespace {

std::string SystemKey(char kind) { return std::string(1, kind); }

using Writer = model::JsonWriter;

void Str(Writer& w, const char* key, std::string_view value) {
  w.Key(key);
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}
void Int(Writer& w, const char* key, int64_t value) {
  w.Key(key);
  w.Int64(value);
}

Result<rapidjson::Document> Parse(std::string_view json) {
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError() || !doc.IsObject()) return Status(ErrorCode::kCorruption, "bad backup record");
  return doc;
}
std::string GetStr(const rapidjson::Value& v, const char* key) {
  auto it = v.FindMember(key);
  return it != v.MemberEnd() && it->value.IsString() ? std::string(it->value.GetString(), it->value.GetStringLength())
                                                     : std::string();
}
int64_t GetInt(const rapidjson::Value& v, const char* key, int64_t fallback = 0) {
  auto it = v.FindMember(key);
  return it != v.MemberEnd() && it->value.IsInt64() ? it->value.GetInt64() : fallback;
}

}  // namespace

std::string_view BackupStatusName(BackupStatus status) {
  switch (status) {
    case BackupStatus::kCreating:
      return "CREATING";
    case BackupStatus::kAvailable:
      return "AVAILABLE";
    case BackupStatus::kDeleted:
      return "DELETED";
  }
  return "AVAILABLE";
}

std::string BackupKey(std::string_view id) { return SystemKey('B') + std::string(id); }
std::string BackupKeysBegin() { return SystemKey('B'); }
std::string BackupKeysEnd() { return SystemKey('B' + 1); }
std::string PitrKey(uint32_t table_prefix) { return SystemKey('H') + table::PrefixBytes(table_prefix); }
std::string PitrKeysBegin() { return SystemKey('H'); }
std::string PitrKeysEnd() { return SystemKey('H' + 1); }
std::string RestoreKey(std::string_view table_id) { return SystemKey('R') + std::string(table_id); }
std::string RestoreKeysBegin() { return SystemKey('R'); }
std::string RestoreKeysEnd() { return SystemKey('R' + 1); }

static_assert(table::kSystemKeyPrefix == 0, "kRecordsPartition is the system keyspace's");

Status PutSystemRecord(engine::PartitionStore& store, std::string sort_key, std::optional<std::string> value) {
  engine::PartitionWrite write;
  write.mutations.push_back({std::move(sort_key), std::move(value)});
  return store.Commit(kRecordsPartition, std::move(write)).status();
}

Status ScanSystemRecords(engine::PartitionStore& store, std::string_view begin, std::string_view end,
                         const std::function<Status(std::string_view value)>& fn) {
  Status inner;
  MT_RETURN_IF_ERROR(store.ReadRange(kRecordsPartition, {begin, end, true}, [&](std::string_view, std::string_view v) {
    inner = fn(v);
    return inner.ok();
  }));
  return inner;
}

std::string EncodeBackup(const BackupRecord& r) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  Str(w, "id", r.id);
  Str(w, "name", r.name);
  Int(w, "status", static_cast<int64_t>(r.status));
  Int(w, "created_ms", r.created_ms);
  Int(w, "size_bytes", r.size_bytes);
  Int(w, "item_count", r.item_count);
  Int(w, "data_prefix", r.data_prefix);
  Str(w, "table_name", r.table_name);
  Str(w, "table_id", r.table_id);
  Str(w, "description", r.description);
  Str(w, "type", r.type);
  Int(w, "expiry_ms", r.expiry_ms);
  w.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

Result<BackupRecord> DecodeBackup(std::string_view json) {
  MT_ASSIGN_OR_RETURN(rapidjson::Document doc, Parse(json));
  BackupRecord r;
  r.id = GetStr(doc, "id");
  r.name = GetStr(doc, "name");
  int64_t status = GetInt(doc, "status");
  if (status < 0 || status > 2) return Status(ErrorCode::kCorruption, "bad backup status");
  r.status = static_cast<BackupStatus>(status);
  r.created_ms = GetInt(doc, "created_ms");
  r.size_bytes = GetInt(doc, "size_bytes");
  r.item_count = GetInt(doc, "item_count");
  r.data_prefix = static_cast<uint32_t>(GetInt(doc, "data_prefix"));
  r.table_name = GetStr(doc, "table_name");
  r.table_id = GetStr(doc, "table_id");
  r.description = GetStr(doc, "description");
  r.type = GetStr(doc, "type");
  if (r.type.empty()) r.type = "USER";
  r.expiry_ms = GetInt(doc, "expiry_ms");
  if (r.id.empty() || r.data_prefix == 0) return Status(ErrorCode::kCorruption, "bad backup record");
  return r;
}

std::string EncodePitr(const PitrRecord& r) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  Int(w, "table_prefix", r.table_prefix);
  Str(w, "table_id", r.table_id);
  Int(w, "history_prefix", r.history_prefix);
  Int(w, "enabled_ms", r.enabled_ms);
  Int(w, "recovery_days", r.recovery_days);
  w.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

Result<PitrRecord> DecodePitr(std::string_view json) {
  MT_ASSIGN_OR_RETURN(rapidjson::Document doc, Parse(json));
  PitrRecord r;
  r.table_prefix = static_cast<uint32_t>(GetInt(doc, "table_prefix"));
  r.table_id = GetStr(doc, "table_id");
  r.history_prefix = static_cast<uint32_t>(GetInt(doc, "history_prefix"));
  r.enabled_ms = GetInt(doc, "enabled_ms");
  r.recovery_days = GetInt(doc, "recovery_days", 35);
  if (r.table_prefix == 0 || r.history_prefix == 0) return Status(ErrorCode::kCorruption, "bad PITR record");
  return r;
}

std::string EncodeRestore(const RestoreRecord& r) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  Str(w, "table_id", r.table_id);
  Str(w, "source_backup_arn", r.source_backup_arn);
  Str(w, "source_table_arn", r.source_table_arn);
  Int(w, "restore_ms", r.restore_ms);
  w.Key("in_progress");
  w.Bool(r.in_progress);
  w.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

Result<RestoreRecord> DecodeRestore(std::string_view json) {
  MT_ASSIGN_OR_RETURN(rapidjson::Document doc, Parse(json));
  RestoreRecord r;
  r.table_id = GetStr(doc, "table_id");
  r.source_backup_arn = GetStr(doc, "source_backup_arn");
  r.source_table_arn = GetStr(doc, "source_table_arn");
  r.restore_ms = GetInt(doc, "restore_ms");
  const rapidjson::Value& object = doc;  // const: RapidJSON's mutable member iterators compare ambiguously in C++20
  auto it = object.FindMember("in_progress");
  r.in_progress = it != object.MemberEnd() && it->value.IsBool() && it->value.GetBool();
  if (r.table_id.empty()) return Status(ErrorCode::kCorruption, "bad restore record");
  return r;
}

std::string NewBackupId(int64_t now_ms) {
  // AWS's form: 14 digits of milliseconds, then 8 random hex digits. The milliseconds never repeat or
  // go back within a process, so backups created in one millisecond still list in creation order.
  static std::atomic<int64_t> last_ms{0};
  int64_t previous = last_ms.load();
  while (!last_ms.compare_exchange_weak(previous, std::max(now_ms, previous + 1))) {
  }
  now_ms = std::max(now_ms, previous + 1);
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%014lld-%08x", static_cast<long long>(now_ms),
                static_cast<unsigned>(rng() & 0xffffffffu));
  return buffer;
}

}  // namespace monotable::backup
