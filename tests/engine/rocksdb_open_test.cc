// Opening a RocksDB data directory: what the engine refuses (and that a refusal leaves every file
// as it was), the operator's knobs (a separate WAL directory), and the space a dropped range gives
// back.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <chrono>
#include <cstdio>

#include "engine/rocksdb/rocksdb_engine.h"
#include "rocksdb_fixtures.h"

namespace monotable::engine {
namespace {

namespace fs = std::filesystem;

// Every regular file under `dir` with its size and contents.
std::map<std::string, std::string> Files(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    files[fs::relative(entry.path(), dir).string()] =
        std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return files;
}

void WriteFile(const fs::path& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << contents;
}

// A database whose CURRENT file is gone (lost, or someone pointed --data at another program's
// directory): RocksDB, asked to create a database there, would write a new one over it and delete
// the table and log files it does not know. The open is refused instead, naming the problem, and
// every file stays as it was.
TEST(RocksDbOpenTest, DirectoryWithFilesButNoCurrentIsRefusedUntouched) {
  TempDir dir("mt_open_test_");
  CommitOneKey(dir.db());
  ASSERT_TRUE(fs::remove(fs::path(dir.db()) / "CURRENT"));
  const auto before = Files(dir.db());
  ASSERT_FALSE(before.empty());

  auto r = OpenRocksDbEngine({.path = dir.db()});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kIo);
  EXPECT_NE(r.status().message().find("no CURRENT file"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find(dir.db()), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("nothing was changed"), std::string::npos) << r.status().message();
  EXPECT_EQ(Files(dir.db()), before);

  // Restoring CURRENT brings the database back with its data.
  std::string manifest;
  for (const auto& [name, _] : before) {
    if (name.rfind("MANIFEST-", 0) == 0) manifest = name;
  }
  ASSERT_FALSE(manifest.empty());
  WriteFile(fs::path(dir.db()) / "CURRENT", manifest + "\n");
  ExpectOneKey(dir.db());
}

// Someone else's files (no database at all) are not taken over either.
TEST(RocksDbOpenTest, ForeignDirectoryIsRefusedUntouched) {
  TempDir dir("mt_open_test_");
  fs::create_directories(dir.db());
  WriteFile(fs::path(dir.db()) / "000007.sst", "not a table file");
  WriteFile(fs::path(dir.db()) / "notes.txt", "mine");
  const auto before = Files(dir.db());
  auto r = OpenRocksDbEngine({.path = dir.db()});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("no CURRENT file"), std::string::npos) << r.status().message();
  EXPECT_EQ(Files(dir.db()), before);
}

// A database whose CURRENT names a MANIFEST that is damaged (or gone) does not open: the error says
// so, and nothing is deleted or recreated, however little the directory holds.
TEST(RocksDbOpenTest, DamagedManifestIsRefusedUntouched) {
  TempDir dir("mt_open_test_");
  CommitOneKey(dir.db());
  for (const auto& entry : fs::directory_iterator(dir.db())) {
    if (entry.path().filename().string().rfind("MANIFEST-", 0) == 0) WriteFile(entry.path(), "garbage");
  }
  const auto before = Files(dir.db());
  auto r = OpenRocksDbEngine({.path = dir.db()});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("cannot open the database in " + dir.db()), std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("nothing was deleted or recreated"), std::string::npos);
  EXPECT_EQ(Files(dir.db()), before);

  WriteFile(fs::path(dir.db()) / "CURRENT", "MANIFEST-999999\n");  // names a file that is not there
  const auto before_missing = Files(dir.db());
  EXPECT_FALSE(OpenRocksDbEngine({.path = dir.db()}).ok());
  EXPECT_EQ(Files(dir.db()), before_missing);
}

