// BackupService with a fake clock, on the memory engine and on the partitioned test engine (where
// every write takes the logged path): a backup is the table at its instant, restores rebuild
// items and indexes, PITR gives the state at any millisecond of the window, and the records
// codecs round-trip.
#include "backup/backup_service.h"

#include <gtest/gtest.h>

#include <atomic>

#include "backup/records.h"
#include "engine/partitioned/partitioned_store.h"
#include "model/item_codec.h"
#include "changelog/keys.h"
#include "table/reader.h"

namespace monotable::backup {
namespace {

// The parameter: run on the partitioned test engine (else the memory engine).
class BackupServiceTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    table::Clock clock = [this] { return now_ms_.load(); };
    if (GetParam()) {
      db_ = std::make_unique<table::Database>(engine::OpenPartitionedStore(engine::NewPartitionedState()), clock);
    } else {
      db_ = std::make_unique<table::Database>(engine::NewMemoryEngine(), clock);
    }
    ASSERT_TRUE(db_->catalog().Load().ok());
    TableDescription t;
    t.name = "t";
    t.attribute_definitions = {{"pk", AttrType::kS}, {"g", AttrType::kS}};
    t.key_schema = {{"pk", KeyRole::kHash}};
    t.billing_mode = BillingMode::kPayPerRequest;
    IndexDescription gsi;
    gsi.name = "gsi";
    gsi.key_schema = {{"g", KeyRole::kHash}};
    t.global_indexes.push_back(gsi);
    ASSERT_TRUE(db_->catalog().Create(t).ok());
    service_ = std::make_unique<BackupService>(*db_, [this] { return now_ms_.load(); });
    ASSERT_TRUE(service_->load_status().ok());
  }
  void TearDown() override {
    service_.reset();
    db_.reset();
  }

  void Put(const std::string& pk, const std::string& v, const std::string& table = "t") {
    auto handle = db_->catalog().Find(table);
    Item item{{"pk", AttributeValue::S(pk)}, {"g", AttributeValue::S("x")}, {"v", AttributeValue::S(v)}};
    auto r = db_->Write(*handle, {{"pk", AttributeValue::S(pk)}},
                        [&](const Item*) -> Result<std::optional<Item>> { return std::optional(item); });
    ASSERT_TRUE(r.ok()) << r.status().message();
  }
  void Delete(const std::string& pk) {
    auto handle = db_->catalog().Find("t");
    auto r = db_->Write(*handle, {{"pk", AttributeValue::S(pk)}},
                        [&](const Item*) -> Result<std::optional<Item>> { return std::optional<Item>(); });
    ASSERT_TRUE(r.ok()) << r.status().message();
  }
  // pk -> v of every item of a table (and checks the GSI holds the same number of entries).
  std::map<std::string, std::string> Contents(const std::string& table) {
    std::map<std::string, std::string> out;
    auto handle = db_->catalog().Find(table);
    EXPECT_TRUE(handle);
    if (!handle) return out;
    auto page = table::ScanSegment(*db_, *handle, nullptr, 0, 1, {});
    EXPECT_TRUE(page.ok());
    for (size_t i = 0; i < page->records.size(); ++i) {
      auto item = page->Decode(i);
      out[item->at("pk").s()] = item->at("v").s();
    }
    if (const auto* gsi = handle->description->FindIndex("gsi")) {
      auto index_page = table::ScanSegment(*db_, *handle, gsi, 0, 1, {});
      EXPECT_EQ(index_page->records.size(), out.size());
    }
    EXPECT_EQ(handle->stats->item_count.load(), static_cast<int64_t>(out.size()));
    return out;
  }

  std::atomic<int64_t> now_ms_{1'700'000'000'000};
  std::unique_ptr<table::Database> db_;
  std::unique_ptr<BackupService> service_;
};

