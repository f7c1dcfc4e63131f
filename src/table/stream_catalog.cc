#include "table/stream_catalog.h"

#include <algorithm>
#include <cstdio>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "model/item_codec.h"
#include "model/json_writer.h"
#include "table/catalog.h"
#include "changelog/keys.h"

namespace monotable::table {
namespace {

// The system partition (keyspace 0, partition id ""): sort key ['S'][key_prefix u32] -> stream
// record JSON (engine key [0000]['S'][key_prefix] in the ordered layout, as before).
constexpr engine::PartitionRef kSystemPartition{kSystemKeyPrefix, ""};

std::string StreamRecordKey(uint32_t key_prefix) {
  std::string key(1, 'S');
  AppendBigEndian32(key_prefix, key);
  return key;
}

// A stream is one partition (a single shard): keyspace key_prefix, id "", sort key the sequence
// number (u64 BE; the trim horizon at 0), i.e. engine key [key_prefix][seq] as ChangeRecordKey.
engine::PartitionRef StreamPartition(uint32_t key_prefix) { return {key_prefix, ""}; }

std::string SeqKey(uint64_t seq) {
  std::string key;
  AppendBigEndian64(seq, key);
  return key;
}

std::string EncodeInfo(const StreamInfo& s) {
  rapidjson::StringBuffer buffer;
  model::JsonWriter w(buffer);
  auto str = [&](const char* key, const std::string& v) {
    w.Key(key);
    w.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
  };
  w.StartObject();
  str("table", s.table_name);
  str("table_id", s.table_id);
  str("label", s.label);
  str("view", s.view_type);
  w.Key("keys");
  w.StartArray();
  for (const auto& k : s.key_schema) {
    w.StartObject();
    str("n", k.name);
    w.Key("r");
    w.Bool(k.role == KeyRole::kRange);
    w.EndObject();
  }
  w.EndArray();
  w.Key("prefix"); w.Uint(s.key_prefix);
  w.Key("created"); w.Int64(s.created_ms);
  w.Key("disabled"); w.Int64(s.disabled_ms);
  w.Key("start"); w.Uint64(s.start);
  w.Key("end"); w.Uint64(s.end);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

Result<StreamInfo> DecodeInfo(std::string_view json) {
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError() || !doc.IsObject()) return Status(ErrorCode::kCorruption, "corrupt stream record");
  // Read through a const reference: RapidJSON's non-const member iterators compare ambiguously in C++20.
  const rapidjson::Value& fields = doc;
  auto str = [&](const char* key) {
    auto it = fields.FindMember(key);
    return it != fields.MemberEnd() && it->value.IsString() ? std::string(it->value.GetString()) : std::string();
  };
  auto u64 = [&](const char* key) -> uint64_t {
    auto it = fields.FindMember(key);
    return it != fields.MemberEnd() && it->value.IsUint64() ? it->value.GetUint64() : 0;
  };
  StreamInfo s;
  s.table_name = str("table");
  s.table_id = str("table_id");
  s.label = str("label");
  s.view_type = str("view");
  if (auto keys = fields.FindMember("keys"); keys != fields.MemberEnd() && keys->value.IsArray()) {
    for (const auto& k : keys->value.GetArray()) {
      if (!k.IsObject() || !k.HasMember("n") || !k["n"].IsString()) continue;
      bool range = k.HasMember("r") && k["r"].IsBool() && k["r"].GetBool();
      s.key_schema.push_back({k["n"].GetString(), range ? KeyRole::kRange : KeyRole::kHash});
    }
  }
  s.key_prefix = static_cast<uint32_t>(u64("prefix"));
  s.created_ms = static_cast<int64_t>(u64("created"));
  s.disabled_ms = static_cast<int64_t>(u64("disabled"));
  s.start = u64("start");
  s.end = u64("end");
  if (s.key_prefix == 0 || s.table_name.empty()) return Status(ErrorCode::kCorruption, "corrupt stream record");
  return s;
}

void LogError(const char* what, const Status& st) {
  std::fprintf(stderr, "monotable: %s: %s\n", what, st.message().c_str());
}

}  // namespace

StreamInfo StreamLog::Close(int64_t now_ms) {
  uint64_t last = sequences_.Close();
  std::lock_guard lock(mu_);
  if (info_.disabled_ms == 0) {
    info_.disabled_ms = now_ms;
    info_.end = last;  // start - 1 when the stream never got a record
  }
  return info_;
}

Status StreamCatalog::Persist(const StreamInfo& info) {
  engine::PartitionWrite write;
  write.mutations.push_back({StreamRecordKey(info.key_prefix), EncodeInfo(info)});
  return store_.Commit(kSystemPartition, std::move(write)).status();
}

std::shared_ptr<StreamLog> StreamCatalog::Open(const TableDescription& table) {
  StreamInfo info;
  info.table_name = table.name;
  info.table_id = table.table_id;
  info.label = table.stream.label;
  info.view_type = table.stream.view_type;
  info.key_schema = table.key_schema;
  info.key_prefix = table.stream.key_prefix;
  info.created_ms = clock_();
  // Sequence numbers grow with the clock as well as with every record, so they keep increasing
  // across restarts even after every record was trimmed.
  info.start = std::max<uint64_t>(static_cast<uint64_t>(info.created_ms) << 16, 1);
  Status st = Persist(info);
  if (!st.ok()) LogError("persisting a stream record failed", st);
  uint64_t start = info.start;
  return std::make_shared<StreamLog>(std::move(info), start, start);
}

Status StreamCatalog::Load(const Catalog& catalog) {
  std::lock_guard lock(mu_);
  auto logs = std::make_shared<LogMap>();
  std::vector<std::string> records_json;
  MT_RETURN_IF_ERROR(store_.ReadRange(kSystemPartition, {"S", "T", true}, [&](std::string_view, std::string_view v) {
    records_json.emplace_back(v);
    return true;
  }));
  int64_t now = clock_();
  for (const std::string& json : records_json) {
    MT_ASSIGN_OR_RETURN(StreamInfo info, DecodeInfo(json));
    // The stream's last record: one step of a backward read of its partition (past the horizon key).
    uint64_t last_seq = 0;
    std::string first_seq = SeqKey(1);
    MT_RETURN_IF_ERROR(store_.ReadRange(StreamPartition(info.key_prefix), {first_seq, "", false},
                                        [&](std::string_view key, std::string_view) {
                                          last_seq = ReadBigEndian(key.substr(0, 8));
                                          return false;
                                        }));
    uint64_t horizon = info.start;
    MT_ASSIGN_OR_RETURN(auto marker, store_.Get(StreamPartition(info.key_prefix), SeqKey(0)));
    if (marker && marker->size() == 8) horizon = ReadBigEndian(*marker);
    uint64_t next = std::max({info.start, last_seq + 1, static_cast<uint64_t>(now) << 16});
    auto log = std::make_shared<StreamLog>(info, next, horizon);
    if (info.disabled_ms != 0) log->sequences().Close();
    logs->emplace(info.key_prefix, std::move(log));
  }
  // Reconcile with the tables (the table record and the stream record are separate commits).
  std::map<uint32_t, std::shared_ptr<const TableHandle>> active;
  for (const auto& name : catalog.Names()) {
    auto handle = catalog.Find(name);
    if (!handle) continue;
    const TableDescription& table = *handle->description;
    if (!table.stream.enabled || table.stream.key_prefix == 0) continue;
    active.emplace(table.stream.key_prefix, handle);
    if (!logs->count(table.stream.key_prefix)) logs->emplace(table.stream.key_prefix, Open(table));
  }
  for (auto& [prefix, log] : *logs) {
    if (log->sequences().closed() || active.count(prefix)) continue;
    Status st = Persist(log->Close(now));
    if (!st.ok()) LogError("closing a stream failed", st);
  }
  logs_.store(std::move(logs), std::memory_order_release);
  return Status::Ok();
}

void StreamCatalog::OnTableChange(const TableDescription* before, const TableDescription* after) {
  bool had = before && before->stream.enabled && before->stream.key_prefix != 0;
  bool has = after && after->stream.enabled && after->stream.key_prefix != 0;
  if (had && has && before->stream.key_prefix == after->stream.key_prefix) return;
  if (!had && !has) return;
  std::lock_guard lock(mu_);
  auto logs = std::make_shared<LogMap>(*Current());
  if (had) {
    auto it = logs->find(before->stream.key_prefix);
    if (it != logs->end()) {
      Status st = Persist(it->second->Close(clock_()));
      if (!st.ok()) LogError("closing a stream failed", st);
    }
  }
  if (has && !logs->count(after->stream.key_prefix)) logs->emplace(after->stream.key_prefix, Open(*after));
  logs_.store(std::move(logs), std::memory_order_release);
}

std::shared_ptr<StreamLog> StreamCatalog::Active(const TableDescription& table) const {
  if (!table.stream.enabled || table.stream.key_prefix == 0) return nullptr;
  auto logs = Current();
  auto it = logs->find(table.stream.key_prefix);
  return it == logs->end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<StreamLog>> StreamCatalog::List() const {
  auto logs = Current();
  std::vector<std::pair<StreamInfo, std::shared_ptr<StreamLog>>> all;
  for (const auto& [_, log] : *logs) all.emplace_back(log->info(), log);
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
    return std::tie(a.first.table_name, a.first.created_ms, a.first.key_prefix) <
           std::tie(b.first.table_name, b.first.created_ms, b.first.key_prefix);
  });
  std::vector<std::shared_ptr<StreamLog>> out;
  for (auto& [_, log] : all) out.push_back(std::move(log));
  return out;
}

