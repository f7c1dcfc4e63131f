// LatestCache on its own: hits, the fill protocol around writes, range invalidation, the memory
// bound with CLOCK eviction, and its hash table against a model under random operations. (Through the RocksDB engine, racing readers and
// a writer: engine_test.cc, LatestReadsSeeEveryFinishedCommit.)
#include "engine/latest_cache.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

namespace monotable::engine {
namespace {

// What an engine does on a read that misses: take the token, read, fill.
void ReadThrough(LatestCache& cache, const std::string& key, const std::string& value_read) {
  uint64_t token = 0;
  if (!cache.Lookup(key, &token)) cache.Fill(key, token, value_read);
}

std::optional<std::string> Cached(LatestCache& cache, const std::string& key) {
  uint64_t token = 0;
  return cache.Lookup(key, &token);
}

TEST(LatestCacheTest, MissThenFillThenHit) {
  LatestCache cache(1 << 20);
  EXPECT_EQ(Cached(cache, "k"), std::nullopt);
  ReadThrough(cache, "k", "v1");
  EXPECT_EQ(Cached(cache, "k"), "v1");
}

TEST(LatestCacheTest, AWriteDropsTheKeyAndBlocksFillsUntilItEnds) {
  LatestCache cache(1 << 20);
  ReadThrough(cache, "k", "old");
  uint64_t token = 0;
  cache.BeginWrite({"k"});
  EXPECT_EQ(cache.Lookup("k", &token), std::nullopt);
  cache.Fill("k", token, "read during the write");  // the write is in flight: not cached
  EXPECT_EQ(cache.Lookup("k", &token), std::nullopt);
  cache.EndWrite({"k"});
  cache.Fill("k", token, "read before the write ended");  // token from before EndWrite: dropped
  EXPECT_EQ(cache.Lookup("k", &token), std::nullopt);
  cache.Fill("k", token, "new");
  EXPECT_EQ(cache.Lookup("k", &token), "new");
}

TEST(LatestCacheTest, ATokenTakenBeforeAWriteCannotFillAfterIt) {
  LatestCache cache(1 << 20);
  uint64_t token = 0;
  cache.Lookup("k", &token);  // a reader misses, then reads the engine slowly...
  cache.BeginWrite({"k"});
  cache.EndWrite({"k"});      // ...while a whole write happens
  cache.Fill("k", token, "maybe stale");
  EXPECT_EQ(cache.Lookup("k", &token), std::nullopt);
}

TEST(LatestCacheTest, RangeWritesClearEverything) {
  LatestCache cache(1 << 20);
  for (const char* k : {"a", "b", "c"}) ReadThrough(cache, k, k);
  uint64_t token = 0;
  cache.BeginWriteAll();
  for (const char* k : {"a", "b", "c"}) EXPECT_EQ(cache.Lookup(k, &token), std::nullopt);
  cache.Fill("a", token, "during");
  cache.EndWriteAll();
  EXPECT_EQ(cache.Lookup("a", &token), std::nullopt);
}

TEST(LatestCacheTest, StaysWithinItsCapacityKeepingWhatIsUsed) {
  // 64 shards of 4 KB each: a few 1 KB values per shard.
  LatestCache cache(64 * 4096);
  const std::string value(1000, 'x');
  ReadThrough(cache, "keep", value);
  int cached = 0;
  for (int i = 0; i < 2000; ++i) {
    ReadThrough(cache, "k" + std::to_string(i), value);
    EXPECT_TRUE(Cached(cache, "keep").has_value()) << i;  // used all along: never evicted
  }
  for (int i = 0; i < 2000; ++i) cached += Cached(cache, "k" + std::to_string(i)).has_value();
  EXPECT_GT(cached, 64);        // every shard keeps some
  EXPECT_LE(cached, 64 * 4);    // and no more than its share of the capacity
  EXPECT_TRUE(Cached(cache, "k1999").has_value());  // the newest survives (nothing came after it)
  EXPECT_FALSE(Cached(cache, "k0").has_value());
}

// Random fills, writes and reads over a few thousand keys, checked against a map of what the
// engine holds: with room for everything, the cache holds exactly what was filled and not written
// since (so the table's growth and backward-shift deletions lose and resurrect nothing); with
// little room, every hit still returns the engine's latest value.
void CheckAgainstModel(size_t capacity, bool expect_every_fill_kept) {
  LatestCache cache(capacity);
  std::map<std::string, std::string> engine;     // what a read of the engine returns
  std::map<std::string, std::string> filled;     // what the cache should hold, if it kept it all
  std::mt19937 random(7);
  for (int step = 0; step < 200000; ++step) {
    std::string key = "key#" + std::to_string(random() % 5000);
    switch (random() % 4) {
      case 0: {  // a write
        std::string value = "v" + std::to_string(step) + std::string(random() % 40, 'x');
        cache.BeginWrite({key});
        engine[key] = value;
        filled.erase(key);
        cache.EndWrite({key});
        break;
      }
      default: {  // a read through the cache
        uint64_t token = 0;
        auto hit = cache.Lookup(key, &token);
        auto held = engine.find(key);
        if (hit) {
          ASSERT_TRUE(held != engine.end()) << key;
          ASSERT_EQ(*hit, held->second) << key;
          if (expect_every_fill_kept) {
            ASSERT_EQ(filled.count(key), 1u) << key;
          }
        } else {
          if (expect_every_fill_kept) {
            ASSERT_EQ(filled.count(key), 0u) << key << " at " << step;
          }
          if (held != engine.end()) {
            cache.Fill(key, token, held->second);
            filled[key] = held->second;
          }
        }
      }
    }
  }
}

TEST(LatestCacheTest, HoldsExactlyWhatWasFilledAndNotWrittenSince) { CheckAgainstModel(64 << 20, true); }

TEST(LatestCacheTest, HitsStayCorrectWhileEvicting) { CheckAgainstModel(64 * 2048, false); }

TEST(LatestCacheTest, AValueLargerThanAShardIsNotCached) {
  LatestCache cache(64 * 1024);
  ReadThrough(cache, "big", std::string(2048, 'x'));
  EXPECT_EQ(Cached(cache, "big"), std::nullopt);
}

}  // namespace
}  // namespace monotable::engine
