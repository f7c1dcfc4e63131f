// A backup and a restore on the partitioned test engine, opened as the server opens it
// (Database::OpenOnStore over engine::OpenPartitionedStore): no ordered engine, every write takes
// the logged path; the restored table has the backed-up items and its GSI is derived from them.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "backup/backup_service.h"
#include "engine/partitioned/partitioned_store.h"
#include "table/reader.h"

namespace monotable::backup {
namespace {

TEST(PartitionedBackupTest, BackupAndRestoreWithAGsi) {
  auto opened = table::Database::OpenOnStore(engine::OpenPartitionedStore(engine::NewPartitionedState()),
                                             table::DatabaseOptions{});
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  table::Database& db = **opened;
  ASSERT_FALSE(db.has_engine());
  ASSERT_TRUE(db.committer().logged());

  TableDescription t;
  t.name = "src";
  t.attribute_definitions = {{"pk", AttrType::kS}, {"g", AttrType::kS}};
  t.key_schema = {{"pk", KeyRole::kHash}};
  t.billing_mode = BillingMode::kPayPerRequest;
  IndexDescription gsi;
  gsi.name = "byG";
  gsi.key_schema = {{"g", KeyRole::kHash}};
  t.global_indexes.push_back(gsi);
  ASSERT_TRUE(db.catalog().Create(t).ok());

  auto put = [&](const std::string& pk, const std::string& g, const std::string& v) {
    auto handle = db.catalog().Find("src");
    Item item{{"pk", AttributeValue::S(pk)}, {"g", AttributeValue::S(g)}, {"v", AttributeValue::S(v)}};
    auto r = db.Write(*handle, {{"pk", AttributeValue::S(pk)}},
                      [&](const Item*) -> Result<std::optional<Item>> { return std::optional(item); });
    ASSERT_TRUE(r.ok()) << r.status().message();
  };
  for (int i = 0; i < 40; ++i) put("k" + std::to_string(i), "g" + std::to_string(i % 3), "1");

  BackupService service(db);
  ASSERT_TRUE(service.load_status().ok()) << service.load_status().message();
  auto backup = service.CreateBackup(*db.catalog().Find("src"), "bk");
  ASSERT_TRUE(backup.ok()) << backup.status().message();
  // Writes after the backup was made are not in it.
  put("k0", "late", "2");
  put("extra", "g0", "2");
  service.WaitIdle();
  auto record = service.backups().Find(backup->id);
  ASSERT_TRUE(record);
  EXPECT_EQ(record->status, BackupStatus::kAvailable);
  EXPECT_EQ(record->item_count, 40);

  auto restored = service.RestoreFromBackup(*record, "dst", {}, "arn-b", "arn-t");
  ASSERT_TRUE(restored.ok()) << restored.status().message();
  service.WaitIdle();
  ASSERT_TRUE(service.RestoreOf(restored->table_id));
  EXPECT_FALSE(service.RestoreOf(restored->table_id)->in_progress);

  auto handle = db.catalog().Find("dst");
  ASSERT_TRUE(handle);
  auto page = table::ScanSegment(db, *handle, nullptr, 0, 1, {});
  ASSERT_TRUE(page.ok()) << page.status().message();
  std::map<std::string, std::string> items;
  for (size_t i = 0; i < page->records.size(); ++i) {
    auto item = page->Decode(i);
    ASSERT_TRUE(item.ok());
    items[item->at("pk").s()] = item->at("g").s() + "/" + item->at("v").s();
  }
  ASSERT_EQ(items.size(), 40u);
  EXPECT_EQ(items["k0"], "g0/1");
  EXPECT_FALSE(items.count("extra"));
  EXPECT_EQ(handle->stats->item_count.load(), 40);

  const IndexDescription* index = handle->description->FindIndex("byG");
  ASSERT_NE(index, nullptr);
  auto index_page = table::ScanSegment(db, *handle, index, 0, 1, {});
  ASSERT_TRUE(index_page.ok()) << index_page.status().message();
  std::map<std::string, int> per_g;
  for (size_t i = 0; i < index_page->records.size(); ++i) {
    auto item = index_page->Decode(i);
    ASSERT_TRUE(item.ok());
    per_g[item->at("g").s()]++;
  }
  EXPECT_EQ(per_g, (std::map<std::string, int>{{"g0", 14}, {"g1", 13}, {"g2", 13}}));

  // Deleting the backup drops its copy; the restored table stays.
  EXPECT_TRUE(service.backups().Delete(record->id).ok());
  EXPECT_FALSE(service.backups().Find(record->id));
}

}  // namespace
}  // namespace monotable::backup

namespace monotable::backup {
namespace {

// Jobs read a table without a snapshot: one dropped under them fails instead of giving part of it.
TEST(PartitionedBackupTest, SourceKeptFailsOnceTheTableIsDropped) {
  auto opened = table::Database::OpenOnStore(engine::OpenPartitionedStore(engine::NewPartitionedState()),
                                             table::DatabaseOptions{});
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  table::Database& db = **opened;
  TableDescription t;
  t.name = "gone";
  t.attribute_definitions = {{"pk", AttrType::kS}};
  t.key_schema = {{"pk", KeyRole::kHash}};
  t.billing_mode = BillingMode::kPayPerRequest;
  ASSERT_TRUE(db.catalog().Create(t).ok());
  auto handle = db.catalog().Find("gone");
  ASSERT_TRUE(handle);
  EXPECT_TRUE(SourceKept(*handle).ok());
  ASSERT_TRUE(db.catalog().Drop("gone").ok());
  EXPECT_EQ(SourceKept(*handle).code(), ErrorCode::kResourceNotFound);
}

}  // namespace
}  // namespace monotable::backup
