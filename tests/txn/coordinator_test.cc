// The transaction coordinator (txn/coordinator.h) on both backends: commit and read back, a
// changed item, two transactions meeting on one item, TransactGetItems meeting a prepared item,
// token replays through the ledger, and the bank-transfer invariant under concurrency.
#include "txn/coordinator.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "txn_fixtures.h"

namespace monotable::txn {
namespace {

using Kind = TxnOutcome::Kind;

class CoordinatorTest : public ::testing::TestWithParam<bool> {
 protected:
  CoordinatorTest() : backend_(GetParam()), server_(backend_.OpenServer()) {}
  engine::PartitionStore& store() { return *server_->store; }
  Coordinator& coordinator() { return *server_->coordinator; }

  Backend backend_;
  std::unique_ptr<Server> server_;
  const std::string a_ = Pid(1, "a"), b_ = Pid(2, "b"), c_ = Pid(3, "c");
};

TEST_P(CoordinatorTest, CommitsAcrossPartitionsAndReadsBack) {
  ASSERT_TRUE(PutItem(store(), a_, "k", "a0").ok());
  ASSERT_TRUE(PutItem(store(), c_, "k", "c0").ok());
  ASSERT_TRUE(PutItem(store(), c_, "check", "x").ok());
  auto outcome = coordinator().Run({Write(a_, "k", "a0", "a1"), Write(b_, "k", std::nullopt, "b1"),
                                    Write(c_, "k", "c0", std::nullopt), Check(c_, "check", "x")},
                                   "token-1", "result bytes");
  ASSERT_TRUE(outcome.ok()) << outcome.status().message();
  EXPECT_EQ(outcome->kind, Kind::kCommitted);
  EXPECT_EQ(GetItem(store(), a_, "k"), "a1");
  EXPECT_EQ(GetItem(store(), b_, "k"), "b1");
  EXPECT_EQ(GetItem(store(), c_, "k"), std::nullopt);
  EXPECT_EQ(GetItem(store(), c_, "check"), "x");
  for (const std::string* pid : {&a_, &b_, &c_}) EXPECT_EQ(GetMarker(store(), *pid, "k"), std::nullopt);
  EXPECT_EQ(GetMarker(store(), c_, "check"), std::nullopt);

  auto read = coordinator().ReadItems({{kTable, a_, "k"}, {kTable, b_, "k"}, {kTable, c_, "k"}});
  ASSERT_TRUE(read.ok());
  ASSERT_EQ(read->kind, TxnReadOutcome::Kind::kRead);
  EXPECT_EQ(read->values, (std::vector<std::optional<std::string>>{"a1", "b1", std::nullopt}));

  // The ledger keeps the finished record, with the caller's bytes, for token replays.
  auto found = coordinator().Find("token-1");
  ASSERT_TRUE(found.ok());
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->state, LedgerState::kDone);
  EXPECT_EQ((*found)->result, "result bytes");
  EXPECT_EQ((*found)->writes.size(), 4u);

  // Every applied write's change record was logged and drained (trimmed: no resolver).
  size_t records = 0;
  ASSERT_TRUE(store().ReadLog({kTable, a_}, 0, [&](uint64_t, std::string_view) { return ++records, true; }).ok());
  EXPECT_EQ(records, 0u);

  // A replay of the same token answers committed and writes nothing again.
  ASSERT_TRUE(PutItem(store(), a_, "k", "later").ok());
  auto replay = coordinator().Run({Write(a_, "k", "a0", "a1")}, "token-1");
  ASSERT_TRUE(replay.ok());
  EXPECT_EQ(replay->kind, Kind::kCommitted);
  EXPECT_EQ(GetItem(store(), a_, "k"), "later");
}

TEST_P(CoordinatorTest, ChangedItemAbortsEverything) {
  ASSERT_TRUE(PutItem(store(), a_, "k", "a0").ok());
  ASSERT_TRUE(PutItem(store(), b_, "k", "changed").ok());
  auto outcome = coordinator().Run(
      {Write(a_, "k", "a0", "a1"), Write(b_, "k", "b0", "b1"), Write(c_, "k", std::nullopt, "c1")}, "token-2");
  ASSERT_TRUE(outcome.ok()) << outcome.status().message();
  EXPECT_EQ(outcome->kind, Kind::kItemChanged);
  EXPECT_EQ(outcome->index, 1u);
  EXPECT_EQ(GetItem(store(), a_, "k"), "a0");
  EXPECT_EQ(GetItem(store(), b_, "k"), "changed");
  EXPECT_EQ(GetItem(store(), c_, "k"), std::nullopt);
  for (const std::string* pid : {&a_, &b_, &c_}) EXPECT_EQ(GetMarker(store(), *pid, "k"), std::nullopt);
  // An aborted attempt leaves no record: the token may run again.
  EXPECT_FALSE(coordinator().Find("token-2").value().has_value());
  auto again = coordinator().Run({Write(b_, "k", "changed", "b1")}, "token-2");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->kind, Kind::kCommitted);
  EXPECT_EQ(GetItem(store(), b_, "k"), "b1");
}

