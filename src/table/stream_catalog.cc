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
#include "changelog/stream_append.h"

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

// A shard is one partition of the stream's key space (stream_record.h): sort key the sequence
// number (u64 BE; the trim horizon at 0). The embedded engines' single shard has id "", i.e.
// engine key [key_prefix][seq] as ChangeRecordKey. `id` keeps the partition id's bytes.
engine::PartitionRef ShardPartition(const StreamLog& log, uint32_t shard, std::string& id) {
  id = StreamShardPartitionId(shard, log.numbered_in_store());
  return {log.key_prefix(), id};
}

std::string SeqKey(uint64_t seq) { return StreamSequenceKey(seq); }

// Applied positions older than this are checked against their source log by Trim().
constexpr int64_t kAppliedPositionAgeMs = 3600 * 1000;

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

uint64_t StreamLog::LastSeen(uint32_t shard) const {
  if (!numbered_in_store_) {
    StreamInfo i = info();
    return i.disabled_ms != 0 ? i.end : sequences_.Watermark();
  }
  uint64_t seen = shard < last_seen_.size() ? last_seen_[shard].load(std::memory_order_relaxed) : 0;
  return std::max(seen, ShardFirstSequence(info().start, shard) - 1);
}

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
  // Created once: on a shared store another server may have created it (its record wins).
  for (int attempt = 0; attempt < 3; ++attempt) {
    auto stored = store_.Get(kSystemPartition, StreamRecordKey(info.key_prefix));
    if (!stored.ok()) {
      LogError("reading a stream record failed", stored.status());
      break;
    }
    if (*stored) {
      auto decoded = DecodeInfo(**stored);
      if (decoded.ok()) info = std::move(*decoded);  // closed already: another server saw it disabled
      break;
    }
    engine::PartitionWrite write;
    write.guards.push_back({StreamRecordKey(info.key_prefix), std::nullopt});
    write.mutations.push_back({StreamRecordKey(info.key_prefix), EncodeInfo(info)});
    auto committed = store_.Commit(kSystemPartition, std::move(write));
    if (committed.ok()) break;
    if (committed.status().code() != ErrorCode::kGuardFailed) {
      LogError("persisting a stream record failed", committed.status());
      break;
    }
  }
  uint64_t start = info.start;
  auto log = std::make_shared<StreamLog>(std::move(info), start, start, numbered_in_store_);
  if (log->closed()) log->sequences().Close();
  return log;
}

