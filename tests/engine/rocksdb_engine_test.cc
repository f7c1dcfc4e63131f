// The RocksDB engine alone: range reads under concurrent and random writes, its prefix mode for
// range reads within a group, reopening a data directory (a clean close leaves no log to replay),
// and snapshots and iterators that outlive the engine.
#include "engine/rocksdb/rocksdb_engine.h"

#include <gtest/gtest.h>
#include <rocksdb/perf_context.h>
#include <rocksdb/perf_level.h>

#include <atomic>
#include <cstdio>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "random_batch.h"
#include "rocksdb_fixtures.h"

namespace monotable::engine {
namespace {

// RocksDB with groups (the server's setting): small ranges within a group are read in RocksDB's
// prefix mode. Readers walking a group's range, whole and
// in part, forward and backward, while a writer updates, inserts and deletes keys in it, must see
// each commit whole, and never less than the last commit that had finished when they began.
TEST(RocksDbEngineTest, RangeReadsSeeEveryFinishedCommit) {
  TempDir dir("mt_engine_test_");
  auto opened = OpenRocksDbEngine({.path = dir.db(), .sync = false, .group_prefix_bytes = 4});
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  Engine& engine = **opened;
  constexpr int kWrites = 3000;
  const std::vector<std::string> fixed = {"grp1/a", "grp1/b", "grp1/c", "grp1/d"};
  const std::string odd = "grp1/e";  // present exactly after odd commits
  std::atomic<int> finished{0};
  std::atomic<bool> done{false}, failed{false};
  auto value_of = [](int v) {
    char value[16];
    std::snprintf(value, sizeof value, "%08d", v);
    return std::string(value);
  };
  ASSERT_TRUE(engine.Commit({.guards = {}, .mutations = {{"grp2/x", "another group"}}}).ok());
  std::thread writer([&] {
    for (int v = 1; v <= kWrites; ++v) {
      WriteBatch b;
      for (const std::string& k : fixed) b.mutations.push_back({k, value_of(v)});
      b.mutations.push_back({odd, v % 2 ? std::optional<std::string>(value_of(v)) : std::nullopt});
      if (!engine.Commit(b).ok()) failed = true;
      finished.store(v, std::memory_order_release);
    }
    done = true;
  });
  auto reader = [&](bool backward, bool part) {
    int seen = 0;
    const std::string lower = part ? "grp1/b" : "grp1", upper = part ? "grp1/f" : "grp1\xff";
    while (!done && !failed) {
      const int floor = finished.load(std::memory_order_acquire);
      auto it = engine.NewIterator(lower, upper);
      std::vector<std::pair<std::string, std::string>> got;
      for (backward ? it->SeekToLast() : it->SeekToFirst(); it->Valid(); backward ? it->Prev() : it->Next()) {
        got.emplace_back(it->key(), it->value());
      }
      if (!it->status().ok()) failed = true;
      if (backward) std::reverse(got.begin(), got.end());
      const size_t fixed_in_range = part ? 3 : 4;
      if (got.empty() && floor == 0 && seen == 0) continue;  // before the first commit
      if (got.size() < fixed_in_range || got.size() > fixed_in_range + 1) {
        failed = true;
        continue;
      }
      const int v = std::stoi(got[0].second);
      bool whole = true;
      for (size_t i = 0; i < fixed_in_range; ++i) whole = whole && got[i].second == got[0].second;
      const bool odd_present = got.size() == fixed_in_range + 1;
      if (!whole || v < floor || v < seen || odd_present != (v % 2 == 1) ||
          (odd_present && (got.back().first != odd || got.back().second != got[0].second))) {
        failed = true;
      }
      seen = v;
    }
  };
  std::thread a(reader, false, false), b(reader, true, false), c(reader, false, true);
  writer.join();
  a.join();
  b.join();
  c.join();
  EXPECT_FALSE(failed);
  // After the writes, a read whole twice (the second from the cache) gives the last commit.
  for (int round = 0; round < 2; ++round) {
    auto it = engine.NewIterator("grp1", "grp1\xff");
    std::vector<std::string> values;
    for (it->SeekToFirst(); it->Valid(); it->Next()) values.emplace_back(it->value());
    EXPECT_EQ(values, std::vector<std::string>(4, value_of(kWrites))) << round;
  }
  // A range deletion empties the group for later reads.
  ASSERT_TRUE(engine.DeleteRange("grp1", "grp1\xff").ok());
  auto it = engine.NewIterator("grp1", "grp1\xff");
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
}

// RocksDB with groups, one thread: random writes, deletions and range deletions against a model,
// with walks of ranges within a group (whole, partial, backward, from a key) and snapshot walks
// between them: every walk returns the model's contents.
// Halfway the engine is reopened (its memtable flushed into a table file), so that later walks
// merge a table file with the memtable, both read in RocksDB's prefix mode.
TEST(RocksDbEngineTest, GroupRangeReadsMatchModel) {
  TempDir dir("mt_engine_test_");
  const EngineOptions options{.path = dir.db(), .sync = false, .group_prefix_bytes = 2};
  auto opened = OpenRocksDbEngine(options);
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  std::unique_ptr<Engine> engine_ptr = std::move(*opened);
  std::map<std::string, std::string> model;
  std::mt19937 rng(11);
  auto key = [&] { return std::string("g") + char('1' + rng() % 3) + char('a' + rng() % 8); };
  auto bound = [&](char group) {  // a bound within group: its first key, one of its keys, or its end
    switch (rng() % 3) {
      case 0:
        return std::string("g") + group;
      case 1:
        return std::string("g") + group + char('a' + rng() % 8);
      default:
        return std::string("g") + group + "\xff";
    }
  };
  for (int op = 0; op < 6000; ++op) {
    if (op == 3000) {
      engine_ptr.reset();
      auto reopened = OpenRocksDbEngine(options);
      ASSERT_TRUE(reopened.ok()) << reopened.status().message();
      engine_ptr = std::move(*reopened);
    }
    Engine& engine = *engine_ptr;
    const int kind = static_cast<int>(rng() % 20);  // mostly reads, so that cached ranges get read again
    if (kind < 4) {
      ASSERT_TRUE(engine.Commit(RandomBatch(rng, key, std::to_string(op), model)).ok());
    } else if (kind == 4) {
      std::string lo = key(), hi = key();
      ASSERT_TRUE(engine.DeleteRange(lo, hi).ok());
      if (lo < hi) model.erase(model.lower_bound(lo), model.lower_bound(hi));
    } else {
      const char group = static_cast<char>('1' + rng() % 3);
      std::string lo = bound(group), hi = bound(group);
      if (hi < lo) std::swap(lo, hi);
      std::vector<std::pair<std::string, std::string>> expect(model.lower_bound(lo), model.lower_bound(hi));
      std::shared_ptr<const Snapshot> snap = kind == 19 ? engine.GetSnapshot() : nullptr;
      auto it = engine.NewIterator(lo, hi, snap);
      std::vector<std::pair<std::string, std::string>> got;
      const int walk = static_cast<int>(rng() % 4);
      if (walk == 0 || walk == 2) {  // whole (or the first two), forward
        for (it->SeekToFirst(); it->Valid() && (walk == 0 || got.size() < 2); it->Next())
          got.emplace_back(it->key(), it->value());
        if (walk == 2 && expect.size() > 2) expect.resize(2);
      } else if (walk == 1) {  // whole, backward
        for (it->SeekToLast(); it->Valid(); it->Prev()) got.emplace_back(it->key(), it->value());
        std::reverse(got.begin(), got.end());
      } else {  // from a key of the group
        std::string from = std::string("g") + group + char('a' + rng() % 8);
        for (it->Seek(from); it->Valid(); it->Next()) got.emplace_back(it->key(), it->value());
        std::erase_if(expect, [&](const auto& kv) { return kv.first < from; });
      }
      ASSERT_TRUE(it->status().ok());
      ASSERT_EQ(got, expect) << "op " << op << " walk " << walk << " [" << lo << ", " << hi << ")";
    }
  }
}

// A range read within a group that the memtable does not hold skips the memtable: its prefix
// bloom filter says so (RocksDB consults it only in prefix mode, not in auto_prefix_mode), instead
// of a skip-list search per memtable, which cost a Query of a large table ~10 % of its CPU.
TEST(RocksDbEngineTest, GroupRangeReadSkipsMemtablesWithoutTheGroup) {
  TempDir dir("mt_engine_test_");
  auto opened = OpenRocksDbEngine({.path = dir.db(), .sync = false, .group_prefix_bytes = 2});
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  Engine& engine = **opened;
  WriteBatch batch;
  for (char c = 'a'; c <= 'z'; ++c) batch.mutations.push_back({std::string("g1") + c, "v"});
  ASSERT_TRUE(engine.Commit(batch).ok());

  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);
  rocksdb::get_perf_context()->Reset();
  auto absent = engine.NewIterator("g2", "g2\xff", nullptr);
  absent->SeekToFirst();
  EXPECT_FALSE(absent->Valid());
  EXPECT_EQ(rocksdb::get_perf_context()->bloom_memtable_miss_count, 1u);

