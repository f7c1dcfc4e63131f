#include "engine/rocksdb/give_way_collector.h"

#include "engine/rocksdb/memtable_skiplist.h"

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <thread>

namespace monotable::engine {
namespace {

using std::chrono::microseconds;
using Clock = GiveWayCollectorFactory::Clock;

// A clock that moves 100 us each time it is read, and a yield that counts.
Clock::time_point fake_now{};
int yields = 0;
Clock::time_point FakeNow() { return fake_now += microseconds(100); }
void CountYield() { ++yields; }

class GiveWayCollectorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fake_now = {};
    yields = 0;
  }
  std::unique_ptr<rocksdb::TablePropertiesCollector> Make(Clock::duration interval, GiveWayCollectorFactory::NowFunction now) {
    GiveWayCollectorFactory factory(memtables, interval, now, &CountYield);
    return std::unique_ptr<rocksdb::TablePropertiesCollector>(factory.CreateTablePropertiesCollector({}));
  }
  static void Add(rocksdb::TablePropertiesCollector& c, const std::string& key, const std::string& value) {
    ASSERT_TRUE(c.AddUserKey(key, value, rocksdb::kEntryPut, 0, 0).ok());
  }
  std::shared_ptr<std::atomic<int>> memtables = std::make_shared<std::atomic<int>>(2);  // active + flushing
};

TEST_F(GiveWayCollectorTest, YieldsOncePerIntervalOfSmallKeys) {
  auto collector = Make(microseconds(300), &FakeNow);
  // The clock is read every 16 keys (100 us each read here), so every third read is due.
  for (int i = 0; i < 16 * 30; ++i) Add(*collector, "k" + std::to_string(i), "small");
  EXPECT_EQ(yields, 10);
  rocksdb::UserCollectedProperties properties;
  EXPECT_TRUE(collector->Finish(&properties).ok());
  EXPECT_TRUE(properties.empty());
}

TEST_F(GiveWayCollectorTest, LargeValuesReadTheClockSooner) {
  auto collector = Make(microseconds(300), &FakeNow);
  const std::string value(16 << 10, 'v');  // each 16 KB value reaches the byte threshold alone
  for (int i = 0; i < 30; ++i) Add(*collector, "k" + std::to_string(i), value);
  EXPECT_EQ(yields, 10);
}

TEST_F(GiveWayCollectorTest, NoYieldWhileAFlushIsBehind) {
  auto collector = Make(microseconds(300), &FakeNow);
  memtables->store(GiveWayCollectorFactory::kBehind);  // a sealed memtable waits for the flush
  for (int i = 0; i < 16 * 30; ++i) Add(*collector, "k" + std::to_string(i), "small");
  EXPECT_EQ(yields, 0);
  memtables->store(GiveWayCollectorFactory::kBehind - 1);  // caught up: the pacing goes on
  for (int i = 0; i < 16 * 3; ++i) Add(*collector, "k" + std::to_string(i), "small");
  EXPECT_EQ(yields, 1);
}

TEST_F(GiveWayCollectorTest, NoYieldBeforeTheInterval) {
  auto collector = Make(std::chrono::hours(1), &FakeNow);
  for (int i = 0; i < 10'000; ++i) Add(*collector, "k" + std::to_string(i), "small");
  EXPECT_EQ(yields, 0);
}

// RocksDB calls the collector while a flush and a compaction build their tables, and the tables
// read back whole.
TEST_F(GiveWayCollectorTest, FlushAndCompactionGiveWay) {
  const auto dir = std::filesystem::temp_directory_path() / ("mt-giveway-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  rocksdb::Options o;
  o.create_if_missing = true;
  auto skiplists = std::make_shared<BytewiseSkipListFactory>();
  o.memtable_factory = skiplists;
  o.allow_concurrent_memtable_write = false;
  o.table_properties_collector_factories.push_back(std::make_shared<GiveWayCollectorFactory>(
      skiplists->live_memtables(), Clock::duration::zero(), &Clock::now, &CountYield));
  rocksdb::DB* raw = nullptr;
  ASSERT_TRUE(rocksdb::DB::Open(o, dir.string(), &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < 1600; ++i) ASSERT_TRUE(db->Put({}, "key" + std::to_string(i), "round" + std::to_string(round)).ok());
    const int before = yields;
    EXPECT_EQ(skiplists->live_memtables()->load(), 1);  // the active memtable
    ASSERT_TRUE(db->Flush({}).ok());
    EXPECT_EQ(yields - before, 100);  // 1,600 keys: the clock read 100 times, each due
    // The flushed memtable is freed once nothing references it (RocksDB may let go of it just
    // after Flush returns); then only the new active one remains.
    for (int wait = 0; wait < 500 && skiplists->live_memtables()->load() != 1; ++wait) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_EQ(skiplists->live_memtables()->load(), 1);
  }
  const int before = yields;
  ASSERT_TRUE(db->CompactRange({}, nullptr, nullptr).ok());
  EXPECT_EQ(yields - before, 100);  // the two files' 3,200 entries compact to 1,600 keys
  std::string value;
  for (int i = 0; i < 1600; ++i) {
    ASSERT_TRUE(db->Get({}, "key" + std::to_string(i), &value).ok());
    EXPECT_EQ(value, "round1");
  }
  db.reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace monotable::engine
