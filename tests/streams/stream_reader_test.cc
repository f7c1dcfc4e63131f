// Streams read model: ARNs, iterator types, iterator expiry, trimmed positions, closed shards.
#include "streams/stream_reader.h"

#include <gtest/gtest.h>

#include <atomic>

#include "table/database.h"
#include "changelog/keys.h"

namespace monotable::streams {
namespace {

using table::Database;

constexpr const char* kArn = "arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/2024-01-01T00:00:00.000";

class StreamReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::make_unique<Database>(engine::NewMemoryEngine(), [this] { return now_.load(); });
    ASSERT_TRUE(db_->catalog().Load().ok());
    TableDescription t;
    t.name = "t";
    t.attribute_definitions = {{"pk", AttrType::kS}};
    t.key_schema = {{"pk", KeyRole::kHash}};
    t.stream = {true, "KEYS_ONLY", "2024-01-01T00:00:00.000", 0};
    ASSERT_TRUE(db_->catalog().Create(t).ok());
    shard_ = ShardId(FindStream(db_->streams(), kArn).value()->info());
  }

  void Put(const std::string& pk) {
    auto table = db_->catalog().Find("t");
    Item item{{"pk", AttributeValue::S(pk)}};
    auto put = [&](const Item*) -> Result<std::optional<Item>> { return std::optional(item); };
    ASSERT_TRUE(db_->Write(*table, item, put).ok());
  }

  std::string Iterator(IteratorType type, std::optional<std::string> seq = std::nullopt) {
    auto it = GetShardIterator(db_->streams(), kArn, shard_, type,
                               seq ? std::optional<std::string_view>(*seq) : std::nullopt, now_);
    EXPECT_TRUE(it.ok()) << it.status().message();
    return it.ok() ? *it : "";
  }

  std::vector<std::string> Keys(const RecordsPage& page) {
    std::vector<std::string> out;
    for (const auto& c : page.changes) out.push_back(c.record.keys.at("pk").s());
    return out;
  }

  RecordsPage Read(const std::string& iterator, size_t limit = 1000) {
    auto page = GetRecords(db_->streams(), iterator, limit, now_);
    EXPECT_TRUE(page.ok()) << page.status().message();
    return page.ok() ? std::move(page).value() : RecordsPage{};
  }

  std::atomic<int64_t> now_{1'700'000'000'000};
  std::unique_ptr<Database> db_;
  std::string shard_;
};

TEST(StreamArnTest, ParsesTableAndLabel) {
  auto name = ParseStreamArn(kArn);
  ASSERT_TRUE(name);
  EXPECT_EQ(name->table_name, "t");
  EXPECT_EQ(name->label, "2024-01-01T00:00:00.000");
  EXPECT_FALSE(ParseStreamArn("sdfadfsdfnlfkajakfgjalksfgklasjklasdjfklasdfasdfgasf"));
  EXPECT_FALSE(ParseStreamArn("arn:aws:dynamodb:us-east-1:000000000000:table/t"));
  EXPECT_EQ(FormatSequenceNumber(42), "000000000000000000042");
  EXPECT_EQ(ParseSequenceNumber("000000000000000000042"), 42u);
  EXPECT_FALSE(ParseSequenceNumber("12a"));
  EXPECT_FALSE(ParseSequenceNumber("99999999999999999999999"));
}

