// The PartitionStore contract (engine.h, part 1) as one typed test suite, instantiated for every
// backend: partition_store_test.cc (the ordered adapter over the memory engine and over RocksDB,
// the partitioned test engine) and rados_store_test.cc (Ceph RADOS, when a cluster is given).
//
// A backend is a struct with Open() -> std::unique_ptr<PartitionStore> (called again by Reopen()
// after Close(); the state must survive that) and Close(); an optional static SkipReason() that
// answers non-empty skips every test with that reason. Each instance must start empty.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "engine/engine.h"

namespace monotable::engine {

// A partition id as the table layer makes them: an 8-byte hash, then a self-delimiting name.
inline std::string Pid(uint64_t hash, std::string_view name) {
  std::string out;
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>((hash >> shift) & 0xff));
  out.append(name);
  out.append("\0\1", 2);
  return out;
}

using KVs = std::vector<std::pair<std::string, std::string>>;

// A write that appends `log` records and puts `mutations`.
inline PartitionWrite Logged(std::vector<std::string> log, std::vector<Mutation> mutations = {}) {
  PartitionWrite w;
  w.mutations = std::move(mutations);
  w.log = std::move(log);
  return w;
}

template <typename Backend>
class PartitionStoreContract : public ::testing::Test {
 protected:
  void SetUp() override {
    if constexpr (requires { Backend::SkipReason(); }) {
      std::string why = Backend::SkipReason();
      if (!why.empty()) GTEST_SKIP() << why;
    }
    store_ = backend_.Open();
    ASSERT_NE(store_, nullptr);
  }
  void Reopen() {
    store_.reset();
    backend_.Close();
    store_ = backend_.Open();
  }

  Status Put(PartitionRef p, std::string sort, std::string value, std::vector<std::string> log = {}) {
    PartitionWrite w;
    w.mutations.push_back({std::move(sort), std::move(value)});
    w.log = std::move(log);
    return store_->Commit(p, std::move(w)).status();
  }
  KVs Range(PartitionRef p, std::string_view lower, std::string_view upper, bool forward, size_t max = 1000) {
    KVs out;
    Status st = store_->ReadRange(p, {lower, upper, forward}, [&](std::string_view k, std::string_view v) {
      out.emplace_back(k, v);
      return out.size() < max;
    });
    EXPECT_TRUE(st.ok()) << st.message();
    return out;
  }
  KVs Scan(KeyspaceRef keyspace, std::string_view lower, std::string_view upper) {
    KVs out;
    Status st = store_->ScanKeyspace(keyspace, lower, upper, [&](std::string_view k, std::string_view v) {
      out.emplace_back(k, v);
      return true;
    });
    EXPECT_TRUE(st.ok()) << st.message();
    return out;
  }
  std::vector<std::pair<uint64_t, std::string>> Log(PartitionRef p, uint64_t after) {
    std::vector<std::pair<uint64_t, std::string>> out;
    Status st = store_->ReadLog(p, after, [&](uint64_t pos, std::string_view r) {
      out.emplace_back(pos, r);
      return true;
    });
    EXPECT_TRUE(st.ok()) << st.message();
    return out;
  }

  Backend backend_;
  std::unique_ptr<PartitionStore> store_;
};

TYPED_TEST_SUITE_P(PartitionStoreContract);

TYPED_TEST_P(PartitionStoreContract, GuardedCommitAppliesAllOrNothing) {
  std::string a = Pid(1, "a");
  PartitionRef p{7, a};
  ASSERT_TRUE(this->Put(p, "x", "1").ok());
  PartitionWrite w;
  w.guards.push_back({"x", std::string("1")});
  w.guards.push_back({"y", std::nullopt});
  w.mutations.push_back({"x", std::string("2")});
  w.mutations.push_back({"y", std::string("new")});
  w.log.push_back("rec");
  auto ok = this->store_->Commit(p, w);
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_EQ(ok->first_log_position, 1u);
  // The same write again: its guards no longer hold; nothing applied, nothing appended.
  w.mutations[0].value = "3";
  auto refused = this->store_->Commit(p, w);
  EXPECT_EQ(refused.status().code(), ErrorCode::kGuardFailed);
  EXPECT_EQ(*this->store_->Get(p, "x").value(), "2");
  EXPECT_EQ(*this->store_->Get(p, "y").value(), "new");
  EXPECT_EQ(this->Log(p, 0).size(), 1u);
  // Delete through a guarded commit.
  PartitionWrite del;
  del.guards.push_back({"y", std::string("new")});
  del.mutations.push_back({"y", std::nullopt});
  ASSERT_TRUE(this->store_->Commit(p, std::move(del)).ok());
  EXPECT_FALSE(this->store_->Get(p, "y").value().has_value());
  // The same sort key in another partition or keyspace is another key.
  std::string b = Pid(1, "ab");
  EXPECT_FALSE(this->store_->Get({7, b}, "x").value().has_value());
  EXPECT_FALSE(this->store_->Get({8, a}, "x").value().has_value());
}

