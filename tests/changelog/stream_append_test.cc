// Stream records numbered in the store by the change applier (stream_append.h), on the partitioned
// test engine: a re-applied change appends nothing twice; two appliers (two servers) draining the
// same partitions at once append every change exactly once; at every crash point, recovery leaves
// exactly one record per committed change; numbers are unique across shards and, in each shard,
// increasing without gaps, with each item's records in order.
#include "changelog/stream_append.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <set>
#include <thread>

#include "changelog/change_applier.h"
#include "changelog/keys.h"
#include "changelog/stream_record.h"
#include "engine/partitioned/partitioned_store.h"
#include "model/item_codec.h"

namespace monotable::changelog {
namespace {

constexpr uint32_t kTable = 20, kStream = 21;
constexpr uint64_t kStart = 1'000'000;

std::shared_ptr<const TableDescription> Table() {
  auto t = std::make_shared<TableDescription>();
  t->name = "t";
  t->key_prefix = kTable;
  t->attribute_definitions = {{"pk", AttrType::kS}};
  t->key_schema = {{"pk", KeyRole::kHash}};
  return t;
}

std::string PartitionOf(const std::string& pk) { return table::PartitionIdOf(AttributeValue::S(pk)); }

Item Make(const std::string& pk, int v) {
  return {{"pk", AttributeValue::S(pk)}, {"v", AttributeValue::N(Number::FromInt(v))}};
}

StreamPart PartOf(const Item* old_item, const Item* new_item) {
  auto record = table::MakeChangeRecord(*Table(), "NEW_IMAGE", old_item, new_item, false);
  return {kStream, kStart, table::kStoreStreamShards, table::EncodeChangeRecord(*record)};
}

struct Record {
  uint64_t seq;
  std::string pk;
  int v;
};

// Every record of every shard, shard by shard in sequence order; checks each shard's numbers are
// its own, increasing from its first without a gap.
std::vector<Record> ReadStream(engine::PartitionStore& store, bool* contiguous) {
  std::vector<Record> out;
  *contiguous = true;
  for (uint32_t shard = 0; shard < table::kStoreStreamShards; ++shard) {
    std::string id = table::StreamShardPartitionId(shard, true);
    uint64_t expect = table::ShardFirstSequence(kStart, shard);
    EXPECT_TRUE(store.ReadRange({kStream, id}, {table::StreamSequenceKey(1), table::StreamHeadKey(), true},
                                [&](std::string_view key, std::string_view value) {
                                  uint64_t seq = ReadBigEndian(key);
                                  if (seq != expect++) *contiguous = false;
                                  auto record = table::DecodeChangeRecord(value).value();
                                  out.push_back({seq, record.keys.at("pk").s(),
                                                 std::stoi(record.new_image->at("v").n().ToString())});
                                  return true;
                                })
                    .ok());
    auto head = ReadShardHead(store, kStream, kStart, shard).value();
    EXPECT_EQ(head.last, expect - 1);
  }
  return out;
}

TEST(StreamAppend, AReappliedChangeAppendsNothing) {
  auto store = engine::OpenPartitionedStore(engine::NewPartitionedState());
  Item one = Make("a", 1), two = Make("a", 2);
  std::string source = PartitionOf("a");
  ASSERT_TRUE(AppendStreamPart(*store, {kTable, source}, 1, PartOf(nullptr, &one), 0).ok());
  ASSERT_TRUE(AppendStreamPart(*store, {kTable, source}, 1, PartOf(nullptr, &one), 0).ok());  // re-applied
  ASSERT_TRUE(AppendStreamPart(*store, {kTable, source}, 2, PartOf(&one, &two), 0).ok());
  ASSERT_TRUE(AppendStreamPart(*store, {kTable, source}, 1, PartOf(nullptr, &one), 0).ok());  // older: nothing
  ASSERT_TRUE(AppendStreamPart(*store, {kTable, source}, 2, PartOf(&one, &two), 0).ok());
  bool contiguous = false;
  auto records = ReadStream(*store, &contiguous);
  EXPECT_TRUE(contiguous);
  ASSERT_EQ(records.size(), 2u);
  uint32_t shard = table::ShardOfPartition(source, table::kStoreStreamShards);
  EXPECT_EQ(records[0].seq, table::ShardFirstSequence(kStart, shard));
  EXPECT_EQ(records[1].v, 2);
  // A closed shard takes nothing more.
  ASSERT_EQ(CloseStreamShard(*store, kStream, kStart, shard).value(), records[1].seq);
  ASSERT_TRUE(AppendStreamPart(*store, {kTable, source}, 3, PartOf(&two, &one), 0).ok());
  EXPECT_EQ(ReadStream(*store, &contiguous).size(), 2u);
}

TEST(StreamAppend, NumbersAreUniqueAcrossShardsAndIncreasingInEach) {
  auto store = engine::OpenPartitionedStore(engine::NewPartitionedState());
  std::set<uint32_t> shards_used;
  for (int i = 0; i < 200; ++i) {
    std::string pk = "k" + std::to_string(i % 40);
    Item item = Make(pk, i);
    std::string source = PartitionOf(pk);
    shards_used.insert(table::ShardOfPartition(source, table::kStoreStreamShards));
    ASSERT_TRUE(AppendStreamPart(*store, {kTable, source}, i / 40 + 1, PartOf(nullptr, &item), 0).ok());
  }
  EXPECT_EQ(shards_used.size(), table::kStoreStreamShards);  // 40 partitions spread over every shard
  bool contiguous = false;
  auto records = ReadStream(*store, &contiguous);
  EXPECT_TRUE(contiguous);
  ASSERT_EQ(records.size(), 200u);
  std::set<uint64_t> seqs;
  std::map<std::string, int> last_v;
  for (const auto& r : records) {
    EXPECT_TRUE(seqs.insert(r.seq).second);
    EXPECT_GT(r.v, last_v.count(r.pk) ? last_v[r.pk] : -1) << r.pk;  // an item's records in order
    last_v[r.pk] = r.v;
  }
}

// Logs `count` changes per item in the items' partitions without draining them (what writers on
// servers that stopped before draining leave).
void LogChanges(engine::PartitionStore& store, int items, int count) {
  for (int n = 0; n < count; ++n) {
    for (int i = 0; i < items; ++i) {
      std::string pk = "i" + std::to_string(i);
      Item old_item = Make(pk, n - 1), new_item = Make(pk, n);
      ItemChange change;
      change.table_keyspace = kTable;
      if (n > 0) change.old_image = old_item;
      change.new_image = new_item;
      change.stream.push_back(PartOf(n > 0 ? &old_item : nullptr, &new_item));
      engine::PartitionWrite write;
      write.mutations.push_back({"", EncodeItem(new_item)});
      write.log.push_back(EncodeItemChange(change));
      ASSERT_TRUE(store.Commit({kTable, PartitionOf(pk)}, std::move(write)).ok());
    }
  }
}

void ExpectExactlyOnceInOrder(engine::PartitionStore& store, int items, int count) {
  bool contiguous = false;
  auto records = ReadStream(store, &contiguous);
  EXPECT_TRUE(contiguous);
  std::map<std::string, std::vector<int>> per_item;
  for (const auto& r : records) per_item[r.pk].push_back(r.v);
  std::vector<int> want;
  for (int n = 0; n < count; ++n) want.push_back(n);
  ASSERT_EQ(per_item.size(), static_cast<size_t>(items));
  for (const auto& [pk, values] : per_item) EXPECT_EQ(values, want) << pk;
}

// The same through ChangeApplier::Drain: two appliers with their own locks drain the same logs.
TEST(StreamAppend, TwoAppliersDrainingTheSamePartitionsAppendEachChangeOnce) {
  for (int round = 0; round < 5; ++round) {
    auto store = engine::OpenPartitionedStore(engine::NewPartitionedState());
    constexpr int kItems = 12, kChanges = 15;
    LogChanges(*store, kItems, kChanges);
    auto table = Table();
    ChangeApplier first(*store, [&](uint32_t) { return table; });
    ChangeApplier second(*store, [&](uint32_t) { return table; });  // another server: its own locks
    // Both walk the partitions in the same order from a common start, so they overlap on each.
    std::atomic<int> ready{0};
    auto drain_all = [&](ChangeApplier& applier) {
      ready.fetch_add(1);
      while (ready.load() < 2) std::this_thread::yield();
      for (int i = 0; i < kItems; ++i) {
        EXPECT_TRUE(applier.Drain({kTable, PartitionOf("i" + std::to_string(i))}).ok());
      }
    };
    std::thread a([&] { drain_all(first); });
    std::thread b([&] { drain_all(second); });
    a.join();
    b.join();
    ExpectExactlyOnceInOrder(*store, kItems, kChanges);
  }
}

// Two appliers (two servers) apply the same changes of the same partitions, all of one shard, at
// the same time, each in log order: they contend on the shard's head (guard failures, retries),
// and every change is appended exactly once, numbered without a gap, each item's in order.
TEST(StreamAppend, TwoAppliersRacingOnOneShardAppendEachChangeOnce) {
  std::vector<std::string> pks;
  for (int i = 0; pks.size() < 6; ++i) {
    std::string pk = "i" + std::to_string(i);
    if (table::ShardOfPartition(PartitionOf(pk), table::kStoreStreamShards) == 0) pks.push_back(pk);
  }
  constexpr int kChanges = 40;
  for (int round = 0; round < 3; ++round) {
    auto store = engine::OpenPartitionedStore(engine::NewPartitionedState());
    std::atomic<int> ready{0};
    auto apply_all = [&] {
      ready.fetch_add(1);
      while (ready.load() < 2) std::this_thread::yield();
      for (int n = 0; n < kChanges; ++n) {
        for (const std::string& pk : pks) {
          Item item = Make(pk, n);
          EXPECT_TRUE(AppendStreamPart(*store, {kTable, PartitionOf(pk)}, n + 1, PartOf(nullptr, &item), 0).ok());
        }
      }
    };
    std::thread a(apply_all), b(apply_all);
    a.join();
    b.join();
    bool contiguous = false;
    auto records = ReadStream(*store, &contiguous);
    EXPECT_TRUE(contiguous);
    ASSERT_EQ(records.size(), pks.size() * kChanges);
    std::map<std::string, std::vector<int>> per_item;
    for (const auto& r : records) per_item[r.pk].push_back(r.v);
    std::vector<int> want;
    for (int n = 0; n < kChanges; ++n) want.push_back(n);
    for (const auto& [pk, values] : per_item) EXPECT_EQ(values, want) << pk;
  }
}

// A crash at every partition write of draining (before or after it), then Recover() by a new
// process: every change appended once, in order. Without the applied positions a crash between
// the stream append and the trim would append twice on recovery.
TEST(StreamAppend, RecoveryAfterACrashAtAnyPointAppendsEachChangeOnce) {
  constexpr int kItems = 3, kChanges = 4;
  auto table = Table();
  for (auto point : {engine::CrashPoint::kBeforeWrite, engine::CrashPoint::kAfterWrite}) {
    uint64_t n = 0;
    for (;; ++n) {
      SCOPED_TRACE(testing::Message() << "crash at write " << n + 1);
      auto state = engine::NewPartitionedState();
      {
        auto store = engine::OpenPartitionedStore(state);
        LogChanges(*store, kItems, kChanges);
      }
      engine::CrashAfter(*state, n, point);
      {
        auto store = engine::OpenPartitionedStore(state);
        ChangeApplier applier(*store, [&](uint32_t) { return table; });
        (void)applier.Recover({kTable});
      }
      bool crashed = engine::Crashed(*state);
      engine::Restart(*state);
      auto store = engine::OpenPartitionedStore(state);
      ChangeApplier applier(*store, [&](uint32_t) { return table; });
      ASSERT_TRUE(applier.Recover({kTable}).ok());
      ExpectExactlyOnceInOrder(*store, kItems, kChanges);
      if (!crashed) break;
    }
    EXPECT_GT(n, static_cast<uint64_t>(kItems * kChanges));  // one commit per append, one trim per partition
  }
}

}  // namespace
}  // namespace monotable::changelog
