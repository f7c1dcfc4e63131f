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
// - A miss sets `token` (taken BEFORE the caller reads the engine); Fill(key, token, value) then
//   caches what was read, unless any write began or ended on the key's shard since the token, or
//   one is still in flight.
// - Only present values are cached (absent keys are not: writes of new keys read them once each).
// - BeginWriteAll/EndWriteAll bracket writes whose keys are not listed (range deletions).
// - Memory: at most `capacity_bytes` of keys and values (plus per-entry overhead), least recently
//   used entries evicted first; nothing is allocated before the first Fill.
// - Thread-safe; shards (by key hash) each have their own mutex.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace monotable::engine {

class LatestCache {
 public:
  explicit LatestCache(size_t capacity_bytes);
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
  struct Entry {
    std::string key;
    std::string value;
  };
  struct Shard {
    std::mutex mutex;
    uint64_t version = 0;   // bumped when a write on the shard begins or ends
    int writes_in_flight = 0;
    size_t bytes = 0;
    std::list<Entry> recency;  // most recently used first
    std::unordered_map<std::string_view, std::list<Entry>::iterator> index;  // keys point into `recency`
  };

  Shard& ShardOf(std::string_view key);
  static void Erase(Shard& shard, std::string_view key);

  const size_t shard_capacity_;
  std::unique_ptr<Shard[]> shards_;
};

}  // namespace monotable::engine
