// A new database directory is created without RocksDB's syncs and made durable at once; a directory
// whose creation was cut short (files that do not open, no data) is created afresh; nothing else is.
#include "engine/rocksdb/fresh_creation.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/rocksdb/rocksdb_engine.h"
#include "rocksdb_fixtures.h"

namespace monotable::engine {
namespace {

namespace fs = std::filesystem;

// Counts the syncs that reach the real file system.
class CountingFileSystem : public rocksdb::FileSystemWrapper {
 public:
  CountingFileSystem() : FileSystemWrapper(rocksdb::FileSystem::Default()) {}
  const char* Name() const override { return "CountingFileSystem"; }

  rocksdb::IOStatus NewWritableFile(const std::string& name, const rocksdb::FileOptions& options,
                                    std::unique_ptr<rocksdb::FSWritableFile>* result,
                                    rocksdb::IODebugContext* debug) override {
    auto s = target()->NewWritableFile(name, options, result, debug);
    if (s.ok()) *result = std::make_unique<File>(std::move(*result), syncs);
    return s;
  }
  rocksdb::IOStatus NewDirectory(const std::string& name, const rocksdb::IOOptions& options,
                                 std::unique_ptr<rocksdb::FSDirectory>* result,
                                 rocksdb::IODebugContext* debug) override {
    auto s = target()->NewDirectory(name, options, result, debug);
    if (s.ok()) *result = std::make_unique<Directory>(std::move(*result), syncs);
    return s;
  }

  std::shared_ptr<std::atomic<int>> syncs = std::make_shared<std::atomic<int>>(0);

 private:
  class File : public rocksdb::FSWritableFileOwnerWrapper {
   public:
    File(std::unique_ptr<rocksdb::FSWritableFile> f, std::shared_ptr<std::atomic<int>> n)
        : FSWritableFileOwnerWrapper(std::move(f)), n_(std::move(n)) {}
    rocksdb::IOStatus Sync(const rocksdb::IOOptions& o, rocksdb::IODebugContext* d) override {
      ++*n_;
      return FSWritableFileOwnerWrapper::Sync(o, d);
    }
    rocksdb::IOStatus Fsync(const rocksdb::IOOptions& o, rocksdb::IODebugContext* d) override {
      ++*n_;
      return FSWritableFileOwnerWrapper::Fsync(o, d);
    }

   private:
    std::shared_ptr<std::atomic<int>> n_;
  };
  class Directory : public rocksdb::FSDirectoryWrapper {
   public:
    Directory(std::unique_ptr<rocksdb::FSDirectory> d, std::shared_ptr<std::atomic<int>> n)
        : FSDirectoryWrapper(std::move(d)), n_(std::move(n)) {}
    rocksdb::IOStatus Fsync(const rocksdb::IOOptions& o, rocksdb::IODebugContext* d) override {
      ++*n_;
      return FSDirectoryWrapper::Fsync(o, d);
    }
    rocksdb::IOStatus FsyncWithDirOptions(const rocksdb::IOOptions& o, rocksdb::IODebugContext* d,
                                          const rocksdb::DirFsyncOptions& options) override {
      ++*n_;
      return FSDirectoryWrapper::FsyncWithDirOptions(o, d, options);
    }