// New and empty directories get a new database.
TEST(RocksDbOpenTest, NewAndEmptyDirectoriesAreCreated) {
  TempDir dir("mt_open_test_");
  fs::create_directories(dir.path() + "/empty");
  CommitOneKey(dir.path() + "/empty");
  ExpectOneKey(dir.path() + "/empty");
  CommitOneKey(dir.path() + "/new/nested");
  ExpectOneKey(dir.path() + "/new/nested");
}

// --wal-dir: the write-ahead log lives there, not in the data directory, and the data survives a
// reopen with the same setting.
TEST(RocksDbOpenTest, WalDirectoryHoldsTheLog) {
  TempDir dir("mt_open_test_");
  const std::string wal = dir.path() + "/wal";
  EngineOptions opts{.path = dir.db(), .sync = true};
  opts.wal_dir = wal;
  opts.block_cache_bytes = 1 << 20;
  opts.write_buffer_bytes = 1 << 20;
  opts.background_jobs = 1;
  {
    auto r = OpenRocksDbEngine(opts);
    ASSERT_TRUE(r.ok()) << r.status().message();
    ASSERT_TRUE((*r)->Commit({.guards = {}, .mutations = {{"k", "v"}}}).ok());
    int logs_in_wal = 0, logs_in_data = 0;
    for (const auto& e : fs::directory_iterator(wal)) logs_in_wal += e.path().extension() == ".log";
    for (const auto& e : fs::directory_iterator(dir.db())) logs_in_data += e.path().extension() == ".log";
    EXPECT_GE(logs_in_wal, 1);
    EXPECT_EQ(logs_in_data, 0);
  }
  auto r = OpenRocksDbEngine(opts);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(*(*r)->Get("k"), "v");
}

uint64_t TableFileBytes(const std::string& dir) {
  uint64_t bytes = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".sst") bytes += e.file_size();
  }
  return bytes;
}

// A dropped range gives its space back: after DeleteRange (and the background compaction it
// queues) the range's data is gone from the table files, and what lies outside it stays.
TEST(RocksDbOpenTest, DeleteRangeGivesTheSpaceBack) {
  TempDir dir("mt_open_test_");
  auto r = OpenRocksDbEngine({.path = dir.db(), .write_buffer_bytes = 1 << 20});
  ASSERT_TRUE(r.ok()) << r.status().message();
  Engine& e = **r;
  std::string value(1000, 'x');
  uint64_t state = 12345;
  for (int i = 0; i < 4000; ++i) {
    char key[16];
    std::snprintf(key, sizeof key, "a%06d", i);
    for (char& c : value) {  // random bytes: nothing to compress away
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      c = static_cast<char>(state >> 56);
    }
    ASSERT_TRUE(e.Commit({.guards = {}, .mutations = {{key, value}}}).ok());
  }
  ASSERT_TRUE(e.Commit({.guards = {}, .mutations = {{"b-kept", "yes"}}}).ok());
  e.WaitForReclaim();
  // Written out to table files (a clean close flushes; reopen to measure the files alone).
  r = Result<std::unique_ptr<Engine>>(Status::Internal("closed"));
  r = OpenRocksDbEngine({.path = dir.db(), .write_buffer_bytes = 1 << 20});
  ASSERT_TRUE(r.ok()) << r.status().message();
  const uint64_t before = TableFileBytes(dir.db());
  ASSERT_GT(before, 1000000u);

  ASSERT_TRUE((*r)->DeleteRange("a", "b").ok());
  (*r)->WaitForReclaim();
  // Obsolete files are deleted in the background (avoid_unnecessary_blocking_io).
  for (int i = 0; i < 100 && TableFileBytes(dir.db()) >= before / 20; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_LT(TableFileBytes(dir.db()), before / 20);
  EXPECT_LT((*r)->ApproximateSize("a", "b"), 100000u);
  EXPECT_EQ(*(*r)->Get("b-kept"), "yes");
  EXPECT_EQ(*(*r)->Get("a000010"), std::nullopt);
}

}  // namespace
}  // namespace monotable::engine
