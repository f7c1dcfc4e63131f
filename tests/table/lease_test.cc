// Lease (table/lease.h): one holder at a time among servers sharing a store, renewal, takeover
// once the hold runs out, on the partitioned test engine (two "servers": two stores on one state).
#include "table/lease.h"

#include <gtest/gtest.h>

#include <memory>

#include "engine/partitioned/partitioned_store.h"

namespace monotable::table {
namespace {

TEST(LeaseTest, OneHolderAtATimeAndTakeoverWhenTheHoldRunsOut) {
  auto state = engine::NewPartitionedState();
  auto store_a = engine::OpenPartitionedStore(state);
  auto store_b = engine::OpenPartitionedStore(state);
  auto now = std::make_shared<int64_t>(1'000'000);
  auto clock = [now] { return *now; };
  Lease a(*store_a, "ttl", 10'000, clock), b(*store_b, "ttl", 10'000, clock);
  Lease other_job(*store_b, "other", 10'000, clock);
  ASSERT_NE(a.holder(), b.holder());

  EXPECT_TRUE(a.TryHold().value());
  EXPECT_FALSE(b.TryHold().value());
  EXPECT_TRUE(other_job.TryHold().value());  // leases of different names are independent
  *now += 9'000;
  EXPECT_TRUE(a.TryHold().value());  // renewed: the hold now lasts until +19 s
  *now += 9'000;
  EXPECT_FALSE(b.TryHold().value());
  *now += 1'001;  // a stopped renewing: its hold ran out
  EXPECT_TRUE(b.TryHold().value());
  EXPECT_FALSE(a.TryHold().value());
}

}  // namespace
}  // namespace monotable::table