  rocksdb::get_perf_context()->Reset();
  auto present = engine.NewIterator("g1", "g1\xff", nullptr);
  int seen = 0;
  for (present->SeekToFirst(); present->Valid(); present->Next()) ++seen;
  EXPECT_EQ(seen, 26);
  EXPECT_EQ(rocksdb::get_perf_context()->bloom_memtable_miss_count, 0u);
  EXPECT_EQ(rocksdb::get_perf_context()->bloom_memtable_hit_count, 1u);
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
}

// RocksDB only: data survives closing and reopening the same path.
TEST(RocksDbEngineTest, ReopenPersists) {
  TempDir dir("mt_engine_test_");
  EngineOptions opts{.path = dir.path() + "/nested/db", .sync = true};
  {
    auto r = OpenRocksDbEngine(opts);
    ASSERT_TRUE(r.ok()) << r.status().message();
    auto& e = *r;
    WriteBatch b{.guards = {}, .mutations = {{"a", "1"}, {"b", "2"}, {"c", "3"}, {"d", "4"}}};
    ASSERT_TRUE(e->Commit(b).ok());
    ASSERT_TRUE(e->Commit({.guards = {}, .mutations = {{"b", std::nullopt}}}).ok());
    ASSERT_TRUE(e->DeleteRange("d", "e").ok());
    auto snap = e->GetSnapshot();  // released before the engine: the documented order
    auto it = e->NewIterator("", "", snap);
  }
  {
    auto r = OpenRocksDbEngine(opts);
    ASSERT_TRUE(r.ok()) << r.status().message();
    auto& e = *r;
    // The clean close wrote the memtable to a table file: reads for a write (which keep nothing in
    // the caches) come from there, then the ordinary reads.
    EXPECT_EQ(*e->GetForWrite("a"), "1");
    EXPECT_EQ(*e->GetForWrite("b"), std::nullopt);
    EXPECT_EQ(*e->Get("a"), "1");
    EXPECT_EQ(*e->Get("b"), std::nullopt);
    EXPECT_EQ(*e->Get("c"), "3");
    EXPECT_EQ(*e->Get("d"), std::nullopt);
    EXPECT_EQ(e->Name(), "rocksdb");
    // A second open of the same live path fails with an error, not a crash.
    auto second = OpenRocksDbEngine(opts);
    EXPECT_FALSE(second.ok());
    EXPECT_EQ(second.status().code(), ErrorCode::kIo);
  }
}

// A clean close flushes the memtables, so the next open has no log records to replay (a restart
// would otherwise replay and flush up to three memtables' worth of log first).
TEST(RocksDbEngineTest, CleanCloseLeavesNoLogToReplay) {
  TempDir dir("mt_engine_test_");
  {
    auto r = OpenRocksDbEngine({.path = dir.db()});
    ASSERT_TRUE(r.ok()) << r.status().message();
    for (int i = 0; i < 100; ++i) {
      ASSERT_TRUE((*r)->Commit({.guards = {}, .mutations = {{"key" + std::to_string(i), std::string(100, 'v')}}}).ok());
    }
  }
  uintmax_t log_bytes = 0;
  int table_files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.db())) {
    if (entry.path().extension() == ".log") log_bytes += entry.file_size();
    if (entry.path().extension() == ".sst") ++table_files;
  }
  EXPECT_EQ(log_bytes, 0u);
  EXPECT_EQ(table_files, 1);
  auto r = OpenRocksDbEngine({.path = dir.db()});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(*(*r)->Get("key99"), std::string(100, 'v'));
}

