// Engine: the storage interface every backend implements (RocksDB, in-memory, later distributed).
//
// Contract:
// - Keys and values are opaque byte strings ordered bytewise (memcmp, shorter prefix first). The
//   table layer builds partition-first, order-preserving keys; nothing here knows about items.
// - Get() and iterators read either the latest committed state or a Snapshot; a snapshot sees
//   exactly the commits that completed before it was taken, and nothing after, for as long as
//   the caller holds it (shared_ptr). Iterators keep their snapshot alive themselves; an iterator
//   created without a snapshot reads an implicit one taken at creation.
// - NewIterator() walks the half-open range [lower, upper) forward or backward; it never returns
//   keys outside the range. An empty `upper` means "no upper bound".
// - Commit() applies a WriteBatch atomically: either every guard holds against the latest state
//   (the current value equals `expected`, where nullopt means "absent") and all mutations are
//   applied as one unit, or nothing is applied and the result is ErrorCode::kGuardFailed.
//   Guard checks and application are atomic with respect to every other Commit that touches any
//   of the same keys (guards or mutations). Commits on disjoint keys do not serialize on a global
//   lock. With EngineOptions::sync the commit is durable (WAL fsynced) before Commit() returns.
// - GetForWrite(key) returns what Get(key) returns; the caller is about to guard and replace the
//   value, so the engine need not keep what it read in its caches.
// - ReadToken(key), taken BEFORE reading a guard's expected value, may be put in the guard: when
//   no commit has touched the key's stripe since the token was taken, Commit() knows the value
//   read is still current and skips re-reading it. A token of 0 (the default) always re-reads.
// - DeleteRange() removes every key in [lower, upper) (unguarded; used to drop tables); an empty
//   `upper` means "to the end". It is not serialized against concurrent guarded Commits (the
//   table layer keeps writes out of a range it drops). The space the keys took is given back in
//   the background (WaitForReclaim() waits for that; tests).
// - All methods are thread-safe. Errors from the backend surface as kIo / kCorruption.
//
// Acknowledging writes (log rounds; every front end must follow this):
// - By default Commit() and DeleteRange() return only after their log record is handed to the
//   operating system (EngineOptions::sync: fsynced), so a front end may acknowledge a write as soon
//   as the call returns OK: a crash of the process loses nothing acknowledged.
// - A thread that answers requests in batches may call DeferLogWrites() once, to share one log
//   write among all the commits of a batch. From then on its commits return as soon as they are
//   applied and visible, with their records still buffered, and the thread MUST call
//   WriteOutDeferredLogs() and see it return OK before it acknowledges any of them (on an error,
//   it answers none of them as successful). Other threads are unaffected; the memory engine and
//   synced commits ignore rounds. (Reads on other threads may see a commit of an open round; a
//   crash before the write-out loses it, but nobody was told it happened.)
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace monotable::engine {

struct Guard {
  std::string key;
  std::optional<std::string> expected;  // nullopt: the key must be absent
  uint64_t read_token = 0;              // Engine::ReadToken(key) from before `expected` was read
};

struct Mutation {
  std::string key;
  std::optional<std::string> value;  // nullopt: delete the key
};

struct WriteBatch {
  std::vector<Guard> guards;
  std::vector<Mutation> mutations;
};

class Snapshot {
 public:
  virtual ~Snapshot() = default;
};

class Iterator {
 public:
  virtual ~Iterator() = default;
  virtual void SeekToFirst() = 0;               // first key >= lower
  virtual void SeekToLast() = 0;                // last key < upper
  virtual void Seek(std::string_view key) = 0;  // first key >= max(key, lower)
  virtual void SeekForPrev(std::string_view key) = 0;  // last key <= key (and < upper)
  virtual bool Valid() const = 0;
  virtual void Next() = 0;
  virtual void Prev() = 0;
  virtual std::string_view key() const = 0;
  virtual std::string_view value() const = 0;
  virtual Status status() const = 0;
};

struct EngineOptions {
  std::string path;   // RocksDB directory; ignored by the memory engine
  bool sync = false;  // fsync the WAL before a commit is acknowledged
  // Keys that share their first `group_prefix_bytes` bytes are often read together as a range
  // (a partition): the engine may index that prefix to skip data holding none of a range's
  // group, and cache the latest contents of small ranges within one group. A hint only: every
  // read returns the same keys with or without it. 0: no grouping.
  size_t group_prefix_bytes = 0;
  // RocksDB's knobs for operators (ignored by the memory engine); the defaults suit a small machine.
  size_t block_cache_bytes = 32 << 20;   // LRU cache of table-file blocks (filled as read)
  size_t write_buffer_bytes = 32 << 20;  // a memtable's size before it is flushed (two at most)
  int background_jobs = 2;               // flush and compaction threads
  std::string wal_dir = "";              // write-ahead log directory; empty: inside `path`
};

class Engine {
 public:
  virtual ~Engine() = default;

  virtual std::shared_ptr<const Snapshot> GetSnapshot() = 0;
  virtual Result<std::optional<std::string>> Get(std::string_view key,
                                                 const Snapshot* snapshot = nullptr) = 0;
  virtual Result<std::optional<std::string>> GetForWrite(std::string_view key) { return Get(key); }
  virtual std::unique_ptr<Iterator> NewIterator(
      std::string lower, std::string upper,
      std::shared_ptr<const Snapshot> snapshot = nullptr) = 0;
  virtual Status Commit(const WriteBatch& batch) = 0;
  virtual uint64_t ReadToken(std::string_view key) { return 0; }
  virtual Status DeleteRange(std::string_view lower, std::string_view upper) = 0;
  // Approximate bytes stored in [lower, upper); used for sizes the API reports only as estimates.
  virtual uint64_t ApproximateSize(std::string_view lower, std::string_view upper) = 0;
  virtual std::string Name() const = 0;
  // Waits until the space of every range deleted so far has been given back (tests).
  virtual void WaitForReclaim() {}
  // True while the backend holds writes back (RocksDB: a write stall, delayed or stopped, because
  // flushes or compactions are behind): a Commit may then block for a long time. A front end keeps
  // such writes off threads that must stay responsive (the HTTP server's I/O threads). A hint,
  // updated as the condition changes; false when the backend never stalls.
  virtual bool WritesStalled() const { return false; }
};

Result<std::unique_ptr<Engine>> OpenRocksDbEngine(const EngineOptions& options);
std::unique_ptr<Engine> NewMemoryEngine();

// Log rounds (see the contract above; implemented in write_rounds.cc).
// Makes the calling thread a round thread. There is no way back.
void DeferLogWrites();
// Writes out every log record the calling thread's commits left buffered since the last call;
// only after it returned OK may the thread acknowledge those commits.
[[nodiscard]] Status WriteOutDeferredLogs();

}  // namespace monotable::engine
