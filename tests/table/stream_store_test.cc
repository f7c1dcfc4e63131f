// Streams on the partition contract, on the partitioned test engine (each partition apart, no
// atomicity across partitions), a logged store: a stream has kStoreStreamShards shards numbered in
// the store (changelog/stream_append.h); a shard's records read in order, trimmed with the horizon
// in one partition commit, reloaded after a simulated crash; a reader racing appenders never
// finds a record below what it has read.
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>

#include "changelog/keys.h"
#include "changelog/stream_append.h"

#include "engine/memory/memory_engine.h"
#include "engine/partitioned/partitioned_store.h"
#include "model/item_codec.h"
#include "table/catalog.h"
#include "table/change_log.h"
#include "table/stream_catalog.h"

namespace monotable::table {
namespace {

constexpr uint32_t kStreamSpace = 77;

TableDescription StreamTable() {
  TableDescription t;
  t.name = "t";
  t.table_id = "id-t";
  t.attribute_definitions = {{"pk", AttrType::kS}};
  t.key_schema = {{"pk", KeyRole::kHash}};
  t.stream = {true, "NEW_IMAGE", "2024-01-01T00:00:00.000", kStreamSpace};
  return t;
}

std::string PartitionOf(const std::string& pk) { return PartitionIdOf(AttributeValue::S(pk)); }

constexpr uint32_t kTableSpace = 76;

class StreamStoreTest : public ::testing::Test {
 protected:
  void SetUp() {
    state_ = engine::NewPartitionedState();
    store_ = engine::OpenPartitionedStore(state_);
    streams_ = std::make_unique<StreamCatalog>(*store_, [this] { return now_ms_.load(); });
  }

  // What the change applier appends for the change at `position` of item "k"'s partition.
  void Append(StreamLog& log, const TableDescription& table, int64_t v, const std::string& pk = "k",
              uint64_t position = 0) {
    Item item{{"pk", AttributeValue::S(pk)}, {"v", AttributeValue::N(Number::FromInt(v))}};
    auto record = MakeChangeRecord(table, log.view_type(), nullptr, &item, false);
    ASSERT_TRUE(record);
    record->created_ms = now_ms_.load();
    changelog::StreamPart part{log.key_prefix(), log.info().start, log.shard_count(), EncodeChangeRecord(*record)};
    std::string source = PartitionOf(pk);
    ASSERT_TRUE(changelog::AppendStreamPart(*store_, {kTableSpace, source}, position ? position : ++positions_, part,
                                            now_ms_.load())
                    .ok());
  }

  uint32_t ShardOf(const StreamLog& log, const std::string& pk) {
    return ShardOfPartition(PartitionOf(pk), log.shard_count());
  }

  uint64_t Horizon(StreamLog& log, uint32_t shard) { return streams_->Horizon(log, shard).value(); }

  std::vector<int64_t> ReadValues(StreamLog& log) {
    auto page = streams_->Read(log, Horizon(log, ShardOf(log, "k")), 1000);
    EXPECT_TRUE(page.ok()) << page.status().message();
    std::vector<int64_t> out;
    if (!page.ok()) return out;
    for (const auto& change : page->changes) out.push_back(std::stoll(change.record.new_image->at("v").n().ToString()));
    return out;
  }

