// LatestCache: the latest committed values of recently read keys, in front of an engine's point
// reads (Get without a snapshot), so a repeated read skips the storage engine's lookup: RocksDB's
// Get walks the memtables and then every table file that may hold the key, consulting its row
// cache once per file.
//
// Contract (the engine calls these around its own reads and writes):
// - Lookup(key, &token) returns the cached value of key, or nullopt when it has none. A cached value is
//   the latest committed one: writers call BeginWrite before applying a write and EndWrite after
//   it, and from BeginWrite on the key is not cached again until its shard has no write in
//   flight; so a hit never returns a value older than what the engine would return at that time.
// - Lookup also sets `token` (taken BEFORE the caller reads the engine, on a miss or a hit);
//   Fill(key, token, value) then caches what was read, unless any write began or ended on the key's
//   shard since the token, or one is still in flight.
// - Only present values are cached (absent keys are not: writes of new keys read them once each).
// - BeginWriteAll/EndWriteAll bracket writes whose keys are not listed (range deletions).
// - Memory: at most `capacity_bytes` of keys and values (plus per-entry overhead); when a shard is
//   full, CLOCK picks what goes: a hit marks its entry, the hand sweeps the shard's slots, clearing
//   marks and evicting the first unmarked entry, so an entry read since the hand last passed goes
//   only after every unread one. Nothing is allocated before the first Fill.
// - Thread-safe; shards (by key hash) each have their own mutex.
//
// Why not a list and std::unordered_map: a hit there chases ~7 pointers (bucket, node, the key's
// heap string, the recency list's neighbours, the value's heap string), each a cache miss on a
// large cache; here a hit touches the shard, one slot, and one allocation holding key and value.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace monotable::engine {

class LatestCache {
 public:
  explicit LatestCache(size_t capacity_bytes);
  ~LatestCache();
  LatestCache(const LatestCache&) = delete;
  LatestCache& operator=(const LatestCache&) = delete;

  std::optional<std::string> Lookup(std::string_view key, uint64_t* token);
  void Fill(std::string_view key, uint64_t token, std::string_view value);

  void BeginWrite(const std::vector<std::string_view>& keys);
  void EndWrite(const std::vector<std::string_view>& keys);
  void BeginWriteAll();
  void EndWriteAll();

 private:
  static constexpr size_t kShards = 64;
  struct Entry;  // one allocation: sizes, then the key's bytes, then the value's
  struct Slot {
    Entry* entry = nullptr;  // null: empty
    uint32_t hash = 0;       // the key's hash bits above the shard's (home slot: hash & mask)
    uint32_t marked = 0;     // used since the clock hand last passed
  };
  // An open-addressing table (linear probing, at most half full, deletion by backward shift).
  struct alignas(64) Shard {
    std::mutex mutex;
    uint64_t version = 0;   // bumped when a write on the shard begins or ends
    int writes_in_flight = 0;
    size_t bytes = 0;
    size_t count = 0;
    size_t hand = 0;        // the clock hand, a slot index
    std::vector<Slot> slots;  // empty, or a power of two
  };

  struct Place {
    Shard* shard;
    uint32_t hash;
  };
  Place PlaceOf(std::string_view key);
  static Slot* Find(Shard& shard, std::string_view key, uint32_t hash);
  static void Insert(Shard& shard, Entry* entry, uint32_t hash);
  static void RemoveAt(Shard& shard, size_t index);
  static void EvictOne(Shard& shard);
  static void Clear(Shard& shard);

  const size_t shard_capacity_;
  std::unique_ptr<Shard[]> shards_;
};

}  // namespace monotable::engine
