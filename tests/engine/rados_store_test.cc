// RadosStore (src/engine/rados) on a real Ceph cluster: the PartitionStore contract suite
// (partition_store_contract.h), and what only a shared store has: two clients, each its own
// librados connection, doing guarded commits on one partition.
//
// Runs when MONOTABLE_CEPH_CONF names a ceph.conf (pool: MONOTABLE_CEPH_POOL, default "dyn");
// otherwise the cluster tests skip, saying so. `scripts/dev.sh rados-test` starts a loopback
// cluster and runs them. Every store under test works in a RADOS namespace of its own, so runs
// never see one another's objects; the keyspaces used are dropped at the end.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "engine/rados/rados_store.h"
#include "partition_store_contract.h"

namespace monotable::engine {
namespace {

std::string CephSkipReason() {
  const char* conf = std::getenv("MONOTABLE_CEPH_CONF");
  if (conf && *conf) return "";
  return "MONOTABLE_CEPH_CONF is not set: no Ceph cluster to test against "
         "(scripts/dev.sh rados-test starts one and runs these)";
}

RadosOptions ClusterOptions(const std::string& name_space) {
  RadosOptions options;
  options.ceph_conf = std::getenv("MONOTABLE_CEPH_CONF");
  if (const char* pool = std::getenv("MONOTABLE_CEPH_POOL"); pool && *pool) options.pool = pool;
  options.name_space = name_space;
  return options;
}

std::string FreshNamespace() {
  static std::atomic<int> counter{0};
  auto now = std::chrono::system_clock::now().time_since_epoch().count();
  return "mt-test-" + std::to_string(getpid()) + "-" + std::to_string(now) + "-" + std::to_string(counter++);
}

std::unique_ptr<PartitionStore> OpenStore(const std::string& name_space) {
  auto store = OpenRadosStore(ClusterOptions(name_space));
  EXPECT_TRUE(store.ok()) << store.status().message();
  return store.ok() ? std::move(store).value() : nullptr;
}

// The keyspaces the tests below and the contract suite use, dropped when a test ends.
constexpr uint32_t kTestKeyspaces = 16;

struct RadosBackend {
  static std::string SkipReason() { return CephSkipReason(); }
  std::string name_space = FreshNamespace();
  bool opened = false;
  std::unique_ptr<PartitionStore> Open() {
    opened = true;
    return OpenStore(name_space);
  }
  void Close() {}  // the cluster is the state
  ~RadosBackend() {
    if (!opened || !CephSkipReason().empty()) return;
    if (auto store = OpenStore(name_space)) {
      for (uint32_t ks = 0; ks < kTestKeyspaces; ++ks) EXPECT_TRUE(store->DropKeyspace(ks).ok());
    }
  }
};

INSTANTIATE_TYPED_TEST_SUITE_P(Rados, PartitionStoreContract, RadosBackend);

class RadosStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why = CephSkipReason();
    if (!why.empty()) GTEST_SKIP() << why;
  }
  RadosBackend backend_;
};

// Two servers' worth of clients (two connections, two threads each) increment one counter with
// guarded read-modify-write commits: no increment is lost or doubled, and every committed one has
// its own log position, densely numbered in commit order.
TEST_F(RadosStoreTest, TwoClientsKeepACounterInvariant) {
  std::string id = Pid(0x42, "counter");
  PartitionRef p{3, id};
  std::vector<std::unique_ptr<PartitionStore>> stores;
  stores.push_back(backend_.Open());
  stores.push_back(backend_.Open());
  ASSERT_NE(stores[0], nullptr);
  ASSERT_NE(stores[1], nullptr);
  constexpr int kThreadsPerClient = 2, kEach = 30;
  std::atomic<int> failures{0}, conflicts{0};
  std::vector<std::thread> threads;
  for (auto& store : stores) {
    for (int t = 0; t < kThreadsPerClient; ++t) {
      threads.emplace_back([&, s = store.get()] {
        for (int i = 0; i < kEach; ++i) {
          while (true) {
            auto cur = s->Get(p, "n");
            if (!cur.ok()) {
              ++failures;
              return;
            }
            int n = cur->has_value() ? std::stoi(**cur) : 0;
            PartitionWrite w;
            w.guards.push_back({"n", *cur});
            w.mutations.push_back({"n", std::to_string(n + 1)});
            w.log.push_back(std::to_string(n + 1));
            auto done = s->Commit(p, std::move(w));
            if (done.ok()) break;
            if (done.status().code() != ErrorCode::kGuardFailed) {
              ++failures;
              return;
            }
            ++conflicts;
          }
        }
      });
    }
  }
  for (auto& t : threads) t.join();
  ASSERT_EQ(failures.load(), 0);
  constexpr int kTotal = 2 * kThreadsPerClient * kEach;
  EXPECT_EQ(*stores[0]->Get(p, "n").value(), std::to_string(kTotal));
  EXPECT_EQ(*stores[1]->Get(p, "n").value(), std::to_string(kTotal));
  std::vector<std::pair<uint64_t, std::string>> log;
  ASSERT_TRUE(stores[1]->ReadLog(p, 0, [&](uint64_t pos, std::string_view r) {
                          log.emplace_back(pos, r);
                          return true;
                        }).ok());
  ASSERT_EQ(log.size(), static_cast<size_t>(kTotal));
  for (size_t i = 0; i < log.size(); ++i) {
    EXPECT_EQ(log[i].first, i + 1);
    EXPECT_EQ(log[i].second, std::to_string(i + 1));
  }
  RecordProperty("guard_conflicts", conflicts.load());
}

