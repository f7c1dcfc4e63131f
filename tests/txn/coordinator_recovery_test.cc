// Crashes and recovery of transactions on the partitioned test engine (txn/coordinator.h): a
// crash before or after every partition write of a 3-partition transaction, then any server's
// Recover(), leaves it wholly applied or wholly absent, with no marker and no unfinished record;
// two servers recover concurrently; a transaction whose coordinator died is finished by another.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "txn_fixtures.h"

namespace monotable::txn {
namespace {

using engine::CrashPoint;

const std::string kA = Pid(1, "a"), kB = Pid(2, "b"), kC = Pid(3, "c");

std::vector<TxnWrite> ThreeWrites() {
  return {Write(kA, "k", "a0", "a1"), Write(kB, "k", std::nullopt, "b1"), Write(kC, "k", "c0", std::nullopt)};
}

void PutInitialItems(engine::PartitionStore& store) {
  ASSERT_TRUE(PutItem(store, kA, "k", "a0").ok());
  ASSERT_TRUE(PutItem(store, kC, "k", "c0").ok());
}

// "new": all three hold the transaction's values; "old": none does; "torn" otherwise.
std::string Outcome(engine::PartitionStore& store) {
  auto a = GetItem(store, kA, "k"), b = GetItem(store, kB, "k"), c = GetItem(store, kC, "k");
  if (a == "a1" && b == "b1" && c == std::nullopt) return "new";
  if (a == "a0" && b == std::nullopt && c == "c0") return "old";
  return "torn: a=" + a.value_or("-") + " b=" + b.value_or("-") + " c=" + c.value_or("-");
}

void ExpectSettled(engine::PartitionStore& store) {
  for (const std::string* pid : {&kA, &kB, &kC}) EXPECT_EQ(GetMarker(store, *pid, "k"), std::nullopt);
  EXPECT_FALSE(AnyUnfinished(store));
  size_t records = 0;
  for (const std::string* pid : {&kA, &kB, &kC}) {
    ASSERT_TRUE(store.ReadLog({kTable, *pid}, 0, [&](uint64_t, std::string_view) { return ++records, true; }).ok());
  }
  EXPECT_EQ(records, 0u) << "change records left undrained";
}

// For n = 0, 1, 2, ...: crash at partition write n + 1 (not applied, or applied with its
// acknowledgment lost), restart, recover from a new server; until a run completes uncrashed.
TEST(CoordinatorRecoveryTest, CrashAtEveryStepLeavesAllOrNothing) {
  for (CrashPoint point : {CrashPoint::kBeforeWrite, CrashPoint::kAfterWrite}) {
    int old_outcomes = 0, new_outcomes = 0;
    for (uint64_t n = 0;; ++n) {
      SCOPED_TRACE("crash after " + std::to_string(n) + " writes, " +
                   (point == CrashPoint::kBeforeWrite ? "before" : "after") + " the write");
      auto state = engine::NewPartitionedState();
      {
        Server setup(engine::OpenPartitionedStore(state));
        PutInitialItems(*setup.store);
      }
      Server doomed(engine::OpenPartitionedStore(state));
      engine::CrashAfter(*state, n, point);
      auto outcome = doomed.coordinator->Run(ThreeWrites(), "token");
      if (!engine::Crashed(*state)) {
        ASSERT_TRUE(outcome.ok()) << outcome.status().message();
        EXPECT_EQ(outcome->kind, TxnOutcome::Kind::kCommitted);
        EXPECT_EQ(Outcome(*doomed.store), "new");
        ExpectSettled(*doomed.store);
        EXPECT_GT(n, 8u);  // ledger, 3 prepares, decision, 3 applies (and trims), done
        break;
      }
      EXPECT_FALSE(outcome.ok());
      engine::Restart(*state);
      Server survivor(engine::OpenPartitionedStore(state));
      ASSERT_TRUE(survivor.coordinator->Recover(0).ok());
      std::string result = Outcome(*survivor.store);
      EXPECT_TRUE(result == "new" || result == "old") << result;
      (result == "new" ? new_outcomes : old_outcomes)++;
      ExpectSettled(*survivor.store);
      // A retry of the token after the restart answers as the recovered transaction ended.
      auto replay = survivor.coordinator->Run(ThreeWrites(), "token");
      ASSERT_TRUE(replay.ok()) << replay.status().message();
      EXPECT_EQ(replay->kind, TxnOutcome::Kind::kCommitted);
      EXPECT_EQ(Outcome(*survivor.store), "new");
      ASSERT_LT(n, 100u) << "the transaction never completed";
    }
    EXPECT_GT(old_outcomes, 0);
    EXPECT_GT(new_outcomes, 0);
  }
}

// Coordinator A dies right after preparing all three items (before or after its decision is
// written); B, on the same state after the restart, settles it: rolled back, or applied.
TEST(CoordinatorRecoveryTest, AnotherServerFinishesWhatADeadCoordinatorLeft) {
  for (CrashPoint point : {CrashPoint::kBeforeWrite, CrashPoint::kAfterWrite}) {
    auto state = engine::NewPartitionedState();
    Server a(engine::OpenPartitionedStore(state));
    PutInitialItems(*a.store);
    engine::CrashAfter(*state, 4, point);  // ledger record + 3 prepares, then the decision
    EXPECT_FALSE(a.coordinator->Run(ThreeWrites(), "token").ok());
    ASSERT_TRUE(engine::Crashed(*state));
    engine::Restart(*state);
    Server b(engine::OpenPartitionedStore(state));
    // Held items conflict until recovery.
    EXPECT_EQ(GetMarker(*b.store, kA, "k").has_value(), true);
    auto read = b.coordinator->ReadItems({{kTable, kB, "k"}});
    ASSERT_TRUE(read.ok());
    EXPECT_EQ(read->kind, TxnReadOutcome::Kind::kConflict);
    // A pending record younger than the staleness bound is left to its (presumed live) coordinator.
    ASSERT_TRUE(b.coordinator->Recover(60'000).ok());
    if (point == CrashPoint::kBeforeWrite) {
      EXPECT_EQ(GetMarker(*b.store, kA, "k").has_value(), true);
      ASSERT_TRUE(b.coordinator->Recover(0).ok());
      EXPECT_EQ(Outcome(*b.store), "old");
      EXPECT_FALSE(b.coordinator->Find("token").value().has_value() &&
                   b.coordinator->Find("token").value()->state != LedgerState::kAborted);
    } else {
      EXPECT_EQ(Outcome(*b.store), "new");  // committed records are finished whatever their age
      EXPECT_EQ(b.coordinator->Find("token").value()->state, LedgerState::kDone);
    }
    ExpectSettled(*b.store);
  }
}

// Two servers recover the same dead transactions at once, for every crash point: the outcome is
// still all or nothing, and neither recoverer fails.
TEST(CoordinatorRecoveryTest, TwoServersRecoverConcurrently) {
  for (uint64_t n = 1; n < 9; ++n) {
    for (CrashPoint point : {CrashPoint::kBeforeWrite, CrashPoint::kAfterWrite}) {
      SCOPED_TRACE("crash after " + std::to_string(n) + " writes");
      auto state = engine::NewPartitionedState();
      Server doomed(engine::OpenPartitionedStore(state));
      PutInitialItems(*doomed.store);
      engine::CrashAfter(*state, n, point);
      (void)doomed.coordinator->Run(ThreeWrites());
      engine::Restart(*state);
      Server b(engine::OpenPartitionedStore(state)), c(engine::OpenPartitionedStore(state));
      Status from_b, from_c;
      std::thread tb([&] { from_b = b.coordinator->Recover(0); });
      std::thread tc([&] { from_c = c.coordinator->Recover(0); });
      tb.join();
      tc.join();
      EXPECT_TRUE(from_b.ok()) << from_b.message();
      EXPECT_TRUE(from_c.ok()) << from_c.message();
      std::string result = Outcome(*b.store);
      EXPECT_TRUE(result == "new" || result == "old") << result;
      ExpectSettled(*b.store);
    }
  }
}

}  // namespace
}  // namespace monotable::txn
