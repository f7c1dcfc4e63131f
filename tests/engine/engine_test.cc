// One suite run against every engine backend (memory, RocksDB in a fresh temp dir per test).
#include "engine/engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <map>
#include <optional>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "engine/memory/memory_engine.h"
#include "engine/rocksdb/rocksdb_engine.h"
#include "random_batch.h"
#include "rocksdb_fixtures.h"

namespace monotable::engine {
namespace {

using KVs = std::vector<std::pair<std::string, std::string>>;

struct MemoryBackend {
  void Init() {}
  std::unique_ptr<Engine> Open() { return NewMemoryEngine(); }
  void Cleanup() {}
};

struct RocksBackend {
  std::optional<TempDir> dir;
  void Init() { dir.emplace("mt_engine_test_"); }
  std::unique_ptr<Engine> Open() {
    auto r = OpenRocksDbEngine({.path = dir->db(), .sync = false});
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? std::move(r).value() : nullptr;
  }
  void Cleanup() { dir.reset(); }
};

template <typename Backend>
class EngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    backend_.Init();
    engine_ = backend_.Open();
    ASSERT_NE(engine_, nullptr);
  }
  void TearDown() override {
    engine_.reset();
    backend_.Cleanup();
  }

  void Put(const std::string& k, const std::string& v) {
    ASSERT_TRUE(engine_->Commit({.guards = {}, .mutations = {{k, v}}}).ok());
  }
  void Del(const std::string& k) {
    ASSERT_TRUE(engine_->Commit({.guards = {}, .mutations = {{k, std::nullopt}}}).ok());
  }
  std::optional<std::string> Get(const std::string& k, const Snapshot* snap = nullptr) {
    auto r = engine_->Get(k, snap);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? *r : std::nullopt;
  }
  KVs Scan(std::string lower, std::string upper, std::shared_ptr<const Snapshot> snap = nullptr,
           bool backward = false) {
    auto it = engine_->NewIterator(std::move(lower), std::move(upper), std::move(snap));
    KVs out;
    for (backward ? it->SeekToLast() : it->SeekToFirst(); it->Valid();
         backward ? it->Prev() : it->Next()) {
      out.emplace_back(it->key(), it->value());
    }
    EXPECT_TRUE(it->status().ok());
    return out;
  }
  // Guarded increment of the decimal counters in `keys` (absent = 0); retries on guard failure.
  // With `tokens`, each guard carries a read token taken before its read (Commit may skip re-reading).
  void Increment(const std::vector<std::string>& keys, bool tokens = false) {
    for (;;) {
      WriteBatch b;
      for (const std::string& k : keys) {
        uint64_t token = tokens ? engine_->ReadToken(k) : 0;
        std::optional<std::string> cur = Get(k);
        b.guards.push_back({k, cur, token});
        b.mutations.push_back({k, std::to_string(cur ? std::stoll(*cur) + 1 : 1)});
      }
      Status s = engine_->Commit(b);
      if (s.ok()) return;
      ASSERT_EQ(s.code(), ErrorCode::kGuardFailed) << s.message();
    }
  }

  Backend backend_;
  std::unique_ptr<Engine> engine_;
};

using Backends = ::testing::Types<MemoryBackend, RocksBackend>;
class BackendNames {
 public:
  template <typename T>
  static std::string GetName(int) {
    return std::is_same_v<T, MemoryBackend> ? "Memory" : "RocksDb";
  }
};
TYPED_TEST_SUITE(EngineTest, Backends, BackendNames);

TYPED_TEST(EngineTest, GetPutDelete) {
  EXPECT_EQ(this->Get("a"), std::nullopt);
  this->Put("a", "1");
  EXPECT_EQ(this->Get("a"), "1");
  this->Put("a", "2");
  EXPECT_EQ(this->Get("a"), "2");
  this->Put("empty", "");
  EXPECT_EQ(this->Get("empty"), "");  // empty value is not absence
  this->Del("a");
  EXPECT_EQ(this->Get("a"), std::nullopt);
  this->Del("never-existed");
  EXPECT_EQ(this->Get("never-existed"), std::nullopt);
  this->Put(std::string("k\0z", 3), "bin");
  EXPECT_EQ(this->Get(std::string("k\0z", 3)), "bin");
  EXPECT_EQ(this->Get("k"), std::nullopt);
  EXPECT_FALSE(this->engine_->Name().empty());
}