TEST_P(CoordinatorTest, TwoWritesOfOneItemAreRefused) {
  auto outcome = coordinator().Run({Write(a_, "k", std::nullopt, "1"), Check(a_, "k", std::nullopt)});
  EXPECT_EQ(outcome.status().code(), ErrorCode::kValidation);
  EXPECT_TRUE(LedgerStates(store()).empty());
}

// Transaction 2 runs while transaction 1 holds its first item prepared: it meets the marker
// (kConflict), so does a TransactGetItems and a plain write guarding "marker absent"; transaction
// 1 then commits.
TEST_P(CoordinatorTest, PreparedItemConflictsWithOtherTransactionsAndReads) {
  ASSERT_TRUE(PutItem(store(), a_, "k", "a0").ok());
  HookedStore hooked(store());
  changelog::ChangeApplier applier(hooked, [](uint32_t) { return nullptr; });
  Coordinator first(hooked, applier);
  bool met = false;
  hooked.after_commit = [&](engine::PartitionRef p, size_t commit_number) {
    if (commit_number != 2) return;  // 1: the ledger record; 2: the prepare of a
    ASSERT_EQ(p.id, a_);
    auto second = coordinator().Run({Write(b_, "k", std::nullopt, "t2"), Write(a_, "k", "a0", "t2")});
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(second->kind, Kind::kConflict);
    EXPECT_EQ(second->index, 1u);
    auto read = coordinator().ReadItems({{kTable, b_, "k"}, {kTable, a_, "k"}});
    ASSERT_TRUE(read.ok());
    EXPECT_EQ(read->kind, TxnReadOutcome::Kind::kConflict);
    EXPECT_EQ(read->index, 1u);
    engine::PartitionWrite plain;
    plain.marker_guards.push_back({"k", std::nullopt});
    plain.mutations.push_back({"k", std::string("plain")});
    EXPECT_EQ(store().Commit({kTable, a_}, std::move(plain)).status().code(), ErrorCode::kGuardFailed);
    met = true;
  };
  auto outcome = first.Run({Write(a_, "k", "a0", "t1"), Write(c_, "k", std::nullopt, "t1")});
  hooked.after_commit = nullptr;
  ASSERT_TRUE(outcome.ok()) << outcome.status().message();
  EXPECT_TRUE(met);
  EXPECT_EQ(outcome->kind, Kind::kCommitted);
  EXPECT_EQ(GetItem(store(), a_, "k"), "t1");
  EXPECT_EQ(GetItem(store(), b_, "k"), std::nullopt);  // transaction 2 was rolled back
  EXPECT_EQ(GetItem(store(), c_, "k"), "t1");
  EXPECT_EQ(GetMarker(store(), b_, "k"), std::nullopt);
}

// A token whose transaction is still pending (its coordinator running, or dead and not yet
// recovered) answers TransactionInProgress.
TEST_P(CoordinatorTest, SameTokenWhilePendingIsInProgress) {
  HookedStore hooked(store());
  changelog::ChangeApplier applier(hooked, [](uint32_t) { return nullptr; });
  Coordinator first(hooked, applier);
  hooked.after_commit = [&](engine::PartitionRef, size_t commit_number) {
    if (commit_number != 1) return;
    auto again = coordinator().Run({Write(a_, "k", std::nullopt, "x")}, "token-3");
    EXPECT_EQ(again.status().code(), ErrorCode::kTransactionInProgress);
  };
  auto outcome = first.Run({Write(a_, "k", std::nullopt, "x")}, "token-3");
  hooked.after_commit = nullptr;
  ASSERT_TRUE(outcome.ok());
  EXPECT_EQ(outcome->kind, Kind::kCommitted);
}

