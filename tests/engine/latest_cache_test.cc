// LatestCache on its own: hits, the fill protocol around writes, range invalidation, and the
// memory bound with least-recently-used eviction. (Through the RocksDB engine, racing readers and
// a writer: engine_test.cc, LatestReadsSeeEveryFinishedCommit.)
#include "engine/latest_cache.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace monotable::engine {
namespace {

TEST(LatestCacheTest, MissThenFillThenHit) {
  LatestCache cache(1 << 20);
  uint64_t token = 0;
  EXPECT_EQ(cache.Lookup("k", &token), std::nullopt);
  cache.Fill("k", token, "v1");
  EXPECT_EQ(cache.Lookup("k", &token), "v1");
}

TEST(LatestCacheTest, AWriteDropsTheKeyAndBlocksFillsUntilItEnds) {
  LatestCache cache(1 << 20);
  uint64_t token = 0;
  cache.Lookup("k", &token);
  cache.Fill("k", token, "old");
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
  uint64_t token = 0;
  for (const char* k : {"a", "b", "c"}) {
    cache.Lookup(k, &token);
    cache.Fill(k, token, k);
  }
  cache.BeginWriteAll();
  for (const char* k : {"a", "b", "c"}) EXPECT_EQ(cache.Lookup(k, &token), std::nullopt);
  cache.Fill("a", token, "during");
  cache.EndWriteAll();
  EXPECT_EQ(cache.Lookup("a", &token), std::nullopt);
}

TEST(LatestCacheTest, StaysWithinItsCapacityEvictingTheLeastRecentlyUsed) {
  // 64 shards of 4 KB each: a few 1 KB values per shard.
  LatestCache cache(64 * 4096);
  const std::string value(1000, 'x');
  uint64_t token = 0;
  cache.Lookup("keep", &token);
  cache.Fill("keep", token, value);
  int cached = 0;
  for (int i = 0; i < 2000; ++i) {
    const std::string key = "k" + std::to_string(i);
    cache.Lookup(key, &token);
    cache.Fill(key, token, value);
    EXPECT_TRUE(cache.Lookup("keep", &token).has_value()) << i;  // used all along: never evicted
  }
  for (int i = 0; i < 2000; ++i) cached += cache.Lookup("k" + std::to_string(i), &token).has_value();
  EXPECT_GT(cached, 64);        // every shard keeps some
  EXPECT_LE(cached, 64 * 4);    // and no more than its share of the capacity
  EXPECT_TRUE(cache.Lookup("k1999", &token).has_value());  // the most recent survives
  EXPECT_FALSE(cache.Lookup("k0", &token).has_value());
}

TEST(LatestCacheTest, AValueLargerThanAShardIsNotCached) {
  LatestCache cache(64 * 1024);
  uint64_t token = 0;
  cache.Lookup("big", &token);
  cache.Fill("big", token, std::string(2048, 'x'));
  EXPECT_EQ(cache.Lookup("big", &token), std::nullopt);
}

}  // namespace
}  // namespace monotable::engine
