#include "backup/pitr.h"

#include <map>
#include <set>
#include <unordered_map>

#include "model/item_codec.h"
#include "changelog/keys.h"
#include "table/item_commit.h"

namespace monotable::backup {
namespace {

void AppendU64(std::string& out, uint64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xff));
}
void AppendU32(std::string& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xff));
}
uint32_t ReadU32(std::string_view s) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<uint8_t>(s[i]);
  return v;
}

// A history record's sort key starts with its time (in partition "" of the history keyspace).
std::string TimeSortKey(int64_t ms) {
  std::string key;
  AppendU64(key, static_cast<uint64_t>(std::max<int64_t>(ms, 0)));
  return key;
}

constexpr int64_t kDayMs = 24LL * 3600 * 1000;

}  // namespace

Status PitrLog::Load() {
  Map map;
  MT_RETURN_IF_ERROR(ScanSystemRecords(store_, PitrKeysBegin(), PitrKeysEnd(), [&](std::string_view value) {
    MT_ASSIGN_OR_RETURN(PitrRecord r, DecodePitr(value));
    map[r.table_prefix] = std::move(r);
    return Status::Ok();
  }));
  // Times continue after the last one recorded (a restart with a clock behind keeps the order).
  for (const auto& [prefix, r] : map) {
    MT_RETURN_IF_ERROR(store_.ReadRange(DataPartition(r.history_prefix), {"", "", false},
                                        [&](std::string_view key, std::string_view) {
                                          if (key.size() >= 8) {
                                            int64_t t = 0;
                                            for (int i = 0; i < 8; ++i) t = (t << 8) | static_cast<uint8_t>(key[i]);
                                            if (t > last_time_.load()) last_time_.store(t);
                                          }
                                          return false;
                                        }));
  }
  std::lock_guard lock(mu_);
  Publish(std::move(map));
  return Status::Ok();
}

void PitrLog::Publish(Map map) {
  records_ = map;
  enabled_count_.store(map.size(), std::memory_order_release);
  published_.store(std::make_shared<const Map>(std::move(map)), std::memory_order_release);
}

int64_t PitrLog::NextTime() {
  int64_t now = clock_();
  int64_t last = last_time_.load(std::memory_order_relaxed);
  while (now > last && !last_time_.compare_exchange_weak(last, now, std::memory_order_relaxed)) {
  }
  return std::max(now, last);
}

table::ChangeHook::Append PitrLog::Capture(const TableDescription& table, const Item* old_item,
                                           const Item* new_item) {
  if (enabled_count_.load(std::memory_order_acquire) == 0) return {};
  auto map = published_.load(std::memory_order_acquire);
  auto found = map->find(table.key_prefix);
  if (found == map->end() || found->second.table_id != table.table_id) return {};
  const Item* any = old_item ? old_item : new_item;
  if (!any) return {};
  if (old_item && new_item && *old_item == *new_item) return {};
  std::string key = table::ItemKeyOf(table, *any).substr(4);
  std::string value;
  AppendU32(value, static_cast<uint32_t>(key.size()));
  value += key;
  value.push_back(old_item ? 1 : 0);
  if (old_item) value += EncodeItem(*old_item);
  return [this, prefix = found->second.history_prefix,
          value = std::move(value)](std::vector<changelog::AddressedMutation>& out) mutable {
    // The full key [history keyspace][partition ""][time][sequence]: its sort key at offset 4.
    std::string record_key = table::PrefixBytes(prefix) + TimeSortKey(NextTime());
    AppendU64(record_key, sequence_.fetch_add(1, std::memory_order_relaxed));
    out.push_back({std::move(record_key), 4, std::move(value)});
  };
}

std::optional<PitrRecord> PitrLog::Find(const TableDescription& table) const {
  auto map = published_.load(std::memory_order_acquire);
  auto found = map->find(table.key_prefix);
  if (found == map->end() || found->second.table_id != table.table_id) return std::nullopt;
  return found->second;
}

