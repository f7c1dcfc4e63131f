#include "txn/idempotency.h"

#include <gtest/gtest.h>

#include <thread>

namespace monotable::txn {
namespace {

using Decision = IdempotencyCache::Decision;

TEST(IdempotencyCache, ReplaysTheSameRequestAndRefusesDifferentParameters) {
  IdempotencyCache cache;
  EXPECT_EQ(cache.Begin("t1", "A").decision, Decision::kRun);
  EXPECT_EQ(cache.Begin("t1", "A").decision, Decision::kInProgress);
  EXPECT_EQ(cache.Begin("t1", "B").decision, Decision::kMismatch);
  cache.Finish("t1", "{answer}");
  auto replay = cache.Begin("t1", "A");
  EXPECT_EQ(replay.decision, Decision::kReplay);
  EXPECT_EQ(replay.response, "{answer}");
  EXPECT_EQ(cache.Begin("t1", "B").decision, Decision::kMismatch);
  EXPECT_EQ(cache.Begin("t2", "B").decision, Decision::kRun);
}

TEST(IdempotencyCache, AbandonedAndExpiredTokensRunAgain) {
  IdempotencyCache cache(std::chrono::milliseconds(20));
  EXPECT_EQ(cache.Begin("t", "A").decision, Decision::kRun);
  cache.Abandon("t");
  EXPECT_EQ(cache.Begin("t", "B").decision, Decision::kRun);
  cache.Finish("t", "x");
  std::this_thread::sleep_for(std::chrono::milliseconds(40));
  EXPECT_EQ(cache.Begin("t", "C").decision, Decision::kRun);
}

}  // namespace
}  // namespace monotable::txn
