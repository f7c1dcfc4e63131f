// WriteCostTest: on the embedded engines an item write and everything derived from it (GSI entry,
// expiry entry, stream record) is ONE engine commit (changelog/change_applier.h): the change-log
// applier runs inside the write, no log record is appended.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "table/database.h"
#include "changelog/keys.h"

namespace monotable::table {
namespace {

// Forwards to a memory engine, counting the commits made by one thread (the writer's): the
// database's background work (TTL sweeps, stream upkeep) may commit concurrently and is not part
// of the write being measured.
class CountingEngine final : public engine::Engine {
 public:
  CountingEngine(std::unique_ptr<engine::Engine> inner, std::atomic<int>& commits)
      : inner_(std::move(inner)), commits_(commits), counted_thread_(std::this_thread::get_id()) {}
  std::shared_ptr<const engine::Snapshot> GetSnapshot() override { return inner_->GetSnapshot(); }
  Result<std::optional<std::string>> Get(std::string_view key, const engine::Snapshot* snapshot) override {
    return inner_->Get(key, snapshot);
  }
  std::unique_ptr<engine::Iterator> NewIterator(std::string lower, std::string upper,
                                                std::shared_ptr<const engine::Snapshot> snapshot) override {
    return inner_->NewIterator(std::move(lower), std::move(upper), std::move(snapshot));
  }
  Status Commit(const engine::WriteBatch& batch) override {
    if (std::this_thread::get_id() == counted_thread_) ++commits_;
    return inner_->Commit(batch);
  }
  Status DeleteRange(std::string_view lower, std::string_view upper) override {
    return inner_->DeleteRange(lower, upper);
  }
  uint64_t ApproximateSize(std::string_view lower, std::string_view upper) override {
    return inner_->ApproximateSize(lower, upper);
  }
  std::string Name() const override { return "counting"; }

 private:
  std::unique_ptr<engine::Engine> inner_;
  std::atomic<int>& commits_;
  const std::thread::id counted_thread_;
};

TEST(WriteCostTest, PutItemWithGsiTtlAndStreamIsOneEngineCommit) {
  std::atomic<int> commits{0};
  Database db(std::make_unique<CountingEngine>(engine::NewMemoryEngine(), commits));
  ASSERT_TRUE(db.catalog().Load().ok());
  ASSERT_TRUE(db.streams().Load(db.catalog()).ok());
  TableDescription t;
  t.name = "tbl";
  t.attribute_definitions = {{"pk", AttrType::kS}, {"g", AttrType::kS}};
  t.key_schema = {{"pk", KeyRole::kHash}};
  IndexDescription gsi;
  gsi.name = "by_g";
  gsi.key_schema = {{"g", KeyRole::kHash}};
  gsi.projection.type = ProjectionType::kAll;
  t.global_indexes.push_back(gsi);
  t.stream.enabled = true;
  t.stream.view_type = "NEW_AND_OLD_IMAGES";
  ASSERT_TRUE(db.catalog().Create(t).ok());
  ASSERT_TRUE(db.ttl().Enable("tbl", "exp", 0).ok());
  auto table = db.catalog().Find("tbl");
  ASSERT_TRUE(table->description->ttl.enabled);
  ASSERT_TRUE(table->description->stream.enabled);

  Item key{{"pk", AttributeValue::S("a")}};
  Item item = key;
  item["g"] = AttributeValue::S("x");
  item["exp"] = AttributeValue::N(Number::FromInt(4000000000));
  const int before = commits.load();
  auto written = db.Write(*table, key, [&](const Item*) -> Result<std::optional<Item>> { return std::optional(item); });
  ASSERT_TRUE(written.ok()) << written.status().message();
  EXPECT_EQ(commits.load() - before, 1);
  ASSERT_EQ(written->index_costs.size(), 1u);  // the GSI entry was part of that commit
  // Nothing was logged for an applier to redo.
  size_t logged = 0;
  ASSERT_TRUE(db.store().ScanLogs(table->description->key_prefix, [&](std::string_view, uint64_t) {
    return ++logged, true;
  }).ok());
  EXPECT_EQ(logged, 0u);
}

}  // namespace
}  // namespace monotable::table