TYPED_TEST_P(PartitionStoreContract, RangesStayInsideTheirPartitionInBothDirections) {
  std::string a = Pid(5, "a"), ab = Pid(5, "ab"), c = Pid(4, "c");
  for (const char* s : {"1", "2", "3", "4"}) ASSERT_TRUE(this->Put({3, a}, s, std::string("a") + s).ok());
  ASSERT_TRUE(this->Put({3, ab}, "0", "ab0").ok());
  ASSERT_TRUE(this->Put({3, c}, "9", "c9").ok());
  ASSERT_TRUE(this->Put({4, a}, "5", "other keyspace").ok());
  EXPECT_EQ(this->Range({3, a}, "", "", true), (KVs{{"1", "a1"}, {"2", "a2"}, {"3", "a3"}, {"4", "a4"}}));
  EXPECT_EQ(this->Range({3, a}, "", "", false), (KVs{{"4", "a4"}, {"3", "a3"}, {"2", "a2"}, {"1", "a1"}}));
  EXPECT_EQ(this->Range({3, a}, "2", "4", true), (KVs{{"2", "a2"}, {"3", "a3"}}));
  EXPECT_EQ(this->Range({3, a}, "2", "4", false), (KVs{{"3", "a3"}, {"2", "a2"}}));
  EXPECT_EQ(this->Range({3, a}, "", "", false, 2), (KVs{{"4", "a4"}, {"3", "a3"}}));
  EXPECT_TRUE(this->Range({3, Pid(6, "none")}, "", "", true).empty());
}

TYPED_TEST_P(PartitionStoreContract, ScanWalksPartitionsInHashOrderWithConcatenatedKeys) {
  std::string p1 = Pid(0x10, "z"), p2 = Pid(0x20, "a"), p3 = Pid(0x30, "m");
  ASSERT_TRUE(this->Put({9, p3}, "s1", "v31").ok());
  ASSERT_TRUE(this->Put({9, p1}, "s2", "v12").ok());
  ASSERT_TRUE(this->Put({9, p1}, "s1", "v11").ok());
  ASSERT_TRUE(this->Put({9, p2}, "s1", "v21").ok());
  ASSERT_TRUE(this->Put({10, p1}, "s1", "elsewhere").ok());
  KVs all = this->Scan(9, "", "");
  EXPECT_EQ(all, (KVs{{p1 + "s1", "v11"}, {p1 + "s2", "v12"}, {p2 + "s1", "v21"}, {p3 + "s1", "v31"}}));
  // Resume inside a partition, and stop at a hash boundary (a parallel-scan segment).
  EXPECT_EQ(this->Scan(9, p1 + "s2", ""), (KVs{{p1 + "s2", "v12"}, {p2 + "s1", "v21"}, {p3 + "s1", "v31"}}));
  std::string hash_0x30 = Pid(0x30, "").substr(0, 8);
  EXPECT_EQ(this->Scan(9, p1 + "s1\x01", hash_0x30), (KVs{{p1 + "s2", "v12"}, {p2 + "s1", "v21"}}));
}

