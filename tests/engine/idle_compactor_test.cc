// The idle compactor on a RocksDB of its own (automatic compactions of level 0 held back): level 0
// goes into the level below once the process is idle and holds enough files, not while the process
// is busy, and not with fewer files; the data reads the same afterwards.
#include "engine/rocksdb/idle_compactor.h"

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/metadata.h>
#include <rocksdb/options.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "rocksdb_fixtures.h"

namespace monotable::engine {
namespace {

using namespace std::chrono_literals;

class IdleCompactorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    rocksdb::Options options;
    options.create_if_missing = true;
    options.level_compaction_dynamic_level_bytes = true;  // as the server's: a small DB lives in the last level
    options.level0_file_num_compaction_trigger = 100;     // only the idle compactor compacts level 0
    rocksdb::DB* db = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(options, dir_.db(), &db).ok());
    db_.reset(db);
  }

  // `files` level-0 files: each rewrites k0..k9 with its number, adds its own key, and deletes the
  // key the previous file added.
  void WriteLevelZeroFiles(int files) {
    for (int f = 0; f < files; ++f) {
      for (int k = 0; k < 10; ++k) ASSERT_TRUE(db_->Put({}, "k" + std::to_string(k), std::to_string(f)).ok());
      ASSERT_TRUE(db_->Put({}, "only" + std::to_string(f), "x").ok());
      if (f > 0) {
        ASSERT_TRUE(db_->Delete({}, "only" + std::to_string(f - 1)).ok());
      }
      ASSERT_TRUE(db_->Flush({}).ok());
    }
  }

  std::vector<int> FilesByLevel() {
    rocksdb::ColumnFamilyMetaData meta;
    db_->GetColumnFamilyMetaData(&meta);
    std::vector<int> files;
    for (const auto& level : meta.levels) files.push_back(static_cast<int>(level.files.size()));
    return files;
  }

  // Waits up to 30 s for level 0 to empty.
  bool LevelZeroEmptied() {
    for (auto deadline = std::chrono::steady_clock::now() + 30s; std::chrono::steady_clock::now() < deadline;) {
      if (FilesByLevel()[0] == 0) return true;
      std::this_thread::sleep_for(10ms);
    }
    return false;
  }

  // Waits up to 30 s for `compactor` to count `count` compactions: it counts one when CompactFiles
  // returns, a moment after level 0 already reads empty.
  static bool CompactionsReach(const IdleCompactor& compactor, uint64_t count) {
    for (auto deadline = std::chrono::steady_clock::now() + 30s; std::chrono::steady_clock::now() < deadline;) {
      if (compactor.compactions() >= count) return true;
      std::this_thread::sleep_for(10ms);
    }
    return false;
  }

  std::string Read(const std::string& key) {
    std::string value;
    rocksdb::Status s = db_->Get({}, key, &value);
    return s.IsNotFound() ? "<none>" : value;
  }

  TempDir dir_{"mt_idle_compactor_test_"};
  std::unique_ptr<rocksdb::DB> db_;
};

TEST_F(IdleCompactorTest, CompactsLevelZeroIntoTheLastLevelWhenIdle) {
  WriteLevelZeroFiles(5);
  ASSERT_EQ(FilesByLevel()[0], 5);
  IdleCompactor compactor(db_.get(), {.poll = 20ms, .idle_share = 0.02, .min_files = 4});
  ASSERT_TRUE(LevelZeroEmptied());
  std::vector<int> files = FilesByLevel();
  EXPECT_EQ(files.back(), 1);  // every level empty before: into the last
  EXPECT_TRUE(CompactionsReach(compactor, 1));
  EXPECT_EQ(compactor.compactions(), 1u);
  for (int k = 0; k < 10; ++k) EXPECT_EQ(Read("k" + std::to_string(k)), "4");
  for (int f = 0; f < 4; ++f) EXPECT_EQ(Read("only" + std::to_string(f)), "<none>");
  EXPECT_EQ(Read("only4"), "x");
}

TEST_F(IdleCompactorTest, CompactsIntoTheFirstNonEmptyLevel) {
  WriteLevelZeroFiles(1);
  ASSERT_TRUE(db_->CompactRange({}, nullptr, nullptr).ok());  // into the last level: 6
  rocksdb::CompactionOptions to_level_5;
  to_level_5.compression = rocksdb::kDisableCompressionOption;
  WriteLevelZeroFiles(1);
  rocksdb::ColumnFamilyMetaData meta;
  db_->GetColumnFamilyMetaData(&meta);
  ASSERT_TRUE(db_->CompactFiles(to_level_5, {meta.levels[0].files[0].name}, 5).ok());
  WriteLevelZeroFiles(4);
  ASSERT_EQ(FilesByLevel(), (std::vector<int>{4, 0, 0, 0, 0, 1, 1}));
  IdleCompactor compactor(db_.get(), {.poll = 20ms, .idle_share = 0.02, .min_files = 4});
  ASSERT_TRUE(LevelZeroEmptied());
  EXPECT_EQ(FilesByLevel(), (std::vector<int>{0, 0, 0, 0, 0, 1, 1}));
  EXPECT_EQ(Read("k3"), "3");
}

TEST_F(IdleCompactorTest, WaitsWhileTheProcessIsBusy) {
  WriteLevelZeroFiles(4);
  // A process clock that runs a whole core's worth while `busy`, then stands still.
  std::atomic<bool> busy{true};
  std::atomic<int64_t> cpu{0};
  std::atomic<int> polls_while_busy{0};
  IdleCompactor::Options options{.poll = 20ms, .idle_share = 0.02, .min_files = 4};
  options.cpu_nanoseconds = [&] {
    if (!busy.load()) return cpu.load();
    polls_while_busy.fetch_add(1);
    return cpu.fetch_add(20'000'000) + 20'000'000;
  };
  IdleCompactor compactor(db_.get(), options);
  while (polls_while_busy.load() < 25) std::this_thread::sleep_for(5ms);
  EXPECT_EQ(compactor.compactions(), 0u);
  EXPECT_EQ(FilesByLevel()[0], 4);
  busy.store(false);
  ASSERT_TRUE(LevelZeroEmptied());
  EXPECT_TRUE(CompactionsReach(compactor, 1));
  EXPECT_EQ(compactor.compactions(), 1u);
}

TEST_F(IdleCompactorTest, LeavesFewerFilesThanItsMinimum) {
  WriteLevelZeroFiles(3);
  IdleCompactor compactor(db_.get(), {.poll = 20ms, .idle_share = 0.02, .min_files = 4});
  std::this_thread::sleep_for(300ms);  // 15 idle polls
  EXPECT_EQ(compactor.compactions(), 0u);
  EXPECT_EQ(FilesByLevel()[0], 3);
}

}  // namespace
}  // namespace monotable::engine
