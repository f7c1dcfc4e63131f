// The tables' statistics across a restart: Catalog::Load walks each table's items, or takes the
// statistics a clean shutdown saved (SaveStatistics, called by the Database's destructor) and
// deletes that record as it reads it, so a later crash cannot leave it describing old data.
#include "table/catalog.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

#include "model/capacity.h"
#include "model/item_codec.h"
#include "table/database.h"
#include "changelog/keys.h"

namespace monotable::table {
namespace {

TableDescription Table(const std::string& name) {
  TableDescription t;
  t.name = name;
  t.attribute_definitions = {{"pk", AttrType::kS}};
  t.key_schema = {{"pk", KeyRole::kHash}};
  return t;
}

Item Row(const std::string& pk) { return {{"pk", AttributeValue::S(pk)}, {"v", AttributeValue::S("value " + pk)}}; }

std::string SavedStatisticsKey() { return PrefixBytes(kSystemKeyPrefix) + "C"; }

class CatalogStatisticsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Catalog catalog(*engine_);
    ASSERT_TRUE(catalog.Load().ok());
    ASSERT_TRUE(catalog.Create(Table("a")).ok());
    ASSERT_TRUE(catalog.Create(Table("b")).ok());
    a_bytes_ = Put(catalog, "a", 3);
    b_bytes_ = Put(catalog, "b", 2);
  }

  // Writes n items straight to the engine (as the write path stores them); returns their bytes.
  int64_t Put(Catalog& catalog, const std::string& table, int n) {
    auto handle = catalog.Find(table);
    int64_t bytes = 0;
    for (int i = 0; i < n; ++i) {
      Item item = Row(table + std::to_string(i));
      bytes += static_cast<int64_t>(ItemSize(item));
      EXPECT_TRUE(engine_->Commit({.guards = {}, .mutations = {{ItemKeyOf(*handle->description, item), EncodeItem(item)}}}).ok());
    }
    return bytes;
  }

  static void ExpectStats(const Catalog& catalog, const std::string& table, int64_t count, int64_t bytes) {
    auto handle = catalog.Find(table);
    ASSERT_NE(handle, nullptr);
    EXPECT_EQ(handle->stats->item_count.load(), count) << table;
    EXPECT_EQ(handle->stats->size_bytes.load(), bytes) << table;
  }

  std::unique_ptr<engine::Engine> engine_ = engine::NewMemoryEngine();
  int64_t a_bytes_ = 0, b_bytes_ = 0;
};

TEST_F(CatalogStatisticsTest, LoadWalksTheItemsWithoutSavedStatistics) {
  Catalog catalog(*engine_);
  ASSERT_TRUE(catalog.Load().ok());
  ExpectStats(catalog, "a", 3, a_bytes_);
  ExpectStats(catalog, "b", 2, b_bytes_);
}

TEST_F(CatalogStatisticsTest, LoadTakesTheSavedStatisticsOnce) {
  {
    Catalog catalog(*engine_);
    ASSERT_TRUE(catalog.Load().ok());
    // Figures no walk would give: the next load can only have them from the saved record.
    catalog.Find("a")->stats->item_count = 42;
    catalog.Find("a")->stats->size_bytes = int64_t{1} << 40;
    ASSERT_TRUE(catalog.SaveStatistics().ok());
  }
  {
    Catalog catalog(*engine_);
    ASSERT_TRUE(catalog.Load().ok());
    ExpectStats(catalog, "a", 42, int64_t{1} << 40);
    ExpectStats(catalog, "b", 2, b_bytes_);
    EXPECT_EQ(*engine_->Get(SavedStatisticsKey()), std::nullopt);
  }
  Catalog catalog(*engine_);  // as after a crash that followed the load above: the items decide
  ASSERT_TRUE(catalog.Load().ok());
  ExpectStats(catalog, "a", 3, a_bytes_);
}

TEST_F(CatalogStatisticsTest, NegativeAndZeroFiguresRoundTrip) {
  {
    Catalog catalog(*engine_);
    ASSERT_TRUE(catalog.Load().ok());
    catalog.Find("a")->stats->item_count = -7;
    catalog.Find("b")->stats->item_count = 0;
    catalog.Find("b")->stats->size_bytes = 0;
    ASSERT_TRUE(catalog.SaveStatistics().ok());
  }
  Catalog catalog(*engine_);
  ASSERT_TRUE(catalog.Load().ok());
  ExpectStats(catalog, "a", -7, a_bytes_);
  ExpectStats(catalog, "b", 0, 0);
}