Result<PitrRecord> PitrLog::Enable(const TableDescription& table, int64_t recovery_days) {
  std::lock_guard lock(mu_);
  if (auto found = records_.find(table.key_prefix);
      found != records_.end() && found->second.table_id == table.table_id) {
    if (found->second.recovery_days == recovery_days) return found->second;
    PitrRecord r = found->second;
    r.recovery_days = recovery_days;
    MT_RETURN_IF_ERROR(PutSystemRecord(store_, PitrKey(r.table_prefix), EncodePitr(r)));
    Map map = records_;
    map[r.table_prefix] = r;
    Publish(std::move(map));
    return r;
  }
  PitrRecord r;
  r.table_prefix = table.key_prefix;
  r.table_id = table.table_id;
  MT_ASSIGN_OR_RETURN(r.history_prefix, catalog_.NewKeyPrefix());
  r.enabled_ms = clock_();
  r.recovery_days = recovery_days;
  MT_RETURN_IF_ERROR(PutSystemRecord(store_, PitrKey(r.table_prefix), EncodePitr(r)));
  Map map = records_;
  map[r.table_prefix] = r;
  Publish(std::move(map));
  return r;
}

Status PitrLog::DropHistory(const PitrRecord& r) {
  MT_RETURN_IF_ERROR(PutSystemRecord(store_, PitrKey(r.table_prefix), std::nullopt));
  return store_.DropKeyspace(r.history_prefix);
}

Status PitrLog::Disable(const TableDescription& table) {
  std::lock_guard lock(mu_);
  auto found = records_.find(table.key_prefix);
  if (found == records_.end() || found->second.table_id != table.table_id) return Status::Ok();
  PitrRecord r = found->second;
  Map map = records_;
  map.erase(r.table_prefix);
  Publish(std::move(map));
  return DropHistory(r);
}

int64_t PitrLog::Earliest(const PitrRecord& r) const {
  return std::max(r.enabled_ms, clock_() - r.recovery_days * kDayMs);
}

Status PitrLog::ForEachItemAt(const TableDescription& table, const PitrRecord& r, int64_t at_ms,
                              const std::function<Status(std::string_view record)>& fn) {
  // The table first, then its history: an item with no record after `at_ms` in a history read
  // after the table did not change between `at_ms` and the table read (see the contract).
  std::vector<std::pair<std::string, std::string>> items;  // keyspace-relative key, stored item
  MT_RETURN_IF_ERROR(store_.ScanKeyspace(table.key_prefix, "", "", [&](std::string_view key, std::string_view value) {
    items.emplace_back(std::string(key), std::string(value));
    return true;
  }));
  // The first record after `at_ms` of each item changed since: its old image (nullopt: absent).
  std::unordered_map<std::string, std::optional<std::string>> before;
  Status bad;
  std::string from = TimeSortKey(at_ms + 1);
  MT_RETURN_IF_ERROR(
      store_.ReadRange(DataPartition(r.history_prefix), {from, "", true}, [&](std::string_view, std::string_view v) {
        uint32_t n = v.size() >= 5 ? ReadU32(v) : 0;
        if (v.size() < 5 || v.size() < 5 + static_cast<size_t>(n)) {
          bad = Status(ErrorCode::kCorruption, "bad PITR history record");
          return false;
        }
        std::string key(v.substr(4, n));
        if (before.count(key)) return true;
        bool existed = v[4 + n] != 0;
        before.emplace(std::move(key), existed ? std::optional<std::string>(std::string(v.substr(5 + n)))
                                               : std::optional<std::string>());
        return true;
      }));
  MT_RETURN_IF_ERROR(bad);
  for (const auto& [key, value] : items) {
    auto changed = before.find(key);
    if (changed == before.end()) {
      MT_RETURN_IF_ERROR(fn(value));
      continue;
    }
    if (changed->second) MT_RETURN_IF_ERROR(fn(*changed->second));
    before.erase(changed);
  }
  // Items deleted since `at_ms` that existed then.
  for (const auto& [key, old] : before) {
    if (old) MT_RETURN_IF_ERROR(fn(*old));
  }
  return Status::Ok();
}

namespace {

struct HistoryEntry {
  std::string key;  // the item's key without the table prefix
  std::optional<std::string> old;
  int64_t ms = 0;
};

// `key`: the record's sort key ([time u64][sequence u64]).
Result<HistoryEntry> ReadEntry(std::string_view key, std::string_view v) {
  if (v.size() < 5 || key.size() < 8) return Status(ErrorCode::kCorruption, "bad PITR history record");
  uint32_t n = ReadU32(v);
  if (v.size() < 5 + static_cast<size_t>(n)) return Status(ErrorCode::kCorruption, "bad PITR history record");
  HistoryEntry e;
  e.key = std::string(v.substr(4, n));
  if (v[4 + n] != 0) e.old = std::string(v.substr(5 + n));
  for (int i = 0; i < 8; ++i) e.ms = (e.ms << 8) | static_cast<uint8_t>(key[i]);
  return e;
}

}  // namespace