TEST_P(BackupServiceTest, BackupHoldsTheTableAtItsInstantAndRestores) {
  Put("a", "1");
  Put("b", "1");
  auto backup = service_->CreateBackup(*db_->catalog().Find("t"), "bk");
  ASSERT_TRUE(backup.ok());
  Put("a", "2");
  Delete("b");
  Put("c", "1");
  service_->WaitIdle();
  auto record = service_->backups().Find(backup->id);
  ASSERT_TRUE(record);
  EXPECT_EQ(record->status, BackupStatus::kAvailable);
  EXPECT_EQ(record->item_count, 2);
  auto created = service_->RestoreFromBackup(*record, "r", {}, "arn-b", "arn-t");
  ASSERT_TRUE(created.ok()) << created.status().message();
  EXPECT_TRUE(service_->RestoreOf(created->table_id)->in_progress ||
              !service_->RestoreOf(created->table_id)->in_progress);
  service_->WaitIdle();
  EXPECT_FALSE(service_->RestoreOf(created->table_id)->in_progress);
  EXPECT_EQ(Contents("r"), (std::map<std::string, std::string>{{"a", "1"}, {"b", "1"}}));
  // A restore holds the backup until it ends; then it may be deleted.
  EXPECT_TRUE(service_->backups().Delete(record->id).ok());
  EXPECT_FALSE(service_->backups().Find(record->id));
}

TEST_P(BackupServiceTest, PitrStateAtEveryMillisecond) {
  auto handle = db_->catalog().Find("t");
  Put("before", "0");  // before PITR: part of the state, never of the history
  auto pitr = service_->pitr().Enable(*handle->description, 35);
  ASSERT_TRUE(pitr.ok());
  int64_t t0 = now_ms_;
  now_ms_ += 1000;
  Put("a", "1");
  now_ms_ += 1000;  // t0 + 2000
  Put("a", "2");
  Put("b", "1");
  now_ms_ += 1000;  // t0 + 3000
  Delete("before");
  Delete("a");
  now_ms_ += 1000;

  auto state_at = [&](int64_t at) {
    std::map<std::string, std::string> out;
    Status st = service_->pitr().ForEachItemAt(*handle->description, *pitr, at, [&](std::string_view bytes) {
      auto item = DecodeItem(bytes);
      out[item->at("pk").s()] = item->at("v").s();
      return Status::Ok();
    });
    EXPECT_TRUE(st.ok()) << st.message();
    return out;
  };
  using M = std::map<std::string, std::string>;
  EXPECT_EQ(state_at(t0), (M{{"before", "0"}}));
  EXPECT_EQ(state_at(t0 + 999), (M{{"before", "0"}}));
  EXPECT_EQ(state_at(t0 + 1000), (M{{"before", "0"}, {"a", "1"}}));
  EXPECT_EQ(state_at(t0 + 2500), (M{{"before", "0"}, {"a", "2"}, {"b", "1"}}));
  EXPECT_EQ(state_at(t0 + 3000), (M{{"b", "1"}}));

  auto created = service_->RestoreToTime(handle, *pitr, t0 + 2000, "p", {}, "arn-t");
  ASSERT_TRUE(created.ok()) << created.status().message();
  service_->WaitIdle();
  EXPECT_EQ(Contents("p"), (M{{"before", "0"}, {"a", "2"}, {"b", "1"}}));

  // The window: enabled at t0; trimming keeps what the window needs.
  EXPECT_EQ(service_->pitr().Earliest(*pitr), t0);
  ASSERT_TRUE(service_->pitr().Trim().ok());
  EXPECT_EQ(state_at(t0 + 1000), (M{{"before", "0"}, {"a", "1"}}));
  // Disabling forgets the window.
  ASSERT_TRUE(service_->pitr().Disable(*handle->description).ok());
  EXPECT_FALSE(service_->pitr().Find(*handle->description));
}

