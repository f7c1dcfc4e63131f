#include "engine/latest_cache.h"

#include <cstdlib>
#include <cstring>
#include <functional>
#include <new>

namespace monotable::engine {

struct LatestCache::Entry {
  uint32_t key_size;
  uint32_t value_size;

  const char* key_data() const { return reinterpret_cast<const char*>(this + 1); }
  std::string_view key() const { return {key_data(), key_size}; }
  std::string_view value() const { return {key_data() + key_size, value_size}; }

  static Entry* Make(std::string_view key, std::string_view value) {
    void* memory = std::malloc(sizeof(Entry) + key.size() + value.size());
    if (memory == nullptr) throw std::bad_alloc();
    auto* entry = new (memory) Entry{static_cast<uint32_t>(key.size()), static_cast<uint32_t>(value.size())};
    char* bytes = reinterpret_cast<char*>(entry + 1);
    std::memcpy(bytes, key.data(), key.size());
    std::memcpy(bytes + key.size(), value.data(), value.size());
    return entry;
  }
};

namespace {

// The entry's allocation, its slot at half load, and the allocator's rounding: an estimate.
constexpr size_t kEntryOverhead = 64;
constexpr size_t kFirstSlots = 16;

size_t Charge(std::string_view key, std::string_view value) { return key.size() + value.size() + kEntryOverhead; }

}  // namespace

LatestCache::LatestCache(size_t capacity_bytes)
    : shard_capacity_(capacity_bytes / kShards), shards_(std::make_unique<Shard[]>(kShards)) {}

LatestCache::~LatestCache() {
  for (size_t i = 0; i < kShards; ++i) Clear(shards_[i]);
}

LatestCache::Place LatestCache::PlaceOf(std::string_view key) {
  size_t hash = std::hash<std::string_view>{}(key);
  return {&shards_[hash % kShards], static_cast<uint32_t>(hash / kShards)};
}

LatestCache::Slot* LatestCache::Find(Shard& shard, std::string_view key, uint32_t hash) {
  if (shard.slots.empty()) return nullptr;
  const size_t mask = shard.slots.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    Slot& slot = shard.slots[i];
    if (slot.entry == nullptr) return nullptr;
    if (slot.hash == hash && slot.entry->key() == key) return &slot;
  }
}

void LatestCache::Insert(Shard& shard, Entry* entry, uint32_t hash) {
  if ((shard.count + 1) * 2 > shard.slots.size()) {
    std::vector<Slot> old = std::move(shard.slots);
    shard.slots.assign(old.empty() ? kFirstSlots : old.size() * 2, Slot{});
    shard.count = 0;
    for (const Slot& slot : old) {
      if (slot.entry != nullptr) Insert(shard, slot.entry, slot.hash);
    }
    // (The marks restart: a growing shard is far from evicting.)
  }
  const size_t mask = shard.slots.size() - 1;
  size_t i = hash & mask;
  while (shard.slots[i].entry != nullptr) i = (i + 1) & mask;
  shard.slots[i] = Slot{entry, hash, 0};
  ++shard.count;
}

void LatestCache::RemoveAt(Shard& shard, size_t index) {
  Entry* entry = shard.slots[index].entry;
  shard.bytes -= Charge(entry->key(), entry->value());
  --shard.count;
  std::free(entry);
  // Backward shift: pull later entries of the probe run into the hole unless that would put one
  // before its home slot, so every entry stays reachable from its home without tombstones.
  const size_t mask = shard.slots.size() - 1;
  size_t hole = index;
  for (size_t next = (hole + 1) & mask; shard.slots[next].entry != nullptr; next = (next + 1) & mask) {
    size_t home = shard.slots[next].hash & mask;
    bool home_after_hole = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next);
    if (home_after_hole) continue;
    shard.slots[hole] = shard.slots[next];
    hole = next;
  }
  shard.slots[hole] = Slot{};
}

void LatestCache::EvictOne(Shard& shard) {
  const size_t mask = shard.slots.size() - 1;
  for (;; shard.hand = (shard.hand + 1) & mask) {
    Slot& slot = shard.slots[shard.hand];
    if (slot.entry == nullptr) continue;
    if (slot.marked) {
      slot.marked = 0;
      continue;
    }
    RemoveAt(shard, shard.hand);  // the hand stays: a shifted entry may now sit under it
    return;
  }
}

void LatestCache::Clear(Shard& shard) {
  for (const Slot& slot : shard.slots) std::free(slot.entry);
  shard.slots = std::vector<Slot>();
  shard.count = 0;
  shard.bytes = 0;
  shard.hand = 0;
}

std::optional<std::string> LatestCache::Lookup(std::string_view key, uint64_t* token) {
  auto [shard, hash] = PlaceOf(key);
  std::lock_guard lock(shard->mutex);
  Slot* slot = Find(*shard, key, hash);
  *token = shard->version;
  if (slot == nullptr) return std::nullopt;
  slot->marked = 1;
  return std::string(slot->entry->value());
}

void LatestCache::Fill(std::string_view key, uint64_t token, std::string_view value) {
  const size_t charge = Charge(key, value);
  if (charge > shard_capacity_) return;
  auto [shard, hash] = PlaceOf(key);
  std::lock_guard lock(shard->mutex);
  if (shard->version != token || shard->writes_in_flight > 0) return;
  if (Slot* old = Find(*shard, key, hash)) RemoveAt(*shard, old - shard->slots.data());
  while (shard->bytes + charge > shard_capacity_ && shard->count > 0) EvictOne(*shard);
  Insert(*shard, Entry::Make(key, value), hash);
  shard->bytes += charge;
}

void LatestCache::BeginWrite(const std::vector<std::string_view>& keys) {
  for (std::string_view key : keys) {
    auto [shard, hash] = PlaceOf(key);
    std::lock_guard lock(shard->mutex);
    if (Slot* slot = Find(*shard, key, hash)) RemoveAt(*shard, slot - shard->slots.data());
    ++shard->version;
    ++shard->writes_in_flight;
  }
}

void LatestCache::EndWrite(const std::vector<std::string_view>& keys) {
  for (std::string_view key : keys) {
    Shard* shard = PlaceOf(key).shard;
    std::lock_guard lock(shard->mutex);
    ++shard->version;
    --shard->writes_in_flight;
  }
}

void LatestCache::BeginWriteAll() {
  for (size_t i = 0; i < kShards; ++i) {
    Shard& shard = shards_[i];
    std::lock_guard lock(shard.mutex);
    Clear(shard);
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
