// Dropping a table while writers still hold its handle (catalog.h, TableGate): no write lands in
// the dropped table's key spaces, and the writes that lose the race are refused as writes to a
// table that is gone. And the catalog lookup every request makes takes no lock while the catalog
// is unchanged.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

#include "table/catalog.h"
#include "table/database.h"
#include "changelog/keys.h"

namespace monotable::table {

struct CatalogPeer {
  static std::shared_mutex& PublicationLock(Catalog& c) { return c.tables_mutex_; }
};

namespace {

TableDescription TableWithIndex(const std::string& name) {
  TableDescription t;
  t.name = name;
  t.attribute_definitions = {{"pk", AttrType::kS}, {"g", AttrType::kS}};
  t.key_schema = {{"pk", KeyRole::kHash}};
  IndexDescription index;
  index.name = "by_g";
  index.key_schema = {{"g", KeyRole::kHash}};
  index.projection.type = ProjectionType::kAll;
  index.status = "ACTIVE";
  t.global_indexes.push_back(index);
  return t;
}

size_t KeysIn(engine::Engine& engine, uint32_t prefix) {
  auto [first, last] = KeySpaceRange(prefix);
  auto it = engine.NewIterator(first, last);
  size_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
  return n;
}

TEST(DropTableTest, WritesRacingADropLeaveNoKeysInItsSpace) {
  Database db(engine::NewMemoryEngine());
  ASSERT_TRUE(db.catalog().Load().ok());
  int refused_total = 0;
  for (int round = 0; round < 20; ++round) {
    const std::string name = "t" + std::to_string(round);
    auto created = db.catalog().Create(TableWithIndex(name));
    ASSERT_TRUE(created.ok()) << created.status().message();
    std::atomic<bool> stop{false};
    std::atomic<int> written{0}, refused{0};
    std::vector<std::thread> writers;
    for (int w = 0; w < 4; ++w) {
      writers.emplace_back([&, w] {
        for (int i = 0; !stop.load(); ++i) {
          auto handle = db.catalog().Find(name);
          if (!handle) return;  // gone from the catalog
          Item item{{"pk", AttributeValue::S(std::to_string(w) + "-" + std::to_string(i))},
                    {"g", AttributeValue::S("G")}};
          auto r = db.Write(*handle, {{"pk", item.at("pk")}},
                            [&](const Item*) -> Result<std::optional<Item>> { return std::optional(item); });
          if (r.ok()) {
            ++written;
          } else {
            EXPECT_EQ(r.status().code(), ErrorCode::kResourceNotFound) << r.status().message();
            EXPECT_EQ(r.status().message(), "Requested resource not found");
            ++refused;
          }
        }
      });
    }
    while (written.load() < 50) std::this_thread::yield();
    auto dropped = db.catalog().Drop(name);
    ASSERT_TRUE(dropped.ok()) << dropped.status().message();
    stop = true;
    for (auto& t : writers) t.join();
    refused_total += refused.load();
    EXPECT_EQ(KeysIn(db.engine(), created->key_prefix), 0u) << "round " << round;
    EXPECT_EQ(KeysIn(db.engine(), created->global_indexes[0].key_prefix), 0u) << "round " << round;
  }
  // Writers that held the handle across the drop were turned away (the race the gate closes).
  EXPECT_GT(refused_total, 0);
}

TEST(DropTableTest, AWriteWithAHandleFromBeforeTheDropIsRefused) {
  Database db(engine::NewMemoryEngine());
  ASSERT_TRUE(db.catalog().Load().ok());
  auto created = db.catalog().Create(TableWithIndex("t"));
  ASSERT_TRUE(created.ok());
  auto handle = db.catalog().Find("t");
  ASSERT_TRUE(db.catalog().Drop("t").ok());
  Item item{{"pk", AttributeValue::S("late")}, {"g", AttributeValue::S("G")}};
  auto r = db.Write(*handle, {{"pk", item.at("pk")}},
                    [&](const Item*) -> Result<std::optional<Item>> { return std::optional(item); });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kResourceNotFound);
  EXPECT_EQ(KeysIn(db.engine(), created->key_prefix), 0u);
  EXPECT_EQ(KeysIn(db.engine(), created->global_indexes[0].key_prefix), 0u);
}

// A lookup on a thread that has seen the current catalog does not wait for the publication lock,
// even while a writer holds it; after a change it sees the change.
TEST(CatalogLookupTest, TakesNoLockWhileTheCatalogIsUnchanged) {
  auto engine = engine::NewMemoryEngine();
  Catalog catalog(*engine);
  ASSERT_TRUE(catalog.Load().ok());
  ASSERT_TRUE(catalog.Create(TableWithIndex("a")).ok());
  std::promise<void> warmed, release;
  auto reader = std::async(std::launch::async, [&] {
    EXPECT_NE(catalog.Find("a"), nullptr);  // this thread now holds the current map
    warmed.set_value();
    release.get_future().wait();
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 1000; ++i) EXPECT_NE(catalog.Find("a"), nullptr);
    EXPECT_EQ(catalog.Find("b"), nullptr);
    return std::chrono::steady_clock::now() - start;
  });
  warmed.get_future().wait();
  {
    std::unique_lock held(CatalogPeer::PublicationLock(catalog));
    release.set_value();
    ASSERT_EQ(reader.wait_for(std::chrono::seconds(5)), std::future_status::ready)
        << "the lookup waited for the publication lock";
  }
  reader.get();
  ASSERT_TRUE(catalog.Create(TableWithIndex("b")).ok());
  auto after = std::async(std::launch::async, [&] { return catalog.Find("b") != nullptr; });
  EXPECT_TRUE(after.get());
  EXPECT_NE(catalog.Find("b"), nullptr);  // this thread too
  ASSERT_TRUE(catalog.Drop("a").ok());
  EXPECT_EQ(catalog.Find("a"), nullptr);
}

}  // namespace
}  // namespace monotable::table