TEST_P(BackupServiceTest, PitrChangesInARange) {
  auto handle = db_->catalog().Find("t");
  Put("kept", "0");
  auto pitr = service_->pitr().Enable(*handle->description, 35);
  ASSERT_TRUE(pitr.ok());
  Put("u", "1");
  now_ms_ += 1000;
  int64_t from = now_ms_;
  Put("u", "2");
  Put("n", "1");
  Put("gone", "1");
  Delete("gone");  // in and out within the range: no change
  now_ms_ += 1000;
  int64_t to = now_ms_;
  Put("u", "3");                                                    // after the range
  std::map<std::string, std::pair<std::string, std::string>> seen;  // pk -> (before v, after v)
  ASSERT_TRUE(service_->pitr()
                  .ForEachChange(*handle->description, *pitr, from, to,
                                 [&](const PitrLog::Change& c) {
                                   auto v = [](const std::optional<std::string>& bytes) {
                                     return bytes ? DecodeItem(*bytes)->at("v").s() : std::string("-");
                                   };
                                   auto any = DecodeItem(c.after ? *c.after : *c.before);
                                   seen[any->at("pk").s()] = {v(c.before), v(c.after)};
                                   EXPECT_GE(c.write_ms, from);
                                   EXPECT_LT(c.write_ms, to);
                                   return Status::Ok();
                                 })
                  .ok());
  using P = std::pair<std::string, std::string>;
  EXPECT_EQ(seen, (std::map<std::string, P>{{"n", P{"-", "1"}}, {"u", P{"1", "2"}}}));
}

TEST_P(BackupServiceTest, SystemBackupsExpireAfter35Days) {
  Put("a", "1");
  auto system = service_->CreateSystemBackup(*db_->catalog().Find("t"));
  ASSERT_TRUE(system.ok());
  EXPECT_EQ(system->type, "SYSTEM");
  EXPECT_EQ(system->name, "t$DeletedTableBackup");
  auto user = service_->CreateBackup(*db_->catalog().Find("t"), "mine");
  ASSERT_TRUE(user.ok());
  service_->WaitIdle();
  now_ms_ += BackupService::kSystemBackupDays * 24 * 3600 * 1000 - 1;
  ASSERT_TRUE(service_->DeleteExpired().ok());
  EXPECT_TRUE(service_->backups().Find(system->id));
  now_ms_ += 1;
  ASSERT_TRUE(service_->DeleteExpired().ok());
  EXPECT_FALSE(service_->backups().Find(system->id));
  EXPECT_TRUE(service_->backups().Find(user->id));  // USER backups never expire
}

TEST_P(BackupServiceTest, PitrIsDroppedWithItsTable) {
  auto handle = db_->catalog().Find("t");
  ASSERT_TRUE(service_->pitr().Enable(*handle->description, 35).ok());
  ASSERT_TRUE(db_->catalog().Drop("t").ok());
  ASSERT_TRUE(service_->pitr().Trim().ok());
  EXPECT_FALSE(service_->pitr().Find(*handle->description));
}

INSTANTIATE_TEST_SUITE_P(Engines, BackupServiceTest, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Partitioned" : "Memory"; });

TEST(BackupRecordsTest, RoundTripAndBadBytes) {
  BackupRecord b;
  b.id = NewBackupId(1'700'000'000'123);
  EXPECT_EQ(b.id.size(), 14u + 1 + 8);
  EXPECT_EQ(b.id.substr(0, 14), "01700000000123");
  b.name = "n";
  b.status = BackupStatus::kAvailable;
  b.created_ms = 5;
  b.size_bytes = 6;
  b.item_count = 7;
  b.data_prefix = 8;
  b.table_name = "t";
  b.table_id = "id";
  b.description = "{\"x\":1}";
  auto decoded = DecodeBackup(EncodeBackup(b));
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded->id, b.id);
  EXPECT_EQ(decoded->description, b.description);
  EXPECT_EQ(decoded->status, b.status);
  EXPECT_EQ(decoded->data_prefix, 8u);
  PitrRecord p{3, "id", 9, 10, 7};
  auto pd = DecodePitr(EncodePitr(p));
  ASSERT_TRUE(pd.ok());
  EXPECT_EQ(pd->history_prefix, 9u);
  EXPECT_EQ(pd->recovery_days, 7);
  RestoreRecord r{"id", "b", "t", 11, false};
  auto rd = DecodeRestore(EncodeRestore(r));
  ASSERT_TRUE(rd.ok());
  EXPECT_FALSE(rd->in_progress);
  EXPECT_EQ(rd->restore_ms, 11);
  for (std::string_view bad : {"", "{", "[]", "{\"id\":1}", "{\"status\":9,\"id\":\"x\",\"data_prefix\":1}"}) {
    EXPECT_FALSE(DecodeBackup(bad).ok()) << bad;
    EXPECT_FALSE(DecodePitr(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace monotable::backup