TYPED_TEST_P(PartitionStoreContract, ChangeLogPositionsArePerPartitionAndNeverReused) {
  std::string a = Pid(1, "a"), b = Pid(2, "b");
  ASSERT_TRUE(this->Put({1, a}, "k", "v", {"a1", "a2"}).ok());
  ASSERT_TRUE(this->Put({1, b}, "k", "v", {"b1"}).ok());
  auto third = this->store_->Commit({1, a}, Logged({"a3"}));
  ASSERT_TRUE(third.ok());
  EXPECT_EQ(third->first_log_position, 3u);
  EXPECT_EQ(this->Log({1, a}, 0), (std::vector<std::pair<uint64_t, std::string>>{{1, "a1"}, {2, "a2"}, {3, "a3"}}));
  EXPECT_EQ(this->Log({1, a}, 2), (std::vector<std::pair<uint64_t, std::string>>{{3, "a3"}}));
  EXPECT_EQ(this->Log({1, b}, 0), (std::vector<std::pair<uint64_t, std::string>>{{1, "b1"}}));

  std::vector<std::pair<std::string, uint64_t>> logged;
  auto scan_logs = [&] {
    logged.clear();
    ASSERT_TRUE(this->store_->ScanLogs(1, [&](std::string_view id, uint64_t first) {
                      logged.emplace_back(id, first);
                      return true;
                    }).ok());
  };
  scan_logs();
  EXPECT_EQ(logged, (std::vector<std::pair<std::string, uint64_t>>{{a, 1}, {b, 1}}));
  ASSERT_TRUE(this->store_->TrimLog({1, a}, 2).ok());
  ASSERT_TRUE(this->store_->TrimLog({1, b}, 1).ok());
  scan_logs();
  EXPECT_EQ(logged, (std::vector<std::pair<std::string, uint64_t>>{{a, 3}}));
  ASSERT_TRUE(this->store_->TrimLog({1, a}, 3).ok());
  scan_logs();
  EXPECT_TRUE(logged.empty());
  // Trimmed to nothing, the numbering goes on (also after reopening the store).
  this->Reopen();
  auto next = this->store_->Commit({1, a}, Logged({"a4"}));
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(next->first_log_position, 4u);
  EXPECT_EQ(*this->store_->Get({1, a}, "k").value(), "v");
}

TYPED_TEST_P(PartitionStoreContract, DropKeyspaceRemovesItemsAndLogs) {
  std::string a = Pid(1, "a");
  ASSERT_TRUE(this->Put({5, a}, "k", "v", {"r"}).ok());
  ASSERT_TRUE(this->Put({6, a}, "k", "kept", {"r"}).ok());
  ASSERT_TRUE(this->store_->DropKeyspace(5).ok());
  EXPECT_TRUE(this->Scan(5, "", "").empty());
  EXPECT_TRUE(this->Log({5, a}, 0).empty());
  EXPECT_EQ(*this->store_->Get({6, a}, "k").value(), "kept");
  EXPECT_EQ(this->Log({6, a}, 0).size(), 1u);
}

// Prepare markers: a side space per partition, keyed by sort key, invisible to item reads, guarded
// and written in the same atomic commit as the items, dropped with the keyspace, durable.
TYPED_TEST_P(PartitionStoreContract, MarkersAreInvisibleToItemReadsAndScans) {
  std::string a = Pid(3, "a");
  PartitionRef p{9, a};
  ASSERT_TRUE(this->Put(p, "k1", "item").ok());
  PartitionWrite w;
  w.marker_mutations.push_back({"k1", std::string("txn-1")});
  w.marker_mutations.push_back({"k2", std::string("txn-2")});
  ASSERT_TRUE(this->store_->Commit(p, std::move(w)).ok());
  EXPECT_EQ(*this->store_->GetMarker(p, "k1").value(), "txn-1");
  EXPECT_EQ(*this->store_->GetMarker(p, "k2").value(), "txn-2");
  EXPECT_FALSE(this->store_->GetMarker(p, "k3").value().has_value());
  EXPECT_FALSE(this->store_->Get(p, "k2").value().has_value());
  EXPECT_EQ(*this->store_->Get(p, "k1").value(), "item");
  EXPECT_EQ(this->Range(p, "", "", true), (KVs{{"k1", "item"}}));
  EXPECT_EQ(this->Range(p, "", "", false), (KVs{{"k1", "item"}}));
  EXPECT_EQ(this->Scan(9, "", ""), (KVs{{a + "k1", "item"}}));
  // A marker of one partition is not another partition's.
  EXPECT_FALSE(this->store_->GetMarker({9, Pid(3, "ab")}, "k1").value().has_value());
  EXPECT_FALSE(this->store_->GetMarker({10, a}, "k1").value().has_value());
}