// GetForWrite answers as Get does, whether the key was read before (cached) or not, and what it
// read is never answered later in place of a newer value.
TYPED_TEST(EngineTest, GetForWriteAnswersAsGet) {
  auto get_for_write = [&](const std::string& k) {
    auto r = this->engine_->GetForWrite(k);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? *r : std::nullopt;
  };
  EXPECT_EQ(get_for_write("a"), std::nullopt);
  this->Put("a", "1");
  EXPECT_EQ(get_for_write("a"), "1");  // never read
  EXPECT_EQ(this->Get("a"), "1");
  EXPECT_EQ(get_for_write("a"), "1");  // read (and possibly cached) by Get
  for (int i = 2; i < 50; ++i) {
    std::optional<std::string> before = get_for_write("a");
    ASSERT_EQ(before, std::to_string(i - 1));
    ASSERT_TRUE(this->engine_->Commit({.guards = {{"a", before}}, .mutations = {{"a", std::to_string(i)}}}).ok());
    ASSERT_EQ(this->Get("a"), std::to_string(i));
    ASSERT_EQ(get_for_write("a"), std::to_string(i));
  }
  this->Del("a");
  EXPECT_EQ(get_for_write("a"), std::nullopt);
  EXPECT_EQ(this->Get("a"), std::nullopt);
}

TYPED_TEST(EngineTest, GuardExpectedValue) {
  this->Put("a", "1");
  WriteBatch b{.guards = {{"a", "1"}}, .mutations = {{"a", "2"}}};
  EXPECT_TRUE(this->engine_->Commit(b).ok());
  EXPECT_EQ(this->Get("a"), "2");
  Status s = this->engine_->Commit(b);  // "a" is now "2"
  EXPECT_EQ(s.code(), ErrorCode::kGuardFailed);
  EXPECT_EQ(this->Get("a"), "2");
  // A value guard on an absent key fails.
  s = this->engine_->Commit({.guards = {{"zz", ""}}, .mutations = {{"zz", "x"}}});
  EXPECT_EQ(s.code(), ErrorCode::kGuardFailed);
  EXPECT_EQ(this->Get("zz"), std::nullopt);
}

TYPED_TEST(EngineTest, GuardExpectedAbsent) {
  WriteBatch b{.guards = {{"a", std::nullopt}}, .mutations = {{"a", "1"}}};
  EXPECT_TRUE(this->engine_->Commit(b).ok());
  EXPECT_EQ(this->engine_->Commit(b).code(), ErrorCode::kGuardFailed);
  this->Del("a");
  EXPECT_TRUE(this->engine_->Commit(b).ok());  // absent again after delete
  // Guards without mutations just check.
  WriteBatch check_only{.guards = {{"a", "1"}, {"b", std::nullopt}}, .mutations = {}};
  EXPECT_TRUE(this->engine_->Commit(check_only).ok());
  check_only.guards = {{"b", "1"}};
  EXPECT_EQ(this->engine_->Commit(check_only).code(), ErrorCode::kGuardFailed);
  EXPECT_TRUE(this->engine_->Commit({}).ok());
}

TYPED_TEST(EngineTest, ReadTokenVouchesOnlyWhileNothingChanged) {
  ASSERT_TRUE(this->engine_->Commit({.guards = {}, .mutations = {{"a", "1"}}}).ok());
  // Untouched since the token: the guard holds.
  uint64_t token = this->engine_->ReadToken("a");
  EXPECT_NE(token, 0u);
  EXPECT_TRUE(this->engine_->Commit({.guards = {{"a", "1", token}}, .mutations = {{"a", "2"}}}).ok());
  // A commit between the token (and read) and this commit: the guard is re-read and fails.
  token = this->engine_->ReadToken("a");
  std::optional<std::string> seen = this->Get("a");
  ASSERT_TRUE(this->engine_->Commit({.guards = {}, .mutations = {{"a", "3"}}}).ok());
  EXPECT_EQ(this->engine_->Commit({.guards = {{"a", seen, token}}, .mutations = {{"a", "4"}}}).code(),
            ErrorCode::kGuardFailed);
  EXPECT_EQ(this->Get("a"), "3");
  // A stale token with a value that is still right: re-read, holds.
  token = this->engine_->ReadToken("a");
  ASSERT_TRUE(this->engine_->Commit({.guards = {}, .mutations = {{"a", "3"}}}).ok());  // same value rewritten
  EXPECT_TRUE(this->engine_->Commit({.guards = {{"a", "3", token}}, .mutations = {{"a", "5"}}}).ok());
  EXPECT_EQ(this->Get("a"), "5");
}

