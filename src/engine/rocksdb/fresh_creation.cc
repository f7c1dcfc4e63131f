#include "engine/rocksdb/fresh_creation.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>
#include <vector>

namespace monotable::engine {
namespace {

using rocksdb::IOStatus;
using Deferring = std::shared_ptr<std::atomic<bool>>;

bool IsOn(const Deferring& deferring) { return deferring->load(std::memory_order_acquire); }

class DeferredSyncFile : public rocksdb::FSWritableFileOwnerWrapper {
 public:
  DeferredSyncFile(std::unique_ptr<rocksdb::FSWritableFile> file, Deferring deferring)
      : FSWritableFileOwnerWrapper(std::move(file)), deferring_(std::move(deferring)) {}

  IOStatus Sync(const rocksdb::IOOptions& options, rocksdb::IODebugContext* debug) override {
    return IsOn(deferring_) ? IOStatus::OK() : FSWritableFileOwnerWrapper::Sync(options, debug);
  }
  IOStatus Fsync(const rocksdb::IOOptions& options, rocksdb::IODebugContext* debug) override {
    return IsOn(deferring_) ? IOStatus::OK() : FSWritableFileOwnerWrapper::Fsync(options, debug);
  }
  IOStatus RangeSync(uint64_t offset, uint64_t bytes, const rocksdb::IOOptions& options,
                     rocksdb::IODebugContext* debug) override {
    return IsOn(deferring_) ? IOStatus::OK() : FSWritableFileOwnerWrapper::RangeSync(offset, bytes, options, debug);
  }

 private:
  Deferring deferring_;
};

class DeferredSyncDirectory : public rocksdb::FSDirectoryWrapper {
 public:
  DeferredSyncDirectory(std::unique_ptr<rocksdb::FSDirectory> dir, Deferring deferring)
      : FSDirectoryWrapper(std::move(dir)), deferring_(std::move(deferring)) {}

  IOStatus Fsync(const rocksdb::IOOptions& options, rocksdb::IODebugContext* debug) override {
    return IsOn(deferring_) ? IOStatus::OK() : FSDirectoryWrapper::Fsync(options, debug);
  }
  IOStatus FsyncWithDirOptions(const rocksdb::IOOptions& options, rocksdb::IODebugContext* debug,
                               const rocksdb::DirFsyncOptions& dir_options) override {
    return IsOn(deferring_) ? IOStatus::OK() : FSDirectoryWrapper::FsyncWithDirOptions(options, debug, dir_options);
  }

 private:
  Deferring deferring_;
};

IOStatus FromErrno(const std::string& what, int error) {
  return IOStatus::IOError(what + ": " + std::strerror(error));
}

// A file RocksDB creates with an empty database; write-ahead logs count only when empty.
bool IsCreationFile(const std::filesystem::directory_entry& entry) {
  std::error_code ec;
  if (!entry.is_regular_file(ec)) return false;
  std::string name = entry.path().filename().string();
  if (name == "CURRENT" || name == "IDENTITY" || name == "LOCK") return true;
  if (name.starts_with("MANIFEST-") || name.starts_with("OPTIONS-") || name.starts_with("LOG")) return true;
  if (name.ends_with(".dbtmp")) return true;
  if (name.ends_with(".log")) return entry.file_size(ec) == 0 && !ec;
  return false;
}

}  // namespace

DeferredSyncFileSystem::DeferredSyncFileSystem(const std::shared_ptr<rocksdb::FileSystem>& target)
    : FileSystemWrapper(target), deferring_(std::make_shared<std::atomic<bool>>(true)) {}

IOStatus DeferredSyncFileSystem::NewWritableFile(const std::string& name, const rocksdb::FileOptions& options,
                                                 std::unique_ptr<rocksdb::FSWritableFile>* result,
                                                 rocksdb::IODebugContext* debug) {
  IOStatus s = target()->NewWritableFile(name, options, result, debug);
  if (s.ok() && deferring()) {
    *result = std::make_unique<DeferredSyncFile>(std::move(*result), deferring_);
    std::lock_guard lock(written_mu_);
    written_.insert(name);
  }
  return s;
}

IOStatus DeferredSyncFileSystem::NewDirectory(const std::string& name, const rocksdb::IOOptions& options,
                                              std::unique_ptr<rocksdb::FSDirectory>* result,
                                              rocksdb::IODebugContext* debug) {
  IOStatus s = target()->NewDirectory(name, options, result, debug);
  if (s.ok() && deferring()) *result = std::make_unique<DeferredSyncDirectory>(std::move(*result), deferring_);
  return s;
}

IOStatus DeferredSyncFileSystem::RenameFile(const std::string& from, const std::string& to,
                                            const rocksdb::IOOptions& options, rocksdb::IODebugContext* debug) {
  IOStatus s = target()->RenameFile(from, to, options, debug);
  std::lock_guard lock(written_mu_);
  if (s.ok() && written_.erase(from) > 0) written_.insert(to);
  return s;
}

IOStatus DeferredSyncFileSystem::EndDeferral(const std::string& dir) {
  // From here RocksDB's own syncs go through; files it creates from now on sync themselves.
  deferring_->store(false, std::memory_order_release);
  std::set<std::string> written;
  {
    std::lock_guard lock(written_mu_);
    written.swap(written_);
  }
  for (const std::string& name : written) {
    int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      if (errno == ENOENT) continue;  // an obsolete file RocksDB deleted meanwhile
      return FromErrno("cannot open " + name, errno);
    }
    int synced = ::fdatasync(fd);
    int error = errno;
    ::close(fd);
    if (synced != 0) return FromErrno("cannot sync " + name, error);
  }
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return FromErrno("cannot open " + dir, errno);
  int synced = ::fsync(fd);
  int error = errno;
  ::close(fd);
  return synced == 0 ? IOStatus::OK() : FromErrno("cannot sync " + dir, error);
}

bool HoldsNoData(const std::string& dir) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (!IsCreationFile(entry)) return false;
  }
  return !ec;
}

IOStatus ClearForRecreation(const std::string& dir) {
  std::string lock_path = dir + "/LOCK";
  int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return FromErrno("cannot open " + lock_path, errno);
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  if (::fcntl(fd, F_SETLK, &lock) != 0) {
    int error = errno;
    ::close(fd);
    return FromErrno("cannot lock " + lock_path, error);
  }
  IOStatus result = IOStatus::OK();
  if (!HoldsNoData(dir)) {
    result = IOStatus::IOError(dir + " holds data: it is not recreated");
  } else {
    std::error_code ec;
    std::vector<std::filesystem::path> doomed;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      if (entry.path().filename() != "LOCK") doomed.push_back(entry.path());
    }
    if (ec) result = IOStatus::IOError("cannot list " + dir + ": " + ec.message());
    for (size_t i = 0; result.ok() && i < doomed.size(); ++i) {
      if (!std::filesystem::remove(doomed[i], ec) && ec) {
        result = IOStatus::IOError("cannot remove " + doomed[i].string() + ": " + ec.message());
      }
    }
  }
  ::close(fd);  // releases the lock
  return result;
}

}  // namespace monotable::engine
