#include "backup/pitr.h"

#include <map>
#include <set>
#include <unordered_map>

#include "model/item_codec.h"
#include "changelog/keys.h"

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

std::string TimeKey(uint32_t prefix, int64_t ms) {
  std::string key = table::PrefixBytes(prefix);
  AppendU64(key, static_cast<uint64_t>(std::max<int64_t>(ms, 0)));
  return key;
}

constexpr int64_t kDayMs = 24LL * 3600 * 1000;

}  // namespace

Status PitrLog::Load() {
  Map map;
  auto it = engine_.NewIterator(PitrKeysBegin(), PitrKeysEnd());
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    MT_ASSIGN_OR_RETURN(PitrRecord r, DecodePitr(it->value()));
    map[r.table_prefix] = std::move(r);
  }
  MT_RETURN_IF_ERROR(it->status());
  // Times continue after the last one recorded (a restart with a clock behind keeps the order).
  for (const auto& [prefix, r] : map) {
    auto [first, last] = table::KeySpaceRange(r.history_prefix);
    auto h = engine_.NewIterator(first, last);
    h->SeekToLast();
    if (h->Valid() && h->key().size() >= 12) {
      int64_t t = 0;
      for (int i = 4; i < 12; ++i) t = (t << 8) | static_cast<uint8_t>(h->key()[i]);
      if (t > last_time_.load()) last_time_.store(t);
    }
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

std::function<void(engine::WriteBatch&)> PitrLog::Capture(const TableDescription& table, const Item* old_item,
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
  return [this, prefix = found->second.history_prefix, value = std::move(value)](engine::WriteBatch& batch) mutable {
    std::string record_key = TimeKey(prefix, NextTime());
    AppendU64(record_key, sequence_.fetch_add(1, std::memory_order_relaxed));
    batch.mutations.push_back({std::move(record_key), std::move(value)});
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
    MT_RETURN_IF_ERROR(engine_.Commit({{}, {{PitrKey(r.table_prefix), EncodePitr(r)}}}));
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
  MT_RETURN_IF_ERROR(engine_.Commit({{}, {{PitrKey(r.table_prefix), EncodePitr(r)}}}));
  Map map = records_;
  map[r.table_prefix] = r;
  Publish(std::move(map));
  return r;
}

Status PitrLog::DropHistory(const PitrRecord& r) {
  MT_RETURN_IF_ERROR(engine_.Commit({{}, {{PitrKey(r.table_prefix), std::nullopt}}}));
  auto [first, last] = table::KeySpaceRange(r.history_prefix);
  return engine_.DeleteRange(first, last);
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
                              const std::function<Status(std::string_view record)>& fn,
                              std::shared_ptr<const engine::Snapshot> snapshot) {
  if (!snapshot) snapshot = engine_.GetSnapshot();
  // The first record after `at_ms` of each item changed since: its old image (nullopt: absent).
  std::unordered_map<std::string, std::optional<std::string>> before;
  {
    auto [first, last] = table::KeySpaceRange(r.history_prefix);
    auto it = engine_.NewIterator(TimeKey(r.history_prefix, at_ms + 1), last, snapshot);
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      std::string_view v = it->value();
      if (v.size() < 5) return Status(ErrorCode::kCorruption, "bad PITR history record");
      uint32_t n = ReadU32(v);
      if (v.size() < 5 + static_cast<size_t>(n)) return Status(ErrorCode::kCorruption, "bad PITR history record");
      std::string key(v.substr(4, n));
      if (before.count(key)) continue;
      bool existed = v[4 + n] != 0;
      before.emplace(std::move(key),
                     existed ? std::optional<std::string>(std::string(v.substr(5 + n))) : std::optional<std::string>());
    }
    MT_RETURN_IF_ERROR(it->status());
  }
  auto [first, last] = table::KeySpaceRange(table.key_prefix);
  auto it = engine_.NewIterator(first, last, snapshot);
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::string_view key = it->key().substr(4);
    auto changed = before.find(std::string(key));
    if (changed == before.end()) {
      MT_RETURN_IF_ERROR(fn(it->value()));
      continue;
    }
    if (changed->second) MT_RETURN_IF_ERROR(fn(*changed->second));
    before.erase(changed);
  }
  MT_RETURN_IF_ERROR(it->status());
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

Result<HistoryEntry> ReadEntry(std::string_view key, std::string_view v) {
  if (v.size() < 5 || key.size() < 12) return Status(ErrorCode::kCorruption, "bad PITR history record");
  uint32_t n = ReadU32(v);
  if (v.size() < 5 + static_cast<size_t>(n)) return Status(ErrorCode::kCorruption, "bad PITR history record");
  HistoryEntry e;
  e.key = std::string(v.substr(4, n));
  if (v[4 + n] != 0) e.old = std::string(v.substr(5 + n));
  for (int i = 4; i < 12; ++i) e.ms = (e.ms << 8) | static_cast<uint8_t>(key[i]);
  return e;
}

}  // namespace

Status PitrLog::ForEachChange(const TableDescription& table, const PitrRecord& r, int64_t from_ms, int64_t to_ms,
                              const std::function<Status(const Change&)>& fn,
                              std::shared_ptr<const engine::Snapshot> snapshot) {
  if (!snapshot) snapshot = engine_.GetSnapshot();
  std::map<std::string, Change> changes;  // by item key: a stable order for the output
  auto [first, last] = table::KeySpaceRange(r.history_prefix);
  {
    auto it = engine_.NewIterator(TimeKey(r.history_prefix, from_ms), TimeKey(r.history_prefix, to_ms), snapshot);
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      MT_ASSIGN_OR_RETURN(HistoryEntry e, ReadEntry(it->key(), it->value()));
      auto [at, fresh] = changes.try_emplace(e.key);
      if (fresh) at->second.before = std::move(e.old);
      at->second.write_ms = e.ms;
    }
    MT_RETURN_IF_ERROR(it->status());
  }
  if (changes.empty()) return Status::Ok();
  // The image just before to_ms: the old image of the item's first change from to_ms on, or the
  // item as it is now.
  std::set<std::string> settled;
  {
    auto it = engine_.NewIterator(TimeKey(r.history_prefix, to_ms), last, snapshot);
    for (it->SeekToFirst(); it->Valid() && settled.size() < changes.size(); it->Next()) {
      MT_ASSIGN_OR_RETURN(HistoryEntry e, ReadEntry(it->key(), it->value()));
      auto found = changes.find(e.key);
      if (found == changes.end() || !settled.insert(e.key).second) continue;
      found->second.after = std::move(e.old);
    }
    MT_RETURN_IF_ERROR(it->status());
  }
  std::string prefix = table::PrefixBytes(table.key_prefix);
  for (auto& [key, change] : changes) {
    if (!settled.count(key)) {
      MT_ASSIGN_OR_RETURN(change.after, engine_.Get(prefix + key, snapshot.get()));
    }
    if (!change.before && !change.after) continue;
    MT_RETURN_IF_ERROR(fn(change));
  }
  return Status::Ok();
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
    int64_t cutoff = Earliest(r);
    MT_RETURN_IF_ERROR(engine_.DeleteRange(table::PrefixBytes(r.history_prefix), TimeKey(r.history_prefix, cutoff)));
  }
  return Status::Ok();
}

}  // namespace monotable::backup
