// WriteAtomically's two groupings: all or nothing (transactions) and independent writes sharing
// one commit (BatchWriteItem), with a throttled action on a simulated provisioned table; on the
// memory engine (one engine batch) and on the partitioned test engine (the logged path: one
// partition commit per item, transactions through the coordinator), with the same outcomes.
#include "table/transaction.h"

#include <gtest/gtest.h>

#include "changelog/keys.h"
#include "engine/partitioned/partitioned_store.h"

namespace monotable::table {
namespace {

class GroupedWriteTest : public ::testing::TestWithParam<bool> {  // true: the partitioned engine
 protected:
  void SetUp() override {
    if (GetParam()) {
      db_ = std::make_unique<Database>(engine::OpenPartitionedStore(engine::NewPartitionedState()));
    } else {
      db_ = std::make_unique<Database>(engine::NewMemoryEngine());
    }
    ASSERT_EQ(db_->committer().logged(), GetParam());
    ASSERT_TRUE(db_->catalog().Load().ok());
    db_->throughput().set_simulate(true);
    TableDescription t;
    t.name = "tbl";
    t.attribute_definitions = {{"pk", AttrType::kS}};
    t.key_schema = {{"pk", KeyRole::kHash}};
    t.throughput.read_units = 1;
    t.throughput.write_units = 1;  // one 1 KB write a second in a new table
    ASSERT_TRUE(db_->catalog().Create(t).ok());
    table_ = db_->catalog().Find("tbl");
  }

  static Item Key(const std::string& pk) { return {{"pk", AttributeValue::S(pk)}}; }

  WriteAction Put(const std::string& pk) {
    Item item = Key(pk);
    item["v"] = AttributeValue::S("value");
    return {table_.get(), Key(pk), [item](const Item*) -> Result<std::optional<Item>> { return std::optional(item); }, false,
            nullptr};
  }

  bool Exists(const std::string& pk) { return db_->GetItem(*table_, Key(pk)).value().has_value(); }

  std::unique_ptr<Database> db_;
  std::shared_ptr<const TableHandle> table_;
};

TEST_P(GroupedWriteTest, EachOnItsOwnCommitsWhatWasNotThrottled) {
  auto result = WriteAtomically(*db_, {Put("a"), Put("b"), Put("c")}, WriteCharge::kStandard, 16,
                                Grouping::kEachOnItsOwn);
  ASSERT_TRUE(result.ok()) << result.status().message();
  ASSERT_TRUE(result->committed);
  ASSERT_EQ(result->outcomes.size(), 3u);
  EXPECT_TRUE(result->outcomes[0].ok());
  EXPECT_EQ(result->outcomes[1].code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_EQ(result->outcomes[2].code(), ErrorCode::kProvisionedThroughputExceeded);
  ASSERT_EQ(result->results.size(), 3u);
  EXPECT_TRUE(result->results[0].new_item.has_value());
  EXPECT_FALSE(result->results[1].new_item.has_value());
  EXPECT_TRUE(Exists("a"));
  EXPECT_FALSE(Exists("b"));
  EXPECT_FALSE(Exists("c"));
  EXPECT_EQ(table_->stats->item_count.load(), 1);
}

TEST_P(GroupedWriteTest, AllOrNothingWritesNothingWhenOneIsThrottled) {
  auto result = WriteAtomically(*db_, {Put("a"), Put("b")}, WriteCharge::kStandard);
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(result->committed);
  EXPECT_TRUE(result->outcomes[0].ok());
  EXPECT_EQ(result->outcomes[1].code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_FALSE(Exists("a"));
  EXPECT_FALSE(Exists("b"));
}

TEST_P(GroupedWriteTest, EachOnItsOwnReturnsAnyOtherRefusalWithNothingWritten) {
  db_->throughput().set_simulate(false);
  WriteAction refused = Put("b");
  refused.apply = [](const Item*) -> Result<std::optional<Item>> {
    return Status(ErrorCode::kItemCollectionSizeLimitExceeded, "Item collection size limit exceeded");
  };
  auto result = WriteAtomically(*db_, {Put("a"), refused}, WriteCharge::kStandard, 16, Grouping::kEachOnItsOwn);
  EXPECT_EQ(result.status().code(), ErrorCode::kItemCollectionSizeLimitExceeded);
  EXPECT_FALSE(Exists("a"));
}

TEST_P(GroupedWriteTest, EachOnItsOwnWithoutThrottlingWritesEveryAction) {
  db_->throughput().set_simulate(false);
  std::vector<WriteAction> actions;
  for (int i = 0; i < 25; ++i) actions.push_back(Put("k" + std::to_string(i)));
  auto result = WriteAtomically(*db_, actions, WriteCharge::kStandard, 16, Grouping::kEachOnItsOwn);
  ASSERT_TRUE(result.ok());
  ASSERT_TRUE(result->committed);
  for (const Status& s : result->outcomes) EXPECT_TRUE(s.ok());
  for (int i = 0; i < 25; ++i) EXPECT_TRUE(Exists("k" + std::to_string(i)));
  EXPECT_EQ(table_->stats->item_count.load(), 25);
}

INSTANTIATE_TEST_SUITE_P(Engines, GroupedWriteTest, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Partitioned" : "Memory"; });

}  // namespace
}  // namespace monotable::table