TEST_F(StreamReaderTest, IteratorTypes) {
  EXPECT_LE(shard_.size(), 65u);
  Put("a");
  Put("b");
  std::string latest = Iterator(IteratorType::kLatest);
  Put("c");
  auto all = Read(Iterator(IteratorType::kTrimHorizon));
  EXPECT_EQ(Keys(all), (std::vector<std::string>{"a", "b", "c"}));
  ASSERT_TRUE(all.next_iterator);
  EXPECT_EQ(Keys(Read(latest)), (std::vector<std::string>{"c"}));
  std::string b = FormatSequenceNumber(all.changes[1].seq);
  EXPECT_EQ(Keys(Read(Iterator(IteratorType::kAtSequenceNumber, b))), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(Keys(Read(Iterator(IteratorType::kAfterSequenceNumber, b))), (std::vector<std::string>{"c"}));
  // Paging with Limit, then following NextShardIterator; the same iterator reads the same records.
  auto first = Read(Iterator(IteratorType::kTrimHorizon), 2);
  EXPECT_EQ(Keys(first), (std::vector<std::string>{"a", "b"}));
  auto second = Read(*first.next_iterator);
  EXPECT_EQ(Keys(second), (std::vector<std::string>{"c"}));
  EXPECT_EQ(Keys(Read(*first.next_iterator)), (std::vector<std::string>{"c"}));
  auto empty = Read(*second.next_iterator);
  EXPECT_TRUE(empty.changes.empty());
  Put("d");
  EXPECT_EQ(Keys(Read(*empty.next_iterator)), (std::vector<std::string>{"d"}));
}

TEST_F(StreamReaderTest, Errors) {
  auto bad = [&](IteratorType type, std::optional<std::string_view> seq, std::string_view shard = {},
                 std::string_view arn = kArn) {
    return GetShardIterator(db_->streams(), arn, shard.empty() ? std::string_view(shard_) : shard, type, seq, now_)
        .status();
  };
  EXPECT_EQ(bad(IteratorType::kAtSequenceNumber, std::nullopt).code(), ErrorCode::kValidation);
  EXPECT_EQ(bad(IteratorType::kLatest, "000000000000000000001").code(), ErrorCode::kValidation);
  EXPECT_EQ(bad(IteratorType::kAtSequenceNumber, "not-a-number").code(), ErrorCode::kValidation);
  EXPECT_EQ(bad(IteratorType::kLatest, std::nullopt, "shardId-00000000000000000000-00000000").code(),
            ErrorCode::kResourceNotFound);
  EXPECT_EQ(bad(IteratorType::kLatest, std::nullopt, {}, "garbage").code(), ErrorCode::kValidation);
  EXPECT_EQ(bad(IteratorType::kLatest, std::nullopt, {}, "arn:aws:dynamodb:us-east-1:0:table/x/stream/y").code(),
            ErrorCode::kResourceNotFound);
  EXPECT_EQ(GetRecords(db_->streams(), "sdfsdfsgagaddafgagasgasgasdfasdfasdfasdfasdg", 10, now_).status().code(),
            ErrorCode::kValidation);
  std::string it = Iterator(IteratorType::kTrimHorizon);
  std::string tampered = it;
  tampered[tampered.size() - 6] = tampered[tampered.size() - 6] == 'A' ? 'B' : 'A';
  EXPECT_EQ(GetRecords(db_->streams(), tampered, 10, now_).status().code(), ErrorCode::kValidation);
}

TEST_F(StreamReaderTest, IteratorsExpireAfterFifteenMinutes) {
  Put("a");
  std::string it = Iterator(IteratorType::kTrimHorizon);
  now_ += kIteratorLifetimeMs;
  auto page = Read(it);
  EXPECT_EQ(page.changes.size(), 1u);
  now_ += 1;
  auto expired = GetRecords(db_->streams(), it, 10, now_);
  ASSERT_FALSE(expired.ok());
  EXPECT_EQ(expired.status().code(), ErrorCode::kExpiredIterator);
  EXPECT_EQ(Read(*page.next_iterator).changes.size(), 0u);  // a fresh NextShardIterator still works
}

TEST_F(StreamReaderTest, TrimmedPositions) {
  Put("a");
  std::string old = Iterator(IteratorType::kTrimHorizon);
  std::string first_seq = FormatSequenceNumber(Read(old).changes[0].seq);
  now_ += table::StreamCatalog::kRetentionMs / 2;
  Put("b");
  now_ += table::StreamCatalog::kRetentionMs / 2 + 1;
  ASSERT_TRUE(db_->streams().Trim().ok());
  EXPECT_EQ(GetRecords(db_->streams(), Iterator(IteratorType::kLatest), 10, now_).status().code(),
            ErrorCode::kOk);
  auto at_trimmed = GetShardIterator(db_->streams(), kArn, shard_, IteratorType::kAtSequenceNumber,
                                     std::string_view(first_seq), now_);
  EXPECT_EQ(at_trimmed.status().code(), ErrorCode::kTrimmedDataAccess);
  EXPECT_EQ(Keys(Read(Iterator(IteratorType::kTrimHorizon))), (std::vector<std::string>{"b"}));
  EXPECT_EQ(RangeOf(db_->streams(), *FindStream(db_->streams(), kArn).value(), 0).value().starting,
            Read(Iterator(IteratorType::kTrimHorizon)).changes[0].seq);
}

TEST_F(StreamReaderTest, ClosedShardEnds) {
  Put("a");
  std::string it = Iterator(IteratorType::kTrimHorizon);
  TableDescription disabled = *db_->catalog().Find("t")->description;
  disabled.stream.enabled = false;
  ASSERT_TRUE(db_->catalog().Update(disabled).ok());
  auto log = FindStream(db_->streams(), kArn).value();
  EXPECT_TRUE(RangeOf(db_->streams(), *log, 0).value().ending);
  auto page = Read(it);
  EXPECT_EQ(Keys(page), (std::vector<std::string>{"a"}));
  EXPECT_FALSE(page.next_iterator);
  auto latest = Read(Iterator(IteratorType::kLatest));
  EXPECT_TRUE(latest.changes.empty());
  EXPECT_FALSE(latest.next_iterator);
}

TEST_F(StreamReaderTest, ClosedEmptyShardEnds) {
  TableDescription disabled = *db_->catalog().Find("t")->description;
  disabled.stream.enabled = false;
  ASSERT_TRUE(db_->catalog().Update(disabled).ok());
  auto log = FindStream(db_->streams(), kArn).value();
  ShardRange range = RangeOf(db_->streams(), *log, 0).value();
  ASSERT_TRUE(range.ending);
  EXPECT_EQ(*range.ending, range.starting);
  for (auto type : {IteratorType::kTrimHorizon, IteratorType::kLatest}) {
    auto page = Read(Iterator(type));
    EXPECT_TRUE(page.changes.empty());
    EXPECT_FALSE(page.next_iterator);
  }
}

}  // namespace
}  // namespace monotable::streams
