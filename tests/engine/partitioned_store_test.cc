// The partitioned test engine's own promises: partitions apart, fault injection between any two
// partition writes, and restart on what was applied.
#include "engine/partitioned/partitioned_store.h"

#include <gtest/gtest.h>

namespace monotable::engine {
namespace {

PartitionWrite Set(std::string key, std::string value) {
  PartitionWrite w;
  w.mutations.push_back({std::move(key), std::move(value)});
  return w;
}

std::optional<std::string> GetOr(PartitionStore& s, PartitionRef p, std::string_view k) {
  auto r = s.Get(p, k);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *r : std::nullopt;
}

TEST(PartitionedStoreTest, EachPartitionIsItsOwnEntryInTheDirectory) {
  auto state = NewPartitionedState();
  auto store = OpenPartitionedStore(state);
  ASSERT_TRUE(store->Commit({1, "\x01p"}, Set("a", "1")).ok());
  ASSERT_TRUE(store->Commit({1, "\x02q"}, Set("a", "1")).ok());
  ASSERT_TRUE(store->Commit({1, "\x01p"}, Set("b", "1")).ok());
  EXPECT_EQ(PartitionCount(*state, 1), 2u);
  EXPECT_EQ(PartitionWrites(*state), 3u);
}

TEST(PartitionedStoreTest, CrashBeforeAWriteLeavesItUnappliedAndStopsEverything) {
  auto state = NewPartitionedState();
  auto store = OpenPartitionedStore(state);
  CrashAfter(*state, 1);
  ASSERT_TRUE(store->Commit({1, "A"}, Set("k", "first")).ok());
  auto second = store->Commit({1, "B"}, Set("k", "second"));
  EXPECT_EQ(second.status().code(), ErrorCode::kIo);
  EXPECT_TRUE(Crashed(*state));
  // The "process" is gone: reads and writes of every partition fail.
  EXPECT_EQ(store->Get({1, "A"}, "k").status().code(), ErrorCode::kIo);
  EXPECT_EQ(store->Commit({1, "C"}, Set("k", "x")).status().code(), ErrorCode::kIo);
  Restart(*state);
  // A store opened before the restart stays dead; a new one sees exactly what was applied.
  EXPECT_EQ(store->Get({1, "A"}, "k").status().code(), ErrorCode::kIo);
  auto reopened = OpenPartitionedStore(state);
  EXPECT_EQ(GetOr(*reopened, {1, "A"}, "k"), "first");
  EXPECT_EQ(GetOr(*reopened, {1, "B"}, "k"), std::nullopt);
  EXPECT_EQ(GetOr(*reopened, {1, "C"}, "k"), std::nullopt);
}

TEST(PartitionedStoreTest, CrashAfterAWriteAppliesItButLosesTheAcknowledgment) {
  auto state = NewPartitionedState();
  auto store = OpenPartitionedStore(state);
  CrashAfter(*state, 0, CrashPoint::kAfterWrite);
  PartitionWrite w = Set("k", "v");
  w.log.push_back("rec");
  EXPECT_EQ(store->Commit({1, "A"}, std::move(w)).status().code(), ErrorCode::kIo);
  Restart(*state);
  auto reopened = OpenPartitionedStore(state);
  EXPECT_EQ(GetOr(*reopened, {1, "A"}, "k"), "v");
  int records = 0;
  ASSERT_TRUE(reopened->ReadLog({1, "A"}, 0, [&](uint64_t, std::string_view) { return ++records, true; }).ok());
  EXPECT_EQ(records, 1);
}

TEST(PartitionedStoreTest, GuardRefusalsAreNotWritesAndDoNotTripTheCrash) {
  auto state = NewPartitionedState();
  auto store = OpenPartitionedStore(state);
  CrashAfter(*state, 0);
  PartitionWrite w = Set("k", "v");
  w.guards.push_back({"k", std::string("absent-value")});
  EXPECT_EQ(store->Commit({1, "A"}, std::move(w)).status().code(), ErrorCode::kGuardFailed);
  EXPECT_FALSE(Crashed(*state));
  EXPECT_EQ(PartitionWrites(*state), 0u);
}

// A two-partition "transfer" written naively, one partition after the other: crashing between
// the two writes leaves the first applied and the second not. This is exactly the outcome the
// layers above must survive (through change logs and the transaction ledger).
TEST(PartitionedStoreTest, NothingIsAtomicAcrossPartitions) {
  for (uint64_t crash_at = 0; crash_at <= 2; ++crash_at) {
    auto state = NewPartitionedState();
    {
      auto store = OpenPartitionedStore(state);
      ASSERT_TRUE(store->Commit({1, "A"}, Set("balance", "10")).ok());
      ASSERT_TRUE(store->Commit({1, "B"}, Set("balance", "0")).ok());
      CrashAfter(*state, crash_at);
      Status st = store->Commit({1, "A"}, Set("balance", "5")).status();
      if (st.ok()) st = store->Commit({1, "B"}, Set("balance", "5")).status();
      EXPECT_EQ(st.ok(), crash_at == 2) << crash_at;
    }
    Restart(*state);
    auto store = OpenPartitionedStore(state);
    EXPECT_EQ(GetOr(*store, {1, "A"}, "balance"), crash_at >= 1 ? "5" : "10") << crash_at;
    EXPECT_EQ(GetOr(*store, {1, "B"}, "balance"), crash_at >= 2 ? "5" : "0") << crash_at;
  }
}

// A colocated keyspace's entries are inside their home partition's unit: one partition write with
// the item (a crash never separates them), and gone with the home keyspace.
TEST(PartitionedStoreTest, ColocatedEntriesAreOneWriteWithTheirHomePartition) {
  for (CrashPoint point : {CrashPoint::kBeforeWrite, CrashPoint::kAfterWrite}) {
    auto state = NewPartitionedState();
    auto store = OpenPartitionedStore(state);
    PartitionWrite w = Set("item", "v");
    w.local_mutations.push_back({2, "entry", std::string("e")});
    CrashAfter(*state, 0, point);
    EXPECT_EQ(store->Commit({1, "\x01p"}, std::move(w)).status().code(), ErrorCode::kIo);
    Restart(*state);
    auto after = OpenPartitionedStore(state);
    const bool applied = point == CrashPoint::kAfterWrite;
    EXPECT_EQ(GetOr(*after, {1, "\x01p"}, "item").has_value(), applied);
    EXPECT_EQ(GetOr(*after, {2, "\x01p", 1}, "entry").has_value(), applied);
    EXPECT_EQ(PartitionWrites(*state), applied ? 1u : 0u);
    EXPECT_EQ(PartitionCount(*state, 2), 0u);  // no partition of its own
    if (applied) {
      ASSERT_TRUE(after->DropKeyspace(1).ok());
      EXPECT_FALSE(GetOr(*after, {2, "\x01p", 1}, "entry").has_value());
    }
  }
}

}  // namespace
}  // namespace monotable::engine