// What one client writes, another reads at once (no client-side cache), and a keyspace dropped
// by one is gone for the other, which can then write it anew.
TEST_F(RadosStoreTest, ClientsShareOneDirectory) {
  auto a = backend_.Open(), b = backend_.Open();
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  std::string id = Pid(7, "shared");
  ASSERT_TRUE(a->Commit({4, id}, Logged({"r1"}, {{"s", std::string("v")}})).ok());
  EXPECT_EQ(*b->Get({4, id}, "s").value(), "v");
  ASSERT_TRUE(b->DropKeyspace(4).ok());
  EXPECT_FALSE(a->Get({4, id}, "s").value().has_value());
  auto again = a->Commit({4, id}, Logged({"r2"}, {{"s", std::string("w")}}));
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(again->first_log_position, 1u);  // a new partition after the drop
  std::vector<std::string> seen;
  ASSERT_TRUE(b->ScanKeyspace(4, "", "", [&](std::string_view k, std::string_view v) {
                 seen.emplace_back(v);
                 return true;
               }).ok());
  EXPECT_EQ(seen, std::vector<std::string>{"w"});
  std::vector<std::string> logged;
  ASSERT_TRUE(b->ScanLogs(4, [&](std::string_view pid, uint64_t first) {
                 logged.emplace_back(pid);
                 return true;
               }).ok());
  EXPECT_EQ(logged, std::vector<std::string>{id});
}

// Partition ids too long for an object name are named by their hash and digest; binary bytes
// (NUL included) in ids and sort keys survive the omap.
TEST_F(RadosStoreTest, LongAndBinaryIdsAndKeys) {
  auto store = backend_.Open();
  ASSERT_NE(store, nullptr);
  std::string long_id = Pid(9, std::string(2000, 'x'));
  std::string other_long = Pid(9, std::string(1999, 'x') + "y");
  std::string sort_key("a\0b\xff", 4);
  ASSERT_TRUE(store->Commit({5, long_id}, Logged({}, {{sort_key, std::string("1")}})).ok());
  ASSERT_TRUE(store->Commit({5, other_long}, Logged({}, {{sort_key, std::string("2")}})).ok());
  EXPECT_EQ(*store->Get({5, long_id}, sort_key).value(), "1");
  EXPECT_EQ(*store->Get({5, other_long}, sort_key).value(), "2");
  std::vector<std::string> keys;
  ASSERT_TRUE(store->ScanKeyspace(5, "", "", [&](std::string_view k, std::string_view) {
                     keys.emplace_back(k);
                     return true;
                   }).ok());
  EXPECT_EQ(keys, (std::vector<std::string>{long_id + sort_key, other_long + sort_key}));
}

// Without a cluster: a configuration that cannot be read is an error, not a hang.
TEST(RadosStoreOpen, UnreadableConfigurationIsAnIoError) {
  RadosOptions options;
  options.ceph_conf = "/nonexistent/ceph.conf";
  auto store = OpenRadosStore(options);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), ErrorCode::kIo);
  EXPECT_NE(store.status().message().find("/nonexistent/ceph.conf"), std::string::npos);
}

}  // namespace
}  // namespace monotable::engine