TYPED_TEST_P(PartitionStoreContract, MarkersAreGuardedAndAtomicWithItems) {
  std::string a = Pid(4, "a");
  PartitionRef p{9, a};
  // Prepare: item absent and marker absent, marker set, item untouched.
  PartitionWrite prepare;
  prepare.guards.push_back({"k", std::nullopt});
  prepare.marker_guards.push_back({"k", std::nullopt});
  prepare.marker_mutations.push_back({"k", std::string("t1")});
  ASSERT_TRUE(this->store_->Commit(p, prepare).ok());
  // Another transaction's prepare fails on the marker guard: nothing applied.
  PartitionWrite other = prepare;
  other.marker_mutations[0].value = "t2";
  other.mutations.push_back({"side", std::string("x")});
  EXPECT_EQ(this->store_->Commit(p, other).status().code(), ErrorCode::kGuardFailed);
  EXPECT_EQ(*this->store_->GetMarker(p, "k").value(), "t1");
  EXPECT_FALSE(this->store_->Get(p, "side").value().has_value());
  // A failed item guard leaves the markers alone.
  PartitionWrite bad_item;
  bad_item.guards.push_back({"k", std::string("present")});
  bad_item.marker_guards.push_back({"k", std::string("t1")});
  bad_item.marker_mutations.push_back({"k", std::nullopt});
  EXPECT_EQ(this->store_->Commit(p, bad_item).status().code(), ErrorCode::kGuardFailed);
  EXPECT_EQ(*this->store_->GetMarker(p, "k").value(), "t1");
  // Apply: guarded on the marker, writes the item, removes the marker and logs, as one unit.
  PartitionWrite apply;
  apply.marker_guards.push_back({"k", std::string("t1")});
  apply.marker_mutations.push_back({"k", std::nullopt});
  apply.mutations.push_back({"k", std::string("v")});
  apply.log.push_back("change");
  auto applied = this->store_->Commit(p, apply);
  ASSERT_TRUE(applied.ok()) << applied.status().message();
  EXPECT_EQ(applied->first_log_position, 1u);
  EXPECT_EQ(*this->store_->Get(p, "k").value(), "v");
  EXPECT_FALSE(this->store_->GetMarker(p, "k").value().has_value());
  EXPECT_EQ(this->Log(p, 0).size(), 1u);
  // Applying again: the marker guard no longer holds.
  apply.mutations[0].value = "w";
  EXPECT_EQ(this->store_->Commit(p, apply).status().code(), ErrorCode::kGuardFailed);
  EXPECT_EQ(*this->store_->Get(p, "k").value(), "v");
  EXPECT_EQ(this->Log(p, 0).size(), 1u);
}

TYPED_TEST_P(PartitionStoreContract, MarkersAreDroppedWithTheKeyspaceAndSurviveReopen) {
  std::string a = Pid(5, "a");
  for (uint32_t keyspace : {11u, 12u}) {
    PartitionWrite w;
    w.marker_mutations.push_back({"k", std::string("t")});
    ASSERT_TRUE(this->store_->Commit({keyspace, a}, std::move(w)).ok());
  }
  ASSERT_TRUE(this->store_->DropKeyspace(11).ok());
  EXPECT_FALSE(this->store_->GetMarker({11, a}, "k").value().has_value());
  this->Reopen();
  EXPECT_EQ(*this->store_->GetMarker({12, a}, "k").value(), "t");
  EXPECT_TRUE(this->Scan(12, "", "").empty());
}