   private:
    std::shared_ptr<std::atomic<int>> n_;
  };
};

TEST(DeferredSyncFileSystemTest, CreationSkipsSyncsAndLaterSyncsGoThrough) {
  TempDir dir;
  auto counting = std::make_shared<CountingFileSystem>();
  auto deferred = std::make_shared<DeferredSyncFileSystem>(counting);
  std::unique_ptr<rocksdb::Env> env = rocksdb::NewCompositeEnv(deferred);
  rocksdb::Options options;
  options.create_if_missing = true;
  options.env = env.get();
  rocksdb::DB* raw = nullptr;
  ASSERT_TRUE(rocksdb::DB::Open(options, dir.db(), &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  EXPECT_TRUE(deferred->deferring());
  EXPECT_EQ(*counting->syncs, 0);  // a plain DB::Open of a new directory syncs ten times

  ASSERT_TRUE(deferred->EndDeferral(dir.db()).ok());
  EXPECT_FALSE(deferred->deferring());
  rocksdb::WriteOptions synced;
  synced.sync = true;
  ASSERT_TRUE(db->Put(synced, "k", "v").ok());  // the log opened while deferring syncs now
  EXPECT_GE(*counting->syncs, 1);
  int before_flush = *counting->syncs;
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());  // a new table file, a MANIFEST record
  EXPECT_GT(*counting->syncs, before_flush);
  ASSERT_TRUE(db->Close().ok());
  db.reset();

  rocksdb::Options plain;
  ASSERT_TRUE(rocksdb::DB::Open(plain, dir.db(), &raw).ok());
  std::string value;
  EXPECT_TRUE(raw->Get(rocksdb::ReadOptions(), "k", &value).ok());
  EXPECT_EQ(value, "v");
  delete raw;
}

// EndDeferral syncs the files written while deferring under their present names: RocksDB writes
// CURRENT, IDENTITY and OPTIONS to a temporary name first.
TEST(DeferredSyncFileSystemTest, TracksTheFilesWrittenWhileDeferringThroughRenames) {
  TempDir dir;
  DeferredSyncFileSystem deferred(rocksdb::FileSystem::Default());
  auto write = [&](const std::string& name) {
    std::unique_ptr<rocksdb::FSWritableFile> file;
    ASSERT_TRUE(deferred.NewWritableFile(dir.path() + "/" + name, {}, &file, nullptr).ok());
    ASSERT_TRUE(file->Append("data", {}, nullptr).ok());
    ASSERT_TRUE(file->Close({}, nullptr).ok());
  };
  write("000001.dbtmp");
  write("MANIFEST-000002");
  write("obsolete");
  ASSERT_TRUE(deferred.RenameFile(dir.path() + "/000001.dbtmp", dir.path() + "/CURRENT", {}, nullptr).ok());
  ASSERT_TRUE(deferred.DeleteFile(dir.path() + "/obsolete", {}, nullptr).ok());
  EXPECT_EQ(deferred.written_while_deferring(),
            (std::set<std::string>{dir.path() + "/CURRENT", dir.path() + "/MANIFEST-000002", dir.path() + "/obsolete"}));
  EXPECT_TRUE(deferred.EndDeferral(dir.path()).ok());  // the deleted one is skipped
  EXPECT_TRUE(deferred.written_while_deferring().empty());
  write("LATER");  // opened after the deferral: not wrapped, not tracked
  EXPECT_TRUE(deferred.written_while_deferring().empty());
}

TEST(DeferredSyncFileSystemTest, EndDeferralReportsAMissingDirectory) {
  DeferredSyncFileSystem deferred(rocksdb::FileSystem::Default());
  EXPECT_FALSE(deferred.EndDeferral("/nonexistent/monotable/dir").ok());
}

// A database created and closed by the engine, with or without a record in it.
void CreateDatabase(const std::string& path, bool with_data) {
  auto engine = OpenRocksDbEngine({.path = path, .sync = true});
  ASSERT_TRUE(engine.ok()) << engine.status().message();
  if (with_data) {
    ASSERT_TRUE((*engine)->Commit({.guards = {}, .mutations = {{"k", "v"}}}).ok());
  }
}

std::string OnlyFile(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> found;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().filename().string().starts_with(prefix)) found.push_back(e.path().string());
  }
  EXPECT_EQ(found.size(), 1u) << prefix;
  return found.empty() ? "" : found[0];
}

void Truncate(const std::string& path) { fs::resize_file(path, 0); }

TEST(HoldsNoDataTest, ReadsTheDirectory) {
  TempDir dir;
  EXPECT_FALSE(HoldsNoData(dir.db()));  // missing
  CreateDatabase(dir.db(), /*with_data=*/false);
  EXPECT_TRUE(HoldsNoData(dir.db()));
  { std::ofstream(dir.db() + "/notes.txt") << "mine"; }
  EXPECT_FALSE(HoldsNoData(dir.db()));

  TempDir with_data;
  CreateDatabase(with_data.db(), /*with_data=*/true);
  EXPECT_FALSE(HoldsNoData(with_data.db()));  // a log record (or, after recovery, a table file)
}

TEST(ClearForRecreationTest, RemovesOnlyADatabaseWithoutData) {
  TempDir empty;
  CreateDatabase(empty.db(), false);
  ASSERT_TRUE(ClearForRecreation(empty.db()).ok());
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(empty.db())) left.push_back(e.path().filename());
  EXPECT_EQ(left, std::vector<std::string>{"LOCK"});

  TempDir full;
  CreateDatabase(full.db(), true);
  size_t files = std::distance(fs::directory_iterator(full.db()), fs::directory_iterator());
  EXPECT_FALSE(ClearForRecreation(full.db()).ok());
  EXPECT_EQ(std::distance(fs::directory_iterator(full.db()), fs::directory_iterator()), files);
}

