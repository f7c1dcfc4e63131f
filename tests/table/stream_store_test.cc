// Streams on the partition contract, on the partitioned test engine (each partition apart, no
// atomicity across partitions): a stream is one partition, its records read in order, trimmed
// with the horizon in one partition commit, and reloaded after a simulated crash.
#include <gtest/gtest.h>

#include <atomic>

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

std::string SeqKey(uint64_t seq) {
  std::string key;
  AppendBigEndian64(seq, key);
  return key;
}

class StreamStoreTest : public ::testing::Test {
 protected:
  void SetUp() {
    state_ = engine::NewPartitionedState();
    store_ = engine::OpenPartitionedStore(state_);
    streams_ = std::make_unique<StreamCatalog>(*store_, [this] { return now_ms_.load(); });
  }

  // What the write path appends: the record at a reserved number in the stream's partition.
  void Append(StreamLog& log, const TableDescription& table, int64_t v) {
    Item item{{"pk", AttributeValue::S("k")}, {"v", AttributeValue::N(Number::FromInt(v))}};
    auto record = MakeChangeRecord(table, log.view_type(), nullptr, &item, false);
    ASSERT_TRUE(record);
    record->created_ms = now_ms_.load();
    auto seq = log.sequences().Reserve(1);
    ASSERT_TRUE(seq);
    engine::PartitionWrite write;
    write.mutations.push_back({SeqKey(*seq), EncodeChangeRecord(*record)});
    ASSERT_TRUE(store_->Commit({kStreamSpace, ""}, std::move(write)).ok());
    log.sequences().Settle(*seq);
  }

  std::vector<int64_t> ReadValues(StreamLog& log) {
    auto page = streams_->Read(log, log.horizon(), 1000);
    EXPECT_TRUE(page.ok()) << page.status().message();
    std::vector<int64_t> out;
    if (!page.ok()) return out;
    for (const auto& change : page->changes) out.push_back(std::stoll(change.record.new_image->at("v").n().ToString()));
    return out;
  }

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
  for (int64_t v = 1; v <= 3; ++v) Append(*log, table, v);
  EXPECT_EQ(ReadValues(*log), (std::vector<int64_t>{1, 2, 3}));
  // A page of two, then the rest from where it stopped.
  auto page = streams_->Read(*log, log->horizon(), 2);
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
  uint64_t horizon = log->horizon();
  EXPECT_EQ(streams_->Read(*log, horizon - 1, 10).status().code(), ErrorCode::kTrimmedDataAccess);
  EXPECT_EQ(engine::PartitionCount(*state_, kStreamSpace), 1u);  // one stream, one partition

  // The process stops; a new one reloads the stream from the system partition and the stream's
  // own: same horizon, same records, numbering continues above them.
  engine::CrashAfter(*state_, 0);
  EXPECT_FALSE(store_->Commit({kStreamSpace, ""}, engine::PartitionWrite{}).ok());
  engine::Restart(*state_);
  store_ = engine::OpenPartitionedStore(state_);
  streams_ = std::make_unique<StreamCatalog>(*store_, [this] { return now_ms_.load(); });
  auto memory = engine::NewMemoryEngine();
  Catalog catalog(*memory);  // no table: the reloaded stream is closed, still readable
  ASSERT_TRUE(catalog.Load().ok());
  ASSERT_TRUE(streams_->Load(catalog).ok());
  auto reloaded = streams_->Find("t", table.stream.label);
  ASSERT_NE(reloaded, nullptr);
  EXPECT_EQ(reloaded->horizon(), horizon);
  EXPECT_EQ(ReadValues(*reloaded), (std::vector<int64_t>{4}));
  EXPECT_TRUE(reloaded->sequences().closed());

  // A closed stream past the retention is removed with its partition.
  now_ms_ += StreamCatalog::kRetentionMs + 1;
  ASSERT_TRUE(streams_->Trim().ok());
  EXPECT_EQ(streams_->Find("t", table.stream.label), nullptr);
  EXPECT_EQ(engine::PartitionCount(*state_, kStreamSpace), 0u);
}

}  // namespace
}  // namespace monotable::table