TYPED_TEST(EngineTest, FailingGuardAppliesNothing) {
  this->Put("a", "1");
  this->Put("c", "3");
  WriteBatch b{.guards = {{"a", "1"}, {"c", std::nullopt}},  // second guard fails
               .mutations = {{"x", "new"}, {"a", std::nullopt}, {"c", "changed"}}};
  EXPECT_EQ(this->engine_->Commit(b).code(), ErrorCode::kGuardFailed);
  EXPECT_EQ(this->Get("x"), std::nullopt);
  EXPECT_EQ(this->Get("a"), "1");
  EXPECT_EQ(this->Get("c"), "3");
}

TYPED_TEST(EngineTest, MultiKeyBatchAndDuplicateKeys) {
  WriteBatch b;
  for (int i = 0; i < 50; ++i) b.mutations.push_back({"k" + std::to_string(i), "v"});
  b.mutations.push_back({"dup", "first"});
  b.mutations.push_back({"dup", "last"});
  b.mutations.push_back({"gone", "x"});
  b.mutations.push_back({"gone", std::nullopt});
  ASSERT_TRUE(this->engine_->Commit(b).ok());
  EXPECT_EQ(this->Scan("k", "l").size(), 50u);
  EXPECT_EQ(this->Get("dup"), "last");
  EXPECT_EQ(this->Get("gone"), std::nullopt);
}

TYPED_TEST(EngineTest, BatchesBecomeVisibleAtomically) {
  constexpr int kKeys = 8, kRounds = 300;
  std::atomic<bool> done{false};
  std::thread writer([&] {
    for (int r = 1; r <= kRounds; ++r) {
      WriteBatch b;
      for (int k = 0; k < kKeys; ++k) {
        b.mutations.push_back({"k" + std::to_string(k), std::to_string(r)});
      }
      EXPECT_TRUE(this->engine_->Commit(b).ok());
    }
    done = true;
  });
  int checks = 0;
  while (!done || checks < 10) {
    auto snap = this->engine_->GetSnapshot();
    KVs via_iter = this->Scan("k", "l", snap);
    std::optional<std::string> first = this->Get("k0", snap.get());
    for (int k = 0; k < kKeys; ++k) {
      EXPECT_EQ(this->Get("k" + std::to_string(k), snap.get()), first);
    }
    if (first) {
      ASSERT_EQ(via_iter.size(), size_t{kKeys});
      for (const auto& kv : via_iter) EXPECT_EQ(kv.second, *first);
    } else {
      EXPECT_TRUE(via_iter.empty());
    }
    ++checks;
  }
  writer.join();
  EXPECT_EQ(this->Get("k7"), std::to_string(kRounds));
}

TYPED_TEST(EngineTest, RangeIterationWithBounds) {
  for (const char* k : {"a", "b", "c", "d", "e", "f"}) this->Put(k, std::string("v") + k);
  EXPECT_EQ(this->Scan("b", "e"), (KVs{{"b", "vb"}, {"c", "vc"}, {"d", "vd"}}));
  EXPECT_EQ(this->Scan("b", "e", nullptr, true), (KVs{{"d", "vd"}, {"c", "vc"}, {"b", "vb"}}));
  EXPECT_EQ(this->Scan("bb", "cc"), (KVs{{"c", "vc"}}));
  EXPECT_TRUE(this->Scan("x", "z").empty());
  EXPECT_TRUE(this->Scan("x", "z", nullptr, true).empty());

  auto it = this->engine_->NewIterator("b", "e");
  it->Seek("bb");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), "c");
  it->Seek("a");  // clamped to lower
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), "b");
  it->Prev();
  EXPECT_FALSE(it->Valid());
  it->Seek("e");
  EXPECT_FALSE(it->Valid());
  it->SeekForPrev("cc");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), "c");
  it->SeekForPrev("c");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), "c");
  it->SeekForPrev("zzz");  // clamped below upper
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), "d");
  EXPECT_EQ(it->value(), "vd");
  it->Next();
  EXPECT_FALSE(it->Valid());
  it->SeekForPrev("a");
  EXPECT_FALSE(it->Valid());
  it->SeekToLast();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), "d");
  it->Prev();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), "c");
  it->Next();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), "d");
  EXPECT_TRUE(it->status().ok());
}

