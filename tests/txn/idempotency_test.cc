// ClientRequestToken bookkeeping (txn/idempotency.h): decisions, records that outlive the cache
// (a restart), expiry in finish-time order, and the memory bound.
#include "txn/idempotency.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "changelog/keys.h"
#include "engine/ordered_store.h"

namespace monotable::txn {
namespace {

using Decision = IdempotencyCache::Decision;
using std::chrono::milliseconds;

struct FakeClock {
  std::shared_ptr<int64_t> now = std::make_shared<int64_t>(1'700'000'000'000);
  IdempotencyCache::Clock clock() const {
    return [now = now] { return *now; };
  }
  void Advance(int64_t ms) const { *now += ms; }
};

// Runs the token's transaction as the API does: Begin, commit its record, Finish.
void RunAndRecord(IdempotencyCache& cache, engine::Engine& engine, const std::string& token, const std::string& digest) {
  ASSERT_EQ(cache.Begin(token, digest).decision, Decision::kRun);
  engine::WriteBatch batch;
  batch.mutations = cache.RecordMutations(token);
  ASSERT_EQ(batch.mutations.size(), 2u);
  ASSERT_TRUE(engine.Commit(batch).ok());
  cache.Finish(token);
}

size_t SystemKeys(engine::Engine& engine) {
  auto it = engine.NewIterator(table::PrefixBytes(table::kSystemKeyPrefix), table::PrefixBytes(1));
  size_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
  return n;
}

TEST(IdempotencyCache, ReplaysTheSameRequestAndRefusesDifferentParameters) {
  auto engine = engine::NewMemoryEngine();
  auto store = engine::NewOrderedStore(*engine);
  IdempotencyCache cache(*store);
  EXPECT_EQ(cache.Begin("t1", "A").decision, Decision::kRun);
  EXPECT_EQ(cache.Begin("t1", "A").decision, Decision::kInProgress);
  EXPECT_EQ(cache.Begin("t1", "B").decision, Decision::kMismatch);
  engine::WriteBatch batch;
  batch.mutations = cache.RecordMutations("t1");
  ASSERT_TRUE(engine->Commit(batch).ok());
  cache.Finish("t1");
  EXPECT_EQ(cache.Begin("t1", "A").decision, Decision::kReplay);
  EXPECT_EQ(cache.Begin("t1", "B").decision, Decision::kMismatch);
  EXPECT_EQ(cache.Begin("t2", "B").decision, Decision::kRun);
}

TEST(IdempotencyCache, AbandonedAndExpiredTokensRunAgain) {
  auto engine = engine::NewMemoryEngine();
  auto store = engine::NewOrderedStore(*engine);
  FakeClock clock;
  IdempotencyCache cache(*store, milliseconds(600000), IdempotencyCache::kDefaultCapacity, clock.clock());
  EXPECT_EQ(cache.Begin("t", "A").decision, Decision::kRun);
  cache.Abandon("t");
  EXPECT_EQ(cache.RecordMutations("t").size(), 0u);  // nothing to record for an abandoned token
  RunAndRecord(cache, *engine, "t", "B");
  clock.Advance(600000);
  EXPECT_EQ(cache.Begin("t", "C").decision, Decision::kMismatch);  // still within the window
  clock.Advance(1);
  RunAndRecord(cache, *engine, "t", "C");  // expired: runs again, with other parameters
  EXPECT_EQ(cache.Begin("t", "C").decision, Decision::kReplay);
}

// The record commits with the transaction: a new cache on the same engine (a restart) replays the
// token, refuses it with other parameters, and runs it again only after the window.
TEST(IdempotencyCache, FinishedTokensSurviveARestart) {
  auto engine = engine::NewMemoryEngine();
  auto store = engine::NewOrderedStore(*engine);
  FakeClock clock;
  {
    IdempotencyCache before(*store, milliseconds(600000), IdempotencyCache::kDefaultCapacity, clock.clock());
    RunAndRecord(before, *engine, "tok", "digest-1");
    EXPECT_EQ(before.Begin("running", "x").decision, Decision::kRun);  // never recorded: lost with the crash
  }
  clock.Advance(599000);
  IdempotencyCache after(*store, milliseconds(600000), IdempotencyCache::kDefaultCapacity, clock.clock());
  EXPECT_EQ(after.Begin("tok", "digest-1").decision, Decision::kReplay);
  EXPECT_EQ(after.Begin("tok", "digest-2").decision, Decision::kMismatch);
  EXPECT_EQ(after.Begin("running", "x").decision, Decision::kRun);
  clock.Advance(2000);
  IdempotencyCache later(*store, milliseconds(600000), IdempotencyCache::kDefaultCapacity, clock.clock());
  EXPECT_EQ(later.Begin("tok", "digest-2").decision, Decision::kRun);
}

// Memory holds at most the capacity's worth of finished tokens; the ones it dropped are still
// answered from the engine.
TEST(IdempotencyCache, MemoryIsBoundedAndDroppedTokensStillReplay) {
  auto engine = engine::NewMemoryEngine();
  auto store = engine::NewOrderedStore(*engine);
  FakeClock clock;
  const size_t capacity = 64;
  IdempotencyCache cache(*store, milliseconds(600000), capacity, clock.clock());
  for (int i = 0; i < 2000; ++i) {
    RunAndRecord(cache, *engine, "tok" + std::to_string(i), "d" + std::to_string(i));
    clock.Advance(1);
  }
  EXPECT_LE(cache.MemoryEntries(), capacity + IdempotencyCache::kShards);
  EXPECT_EQ(cache.Begin("tok0", "d0").decision, Decision::kReplay);
  EXPECT_EQ(cache.Begin("tok1", "other").decision, Decision::kMismatch);
}

// Records past the window leave the engine oldest first, a bounded batch at a time; younger ones
// and a token that ran again after expiring stay.
TEST(IdempotencyCache, ExpiryRemovesOldRecordsInTimeOrder) {
  auto engine = engine::NewMemoryEngine();
  auto store = engine::NewOrderedStore(*engine);
  FakeClock clock;
  IdempotencyCache cache(*store, milliseconds(1000), IdempotencyCache::kDefaultCapacity, clock.clock());
  for (int i = 0; i < 1500; ++i) RunAndRecord(cache, *engine, "old" + std::to_string(i), "d");
  clock.Advance(500);
  RunAndRecord(cache, *engine, "young", "d");
  EXPECT_EQ(SystemKeys(*engine), 2u * 1501);
  clock.Advance(600);  // the 1,500 old ones are past the window, "young" is not
  // "old7" expired and runs again: a new record. Its Finish also expires the oldest batch (Finish
  // does so at most once a second): 1,000 of the old tokens, not yet old7's first index entry.
  RunAndRecord(cache, *engine, "old7", "e");
  EXPECT_EQ(SystemKeys(*engine), 2u * 1501 + 1 - 2 * IdempotencyCache::kExpiryBatch);
  auto second = cache.ExpireRecords();
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(*second, 500u);
  EXPECT_EQ(*cache.ExpireRecords(), 0u);
  EXPECT_EQ(SystemKeys(*engine), 4u);  // young's and old7's new record and index keys
  IdempotencyCache restarted(*store, milliseconds(1000), IdempotencyCache::kDefaultCapacity, clock.clock());
  EXPECT_EQ(restarted.Begin("young", "d").decision, Decision::kReplay);
  EXPECT_EQ(restarted.Begin("old7", "e").decision, Decision::kReplay);
  EXPECT_EQ(restarted.Begin("old8", "x").decision, Decision::kRun);
}

}  // namespace
}  // namespace monotable::txn