  uint64_t positions_ = 0;
  std::atomic<int64_t> now_ms_{1'700'000'000'000};
  std::shared_ptr<engine::PartitionedState> state_;
  std::unique_ptr<engine::PartitionStore> store_;
  std::unique_ptr<StreamCatalog> streams_;
};

TEST_F(StreamStoreTest, RecordsReadTrimAndReloadOnThePartitionedEngine) {
  TableDescription table = StreamTable();
  streams_->OnTableChange(nullptr, &table);
  auto log = streams_->Active(table);
  ASSERT_NE(log, nullptr);
  ASSERT_TRUE(log->numbered_in_store());
  EXPECT_EQ(log->shard_count(), kStoreStreamShards);
  const uint32_t shard = ShardOf(*log, "k");
  for (int64_t v = 1; v <= 3; ++v) Append(*log, table, v);
  EXPECT_EQ(ReadValues(*log), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(streams_->Last(*log, shard).value(), ShardFirstSequence(log->info().start, shard) + 2);
  // A page of two, then the rest from where it stopped.
  auto page = streams_->Read(*log, Horizon(*log, shard), 2);
  ASSERT_TRUE(page.ok());
  ASSERT_EQ(page->changes.size(), 2u);
  auto rest = streams_->Read(*log, page->next, 10);
  ASSERT_TRUE(rest.ok());
  ASSERT_EQ(rest->changes.size(), 1u);
  EXPECT_EQ(rest->changes[0].seq, page->changes[1].seq + 1);

  // Past the retention, trimming drops the records and raises the horizon: one partition commit.
  now_ms_ += StreamCatalog::kRetentionMs + 1;
  Append(*log, table, 4);
  ASSERT_TRUE(streams_->Trim().ok());
  EXPECT_EQ(ReadValues(*log), (std::vector<int64_t>{4}));
  uint64_t horizon = Horizon(*log, shard);
  EXPECT_EQ(horizon, ShardFirstSequence(log->info().start, shard) + 3);
  EXPECT_EQ(streams_->Read(*log, horizon - 1, 10).status().code(), ErrorCode::kTrimmedDataAccess);
  EXPECT_EQ(engine::PartitionCount(*state_, kStreamSpace), 1u);  // one item partition: one shard

  // The process stops; a new one reloads the stream from the system partition and the stream's
  // own: same horizon, same records, numbering continues above them.
  engine::CrashAfter(*state_, 0);
  EXPECT_FALSE(store_->Commit({kStreamSpace, StreamShardPartitionId(shard, true)}, engine::PartitionWrite{}).ok());
  engine::Restart(*state_);
  store_ = engine::OpenPartitionedStore(state_);
  streams_ = std::make_unique<StreamCatalog>(*store_, [this] { return now_ms_.load(); });
  auto memory = engine::NewMemoryEngine();
  Catalog catalog(*memory);  // no table: the reloaded stream is closed, still readable
  ASSERT_TRUE(catalog.Load().ok());
  ASSERT_TRUE(streams_->Load(catalog).ok());
  auto reloaded = streams_->Find("t", table.stream.label);
  ASSERT_NE(reloaded, nullptr);
  EXPECT_EQ(Horizon(*reloaded, shard), horizon);
  EXPECT_EQ(ReadValues(*reloaded), (std::vector<int64_t>{4}));
  EXPECT_TRUE(reloaded->closed());
  // Closed in the store: the shard ends at its last record, and no append lands any more.
  EXPECT_EQ(streams_->Last(*reloaded, shard).value(), horizon);
  Append(*reloaded, table, 5);
  EXPECT_EQ(ReadValues(*reloaded), (std::vector<int64_t>{4}));
  auto end = streams_->Read(*reloaded, horizon + 1, 10);
  ASSERT_TRUE(end.ok());
  EXPECT_TRUE(end->shard_end);

  // A closed stream past the retention is removed with its partition.
  now_ms_ += StreamCatalog::kRetentionMs + 1;
  ASSERT_TRUE(streams_->Trim().ok());
  EXPECT_EQ(streams_->Find("t", table.stream.label), nullptr);
  EXPECT_EQ(engine::PartitionCount(*state_, kStreamSpace), 0u);
}

// An applied position outlives its use once its source record is drained (trimmed from the source
// log): Trim() drops it after an hour, and keeps one whose source record is still in the log.
TEST_F(StreamStoreTest, TrimDropsAppliedPositionsOnceTheirSourceRecordsAreTrimmed) {
  TableDescription table = StreamTable();
  streams_->OnTableChange(nullptr, &table);
  auto log = streams_->Active(table);
  ASSERT_NE(log, nullptr);
  engine::PartitionWrite held;
  held.log.push_back("change 1");  // "held"'s change 1 is still in its log (not drained)
  std::string held_id = PartitionOf("held");
  ASSERT_EQ(store_->Commit({kTableSpace, held_id}, std::move(held)).value().first_log_position, 1u);
  Append(*log, table, 1, "k", 1);
  Append(*log, table, 2, "held", 1);
  auto applied = [&](const std::string& pk) {
    std::string shard_id = StreamShardPartitionId(ShardOf(*log, pk), true);
    return store_->Get({kStreamSpace, shard_id}, StreamAppliedKey(PartitionOf(pk))).value().has_value();
  };
  ASSERT_TRUE(applied("k") && applied("held"));
  ASSERT_TRUE(streams_->Trim().ok());
  EXPECT_TRUE(applied("k"));  // young: kept
  now_ms_ += 2 * 3600 * 1000;
  ASSERT_TRUE(streams_->Trim().ok());
  EXPECT_FALSE(applied("k"));
  EXPECT_TRUE(applied("held"));
  ASSERT_TRUE(store_->TrimLog({kTableSpace, held_id}, 1).ok());
  ASSERT_TRUE(streams_->Trim().ok());
  EXPECT_FALSE(applied("held"));
  // The records themselves stay (within the retention).
  auto kept = ReadValues(*log);
  ASSERT_FALSE(kept.empty());
  EXPECT_EQ(kept.front(), 1);
}

// Writers append to every shard while a reader follows each shard from its horizon: every page
// starts at the reader's position, nothing read is ever below a record read before, and at the end
// the reader has seen every record exactly once (a record appearing below the reader's position
// would be missed).
TEST_F(StreamStoreTest, AReaderNeverFindsARecordBelowWhatItHasRead) {
  TableDescription table = StreamTable();
  streams_->OnTableChange(nullptr, &table);
  auto log = streams_->Active(table);
  ASSERT_NE(log, nullptr);
  constexpr int kWriters = 4, kPerWriter = 150;
  std::atomic<int> done{0};
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      for (int i = 0; i < kPerWriter; ++i) {
        std::string pk = "w" + std::to_string(w) + "-" + std::to_string(i % 10);
        Item item{{"pk", AttributeValue::S(pk)}, {"v", AttributeValue::N(Number::FromInt(w * 1000 + i))}};
        auto record = MakeChangeRecord(table, log->view_type(), nullptr, &item, false);
        changelog::StreamPart part{log->key_prefix(), log->info().start, log->shard_count(),
                                   EncodeChangeRecord(*record)};
        // Each writer owns its partitions; positions grow per partition.
        EXPECT_TRUE(changelog::AppendStreamPart(*store_, {kTableSpace, PartitionOf(pk)}, i / 10 + 1, part, 0).ok());
      }
      done.fetch_add(1);
    });
  }
  std::vector<uint64_t> position(log->shard_count());
  for (uint32_t s = 0; s < log->shard_count(); ++s) position[s] = Horizon(*log, s);
  std::set<int64_t> seen;
  size_t duplicates = 0;
  auto follow = [&] {
    for (uint32_t s = 0; s < log->shard_count(); ++s) {
      auto page = streams_->Read(*log, position[s], 7);
      ASSERT_TRUE(page.ok()) << page.status().message();
      for (const auto& change : page->changes) {
        ASSERT_GE(change.seq, position[s]);
        ASSERT_EQ(ShardOfSequence(log->info().start, change.seq, log->shard_count()), s);
        if (!seen.insert(std::stoll(change.record.new_image->at("v").n().ToString())).second) ++duplicates;
      }
      position[s] = page->next;
    }
  };
  while (done.load() < kWriters) follow();
  for (auto& t : writers) t.join();
  for (int i = 0; i < 200; ++i) follow();
  EXPECT_EQ(duplicates, 0u);
  EXPECT_EQ(seen.size(), static_cast<size_t>(kWriters * kPerWriter));
}

}  // namespace
}  // namespace monotable::table
