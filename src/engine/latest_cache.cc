#include "engine/latest_cache.h"

#include <functional>

namespace monotable::engine {
namespace {

constexpr size_t kEntryOverhead = 96;  // list node, index node, string headers: an estimate

size_t Charge(std::string_view key, std::string_view value) { return key.size() + value.size() + kEntryOverhead; }

}  // namespace

LatestCache::LatestCache(size_t capacity_bytes)
    : shard_capacity_(capacity_bytes / kShards), shards_(std::make_unique<Shard[]>(kShards)) {}

LatestCache::Shard& LatestCache::ShardOf(std::string_view key) {
  return shards_[std::hash<std::string_view>{}(key) % kShards];
}

void LatestCache::Erase(Shard& shard, std::string_view key) {
  auto found = shard.index.find(key);
  if (found == shard.index.end()) return;
  auto entry = found->second;
  shard.bytes -= Charge(entry->key, entry->value);
  shard.index.erase(found);
  shard.recency.erase(entry);
}

std::optional<std::string> LatestCache::Lookup(std::string_view key, uint64_t* token) {
  Shard& shard = ShardOf(key);
  std::lock_guard lock(shard.mutex);
  auto found = shard.index.find(key);
  if (found == shard.index.end()) {
    *token = shard.version;
    return std::nullopt;
  }
  shard.recency.splice(shard.recency.begin(), shard.recency, found->second);
  return found->second->value;
}

void LatestCache::Fill(std::string_view key, uint64_t token, std::string_view value) {
  const size_t charge = Charge(key, value);
  if (charge > shard_capacity_) return;
  Shard& shard = ShardOf(key);
  std::lock_guard lock(shard.mutex);
  if (shard.version != token || shard.writes_in_flight > 0) return;
  Erase(shard, key);
  while (shard.bytes + charge > shard_capacity_ && !shard.recency.empty()) {
    Erase(shard, shard.recency.back().key);
  }
  shard.recency.push_front(Entry{std::string(key), std::string(value)});
  shard.index.emplace(shard.recency.front().key, shard.recency.begin());
  shard.bytes += charge;
}

void LatestCache::BeginWrite(const std::vector<std::string_view>& keys) {
  for (std::string_view key : keys) {
    Shard& shard = ShardOf(key);
    std::lock_guard lock(shard.mutex);
    Erase(shard, key);
    ++shard.version;
    ++shard.writes_in_flight;
  }
}

void LatestCache::EndWrite(const std::vector<std::string_view>& keys) {
  for (std::string_view key : keys) {
    Shard& shard = ShardOf(key);
    std::lock_guard lock(shard.mutex);
    ++shard.version;
    --shard.writes_in_flight;
  }
}

void LatestCache::BeginWriteAll() {
  for (size_t i = 0; i < kShards; ++i) {
    Shard& shard = shards_[i];
    std::lock_guard lock(shard.mutex);
    shard.index.clear();
    shard.recency.clear();
    shard.bytes = 0;
    ++shard.version;
    ++shard.writes_in_flight;
  }
}

void LatestCache::EndWriteAll() {
  for (size_t i = 0; i < kShards; ++i) {
    Shard& shard = shards_[i];
    std::lock_guard lock(shard.mutex);
    ++shard.version;
    --shard.writes_in_flight;
  }
}

}  // namespace monotable::engine