TEST_F(CatalogStatisticsTest, MalformedRecordIsIgnoredAndDeleted) {
  for (const std::string& record : {std::string("\x01short"), std::string(21, '\x02'), std::string()}) {
    ASSERT_TRUE(engine_->Commit({.guards = {}, .mutations = {{SavedStatisticsKey(), record}}}).ok());
    Catalog catalog(*engine_);
    ASSERT_TRUE(catalog.Load().ok());
    ExpectStats(catalog, "a", 3, a_bytes_);
    ExpectStats(catalog, "b", 2, b_bytes_);
    EXPECT_EQ(*engine_->Get(SavedStatisticsKey()), std::nullopt);
  }
}

TEST_F(CatalogStatisticsTest, TableMissingFromTheRecordIsWalked) {
  {
    Catalog catalog(*engine_);
    ASSERT_TRUE(catalog.Load().ok());
    catalog.Find("a")->stats->item_count = 42;
    ASSERT_TRUE(catalog.SaveStatistics().ok());
    // Created after the save (not what a server does; the record simply lacks the table).
    ASSERT_TRUE(catalog.Create(Table("c")).ok());
    Put(catalog, "c", 4);
  }
  Catalog catalog(*engine_);
  ASSERT_TRUE(catalog.Load().ok());
  ExpectStats(catalog, "a", 42, a_bytes_);
  auto c = catalog.Find("c");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->stats->item_count.load(), 4);
}

// A table larger than what Load walks itself: the rest is walked in the background as of the
// load, and writes while it runs (deletions and new items, with their changes to the figures as
// the write path makes them) still leave exact figures once the walk ends.
TEST_F(CatalogStatisticsTest, BackgroundWalkEndsExactDespiteWritesDuringIt) {
  Catalog setup(*engine_);
  ASSERT_TRUE(setup.Load().ok());
  const int extra = static_cast<int>(Catalog::kSynchronousCountItems) + 5000;
  int64_t a_bytes = Put(setup, "a", extra);  // a0, a1 and a2 again, as they were
  const int a_count = extra;

  Catalog catalog(*engine_);
  ASSERT_TRUE(catalog.Load().ok());
  auto a = catalog.Find("a");
  // Keys sit in hash order, so these land ahead of the walk and behind it alike.
  auto write = [&](const Item& item, bool put) {
    std::optional<std::string> value;
    if (put) value = EncodeItem(item);
    ASSERT_TRUE(engine_->Commit({.guards = {}, .mutations = {{ItemKeyOf(*a->description, item), value}}}).ok());
    int64_t sign = put ? 1 : -1;
    a->stats->item_count += sign;
    a->stats->size_bytes += sign * static_cast<int64_t>(ItemSize(item));
  };
  for (int i = 0; i < 2000; ++i) {  // as many deleted as added
    Item gone = Row("a" + std::to_string(i));
    write(gone, false);
    a_bytes -= static_cast<int64_t>(ItemSize(gone));
    Item added = Row("new" + std::to_string(i));
    write(added, true);
    a_bytes += static_cast<int64_t>(ItemSize(added));
  }
  catalog.WaitCounted();
  EXPECT_TRUE(a->stats->counted.load());
  ExpectStats(catalog, "a", a_count, a_bytes);
  ExpectStats(catalog, "b", 2, b_bytes_);
}

// Saving while the background walk may still run never saves partial figures: whatever the
// timing, the next load has exact ones.
TEST_F(CatalogStatisticsTest, SaveDuringTheBackgroundWalkKeepsExactFigures) {
  Catalog setup(*engine_);
  ASSERT_TRUE(setup.Load().ok());
  int64_t a_bytes = Put(setup, "a", static_cast<int>(Catalog::kSynchronousCountItems) * 3);
  const int64_t a_count = Catalog::kSynchronousCountItems * 3;
  {
    Catalog catalog(*engine_);
    ASSERT_TRUE(catalog.Load().ok());
    ASSERT_TRUE(catalog.SaveStatistics().ok());
  }
  Catalog catalog(*engine_);
  ASSERT_TRUE(catalog.Load().ok());
  catalog.WaitCounted();
  ExpectStats(catalog, "a", a_count, a_bytes);
  ExpectStats(catalog, "b", 2, b_bytes_);
}

