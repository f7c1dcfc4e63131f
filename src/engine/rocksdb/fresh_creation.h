// Creating a new database directory without waiting for the disk at every step of RocksDB's setup,
// and recovering a directory whose creation a power loss cut short.
//
// Why (bench/RESULTS.md, session 13): RocksDB syncs each file and the directory as it creates a
// database (IDENTITY, the first MANIFEST and CURRENT, then at open a second MANIFEST and CURRENT and
// the OPTIONS file: ten syncs, 5-10 ms of a 15-20 ms start on the benchmark machine), though a new
// directory holds nothing a crash could lose.
//
// Contract:
// - DeferredSyncFileSystem wraps RocksDB's file system. Until EndDeferral, the files it creates
//   and the directories it opens skip their syncs (they stay wrapped: later syncs go through);
//   those created or opened after EndDeferral are not wrapped at all. It is meant for one DB::Open of a directory without
//   a CURRENT file, the case where RocksDB creates a database.
// - EndDeferral(dir) ends the deferral, then syncs the data of every file created while deferring (under its present name, following renames; files since deleted are skipped), then
//   `dir` itself. Until it returns OK a power loss can leave files that do not open, so nothing may
//   be written to the database before then (RocksDbEngine holds its writes back).
// - HoldsNoData(dir): `dir` holds only the files RocksDB creates with a database (CURRENT,
//   IDENTITY, LOCK, MANIFEST-*, OPTIONS-*, LOG*, *.dbtmp) and empty write-ahead logs: no table
//   file, no log record, nothing else. Such a directory loses nothing when it is created afresh.
// - ClearForRecreation(dir) removes those files (the LOCK file stays), holding the LOCK file's
//   lock meanwhile; it fails, removing nothing, when another process holds the lock or when
//   HoldsNoData is false.
#pragma once

#include <rocksdb/file_system.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <string>

namespace monotable::engine {

class DeferredSyncFileSystem : public rocksdb::FileSystemWrapper {
 public:
  explicit DeferredSyncFileSystem(const std::shared_ptr<rocksdb::FileSystem>& target);

  static const char* kClassName() { return "MonotableDeferredSyncFileSystem"; }
  const char* Name() const override { return kClassName(); }

  rocksdb::IOStatus NewWritableFile(const std::string& name, const rocksdb::FileOptions& options,
                                    std::unique_ptr<rocksdb::FSWritableFile>* result,
                                    rocksdb::IODebugContext* debug) override;
  rocksdb::IOStatus NewDirectory(const std::string& name, const rocksdb::IOOptions& options,
                                 std::unique_ptr<rocksdb::FSDirectory>* result,
                                 rocksdb::IODebugContext* debug) override;
  rocksdb::IOStatus RenameFile(const std::string& from, const std::string& to, const rocksdb::IOOptions& options,
                               rocksdb::IODebugContext* debug) override;

  bool deferring() const { return deferring_->load(std::memory_order_acquire); }
  // What EndDeferral will sync (empty once it has run).
  std::set<std::string> written_while_deferring() const {
    std::lock_guard lock(written_mu_);
    return written_;
  }
  rocksdb::IOStatus EndDeferral(const std::string& dir);

 private:
  // Shared with the wrapped files and directories, which may outlive this object.
  std::shared_ptr<std::atomic<bool>> deferring_;
  mutable std::mutex written_mu_;
  std::set<std::string> written_;  // files created while deferring, by present name
};

bool HoldsNoData(const std::string& dir);
rocksdb::IOStatus ClearForRecreation(const std::string& dir);

}  // namespace monotable::engine