TEST(ClearForRecreationTest, LeavesADirectoryAnotherProcessHasLocked) {
  TempDir dir;
  CreateDatabase(dir.db(), false);
  int ready[2], done[2];
  ASSERT_EQ(pipe(ready), 0);
  ASSERT_EQ(pipe(done), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // holds the LOCK file's lock, as a running RocksDB does, until told to stop
    int fd = open((dir.db() + "/LOCK").c_str(), O_RDWR);
    struct flock lock {};
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    char c = fcntl(fd, F_SETLK, &lock) == 0 ? 'y' : 'n';
    (void)!write(ready[1], &c, 1);
    (void)!read(done[0], &c, 1);
    _exit(0);
  }
  char c = 0;
  ASSERT_EQ(read(ready[0], &c, 1), 1);
  ASSERT_EQ(c, 'y');
  EXPECT_FALSE(ClearForRecreation(dir.db()).ok());
  EXPECT_TRUE(fs::exists(dir.db() + "/CURRENT"));
  (void)!write(done[1], &c, 1);
  waitpid(child, nullptr, 0);
  for (int fd : {ready[0], ready[1], done[0], done[1]}) close(fd);
}

// What a power loss during a creation without syncs can leave: the engine opens each (creating the
// database afresh where RocksDB refuses it), and the database then keeps what is written to it.
TEST(OpenRocksDbEngineTest, RecreatesADatabaseWhoseCreationWasCutShort) {
  struct Damage {
    const char* name;
    bool rocksdb_refuses;  // or opens it as it is
    void (*apply)(const std::string& db);
  };
  const Damage damages[] = {
      {"empty CURRENT", true, [](const std::string& db) { Truncate(db + "/CURRENT"); }},
      {"CURRENT without its MANIFEST", true, [](const std::string& db) { fs::remove(OnlyFile(db, "MANIFEST-")); }},
      {"empty MANIFEST", true, [](const std::string& db) { Truncate(OnlyFile(db, "MANIFEST-")); }},
      {"empty IDENTITY", false, [](const std::string& db) { Truncate(db + "/IDENTITY"); }},
      // The engine writes no OPTIONS file (no_options_file.h); earlier versions did.
      {"empty OPTIONS", false, [](const std::string& db) { std::ofstream(db + "/OPTIONS-000007").flush(); }},
      {"every file empty", true,
       [](const std::string& db) {
         for (const auto& e : fs::directory_iterator(db)) {
           Truncate(e.path());
         }
       }},
  };
  for (const Damage& damage : damages) {
    SCOPED_TRACE(damage.name);
    TempDir dir;
    CreateDatabase(dir.db(), false);
    damage.apply(dir.db());
    {
      rocksdb::DB* raw = nullptr;
      rocksdb::Options options;
      rocksdb::Status s = rocksdb::DB::Open(options, dir.db(), &raw);
      EXPECT_EQ(!s.ok(), damage.rocksdb_refuses) << s.ToString();
      delete raw;
    }
    CommitOneKey(dir.db());
    ExpectOneKey(dir.db());
  }
}

// A damaged directory that holds data is left as it is, with RocksDB's error.
TEST(OpenRocksDbEngineTest, KeepsADamagedDatabaseThatHoldsData) {
  TempDir dir;
  CreateDatabase(dir.db(), true);
  Truncate(dir.db() + "/CURRENT");
  size_t files = std::distance(fs::directory_iterator(dir.db()), fs::directory_iterator());
  auto engine = OpenRocksDbEngine({.path = dir.db()});
  ASSERT_FALSE(engine.ok());
  EXPECT_EQ(engine.status().code(), ErrorCode::kCorruption);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.db()), fs::directory_iterator()), files);
}

// A second open of a live database without data fails on its lock and removes nothing.
TEST(OpenRocksDbEngineTest, SecondOpenOfALiveEmptyDatabaseRemovesNothing) {
  TempDir dir;
  auto first = OpenRocksDbEngine({.path = dir.db()});
  ASSERT_TRUE(first.ok());
  auto second = OpenRocksDbEngine({.path = dir.db()});
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), ErrorCode::kIo);
  EXPECT_TRUE(fs::exists(dir.db() + "/CURRENT"));
  ASSERT_TRUE((*first)->Commit({.guards = {}, .mutations = {{"k", "v"}}}).ok());
  first->reset();
  auto reopened = OpenRocksDbEngine({.path = dir.db()});
  ASSERT_TRUE(reopened.ok()) << reopened.status().message();
  EXPECT_EQ(*(*reopened)->Get("k"), "v");
}

}  // namespace
}  // namespace monotable::engine
