// TTL: the expiry index kept by the write path, the worker's guarded deletions, backfill of
// items written before TTL was enabled, and UpdateTimeToLive's state rules.
#include <gtest/gtest.h>

#include <atomic>

#include "table/database.h"
#include "changelog/index_entries.h"
#include "changelog/keys.h"
#include "table/reader.h"
#include "changelog/ttl_index.h"
#include "table/ttl_worker.h"

namespace monotable::table {
namespace {

constexpr int64_t kNow = 1'700'000'000;  // seconds

AttributeValue Num(const std::string& text) { return AttributeValue::N(Number::Parse(text).value()); }

class TtlWorkerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::make_unique<Database>(engine::NewMemoryEngine(), [this] { return now_ms_.load(); });
    ASSERT_TRUE(db_->catalog().Load().ok());
    TableDescription t;
    t.name = "t";
    t.attribute_definitions = {{"pk", AttrType::kS}, {"g", AttrType::kS}};
    t.key_schema = {{"pk", KeyRole::kHash}};
    IndexDescription gsi;
    gsi.name = "gsi";
    gsi.key_schema = {{"g", KeyRole::kHash}};
    t.global_indexes.push_back(gsi);
    t.stream = {true, "NEW_AND_OLD_IMAGES", "2024-01-01T00:00:00.000", 0};
    ASSERT_TRUE(db_->catalog().Create(t).ok());
  }

  std::shared_ptr<const TableHandle> Table() { return db_->catalog().Find("t"); }

  void Put(Item item) {
    auto table = Table();
    Item key = ExtractKey(*table->description, item);
    auto r = db_->Write(*table, key, [&](const Item*) -> Result<std::optional<Item>> { return std::optional(item); });
    ASSERT_TRUE(r.ok()) << r.status().message();
  }
  bool Exists(const std::string& pk) {
    auto r = db_->GetItem(*Table(), {{"pk", AttributeValue::S(pk)}});
    EXPECT_TRUE(r.ok());
    return r.ok() && r->has_value();
  }
  size_t GsiCount() {
    auto table = Table();
    auto page = ScanSegment(*db_, *table, table->description->FindIndex("gsi"), 0, 1, {});
    EXPECT_TRUE(page.ok());
    return page.ok() ? page->records.size() : 0;
  }
  Item Expiring(const std::string& pk, AttributeValue expiry) {
    return {{"pk", AttributeValue::S(pk)}, {"g", AttributeValue::S("x")}, {"exp", std::move(expiry)}};
  }
  size_t RunOnce() {
    auto n = db_->ttl().RunOnce();
    EXPECT_TRUE(n.ok()) << n.status().message();
    return n.ok() ? *n : 0;
  }

  std::atomic<int64_t> now_ms_{kNow * 1000};
  std::unique_ptr<Database> db_;
};

TEST_F(TtlWorkerTest, DeletesExpiredNumbersOnlyAndMaintainsIndexesAndStream) {
  ASSERT_TRUE(db_->ttl().Enable("t", "exp", 0).ok());
  db_->ttl().WaitIdle();
  EXPECT_FALSE(Table()->description->ttl.backfilling);
  Put(Expiring("past", Num(std::to_string(kNow - 60))));
  Put(Expiring("fraction", Num(std::to_string(kNow - 1) + ".5")));
  Put(Expiring("exponent", Num(std::to_string((kNow - 60) / 10) + "e1")));
  Put(Expiring("future", Num(std::to_string(kNow + 3600))));
  Put(Expiring("ancient", Num("162777600")));  // more than five years ago: ignored
  Put(Expiring("string", AttributeValue::S(std::to_string(kNow - 60))));
  Put(Expiring("negative", Num("-5")));
  Put({{"pk", AttributeValue::S("none")}, {"g", AttributeValue::S("x")}});
  EXPECT_EQ(GsiCount(), 8u);
  EXPECT_EQ(Table()->stats->item_count.load(), 8);

  EXPECT_EQ(RunOnce(), 3u);
  EXPECT_FALSE(Exists("past"));
  EXPECT_FALSE(Exists("fraction"));
  EXPECT_FALSE(Exists("exponent"));
  for (const char* alive : {"future", "ancient", "string", "negative", "none"}) EXPECT_TRUE(Exists(alive)) << alive;
  EXPECT_EQ(GsiCount(), 5u);
  EXPECT_EQ(Table()->stats->item_count.load(), 5);
  EXPECT_EQ(RunOnce(), 0u);

  now_ms_ += 3601 * 1000;
  EXPECT_EQ(RunOnce(), 1u);
  EXPECT_FALSE(Exists("future"));

  auto log = db_->streams().Active(*Table()->description);
  auto page = db_->streams().Read(*log, log->horizon(), 100);
  ASSERT_TRUE(page.ok());
  size_t removes = 0;
  for (const auto& c : page->changes) {
    if (c.record.kind != ChangeKind::kRemove) continue;
    ++removes;
    EXPECT_TRUE(c.record.by_service);
    EXPECT_TRUE(c.record.old_image);
  }
  EXPECT_EQ(removes, 4u);
}