std::shared_ptr<StreamLog> StreamCatalog::Find(std::string_view table_name, std::string_view label) const {
  auto logs = Current();
  std::shared_ptr<StreamLog> found;
  for (const auto& [_, log] : *logs) {
    StreamInfo info = log->info();
    // A label names one stream of a table; should two ever collide, the newest wins.
    if (info.table_name == table_name && info.label == label &&
        (!found || found->info().created_ms <= info.created_ms)) {
      found = log;
    }
  }
  return found;
}

Result<ChangePage> StreamCatalog::Read(StreamLog& log, uint64_t from, size_t limit, size_t max_bytes) {
  auto trimmed = [&] {
    return Status(ErrorCode::kTrimmedDataAccess,
                  "The operation attempted to read past the oldest stream record in a shard.");
  };
  if (from < log.horizon()) return trimmed();
  uint64_t upper = log.sequences().Watermark() + 1;  // exclusive
  bool closed = log.sequences().closed();
  ChangePage page;
  page.next = std::max(from, upper);
  if (from < upper) {
    size_t bytes = 0;
    Status decoded;
    std::string lower = SeqKey(from), upper_key = SeqKey(upper);
    MT_RETURN_IF_ERROR(store_.ReadRange(StreamPartition(log.key_prefix()), {lower, upper_key, true},
                                        [&](std::string_view key, std::string_view value) {
                                          if (page.changes.size() >= limit || bytes >= max_bytes) {
                                            page.next = page.changes.back().seq + 1;
                                            return false;
                                          }
                                          auto record = DecodeChangeRecord(value);
                                          if (!record.ok()) {
                                            decoded = record.status();
                                            return false;
                                          }
                                          bytes += record->SizeBytes();
                                          page.changes.push_back({ReadBigEndian(key.substr(0, 8)), std::move(*record)});
                                          return true;
                                        }));
    MT_RETURN_IF_ERROR(decoded);
    if (from < log.horizon()) return trimmed();  // trimmed while we read
  }
  if (closed) page.shard_end = page.next > log.info().end;
  return page;
}