// N accounts in separate partitions; threads move random amounts between two of them (read both,
// write both guarded on what was read), retrying conflicts and changed items. Another server
// runs Recover(0) all along when `aggressive_recovery`: it aborts live transactions it finds
// pending, which the movers see as conflicts. The sum never changes; no account goes negative.
void RunBank(Backend& backend, bool aggressive_recovery) {
  constexpr int kAccounts = 6;
  constexpr int kThreads = 4;
  constexpr int kTransfersPerThread = 150;
  constexpr int kInitial = 100;
  auto setup = backend.OpenServer();
  std::vector<std::string> accounts;
  for (int i = 0; i < kAccounts; ++i) {
    accounts.push_back(Pid(1000 + i, "acct" + std::to_string(i)));
    ASSERT_TRUE(PutItem(*setup->store, accounts.back(), "balance", std::to_string(kInitial)).ok());
  }
  std::atomic<int> conflicts{0}, changed{0}, read_conflicts{0}, committed{0};
  std::atomic<bool> stop{false};
  std::thread recoverer;
  if (aggressive_recovery) {
    recoverer = std::thread([&] {
      auto other = backend.OpenServer();
      while (!stop.load()) EXPECT_TRUE(other->coordinator->Recover(0).ok());
    });
  }
  std::vector<std::thread> movers;
  for (int t = 0; t < kThreads; ++t) {
    movers.emplace_back([&, t] {
      auto server = backend.OpenServer();
      std::mt19937 random(1234 + t);
      for (int done = 0; done < kTransfersPerThread;) {
        int from = static_cast<int>(random() % kAccounts);
        int to = static_cast<int>(random() % (kAccounts - 1));
        if (to >= from) ++to;
        auto read = server->coordinator->ReadItems(
            {{kTable, accounts[from], "balance"}, {kTable, accounts[to], "balance"}});
        ASSERT_TRUE(read.ok()) << read.status().message();
        if (read->kind == TxnReadOutcome::Kind::kConflict) {
          ++read_conflicts;
          continue;
        }
        ASSERT_TRUE(read->values[0] && read->values[1]);
        int from_balance = std::stoi(*read->values[0]);
        int to_balance = std::stoi(*read->values[1]);
        int amount = static_cast<int>(random() % 30) + 1;
        if (amount > from_balance) amount = from_balance;
        auto outcome = server->coordinator->Run(
            {Write(accounts[from], "balance", read->values[0], std::to_string(from_balance - amount)),
             Write(accounts[to], "balance", read->values[1], std::to_string(to_balance + amount))});
        ASSERT_TRUE(outcome.ok()) << outcome.status().message();
        if (outcome->kind == Kind::kConflict) {
          ++conflicts;
        } else if (outcome->kind == Kind::kItemChanged) {
          ++changed;
        } else {
          ++committed;
          ++done;
        }
      }
    });
  }
  for (auto& m : movers) m.join();
  stop = true;
  if (recoverer.joinable()) recoverer.join();
  auto check = backend.OpenServer();
  ASSERT_TRUE(check->coordinator->Recover(0).ok());
  int sum = 0;
  for (const std::string& account : accounts) {
    auto balance = GetItem(*check->store, account, "balance");
    ASSERT_TRUE(balance.has_value());
    EXPECT_GE(std::stoi(*balance), 0);
    sum += std::stoi(*balance);
    EXPECT_EQ(GetMarker(*check->store, account, "balance"), std::nullopt);
  }
  EXPECT_EQ(sum, kAccounts * kInitial);
  EXPECT_EQ(committed.load(), kThreads * kTransfersPerThread);
  EXPECT_FALSE(AnyUnfinished(*check->store));
  std::printf("bank: %d committed, %d conflicts, %d items changed, %d reads met a marker\n", committed.load(),
              conflicts.load(), changed.load(), read_conflicts.load());
}

TEST_P(CoordinatorTest, BankTransfersKeepTheSumUnderConcurrency) { RunBank(backend_, false); }

TEST_P(CoordinatorTest, BankTransfersKeepTheSumWhileAnotherServerRecovers) { RunBank(backend_, true); }

INSTANTIATE_TEST_SUITE_P(Backends, CoordinatorTest, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Partitioned" : "OrderedMemory";
                         });

}  // namespace
}  // namespace monotable::txn
