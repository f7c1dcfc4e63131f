// Change log: records per view type, sequence ordering, the watermark under concurrent commits,
// closing, trimming and reloading.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <thread>

#include <unistd.h>

#include "table/change_log.h"
#include "table/database.h"
#include "changelog/keys.h"
#include "table/stream_catalog.h"

namespace monotable::table {
namespace {

Item Make(const std::string& pk, int64_t v) {
  return {{"pk", AttributeValue::S(pk)}, {"v", AttributeValue::N(Number::FromInt(v))}};
}

TableDescription StreamTable(const std::string& name, const std::string& view_type) {
  TableDescription t;
  t.name = name;
  t.attribute_definitions = {{"pk", AttrType::kS}};
  t.key_schema = {{"pk", KeyRole::kHash}};
  t.stream = {true, view_type, "2024-01-01T00:00:00.000", 0};
  return t;
}

TEST(SequenceAllocatorTest, WatermarkWaitsForTheOldestUnsettledReservation) {
  SequenceAllocator seq(100);
  EXPECT_EQ(seq.Watermark(), 99u);
  auto a = seq.Reserve(1), b = seq.Reserve(2), c = seq.Reserve(1);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(*a, 100u);
  EXPECT_EQ(*b, 101u);
  EXPECT_EQ(*c, 103u);
  EXPECT_EQ(seq.Watermark(), 99u);
  seq.Settle(*c);  // finishes first: still nothing readable beyond 99
  EXPECT_EQ(seq.Watermark(), 99u);
  seq.Settle(*a);
  EXPECT_EQ(seq.Watermark(), 100u);
  seq.Settle(*b);  // abandoned or committed, it no longer holds the watermark back
  EXPECT_EQ(seq.Watermark(), 103u);
  EXPECT_EQ(seq.Close(), 103u);
  EXPECT_FALSE(seq.Reserve(1));
  EXPECT_TRUE(seq.closed());
}

class StreamLogTest : public ::testing::Test {
 protected:
  void SetUp() override { Open(engine::NewMemoryEngine()); }

  void Open(std::unique_ptr<engine::Engine> engine) {
    db_ = std::make_unique<Database>(std::move(engine), [this] { return now_ms_.load(); });
    ASSERT_TRUE(db_->catalog().Load().ok());
    ASSERT_TRUE(db_->streams().Load(db_->catalog()).ok());
  }

  std::shared_ptr<const TableHandle> Create(const std::string& view_type, const std::string& name = "t") {
    auto created = db_->catalog().Create(StreamTable(name, view_type));
    EXPECT_TRUE(created.ok()) << created.status().message();
    return db_->catalog().Find(name);
  }

  void Put(const TableHandle& table, Item item) {
    Item key = ExtractKey(*table.description, item);
    auto r = db_->Write(table, key, [&](const Item*) -> Result<std::optional<Item>> { return std::optional(item); });
    ASSERT_TRUE(r.ok()) << r.status().message();
  }
  void Delete(const TableHandle& table, const std::string& pk) {
    Item key{{"pk", AttributeValue::S(pk)}};
    auto r = db_->Write(table, key, [&](const Item*) -> Result<std::optional<Item>> { return std::optional<Item>(); });
    ASSERT_TRUE(r.ok()) << r.status().message();
  }

  std::vector<Change> ReadAll(StreamLog& log) {
    auto page = db_->streams().Read(log, log.horizon(), 100000);
    EXPECT_TRUE(page.ok()) << page.status().message();
    return page.ok() ? std::move(page->changes) : std::vector<Change>{};
  }

