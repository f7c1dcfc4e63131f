// RangeCache on its own, over the memory engine's iterators: which ranges are cached, what a walk
// records (forward, backward, partial, repositioned, too large), cached iterators against the
// engine's own over the same range, and the fill protocol around writes. (Through the RocksDB
// engine, racing readers and a writer: rocksdb_engine_test.cc, RangeReadsSeeEveryFinishedCommit.)
#include "engine/range_cache.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "engine/engine.h"

namespace monotable::engine {
namespace {

using KVs = std::vector<std::pair<std::string, std::string>>;

constexpr size_t kGroup = 2;  // "g1": the group of keys "g1..."

class RangeCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteBatch b;
    for (int i = 0; i < 10; ++i) b.mutations.push_back({"g1" + std::to_string(i), "v" + std::to_string(i)});
    b.mutations.push_back({"g2a", "other group"});
    ASSERT_TRUE(engine_->Commit(b).ok());
  }

  // What the engine does: a hit, or the engine's iterator wrapped for recording.
  std::unique_ptr<Iterator> Open(const std::string& lower, const std::string& upper, bool* hit = nullptr) {
    uint64_t token = 0;
    auto cached = cache_->Lookup(lower, upper, &token);
    if (hit) *hit = cached != nullptr;
    if (cached) return cached;
    return RangeCache::Recording(cache_, engine_->NewIterator(lower, upper), lower, upper, token);
  }

  static KVs Walk(Iterator& it, bool backward = false) {
    KVs out;
    for (backward ? it.SeekToLast() : it.SeekToFirst(); it.Valid(); backward ? it.Prev() : it.Next()) {
      out.emplace_back(it.key(), it.value());
    }
    EXPECT_TRUE(it.status().ok());
    return out;
  }

  bool Hits(const std::string& lower, const std::string& upper) {
    uint64_t token = 0;
    return cache_->Lookup(lower, upper, &token) != nullptr;
  }

  KVs Direct(const std::string& lower, const std::string& upper, bool backward = false) {
    auto it = engine_->NewIterator(lower, upper);
    return Walk(*it, backward);
  }

  std::unique_ptr<Engine> engine_ = NewMemoryEngine();
  std::shared_ptr<RangeCache> cache_ =
      std::make_shared<RangeCache>(8 << 20, kGroup);  // 128 KB a shard: the largest range fits
};

TEST_F(RangeCacheTest, OnlyRangesWithinOneGroupAreCacheable) {
  EXPECT_TRUE(cache_->Cacheable("g1", "g1z"));
  EXPECT_TRUE(cache_->Cacheable("g10", "g15"));
  EXPECT_FALSE(cache_->Cacheable("g1", "g2"));                   // two groups
  EXPECT_FALSE(cache_->Cacheable("g", "g1z"));                   // a bound shorter than the group prefix
  EXPECT_FALSE(cache_->Cacheable("g10", ""));                    // no upper bound
  EXPECT_FALSE(RangeCache(1 << 20, 0).Cacheable("g10", "g15"));  // no groups: nothing cached
}

TEST_F(RangeCacheTest, AWholeWalkIsCachedAndServesTheRangeAndItsSubranges) {
  bool hit = true;
  auto first = Open("g1", "g1z", &hit);
  EXPECT_FALSE(hit);
  KVs all = Walk(*first);
  EXPECT_EQ(all, Direct("g1", "g1z"));
  ASSERT_EQ(all.size(), 10u);
  auto again = Open("g1", "g1z", &hit);
  EXPECT_TRUE(hit);
  EXPECT_EQ(Walk(*again), all);
  EXPECT_EQ(Walk(*again, /*backward=*/true), Direct("g1", "g1z", true));
  // Subranges of the cached one come from it; a wider one does not.
  for (auto [lo, hi] : std::vector<std::pair<std::string, std::string>>{
           {"g13", "g17"}, {"g1", "g10"}, {"g19", "g1z"}, {"g15", "g15"}}) {
    auto sub = Open(lo, hi, &hit);
    EXPECT_TRUE(hit) << lo << " " << hi;
    EXPECT_EQ(Walk(*sub), Direct(lo, hi)) << lo << " " << hi;
  }
  EXPECT_FALSE(Hits("g0", "g1z"));
  EXPECT_FALSE(Hits("g1", "g1zz"));
}