// Concurrent read-modify-write commits of one partition: guards serialize them, and every
// committed increment got its own log position, with no gap.
TYPED_TEST_P(PartitionStoreContract, ConcurrentGuardedIncrementsKeepCountAndLogDense) {
  std::string a = Pid(1, "counter");
  PartitionRef p{2, a};
  constexpr int kThreads = 4, kEach = 50;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kEach; ++i) {
        while (true) {
          auto cur = this->store_->Get(p, "n");
          if (!cur.ok()) {
            ++failures;
            return;
          }
          int n = cur->has_value() ? std::stoi(**cur) : 0;
          PartitionWrite w;
          w.guards.push_back({"n", *cur});
          w.mutations.push_back({"n", std::to_string(n + 1)});
          w.log.push_back(std::to_string(n + 1));
          auto done = this->store_->Commit(p, std::move(w));
          if (done.ok()) break;
          if (done.status().code() != ErrorCode::kGuardFailed) {
            ++failures;
            return;
          }
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(*this->store_->Get(p, "n").value(), std::to_string(kThreads * kEach));
  auto log = this->Log(p, 0);
  ASSERT_EQ(log.size(), static_cast<size_t>(kThreads * kEach));
  for (size_t i = 0; i < log.size(); ++i) {
    EXPECT_EQ(log[i].first, i + 1);
    EXPECT_EQ(log[i].second, std::to_string(i + 1));  // commit order is log order
  }
}

// An empty value is a value: a guard expecting absence fails on it, and one expecting "" holds.
TYPED_TEST_P(PartitionStoreContract, EmptyValueIsNotAbsent) {
  std::string a = Pid(3, "empty");
  PartitionRef p{11, a};
  ASSERT_TRUE(this->Put(p, "k", "").ok());
  EXPECT_EQ(this->store_->Get(p, "k").value(), std::optional<std::string>(""));
  PartitionWrite absent;
  absent.guards.push_back({"k", std::nullopt});
  absent.mutations.push_back({"k", std::string("x")});
  EXPECT_EQ(this->store_->Commit(p, std::move(absent)).status().code(), ErrorCode::kGuardFailed);
  PartitionWrite empty;
  empty.guards.push_back({"k", std::string("")});
  empty.mutations.push_back({"k", std::string("x")});
  ASSERT_TRUE(this->store_->Commit(p, std::move(empty)).ok());
  EXPECT_EQ(*this->store_->Get(p, "k").value(), "x");
  // Guards alone (nothing written) on a partition never written: hold when they expect absence.
  PartitionWrite probe;
  probe.guards.push_back({"k", std::nullopt});
  EXPECT_TRUE(this->store_->Commit({11, Pid(4, "never")}, std::move(probe)).ok());
}

// Ranges far longer than any backend's page: whole, bounded and stopped early, both directions,
// and through the directory walk.
TYPED_TEST_P(PartitionStoreContract, LongRangesReadInOrderBothWays) {
  std::string a = Pid(8, "long");
  PartitionRef p{12, a};
  constexpr int kItems = 1500;
  auto sort_key = [](int i) {
    std::string k = std::to_string(100000 + i);
    return k;
  };
  PartitionWrite w;
  for (int i = 0; i < kItems; ++i) w.mutations.push_back({sort_key(i), "v" + std::to_string(i)});
  ASSERT_TRUE(this->store_->Commit(p, std::move(w)).ok());
  KVs forward = this->Range(p, "", "", true, 10000);
  ASSERT_EQ(forward.size(), static_cast<size_t>(kItems));
  for (int i = 0; i < kItems; ++i) EXPECT_EQ(forward[i].first, sort_key(i));
  KVs backward = this->Range(p, "", "", false, 10000);
  ASSERT_EQ(backward.size(), static_cast<size_t>(kItems));
  for (int i = 0; i < kItems; ++i) EXPECT_EQ(backward[i].first, sort_key(kItems - 1 - i));
  KVs middle = this->Range(p, sort_key(100), sort_key(1300), false, 10000);
  ASSERT_EQ(middle.size(), 1200u);
  EXPECT_EQ(middle.front().first, sort_key(1299));
  EXPECT_EQ(middle.back().first, sort_key(100));
  KVs ten = this->Range(p, sort_key(700), "", true, 10);
  ASSERT_EQ(ten.size(), 10u);
  EXPECT_EQ(ten.back(), (std::pair<std::string, std::string>{sort_key(709), "v709"}));
  KVs scanned = this->Scan(12, a + sort_key(1000), "");
  ASSERT_EQ(scanned.size(), static_cast<size_t>(kItems - 1000));
  EXPECT_EQ(scanned.front().first, a + sort_key(1000));
}

// A backward read longer than any page sees one version of its partition while commits rewrite
// every item of it: all values read are of one generation.
TYPED_TEST_P(PartitionStoreContract, BackwardReadIsOneViewUnderConcurrentCommits) {
  std::string a = Pid(9, "generations");
  PartitionRef p{13, a};
  constexpr int kItems = 1200, kGenerations = 12;
  auto write_generation = [&](int g) {
    PartitionWrite w;
    for (int i = 0; i < kItems; ++i) w.mutations.push_back({std::to_string(100000 + i), std::to_string(g)});
    return this->store_->Commit(p, std::move(w)).status();
  };
  ASSERT_TRUE(write_generation(0).ok());
  std::atomic<bool> done{false};
  std::atomic<int> failures{0};
  std::thread writer([&] {
    for (int g = 1; g <= kGenerations; ++g) {
      if (!write_generation(g).ok()) ++failures;
    }
    done = true;
  });
  int reads = 0;
  while (!done || reads == 0) {
    KVs got = this->Range(p, "", "", false, 100000);
    ASSERT_EQ(got.size(), static_cast<size_t>(kItems));
    for (const auto& [k, v] : got) ASSERT_EQ(v, got.front().second) << "mixed generations at " << k;
    ++reads;
  }
  writer.join();
  EXPECT_EQ(failures.load(), 0);
  this->RecordProperty("reads_during_commits", reads);
}

// Trimming more records than any backend removes in one step, in two trims.
TYPED_TEST_P(PartitionStoreContract, TrimsManyRecords) {
  std::string a = Pid(10, "busy");
  PartitionRef p{14, a};
  PartitionWrite w;
  for (int i = 1; i <= 2500; ++i) w.log.push_back("r" + std::to_string(i));
  auto done = this->store_->Commit(p, std::move(w));
  ASSERT_TRUE(done.ok());
  EXPECT_EQ(done->first_log_position, 1u);
  ASSERT_TRUE(this->store_->TrimLog(p, 2200).ok());
  auto rest = this->Log(p, 0);
  ASSERT_EQ(rest.size(), 300u);
  EXPECT_EQ(rest.front(), (std::pair<uint64_t, std::string>{2201, "r2201"}));
  ASSERT_TRUE(this->store_->TrimLog(p, 100000).ok());
  EXPECT_TRUE(this->Log(p, 0).empty());
  auto next = this->store_->Commit(p, Logged({"after"}));
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(next->first_log_position, 2501u);
}

// Colocated keyspaces (an LSI's entries with their table's partition): written only by the home
// partition's commits, in the same unit; read with the home named; apart from the home's items.
TYPED_TEST_P(PartitionStoreContract, ColocatedEntriesCommitWithTheHomePartition) {
  constexpr uint32_t kHome = 30, kLocal = 31;
  std::string a = Pid(3, "a"), b = Pid(2, "b");
  const PartitionRef home_a{kHome, a}, local_a{kLocal, a, kHome}, local_b{kLocal, b, kHome};
  auto local = [](std::string key, std::optional<std::string> value) {
    return LocalMutation{kLocal, std::move(key), std::move(value)};
  };
  PartitionWrite w;
  w.guards.push_back({"k1", std::nullopt});
  w.mutations.push_back({"k1", std::string("item1")});
  w.local_mutations = {local("s2k1", "e1"), local("s1k2", "e2"), local("s3k3", "e3")};
  ASSERT_TRUE(this->store_->Commit(home_a, std::move(w)).ok());
  // A refused commit applies none of its colocated mutations either.
  PartitionWrite refused;
  refused.guards.push_back({"k1", std::nullopt});
  refused.mutations.push_back({"k1", std::string("item1 again")});
  refused.local_mutations = {local("s0", "never"), local("s2k1", std::nullopt)};
  EXPECT_EQ(this->store_->Commit(home_a, std::move(refused)).status().code(), ErrorCode::kGuardFailed);
  PartitionWrite other;
  other.mutations.push_back({"k9", std::string("item9")});
  other.local_mutations = {local("s5k9", "e9")};
  ASSERT_TRUE(this->store_->Commit({kHome, b}, std::move(other)).ok());

  EXPECT_EQ(this->store_->Get(local_a, "s2k1").value(), std::optional<std::string>("e1"));
  EXPECT_FALSE(this->store_->Get(local_a, "s0").value().has_value());
  EXPECT_FALSE(this->store_->Get(local_a, "k1").value().has_value());  // the home's item is not an entry
  EXPECT_FALSE(this->store_->Get(home_a, "s2k1").value().has_value());  // nor an entry an item
  EXPECT_EQ(this->Range(home_a, "", "", true), (KVs{{"k1", "item1"}}));
  EXPECT_EQ(this->Range(local_a, "", "", true), (KVs{{"s1k2", "e2"}, {"s2k1", "e1"}, {"s3k3", "e3"}}));
  EXPECT_EQ(this->Range(local_a, "", "", false), (KVs{{"s3k3", "e3"}, {"s2k1", "e1"}, {"s1k2", "e2"}}));
  EXPECT_EQ(this->Range(local_a, "s2", "s3", false), (KVs{{"s2k1", "e1"}}));
  EXPECT_EQ(this->Range(local_a, "s2", "", true), (KVs{{"s2k1", "e1"}, {"s3k3", "e3"}}));
  EXPECT_EQ(this->Range(local_b, "", "", true), (KVs{{"s5k9", "e9"}}));
  // The scan walks the home's partitions in hash order (b before a), entries only.
  EXPECT_EQ(this->Scan({kLocal, kHome}, "", ""),
            (KVs{{b + "s5k9", "e9"}, {a + "s1k2", "e2"}, {a + "s2k1", "e1"}, {a + "s3k3", "e3"}}));
  EXPECT_EQ(this->Scan({kLocal, kHome}, a + "s2", ""), (KVs{{a + "s2k1", "e1"}, {a + "s3k3", "e3"}}));
  EXPECT_EQ(this->Scan({kLocal, kHome}, "", a), (KVs{{b + "s5k9", "e9"}}));
  EXPECT_EQ(this->Scan(kHome, "", ""), (KVs{{b + "k9", "item9"}, {a + "k1", "item1"}}));

  // An item and its entries change together: move one entry, delete another.
  PartitionWrite change;
  change.guards.push_back({"k1", std::string("item1")});
  change.mutations.push_back({"k1", std::string("item1b")});
  change.local_mutations = {local("s2k1", std::nullopt), local("s4k1", "e1b"), local("s1k2", std::nullopt)};
  change.log.push_back("changed");
  ASSERT_TRUE(this->store_->Commit(home_a, std::move(change)).ok());
  EXPECT_EQ(this->Range(local_a, "", "", true), (KVs{{"s3k3", "e3"}, {"s4k1", "e1b"}}));
  EXPECT_EQ(this->Log(home_a, 0).size(), 1u);
  this->Reopen();
  EXPECT_EQ(this->Range(local_a, "", "", true), (KVs{{"s3k3", "e3"}, {"s4k1", "e1b"}}));

  // Dropping the home (and, as callers do, the colocated keyspace) removes the entries.
  ASSERT_TRUE(this->store_->DropKeyspace(kHome).ok());
  ASSERT_TRUE(this->store_->DropKeyspace(kLocal).ok());
  EXPECT_TRUE(this->Range(local_a, "", "", true).empty());
  EXPECT_TRUE(this->Scan({kLocal, kHome}, "", "").empty());
  EXPECT_FALSE(this->store_->Get(local_b, "s5k9").value().has_value());
}

// A partition's size counts its own keyspace's entries; a colocated keyspace's are counted apart
// (an item collection's size is the table partition's plus each LSI's).
TYPED_TEST_P(PartitionStoreContract, ColocatedEntriesAreSizedApart) {
  if (this->store_->Name() == "rocksdb") GTEST_SKIP() << "RocksDB's sizes are estimates of table files";
  constexpr uint32_t kHome = 32, kLocal = 33;
  std::string a = Pid(8, "a");
  PartitionWrite w;
  w.mutations.push_back({"item", std::string(1000, 'i')});
  w.local_mutations.push_back({kLocal, "entry", std::string(3000, 'e')});
  ASSERT_TRUE(this->store_->Commit({kHome, a}, std::move(w)).ok());
  const uint64_t items = this->store_->ApproximateBytes({kHome, a});
  const uint64_t entries = this->store_->ApproximateBytes({kLocal, a, kHome});
  EXPECT_GE(items, 1000u);
  EXPECT_LT(items, 3000u);
  EXPECT_GE(entries, 3000u);
  EXPECT_LT(entries, 4000u);
}

REGISTER_TYPED_TEST_SUITE_P(PartitionStoreContract, GuardedCommitAppliesAllOrNothing,
                            ColocatedEntriesCommitWithTheHomePartition, ColocatedEntriesAreSizedApart,
                            RangesStayInsideTheirPartitionInBothDirections,
                            ScanWalksPartitionsInHashOrderWithConcatenatedKeys,
                            ChangeLogPositionsArePerPartitionAndNeverReused, DropKeyspaceRemovesItemsAndLogs,
                            ConcurrentGuardedIncrementsKeepCountAndLogDense, EmptyValueIsNotAbsent,
                            LongRangesReadInOrderBothWays, BackwardReadIsOneViewUnderConcurrentCommits,
                            TrimsManyRecords, MarkersAreInvisibleToItemReadsAndScans,
                            MarkersAreGuardedAndAtomicWithItems, MarkersAreDroppedWithTheKeyspaceAndSurviveReopen);

}  // namespace monotable::engine