  std::atomic<int64_t> now_ms_{1'700'000'000'000};
  std::unique_ptr<Database> db_;
};

TEST_F(StreamLogTest, RecordsFollowTheViewTypeAndSkipWritesThatChangeNothing) {
  auto table = Create("NEW_AND_OLD_IMAGES");
  auto log = db_->streams().Active(*table->description);
  ASSERT_TRUE(log);
  Put(*table, Make("a", 1));
  Put(*table, Make("a", 1));  // identical: nothing
  Put(*table, Make("a", 2));
  Delete(*table, "a");
  Delete(*table, "a");  // missing: nothing
  auto changes = ReadAll(*log);
  ASSERT_EQ(changes.size(), 3u);
  EXPECT_EQ(changes[0].record.kind, ChangeKind::kInsert);
  EXPECT_FALSE(changes[0].record.old_image);
  EXPECT_EQ(*changes[0].record.new_image, Make("a", 1));
  EXPECT_EQ(changes[1].record.kind, ChangeKind::kModify);
  EXPECT_EQ(*changes[1].record.old_image, Make("a", 1));
  EXPECT_EQ(*changes[1].record.new_image, Make("a", 2));
  EXPECT_EQ(changes[2].record.kind, ChangeKind::kRemove);
  EXPECT_EQ(*changes[2].record.old_image, Make("a", 2));
  EXPECT_FALSE(changes[2].record.new_image);
  EXPECT_EQ(changes[2].record.keys, (Item{{"pk", AttributeValue::S("a")}}));
  EXPECT_LT(changes[0].seq, changes[1].seq);
  EXPECT_LT(changes[1].seq, changes[2].seq);
  EXPECT_EQ(changes[0].record.created_ms, now_ms_.load());
}

TEST_F(StreamLogTest, KeysOnlyAndSingleImageViews) {
  for (const char* view : {"KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE"}) {
    auto table = Create(view, std::string("t-") + view);
    auto log = db_->streams().Active(*table->description);
    Put(*table, Make("a", 1));
    Put(*table, Make("a", 2));
    auto changes = ReadAll(*log);
    ASSERT_EQ(changes.size(), 2u) << view;
    std::string v = view;
    EXPECT_EQ(changes[1].record.old_image.has_value(), v == "OLD_IMAGE") << view;
    EXPECT_EQ(changes[1].record.new_image.has_value(), v == "NEW_IMAGE") << view;
    EXPECT_EQ(changes[1].record.SizeBytes(), v == "KEYS_ONLY" ? 3u : 3u + ItemSize(Make("a", 1)));
  }
}

// Many writers commit concurrently (out of sequence order, with guard-failure retries on shared
// items); a reader polling from its last position must end up with exactly the full history:
// nothing may ever appear below a position it has read past.
TEST_F(StreamLogTest, ConcurrentWritersNeverFillGapsBehindTheReader) {
  auto table = Create("NEW_IMAGE");
  auto log = db_->streams().Active(*table->description);
  constexpr int kThreads = 8, kWrites = 300;
  std::atomic<int> running{kThreads};
  std::vector<std::thread> writers;
  for (int t = 0; t < kThreads; ++t) {
    writers.emplace_back([&, t] {
      for (int i = 1; i <= kWrites; ++i) {
        // Half the writes go to a few shared items (contention, retries), half to own items.
        std::string pk = i % 2 ? "shared-" + std::to_string(i % 3) : "own-" + std::to_string(t);
        Item key{{"pk", AttributeValue::S(pk)}};
        auto r = db_->Write(*table, key, [&](const Item* existing) -> Result<std::optional<Item>> {
          int64_t v = existing ? std::stoll(existing->at("v").n().ToString()) + 1 : 1;
          return std::optional(Make(pk, v));
        });
        ASSERT_TRUE(r.ok());
      }
      --running;
    });
  }
  std::vector<Change> seen;
  uint64_t position = log->horizon();
  auto poll = [&] {
    auto page = db_->streams().Read(*log, position, 1000);
    ASSERT_TRUE(page.ok());
    for (auto& c : page->changes) seen.push_back(std::move(c));
    position = page->next;
  };
  while (running > 0) poll();
  for (auto& w : writers) w.join();
  // Drain whatever is left (a slow reader may be thousands of records behind).
  for (size_t before = SIZE_MAX; before != seen.size();) {
    before = seen.size();
    poll();
  }
  EXPECT_EQ(log->sequences().Watermark(), log->sequences().next() - 1);  // nothing left pending
  auto all = ReadAll(*log);
  ASSERT_EQ(seen.size(), all.size());
  ASSERT_EQ(all.size(), static_cast<size_t>(kThreads * kWrites));
  for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(seen[i].seq, all[i].seq);
  // Per item, the stream shows every version in order.
  std::map<std::string, int64_t> last;
  for (const auto& c : all) {
    const Item& image = *c.record.new_image;
    int64_t v = std::stoll(image.at("v").n().ToString());
    EXPECT_EQ(v, last[image.at("pk").s()] + 1);
    last[image.at("pk").s()] = v;
  }
}

TEST_F(StreamLogTest, DisablingClosesTheStreamWhichStaysReadable) {
  auto table = Create("KEYS_ONLY");
  auto log = db_->streams().Active(*table->description);
  Put(*table, Make("a", 1));
  TableDescription disabled = *table->description;
  disabled.stream.enabled = false;
  ASSERT_TRUE(db_->catalog().Update(disabled).ok());
  EXPECT_TRUE(log->sequences().closed());
  // A write prepared with the old description does not reach the closed stream.
  Put(*table, Make("b", 1));
  auto page = db_->streams().Read(*log, log->horizon(), 10);
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(page->changes.size(), 1u);
  EXPECT_TRUE(page->shard_end);
  EXPECT_NE(log->info().disabled_ms, 0);
  EXPECT_EQ(db_->streams().List().size(), 1u);

  TableDescription enabled = *db_->catalog().Find("t")->description;
  enabled.stream.enabled = true;
  enabled.stream.label = "2024-01-02T00:00:00.000";
  ASSERT_TRUE(db_->catalog().Update(enabled).ok());
  auto current = db_->catalog().Find("t");
  EXPECT_NE(current->description->stream.key_prefix, table->description->stream.key_prefix);
  auto fresh = db_->streams().Active(*current->description);
  ASSERT_TRUE(fresh);
  EXPECT_NE(fresh, log);
  Put(*current, Make("c", 1));
  EXPECT_EQ(ReadAll(*fresh).size(), 1u);
  EXPECT_EQ(db_->streams().List().size(), 2u);
  EXPECT_EQ(db_->streams().Find("t", "2024-01-01T00:00:00.000"), log);
}

TEST_F(StreamLogTest, TrimmingAfterRetentionAndPurgeOfOldDisabledStreams) {
  auto table = Create("KEYS_ONLY");
  auto log = db_->streams().Active(*table->description);
  Put(*table, Make("a", 1));
  Put(*table, Make("b", 1));
  now_ms_ += StreamCatalog::kRetentionMs / 2;
  Put(*table, Make("c", 1));
  uint64_t start = log->horizon();
  now_ms_ += StreamCatalog::kRetentionMs / 2 + 1;
  ASSERT_TRUE(db_->streams().Trim().ok());
  EXPECT_GT(log->horizon(), start);
  auto old = db_->streams().Read(*log, start, 10);
  ASSERT_FALSE(old.ok());
  EXPECT_EQ(old.status().code(), ErrorCode::kTrimmedDataAccess);
  auto rest = ReadAll(*log);
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].record.keys.at("pk").s(), "c");