TEST_F(RangeCacheTest, CachedIteratorsPositionAsTheEnginesDo) {
  Walk(*Open("g1", "g1z"));
  bool hit = false;
  auto cached = Open("g1", "g1z", &hit);
  ASSERT_TRUE(hit);
  auto engine = engine_->NewIterator("g1", "g1z");
  auto same = [&] {
    ASSERT_EQ(cached->Valid(), engine->Valid());
    if (engine->Valid()) {
      EXPECT_EQ(cached->key(), engine->key());
      EXPECT_EQ(cached->value(), engine->value());
    }
  };
  std::mt19937 rng(7);
  const std::vector<std::string> targets = {"", "g", "g1", "g10", "g105", "g15", "g19", "g199", "g1z", "h"};
  auto both = [&](auto move) {  // the same move on the cached iterator and on the engine's
    move(*cached);
    move(*engine);
  };
  for (int step = 0; step < 2000; ++step) {
    const std::string& t = targets[rng() % targets.size()];
    switch (rng() % 6) {
      case 0: both([](Iterator& it) { it.SeekToFirst(); }); break;
      case 1: both([](Iterator& it) { it.SeekToLast(); }); break;
      case 2: both([&](Iterator& it) { it.Seek(t); }); break;
      case 3: both([&](Iterator& it) { it.SeekForPrev(t); }); break;
      case 4: both([](Iterator& it) { it.Next(); }); break;
      case 5: both([](Iterator& it) { it.Prev(); }); break;
    }
    same();
  }
}

TEST_F(RangeCacheTest, ABackwardWalkIsCachedInKeyOrder) {
  KVs backward = Walk(*Open("g1", "g1z"), /*backward=*/true);
  EXPECT_EQ(backward, Direct("g1", "g1z", true));
  bool hit = false;
  auto cached = Open("g1", "g1z", &hit);
  EXPECT_TRUE(hit);
  EXPECT_EQ(Walk(*cached), Direct("g1", "g1z"));
}

TEST_F(RangeCacheTest, AnEmptyRangeIsCachedToo) {
  EXPECT_TRUE(Walk(*Open("g3", "g3z")).empty());
  EXPECT_TRUE(Hits("g3", "g3z"));
}

TEST_F(RangeCacheTest, PartialOrRepositionedWalksAreNotCached) {
  {
    auto it = Open("g1", "g1z");
    it->SeekToFirst();
    it->Next();  // stops before the end (a Limit)
  }
  EXPECT_FALSE(Hits("g1", "g1z"));
  {
    auto it = Open("g1", "g1z");  // a page after an ExclusiveStartKey
    for (it->Seek("g13"); it->Valid(); it->Next()) {
    }
  }
  EXPECT_FALSE(Hits("g1", "g1z"));
  {
    auto it = Open("g1", "g1z");  // a change of direction
    it->SeekToFirst();
    it->Next();
    it->Prev();
    for (; it->Valid(); it->Next()) {
    }
  }
  EXPECT_FALSE(Hits("g1", "g1z"));
  {
    auto it = Open("g1", "g1z");  // a whole walk after a partial one on the same iterator
    it->SeekToLast();
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
    }
  }
  EXPECT_FALSE(Hits("g1", "g1z"));
}

TEST_F(RangeCacheTest, RangesOverTheSizeLimitAreNotCached) {
  WriteBatch b;
  const std::string big(RangeCache::kMaxRangeBytes / 4, 'x');
  for (int i = 0; i < 4; ++i) b.mutations.push_back({"g5" + std::to_string(i), big});
  ASSERT_TRUE(engine_->Commit(b).ok());
  EXPECT_EQ(Walk(*Open("g5", "g5z")).size(), 4u);
  EXPECT_FALSE(Hits("g5", "g5z"));
  EXPECT_EQ(Walk(*Open("g5", "g52")).size(), 2u);  // a smaller part of it is
  EXPECT_TRUE(Hits("g5", "g52"));
}

TEST_F(RangeCacheTest, AWriteInTheGroupDropsItsRangeAndBlocksFillsUntilItEnds) {
  Walk(*Open("g1", "g1z"));
  ASSERT_TRUE(Hits("g1", "g1z"));
  cache_->BeginWrite({"g2a"});  // another group's key: the range stays
  cache_->EndWrite({"g2a"});
  EXPECT_TRUE(Hits("g1", "g1z"));
  cache_->BeginWrite({"g1new"});  // a new key inside the range drops it
  EXPECT_FALSE(Hits("g1", "g1z"));
  Walk(*Open("g1", "g1z"));  // read while the write is in flight: not cached
  EXPECT_FALSE(Hits("g1", "g1z"));
  cache_->EndWrite({"g1new"});
  EXPECT_FALSE(Hits("g1", "g1z"));
  Walk(*Open("g1", "g1z"));
  EXPECT_TRUE(Hits("g1", "g1z"));
}

TEST_F(RangeCacheTest, AWriteBetweenTheTokenAndTheWalksEndPreventsTheFill) {
  auto it = Open("g1", "g1z");  // token taken, iterator created
  it->SeekToFirst();
  cache_->BeginWrite({"g1x"});
  cache_->EndWrite({"g1x"});
  for (; it->Valid(); it->Next()) {
  }
  EXPECT_FALSE(Hits("g1", "g1z"));
}

TEST_F(RangeCacheTest, RangeWritesDropEverything) {
  Walk(*Open("g1", "g1z"));
  cache_->BeginWriteAll();
  EXPECT_FALSE(Hits("g1", "g1z"));
  cache_->EndWriteAll();
  EXPECT_FALSE(Hits("g1", "g1z"));
}

}  // namespace
}  // namespace monotable::engine