TYPED_TEST(EngineTest, EmptyUpperBoundAndBytewiseOrder) {
  const std::vector<std::string> keys = {std::string("\0", 1), "\x01", "a", std::string("a\0", 2),
                                         "ab", "\x7f", "\x80", "\xff", "\xff\xff"};
  for (const std::string& k : keys) this->Put(k, "v");
  KVs all = this->Scan("", "");
  ASSERT_EQ(all.size(), keys.size());
  for (size_t i = 0; i < keys.size(); ++i) EXPECT_EQ(all[i].first, keys[i]) << i;
  KVs tail = this->Scan("\x80", "");
  ASSERT_EQ(tail.size(), 3u);
  EXPECT_EQ(tail[0].first, "\x80");
  KVs back = this->Scan("\x7f", "", nullptr, true);
  ASSERT_EQ(back.size(), 4u);
  EXPECT_EQ(back[0].first, "\xff\xff");
  EXPECT_EQ(back[3].first, "\x7f");
  auto it = this->engine_->NewIterator("a", "");
  it->SeekForPrev("\xff\xff\xff");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), "\xff\xff");
}

TYPED_TEST(EngineTest, SnapshotIsolatesLaterCommits) {
  this->Put("a", "1");
  this->Put("b", "1");
  this->Put("c", "1");
  auto snap = this->engine_->GetSnapshot();
  this->Put("a", "2");  // overwrite
  this->Del("b");       // delete
  this->Put("d", "1");  // insert
  this->Put("a", "3");  // overwrite again
  EXPECT_EQ(this->Get("a", snap.get()), "1");
  EXPECT_EQ(this->Get("b", snap.get()), "1");
  EXPECT_EQ(this->Get("d", snap.get()), std::nullopt);
  EXPECT_EQ(this->Scan("", "", snap), (KVs{{"a", "1"}, {"b", "1"}, {"c", "1"}}));
  EXPECT_EQ(this->Scan("", "", snap, true), (KVs{{"c", "1"}, {"b", "1"}, {"a", "1"}}));
  EXPECT_EQ(this->Scan("", ""), (KVs{{"a", "3"}, {"c", "1"}, {"d", "1"}}));
  EXPECT_EQ(this->Get("a"), "3");
  EXPECT_EQ(this->Get("b"), std::nullopt);

  // Delete then re-create while the snapshot lives; the snapshot still sees the old value.
  this->Put("b", "again");
  EXPECT_EQ(this->Get("b", snap.get()), "1");
  snap.reset();
  this->Put("a", "4");  // writes after release prune old versions; latest state unaffected
  this->Del("c");
  EXPECT_EQ(this->Scan("", ""), (KVs{{"a", "4"}, {"b", "again"}, {"d", "1"}}));
}

TYPED_TEST(EngineTest, ManySnapshotsEachSeeTheirOwnVersion) {
  std::vector<std::shared_ptr<const Snapshot>> snaps;
  for (int i = 0; i < 10; ++i) {
    if (i % 3 == 2) {
      this->Del("k");
    } else {
      this->Put("k", std::to_string(i));
    }
    snaps.push_back(this->engine_->GetSnapshot());
  }
  snaps[4].reset();
  snaps[5].reset();
  this->Put("k", "latest");
  for (int i = 0; i < 10; ++i) {
    if (!snaps[i]) continue;
    auto expect = i % 3 == 2 ? std::nullopt : std::optional<std::string>(std::to_string(i));
    EXPECT_EQ(this->Get("k", snaps[i].get()), expect) << i;
    EXPECT_EQ(this->Scan("", "", snaps[i]).size(), expect ? 1u : 0u) << i;
  }
  snaps.clear();
  for (int i = 0; i < 20; ++i) this->Put("k", "x" + std::to_string(i));
  EXPECT_EQ(this->Get("k"), "x19");
}