TEST(RocksDbEngineTest, SnapshotOutlivingEngineIsSafe) {
  TempDir dir("mt_engine_test_");  // declared first: removed after every engine below is closed
  std::shared_ptr<const Snapshot> snap;
  std::unique_ptr<Iterator> it;
  {
    auto r = OpenRocksDbEngine({.path = dir.path()});
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE((*r)->Commit({.guards = {}, .mutations = {{"a", "1"}}}).ok());
    snap = (*r)->GetSnapshot();
    it = (*r)->NewIterator("", "", snap);
  }
  it->SeekToFirst();  // the DB stays open until these go
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), "a");
  it.reset();
  snap.reset();
  auto r = OpenRocksDbEngine({.path = dir.path()});  // closed now, so it reopens
  EXPECT_TRUE(r.ok()) << r.status().message();
}

// With groups, an iterator over a range within one group walked after its engine is gone still
// reads, and ends, safely.
TEST(RocksDbEngineTest, RangeIteratorOutlivingEngineIsSafe) {
  TempDir dir("mt_engine_test_");
  std::unique_ptr<Iterator> it;
  {
    auto r = OpenRocksDbEngine({.path = dir.path(), .group_prefix_bytes = 4});
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE((*r)->Commit({.guards = {}, .mutations = {{"grp1/a", "1"}, {"grp1/b", "2"}}}).ok());
    it = (*r)->NewIterator("grp1", "grp1\xff");
  }
  std::vector<std::string> keys;
  for (it->SeekToFirst(); it->Valid(); it->Next()) keys.emplace_back(it->key());
  EXPECT_EQ(keys, (std::vector<std::string>{"grp1/a", "grp1/b"}));
  it.reset();
  auto r = OpenRocksDbEngine({.path = dir.path(), .group_prefix_bytes = 4});
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto again = (*r)->NewIterator("grp1", "grp1\xff");
  again->SeekToLast();
  ASSERT_TRUE(again->Valid());
  EXPECT_EQ(again->key(), "grp1/b");
}

}  // namespace
}  // namespace monotable::engine
