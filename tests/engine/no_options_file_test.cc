// RocksDB's OPTIONS file is not written: the file system declines it, the open goes on, the
// warning RocksDB logs about it is dropped, and the database keeps its data across reopens.
#include "engine/rocksdb/no_options_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "engine/rocksdb/rocksdb_engine.h"
#include "rocksdb_fixtures.h"

namespace monotable::engine {
namespace {

namespace fs = std::filesystem;

int FilesStartingWith(const std::string& dir, const std::string& prefix) {
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.path().filename().string().starts_with(prefix);
  return n;
}

// What NoOptionsFileSystem says to RocksDB's request for its OPTIONS file's temporary name.
rocksdb::IOStatus CreateOptionsFile(const TempDir& dir, std::unique_ptr<rocksdb::FSWritableFile>* file) {
  NoOptionsFileSystem file_system(rocksdb::FileSystem::Default());
  return file_system.NewWritableFile(dir.path() + "/OPTIONS-000006.dbtmp", rocksdb::FileOptions(), file, nullptr);
}

TEST(NoOptionsFileSystemTest, DeclinesOnlyOptionsFiles) {
  TempDir dir;
  NoOptionsFileSystem file_system(rocksdb::FileSystem::Default());
  std::unique_ptr<rocksdb::FSWritableFile> file;
  rocksdb::IOStatus s = CreateOptionsFile(dir, &file);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_EQ(file, nullptr);
  EXPECT_FALSE(fs::exists(dir.path() + "/OPTIONS-000006.dbtmp"));
  for (const char* name : {"/000004.log", "/MANIFEST-000005", "/OPTIONS", "/MY-OPTIONS-1"}) {
    s = file_system.NewWritableFile(dir.path() + name, rocksdb::FileOptions(), &file, nullptr);
    ASSERT_TRUE(s.ok()) << name << ": " << s.ToString();
    ASSERT_TRUE(file->Close(rocksdb::IOOptions(), nullptr).ok());
    EXPECT_TRUE(fs::exists(dir.path() + name)) << name;
  }
}

TEST(NoOptionsFileSystemTest, RecognisesRocksDbsWarningAboutIt) {
  TempDir dir;
  std::unique_ptr<rocksdb::FSWritableFile> file;
  rocksdb::IOStatus s = CreateOptionsFile(dir, &file);
  // As db_impl.cc logs it (its spelling).
  EXPECT_TRUE(IsOptionsFileWarning("[db/db_impl/db_impl.cc:4793] Unnable to persist options -- " + s.ToString()));
  EXPECT_FALSE(IsOptionsFileWarning("[db/db_impl/db_impl.cc:4793] Unnable to persist options -- IO error: disk full"));
  EXPECT_FALSE(IsOptionsFileWarning("[db/version_set.cc:12] something else"));
}

TEST(OpenRocksDbEngineTest, WritesNoOptionsFileAndSaysNothingAboutIt) {
  TempDir dir;
  testing::internal::CaptureStderr();
  CommitOneKey(dir.db());
  ExpectOneKey(dir.db());
  std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(said, "");
  EXPECT_EQ(FilesStartingWith(dir.db(), "OPTIONS-"), 0);
  EXPECT_EQ(FilesStartingWith(dir.db(), "CURRENT"), 1);
}

// A directory an earlier version wrote, OPTIONS files included, opens as before; they stay.
TEST(OpenRocksDbEngineTest, OpensADirectoryWithAnEarlierOptionsFile) {
  TempDir dir;
  CommitOneKey(dir.db());
  { std::ofstream(dir.db() + "/OPTIONS-000003") << "[Version]\n  rocksdb_version=7.8.3\n  options_file_version=1.1\n"; }
  ExpectOneKey(dir.db());
  EXPECT_TRUE(fs::exists(dir.db() + "/OPTIONS-000003"));
}

}  // namespace
}  // namespace monotable::engine