  ASSERT_TRUE(db_->catalog().Drop("t").ok());  // the stream outlives its table for the retention
  EXPECT_EQ(db_->streams().List().size(), 1u);
  ASSERT_TRUE(db_->streams().Trim().ok());
  EXPECT_EQ(db_->streams().List().size(), 1u);
  now_ms_ += StreamCatalog::kRetentionMs + 1;
  ASSERT_TRUE(db_->streams().Trim().ok());
  EXPECT_TRUE(db_->streams().List().empty());
}

TEST_F(StreamLogTest, ReloadKeepsStreamsAndSequenceNumbersKeepGrowing) {
  auto dir = std::filesystem::temp_directory_path() / ("monotable-stream-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  auto open = [&] {
    db_.reset();
    auto engine = engine::OpenRocksDbEngine({dir.string(), false});
    ASSERT_TRUE(engine.ok()) << engine.status().message();
    Open(std::move(engine).value());
  };
  open();
  auto table = Create("NEW_IMAGE");
  Put(*table, Make("a", 1));
  Create("KEYS_ONLY", "gone");
  ASSERT_TRUE(db_->catalog().Drop("gone").ok());
  uint64_t first_seq = ReadAll(*db_->streams().Active(*table->description))[0].seq;

  open();
  table = db_->catalog().Find("t");
  auto log = db_->streams().Active(*table->description);
  ASSERT_TRUE(log);
  EXPECT_FALSE(log->sequences().closed());
  Put(*table, Make("a", 2));
  auto changes = ReadAll(*log);
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[0].seq, first_seq);
  EXPECT_GT(changes[1].seq, first_seq);
  auto gone = db_->streams().List();
  ASSERT_EQ(gone.size(), 2u);
  EXPECT_EQ(gone[0]->info().table_name, "gone");
  EXPECT_TRUE(gone[0]->sequences().closed());
  db_.reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace monotable::table