Status StreamCatalog::TrimLog(StreamLog& log, int64_t cutoff_ms) {
  constexpr size_t kBatch = 1000;
  for (;;) {
    uint64_t upper = log.sequences().Watermark() + 1;
    uint64_t horizon = log.horizon();
    if (horizon >= upper) return Status::Ok();
    engine::PartitionWrite batch;
    uint64_t last = 0;
    bool more = false;
    Status decoded;
    std::string lower = SeqKey(horizon), upper_key = SeqKey(upper);
    MT_RETURN_IF_ERROR(store_.ReadRange(StreamPartition(log.key_prefix()), {lower, upper_key, true},
                                        [&](std::string_view key, std::string_view value) {
                                          auto record = DecodeChangeRecord(value);
                                          if (!record.ok()) {
                                            decoded = record.status();
                                            return false;
                                          }
                                          if (record->created_ms >= cutoff_ms) return false;
                                          if (batch.mutations.size() >= kBatch) {
                                            more = true;
                                            return false;
                                          }
                                          last = ReadBigEndian(key.substr(0, 8));
                                          batch.mutations.push_back({std::string(key), std::nullopt});
                                          return true;
                                        }));
    MT_RETURN_IF_ERROR(decoded);
    if (batch.mutations.empty()) return Status::Ok();
    // Readers check the horizon before reading: raise it before the records disappear. The
    // records and the horizon are one partition: one atomic commit.
    log.set_horizon(last + 1);
    batch.mutations.push_back({SeqKey(0), SeqKey(last + 1)});
    MT_RETURN_IF_ERROR(store_.Commit(StreamPartition(log.key_prefix()), std::move(batch)).status());
    if (!more) return Status::Ok();
  }
}

Status StreamCatalog::Trim() {
  int64_t cutoff = clock_() - kRetentionMs;
  std::vector<uint32_t> expired;
  for (const auto& [prefix, log] : *Current()) {
    StreamInfo info = log->info();
    if (info.disabled_ms != 0 && info.disabled_ms < cutoff) {
      expired.push_back(prefix);
      continue;
    }
    MT_RETURN_IF_ERROR(TrimLog(*log, cutoff));
  }
  if (expired.empty()) return Status::Ok();
  std::lock_guard lock(mu_);
  auto logs = std::make_shared<LogMap>(*Current());
  for (uint32_t prefix : expired) logs->erase(prefix);
  logs_.store(logs, std::memory_order_release);
  for (uint32_t prefix : expired) {
    engine::PartitionWrite write;
    write.mutations.push_back({StreamRecordKey(prefix), std::nullopt});
    MT_RETURN_IF_ERROR(store_.Commit(kSystemPartition, std::move(write)).status());
    MT_RETURN_IF_ERROR(store_.DropKeyspace(prefix));
  }
  return Status::Ok();
}

}  // namespace monotable::table