Status PitrLog::ForEachChange(const TableDescription& table, const PitrRecord& r, int64_t from_ms, int64_t to_ms,
                              const std::function<Status(const Change&)>& fn) {
  std::map<std::string, Change> changes;  // by item key: a stable order for the output
  const engine::PartitionRef history = DataPartition(r.history_prefix);
  Status bad;
  std::string from = TimeSortKey(from_ms), to = TimeSortKey(to_ms);
  MT_RETURN_IF_ERROR(store_.ReadRange(history, {from, to, true}, [&](std::string_view key, std::string_view v) {
    auto e = ReadEntry(key, v);
    if (!e.ok()) {
      bad = e.status();
      return false;
    }
    auto [at, fresh] = changes.try_emplace(e->key);
    if (fresh) at->second.before = std::move(e->old);
    at->second.write_ms = e->ms;
    return true;
  }));
  MT_RETURN_IF_ERROR(bad);
  if (changes.empty()) return Status::Ok();
  // The image just before to_ms: the old image of the item's first change from to_ms on, or the
  // item as it is now. The items first, then the history (an item with no record from to_ms on in
  // a history read after the item did not change since to_ms).
  std::string prefix = table::PrefixBytes(table.key_prefix);
  for (auto& [key, change] : changes) {
    std::string item_key = prefix + key;
    MT_ASSIGN_OR_RETURN(table::ItemAddress address, table::AddressOf(table, item_key));
    MT_ASSIGN_OR_RETURN(change.after, store_.Get(address.partition, address.sort_key));
  }
  std::set<std::string> settled;
  MT_RETURN_IF_ERROR(store_.ReadRange(history, {to, "", true}, [&](std::string_view key, std::string_view v) {
    auto e = ReadEntry(key, v);
    if (!e.ok()) {
      bad = e.status();
      return false;
    }
    auto found = changes.find(e->key);
    if (found != changes.end() && settled.insert(e->key).second) found->second.after = std::move(e->old);
    return settled.size() < changes.size();
  }));
  MT_RETURN_IF_ERROR(bad);
  for (auto& [key, change] : changes) {
    if (!change.before && !change.after) continue;
    MT_RETURN_IF_ERROR(fn(change));
  }
  return Status::Ok();
}

Status PitrLog::TrimHistory(const PitrRecord& r, const std::string& before) {
  // Deletes in batches, one partition commit each (the history is one partition).
  constexpr size_t kBatch = 1000;
  for (;;) {
    engine::PartitionWrite write;
    MT_RETURN_IF_ERROR(store_.ReadRange(DataPartition(r.history_prefix), {"", before, true},
                                        [&](std::string_view key, std::string_view) {
                                          write.mutations.push_back({std::string(key), std::nullopt});
                                          return write.mutations.size() < kBatch;
                                        }));
    if (write.mutations.empty()) return Status::Ok();
    size_t n = write.mutations.size();
    MT_RETURN_IF_ERROR(store_.Commit(DataPartition(r.history_prefix), std::move(write)).status());
    if (n < kBatch) return Status::Ok();
  }
}

Status PitrLog::Trim() {
  Map map;
  {
    std::lock_guard lock(mu_);
    map = records_;
  }
  for (const auto& [prefix, r] : map) {
    bool live = false;
    for (const auto& name : catalog_.Names()) {
      auto handle = catalog_.Find(name);
      if (handle && handle->description->key_prefix == prefix && handle->description->table_id == r.table_id) {
        live = true;
        break;
      }
    }
    if (!live) {
      std::lock_guard lock(mu_);
      auto found = records_.find(prefix);
      if (found == records_.end() || found->second.history_prefix != r.history_prefix) continue;
      Map next = records_;
      next.erase(prefix);
      Publish(std::move(next));
      MT_RETURN_IF_ERROR(DropHistory(r));
      continue;
    }
    MT_RETURN_IF_ERROR(TrimHistory(r, TimeSortKey(Earliest(r))));
  }
  return Status::Ok();
}

}  // namespace monotable::backup