TYPED_TEST(EngineTest, IteratorStableWhileCommitting) {
  for (int i = 0; i < 100; ++i) {
    this->Put("k" + std::to_string(1000 + i), "old");
  }
  auto explicit_snap = this->engine_->GetSnapshot();
  auto it = this->engine_->NewIterator("k", "l");  // implicit snapshot at creation
  auto it2 = this->engine_->NewIterator("k", "l", explicit_snap);
  it->SeekToFirst();
  it2->SeekToLast();
  int seen = 0, seen2 = 0;
  for (; it->Valid() && it2->Valid(); it->Next(), it2->Prev(), ++seen, ++seen2) {
    EXPECT_EQ(it->value(), "old");
    EXPECT_EQ(it2->value(), "old");
    // Same thread commits while holding both iterators: must not deadlock, must not be seen.
    WriteBatch b;
    b.mutations.push_back({std::string(it->key()), std::nullopt});
    b.mutations.push_back({std::string(it2->key()), "new"});
    b.mutations.push_back({std::string(it->key()) + "x", "inserted"});
    ASSERT_TRUE(this->engine_->Commit(b).ok());
  }
  EXPECT_EQ(seen, 100);
  EXPECT_EQ(seen2, 100);
  EXPECT_TRUE(it->status().ok());
  EXPECT_EQ(this->Scan("k", "l").size(), 150u);  // 100 inserted + 50 surviving overwrites
}

TYPED_TEST(EngineTest, DeleteRange) {
  for (const char* k : {"a", "b", "c", "d", "e"}) this->Put(k, k);
  EXPECT_EQ(this->Get("c"), "c");  // read once, so a cache in front of the engine holds it
  auto snap = this->engine_->GetSnapshot();
  ASSERT_TRUE(this->engine_->DeleteRange("b", "d").ok());
  EXPECT_EQ(this->Scan("", ""), (KVs{{"a", "a"}, {"d", "d"}, {"e", "e"}}));
  EXPECT_EQ(this->Get("c"), std::nullopt);
  EXPECT_EQ(this->Get("c", snap.get()), "c");
  EXPECT_EQ(this->Scan("", "", snap).size(), 5u);
  ASSERT_TRUE(this->engine_->DeleteRange("z", "b").ok());  // inverted: no-op
  ASSERT_TRUE(this->engine_->DeleteRange("d", "").ok());   // empty upper: to the end
  EXPECT_EQ(this->Scan("", ""), (KVs{{"a", "a"}}));
  ASSERT_TRUE(this->engine_->DeleteRange("x", "").ok());   // nothing there
  this->Put("c", "back");
  EXPECT_EQ(this->Get("c"), "back");
  EXPECT_EQ(this->Get("c", snap.get()), "c");
}

// Latest reads racing a writer: a read never returns less than a commit that had finished before
// the read began, nor less than what the same reader saw before (no read goes back in time).
TYPED_TEST(EngineTest, LatestReadsSeeEveryFinishedCommit) {
  constexpr int kKeys = 4, kWrites = 4000;
  std::array<std::atomic<int>, kKeys> finished{};  // the highest value whose Commit has returned
  std::atomic<bool> done{false}, failed{false};
  auto key_of = [](int k) { return "latest" + std::to_string(k); };
  std::thread writer([&] {
    for (int v = 1; v <= kWrites; ++v) {
      const int k = v % kKeys;
      char value[16];
      std::snprintf(value, sizeof value, "%08d", v);
      WriteBatch b;
      b.mutations.push_back({key_of(k), value});
      if (!this->engine_->Commit(b).ok()) failed = true;
      finished[k].store(v, std::memory_order_release);
    }
    done = true;
  });
  auto reader = [&] {
    std::array<int, kKeys> seen{};
    while (!done && !failed) {
      for (int k = 0; k < kKeys; ++k) {
        const int floor = finished[k].load(std::memory_order_acquire);
        auto got = this->engine_->Get(key_of(k), nullptr);
        if (!got.ok()) {
          failed = true;
          continue;
        }
        const int v = got.value() ? std::stoi(*got.value()) : 0;
        if (v < floor || v < seen[k]) failed = true;
        seen[k] = v;
      }
    }
  };
  std::thread a(reader), b(reader);
  writer.join();
  a.join();
  b.join();
  EXPECT_FALSE(failed);
  for (int k = 0; k < kKeys; ++k) {
    int last = kWrites;
    while (last % kKeys != k) --last;
    char value[16];
    std::snprintf(value, sizeof value, "%08d", last);
    EXPECT_EQ(this->Get(key_of(k)), value);
  }
}