// The same through Database on RocksDB: destroying it saves the statistics, and the next open
// takes them.
TEST(DatabaseStatisticsTest, CleanShutdownSavesTheStatistics) {
  std::string dir = (std::filesystem::temp_directory_path() / "mt_catalog_test_XXXXXX").string();
  ASSERT_NE(mkdtemp(dir.data()), nullptr);
  DatabaseOptions options;
  options.path = dir + "/db";
  {
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok()) << db.status().message();
    ASSERT_TRUE((*db)->catalog().Create(Table("t")).ok());
    auto table = (*db)->catalog().Find("t");
    for (int i = 0; i < 5; ++i) {
      Item item = Row("k" + std::to_string(i));
      auto written = (*db)->Write(*table, {{"pk", item.at("pk")}},
                                  [&](const Item*) -> Result<std::optional<Item>> { return std::optional(item); });
      ASSERT_TRUE(written.ok()) << written.status().message();
    }
  }
  {
    auto engine = engine::OpenRocksDbEngine({.path = options.path});
    ASSERT_TRUE(engine.ok()) << engine.status().message();
    auto record = (*engine)->Get(SavedStatisticsKey());
    ASSERT_TRUE(record.ok());
    EXPECT_TRUE(record->has_value());
  }
  {
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok()) << db.status().message();
    EXPECT_EQ((*db)->catalog().Find("t")->stats->item_count.load(), 5);
    EXPECT_EQ(*(*db)->engine().Get(SavedStatisticsKey()), std::nullopt);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace monotable::table

namespace monotable::table {
namespace {

// The catalog version orders every table record change and survives a reload; a change made by
// another writer sharing the engine (another Catalog on it) makes the next change refresh first
// instead of overwriting it.
TEST(CatalogVersionTest, EveryRecordChangeBumpsTheVersionGuardedByTheLastOne) {
  auto engine = engine::NewMemoryEngine();
  {
    Catalog catalog(*engine);
    ASSERT_TRUE(catalog.Load().ok());
    EXPECT_EQ(catalog.version(), 0u);
    ASSERT_TRUE(catalog.Create(Table("a")).ok());
    EXPECT_EQ(catalog.version(), 1u);
    ASSERT_TRUE(catalog.Modify("a", [](TableDescription& t) { t.billing_mode = BillingMode::kPayPerRequest; return Status::Ok(); }).ok());
    EXPECT_EQ(catalog.version(), 2u);
    ASSERT_TRUE(catalog.Create(Table("b")).ok());
    ASSERT_TRUE(catalog.Drop("b").ok());
    EXPECT_EQ(catalog.version(), 4u);
  }
  Catalog catalog(*engine);
  ASSERT_TRUE(catalog.Load().ok());
  EXPECT_EQ(catalog.version(), 4u);
  ASSERT_NE(catalog.Find("a"), nullptr);
  EXPECT_EQ(catalog.Find("b"), nullptr);

  // Another server sharing the store creates a table: this catalog's guarded commit finds the
  // version moved, refreshes (seeing the other's table) and answers as if it had known.
  Catalog other(*engine);
  ASSERT_TRUE(other.Load().ok());
  ASSERT_TRUE(other.Create(Table("c")).ok());
  EXPECT_EQ(other.version(), 5u);
  EXPECT_EQ(catalog.Find("c"), nullptr);
  auto refused = catalog.Create(Table("c"));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), ErrorCode::kResourceInUse);
  EXPECT_NE(catalog.Find("c"), nullptr);
  EXPECT_EQ(catalog.version(), 5u);
  ASSERT_TRUE(catalog.Create(Table("d")).ok());
  EXPECT_EQ(catalog.version(), 6u);
  // The other sees it through Refresh; a table the other drops is gone here after a Refresh, and
  // writes still holding its old handle refuse (its gate is closed).
  EXPECT_EQ(other.Find("d"), nullptr);
  ASSERT_TRUE(other.Refresh().value());
  EXPECT_NE(other.Find("d"), nullptr);
  EXPECT_FALSE(other.Refresh().value());  // nothing new
  auto a_here = catalog.Find("a");
  ASSERT_TRUE(other.Drop("a").ok());
  ASSERT_TRUE(catalog.Refresh().value());
  EXPECT_EQ(catalog.Find("a"), nullptr);
  EXPECT_TRUE(a_here->gate->dropped);
}

}  // namespace
}  // namespace monotable::table
