// RangeCache: the latest committed contents of recently read small key ranges, in front of an
// engine's range reads, so that a repeated Query of a small item collection skips the storage
// engine's iterator (RocksDB's: a merge of the memtables and of every table file that may hold the
// range, built, positioned and torn down for each request).
//
// Contract (the engine calls these around its own iterators and writes):
// - Only ranges within one group are cached: [lower, upper) where both bounds have at least
//   `group_bytes` bytes and the same first `group_bytes` (one partition of a table or an index;
//   engine.h's group prefix). Every key in such a range has that group prefix.
// - Lookup(lower, upper, &token) returns an iterator over the cached contents of [lower, upper)
//   when a cached range of the same group covers it, or nullptr and sets `token` (taken BEFORE the
//   caller creates its own iterator). Cached contents are the latest committed ones: writers call
//   BeginWrite with their keys before applying a write and EndWrite after it, which drops the
//   cached range of each key's group, and no range of the shard is cached again until its shard
//   has no write in flight (LatestCache's protocol, keyed by group prefix).
// - Recording(cache, inner, lower, upper, token) wraps the caller's iterator over [lower, upper) (created
//   after the token was taken, reading the latest state): a walk of the whole range, SeekToFirst
//   then Next until it is not Valid (or SeekToLast then Prev), caches what it read when the range
//   holds at most kMaxRangeBytes, unless a write on the group's shard began or ended since the
//   token. Any other positioning stops the recording; the wrapper reads exactly what inner reads.
// - Cached iterators behave as engine.h's iterators over [lower, upper) at the time of Lookup.
// - BeginWriteAll/EndWriteAll bracket writes whose keys are not listed (range deletions).
// - Memory: at most `capacity_bytes` of encoded ranges (LatestCache's bound and eviction).
// - Thread-safe; the wrappers and cached iterators are used by one thread at a time, as any iterator.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.h"
#include "engine/latest_cache.h"

namespace monotable::engine {

class RangeCache {
 public:
  // The largest range cached, encoded (keys, values and 8 bytes an entry).
  static constexpr size_t kMaxRangeBytes = 64 << 10;

  RangeCache(size_t capacity_bytes, size_t group_bytes);

  bool Cacheable(std::string_view lower, std::string_view upper) const;
  std::unique_ptr<Iterator> Lookup(std::string_view lower, std::string_view upper, uint64_t* token);
  // The wrapper shares ownership of the cache: iterators may outlive the engine that made them.
  static std::unique_ptr<Iterator> Recording(std::shared_ptr<RangeCache> cache, std::unique_ptr<Iterator> inner,
                                             std::string lower, std::string upper, uint64_t token);

  void BeginWrite(const std::vector<std::string_view>& keys);
  void EndWrite(const std::vector<std::string_view>& keys);
  void BeginWriteAll() { groups_.BeginWriteAll(); }
  void EndWriteAll() { groups_.EndWriteAll(); }

 private:
  friend class RecordingIterator;
  std::vector<std::string_view> GroupsOf(const std::vector<std::string_view>& keys) const;

  const size_t group_bytes_;
  LatestCache groups_;  // group prefix -> the cached range of that group, encoded
};

}  // namespace monotable::engine