TYPED_TEST(EngineTest, ConcurrentGuardedIncrementsAreExact) {
  constexpr int kThreads = 8, kOps = 150, kCounters = 4;
  std::vector<std::atomic<int>> expected(kCounters);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(t);
      for (int i = 0; i < kOps; ++i) {
        int a = static_cast<int>(rng() % kCounters);
        int b = static_cast<int>((a + 1 + rng() % (kCounters - 1)) % kCounters);
        std::vector<std::string> keys = {"ctr" + std::to_string(a)};
        if (i % 2 == 1) keys.push_back("ctr" + std::to_string(b));  // two-key batches too
        this->Increment(keys, /*tokens=*/t % 2 == 1);  // half the writers vouch with read tokens
        ++expected[a];
        if (i % 2 == 1) ++expected[b];
      }
    });
  }
  for (auto& th : threads) th.join();
  long total = 0;
  for (int c = 0; c < kCounters; ++c) {
    auto v = this->Get("ctr" + std::to_string(c));
    EXPECT_EQ(v, std::to_string(expected[c].load())) << c;
    if (v) total += std::stol(*v);
  }
  EXPECT_EQ(total, kThreads * kOps + kThreads * kOps / 2);
}

TYPED_TEST(EngineTest, ConcurrentDisjointKeys) {
  constexpr int kThreads = 8, kKeys = 200;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kKeys; ++i) {
        std::string k = "t" + std::to_string(t) + "/" + std::to_string(10000 + i);
        Status s = this->engine_->Commit({.guards = {{k, std::nullopt}}, .mutations = {{k, k}}});
        EXPECT_TRUE(s.ok()) << s.message();
        if (i % 4 == 0) {
          auto it = this->engine_->NewIterator("t" + std::to_string(t) + "/", "");
          it->SeekToFirst();
          EXPECT_TRUE(it->Valid());
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  KVs all = this->Scan("t", "u");
  ASSERT_EQ(all.size(), size_t{kThreads * kKeys});
  for (const auto& kv : all) EXPECT_EQ(kv.first, kv.second);
}

TYPED_TEST(EngineTest, ApproximateSize) {
  std::string big(1000, 'x');
  for (int i = 0; i < 2000; ++i) this->Put("s" + std::to_string(10000 + i), big);
  uint64_t all = this->engine_->ApproximateSize("s", "t");
  EXPECT_GT(all, 0u);
  EXPECT_LT(all, 20'000'000u);
  EXPECT_EQ(this->engine_->ApproximateSize("x", "y"), 0u);
  EXPECT_GT(this->engine_->ApproximateSize("", ""), 0u);
}

// Random single-threaded ops checked against a std::map model, including live snapshots (this
// exercises the memory engine's version pruning).
TYPED_TEST(EngineTest, RandomOpsMatchModel) {
  using Model = std::map<std::string, std::string>;
  std::mt19937 rng(42);
  Model latest;
  std::vector<std::pair<std::shared_ptr<const Snapshot>, Model>> snaps;
  auto key = [&] { return "r" + std::to_string(rng() % 20 + 10); };
  auto check = [&](const Snapshot* snap, const Model& m) {
    KVs expect(m.begin(), m.end());
    std::shared_ptr<const Snapshot> shared;
    for (auto& [sp, _] : snaps) {
      if (sp.get() == snap) shared = sp;
    }
    ASSERT_EQ(this->Scan("r", "s", shared), expect);
    for (int k = 10; k < 30; ++k) {
      std::string k_str = "r" + std::to_string(k);
      auto found = m.find(k_str);
      ASSERT_EQ(this->Get(k_str, snap),
                found == m.end() ? std::nullopt : std::optional<std::string>(found->second));
    }
  };
  for (int op = 0; op < 600; ++op) {
    int kind = static_cast<int>(rng() % 10);
    if (kind < 4) {
      ASSERT_TRUE(this->engine_->Commit(RandomBatch(rng, key, std::to_string(op), latest)).ok());
    } else if (kind == 4 && snaps.size() < 6) {
      snaps.emplace_back(this->engine_->GetSnapshot(), latest);
    } else if (kind == 5 && !snaps.empty()) {
      snaps.erase(snaps.begin() + static_cast<ptrdiff_t>(rng() % snaps.size()));
    } else if (kind == 6) {
      std::string lo = key(), hi = key();
      ASSERT_TRUE(this->engine_->DeleteRange(lo, hi).ok());
      if (lo < hi) latest.erase(latest.lower_bound(lo), latest.lower_bound(hi));
    } else if (kind == 7) {
      check(nullptr, latest);
      for (auto& [sp, model] : snaps) check(sp.get(), model);
    }
  }
  check(nullptr, latest);
  for (auto& [sp, model] : snaps) check(sp.get(), model);
}

}  // namespace
}  // namespace monotable::engine