void StreamCatalog::CloseLog(StreamLog& log) {
  if (log.closed()) return;
  if (log.numbered_in_store()) {
    // Freeze every shard's head before readers here see the stream closed (shard_end).
    StreamInfo info = log.info();
    for (uint32_t shard = 0; shard < log.shard_count(); ++shard) {
      auto last = changelog::CloseStreamShard(store_, log.key_prefix(), info.start, shard);
      if (!last.ok()) {
        LogError("closing a stream shard failed", last.status());
        return;  // stays open here; the next change or Load closes it
      }
      log.NoteLast(shard, *last);
    }
  }
  Status st = Persist(log.Close(clock_()));
  if (!st.ok()) LogError("closing a stream failed", st);
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
    if (numbered_in_store_) {
      // Numbered in the store: nothing to recover here (heads and horizons live in the shards).
      auto log = std::make_shared<StreamLog>(info, info.start, info.start, true);
      if (info.disabled_ms != 0) log->sequences().Close();
      logs->emplace(info.key_prefix, std::move(log));
      continue;
    }
    // The stream's last record: one step of a backward read of its partition (past the horizon key).
    uint64_t last_seq = 0;
    std::string first_seq = SeqKey(1);
    MT_RETURN_IF_ERROR(store_.ReadRange({info.key_prefix, ""}, {first_seq, "", false},
                                        [&](std::string_view key, std::string_view) {
                                          last_seq = ReadBigEndian(key.substr(0, 8));
                                          return false;
                                        }));
    uint64_t horizon = info.start;
    MT_ASSIGN_OR_RETURN(auto marker, store_.Get({info.key_prefix, ""}, SeqKey(0)));
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
    if (log->closed() || active.count(prefix)) continue;
    CloseLog(*log);
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
    if (it != logs->end()) CloseLog(*it->second);
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

Result<uint64_t> StreamCatalog::Horizon(StreamLog& log, uint32_t shard) {
  const uint64_t first = ShardFirstSequence(log.info().start, shard);
  if (!log.numbered_in_store()) return std::max(first, log.horizon());
  std::string id;
  MT_ASSIGN_OR_RETURN(auto marker, store_.Get(ShardPartition(log, shard, id), SeqKey(0)));
  return marker && marker->size() == 8 ? std::max(first, ReadBigEndian(*marker)) : first;
}

Result<uint64_t> StreamCatalog::Last(StreamLog& log, uint32_t shard) {
  if (!log.numbered_in_store()) {
    StreamInfo info = log.info();
    return info.disabled_ms != 0 ? info.end : log.sequences().Watermark();
  }
  MT_ASSIGN_OR_RETURN(ShardHead head, changelog::ReadShardHead(store_, log.key_prefix(), log.info().start, shard));
  log.NoteLast(shard, head.last);
  return head.last;
}

Result<ChangePage> StreamCatalog::Read(StreamLog& log, uint64_t from, size_t limit, size_t max_bytes) {
  auto trimmed = [&] {
    return Status(ErrorCode::kTrimmedDataAccess,
                  "The operation attempted to read past the oldest stream record in a shard.");
  };
  const uint64_t start = log.info().start;
  const uint32_t shard = ShardOfSequence(start, from, log.shard_count());
  // Closed as this server knows it, judged before reading: a closed shard's head never moves.
  const bool closed = log.closed();
  MT_ASSIGN_OR_RETURN(uint64_t horizon, Horizon(log, shard));
  if (from < horizon) return trimmed();
  // Exclusive bound: the allocator's watermark (embedded), or the end of the shard's numbers (in
  // the store every record present is settled: appended without gaps, in commit order).
  uint64_t upper = log.numbered_in_store() ? ShardFirstSequence(start, shard + 1) : log.sequences().Watermark() + 1;
  ChangePage page;
  // Past every record read (embedded: up to the watermark, skipping numbers never committed).
  page.next = log.numbered_in_store() ? from : std::max(from, upper);
  if (from < upper) {
    size_t bytes = 0;
    Status decoded;
    std::string id;
    std::string lower = SeqKey(from), upper_key = SeqKey(upper);
    MT_RETURN_IF_ERROR(store_.ReadRange(ShardPartition(log, shard, id), {lower, upper_key, true},
                                        [&](std::string_view key, std::string_view value) {
                                          if (page.changes.size() >= limit || bytes >= max_bytes) return false;
                                          auto record = DecodeChangeRecord(value);
                                          if (!record.ok()) {
                                            decoded = record.status();
                                            return false;
                                          }
                                          bytes += record->SizeBytes();
                                          uint64_t seq = ReadBigEndian(key.substr(0, 8));
                                          page.changes.push_back({seq, std::move(*record)});
                                          return true;
                                        }));
    MT_RETURN_IF_ERROR(decoded);
    if (!page.changes.empty() && (log.numbered_in_store() || page.changes.size() >= limit || bytes >= max_bytes)) {
      page.next = page.changes.back().seq + 1;
    }
    if (!log.numbered_in_store() && from < log.horizon()) return trimmed();  // trimmed while we read
  }
  if (closed) {
    MT_ASSIGN_OR_RETURN(uint64_t last, Last(log, shard));
    page.shard_end = page.next > last;
  }
  return page;
}

Status StreamCatalog::TrimShard(StreamLog& log, uint32_t shard, int64_t cutoff_ms) {
  constexpr size_t kBatch = 1000;
  const uint64_t start = log.info().start;
  std::string id;
  const engine::PartitionRef partition = ShardPartition(log, shard, id);
  for (;;) {
    MT_ASSIGN_OR_RETURN(std::optional<std::string> horizon_raw, store_.Get(partition, SeqKey(0)));
    uint64_t horizon = ShardFirstSequence(start, shard);
    if (horizon_raw && horizon_raw->size() == 8) horizon = std::max(horizon, ReadBigEndian(*horizon_raw));
    uint64_t upper = log.numbered_in_store() ? ShardFirstSequence(start, shard + 1) : log.sequences().Watermark() + 1;
    if (horizon >= upper) return Status::Ok();
    engine::PartitionWrite batch;
    uint64_t last = 0;
    bool more = false;
    Status decoded;
    std::string lower = SeqKey(horizon), upper_key = SeqKey(upper);
    MT_RETURN_IF_ERROR(store_.ReadRange(partition, {lower, upper_key, true},
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
    // records and the horizon are one partition: one atomic commit, guarded on the horizon read
    // (another server trimming the same shard: read again).
    if (!log.numbered_in_store()) log.set_horizon(last + 1);
    batch.guards.push_back({SeqKey(0), horizon_raw});
    batch.mutations.push_back({SeqKey(0), SeqKey(last + 1)});
    auto committed = store_.Commit(partition, std::move(batch));
    if (committed.status().code() == ErrorCode::kGuardFailed) continue;
    MT_RETURN_IF_ERROR(committed.status());
    if (!more) return Status::Ok();
  }
}

Status StreamCatalog::DropAppliedPositions(StreamLog& log, uint32_t shard, int64_t cutoff_ms) {
  // An applied position guards against appending a change-log record twice; once that record is
  // trimmed from its source log (drained), nothing can re-apply it and the position may go.
  std::string id;
  const engine::PartitionRef partition = ShardPartition(log, shard, id);
  std::vector<std::pair<std::string, std::string>> old;
  std::string lower = StreamHeadKey() + std::string(1, '\0');
  MT_RETURN_IF_ERROR(store_.ReadRange(partition, {lower, "", true}, [&](std::string_view key, std::string_view value) {
    auto applied = DecodeAppliedPosition(value);
    if (applied && applied->applied_ms < cutoff_ms) old.emplace_back(key, value);
    return old.size() < 1000;
  }));
  const size_t head_bytes = StreamHeadKey().size();
  for (const auto& [key, value] : old) {
    auto applied = DecodeAppliedPosition(value);
    std::string source_id = key.substr(head_bytes);
    bool pending = false;
    MT_RETURN_IF_ERROR(store_.ReadLog({applied->source_keyspace, source_id}, applied->position - 1,
                                      [&](uint64_t position, std::string_view) {
                                        pending = position == applied->position;
                                        return false;
                                      }));
    if (pending) continue;
    engine::PartitionWrite write;
    write.guards.push_back({key, value});
    write.mutations.push_back({key, std::nullopt});
    auto committed = store_.Commit(partition, std::move(write));
    if (!committed.ok() && committed.status().code() != ErrorCode::kGuardFailed) return committed.status();
  }
  return Status::Ok();
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
    for (uint32_t shard = 0; shard < log->shard_count(); ++shard) {
      MT_RETURN_IF_ERROR(TrimShard(*log, shard, cutoff));
      if (log->numbered_in_store()) MT_RETURN_IF_ERROR(DropAppliedPositions(*log, shard, clock_() - kAppliedPositionAgeMs));
    }
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