TEST_F(TtlWorkerTest, ARewriteThatExtendsTheExpiryWins) {
  ASSERT_TRUE(db_->ttl().Enable("t", "exp", 0).ok());
  db_->ttl().WaitIdle();
  Put(Expiring("a", Num(std::to_string(kNow - 10))));
  Put(Expiring("a", Num(std::to_string(kNow + 10))));  // moves its entry
  EXPECT_EQ(RunOnce(), 0u);
  EXPECT_TRUE(Exists("a"));
  Put({{"pk", AttributeValue::S("a")}});  // TTL attribute removed: entry removed
  now_ms_ += 20'000;
  EXPECT_EQ(RunOnce(), 0u);
  EXPECT_TRUE(Exists("a"));
}

TEST_F(TtlWorkerTest, ItemsWrittenBeforeEnablingAreBackfilled) {
  Put(Expiring("early", Num(std::to_string(kNow - 60))));
  Put(Expiring("early-future", Num(std::to_string(kNow + 60))));
  ASSERT_TRUE(db_->ttl().Enable("t", "exp", 0).ok());
  db_->ttl().WaitIdle();
  EXPECT_FALSE(Table()->description->ttl.backfilling);
  EXPECT_EQ(RunOnce(), 1u);
  EXPECT_FALSE(Exists("early"));
  EXPECT_TRUE(Exists("early-future"));
}

TEST_F(TtlWorkerTest, UpdateTimeToLiveStateRules) {
  auto& ttl = db_->ttl();
  auto message = [](const Status& st) { return st.message(); };
  EXPECT_EQ(message(ttl.Disable("t", "exp", 0)), "TimeToLive is already disabled");
  ASSERT_TRUE(ttl.Enable("t", "exp", 0).ok());
  EXPECT_EQ(message(ttl.Enable("t", "exp", 0)), "TimeToLive is already enabled");
  EXPECT_EQ(message(ttl.Enable("t", "other", 0)),
            "TimeToLive is active on a different AttributeName: current AttributeName is exp");
  EXPECT_EQ(message(ttl.Disable("t", "other", 0)),
            "TimeToLive is active on a different AttributeName: current AttributeName is exp");
  EXPECT_EQ(message(ttl.Disable("t", "exp", 3600 * 1000)),
            "Time to live has been modified multiple times within a fixed interval");
  EXPECT_EQ(ttl.Enable("missing", "exp", 0).code(), ErrorCode::kResourceNotFound);
  ttl.WaitIdle();
  uint32_t prefix = Table()->description->ttl.key_prefix;
  Put(Expiring("a", Num(std::to_string(kNow + 5))));
  ASSERT_TRUE(ttl.Disable("t", "exp", 0).ok());
  ttl.WaitIdle();
  EXPECT_FALSE(Table()->description->ttl.enabled);
  auto [first, last] = KeySpaceRange(prefix);
  auto it = db_->engine().NewIterator(first, last);
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());  // the expiry index was dropped
  now_ms_ += 10'000;
  EXPECT_EQ(RunOnce(), 0u);
  EXPECT_TRUE(Exists("a"));
  ASSERT_TRUE(ttl.Enable("t", "exp", 0).ok());  // re-enabling indexes "a" again
  ttl.WaitIdle();
  EXPECT_EQ(RunOnce(), 1u);
}

}  // namespace
}  // namespace monotable::table
