// Engine: the storage contract every backend keeps (RocksDB, in-memory, the partitioned test
// engine, later Ceph RADOS), in (keyspace, partition, sort key) terms. Part 1 below is the contract
// of PartitionStore, the interface the layers above the engine are written against; part 2 is the
// ordered byte-key Engine the embedded backends (memory, RocksDB) implement underneath it
// (engine/ordered_store.h adapts one to the other).
//
// Part 1: PartitionStore (what a distributed store can keep).
// - Addresses. A key is (keyspace u32, partition id, sort key). A partition id is an opaque byte
//   string that starts with the partition's 64-bit hash (big-endian), so ordering partition ids
//   bytewise is hash order; within one keyspace no partition id is a prefix of another (the table
//   layer's ids, [hash u64][key component], are self-delimiting). Sort keys are ordered bytewise
//   inside their partition. Keyspaces >= kReservedKeyspaces are the engine's own.
// - The unit of atomicity is ONE partition. Commit(partition, write) checks every guard against
//   the partition's latest state (the current value equals `expected`; nullopt: absent), applies
//   every mutation and appends every `log` record to that partition's change log, all as one unit,
//   or does nothing and answers kGuardFailed. It is serialized against every other Commit and
//   TrimLog of the same partition; commits of different partitions never wait for one another,
//   and nothing is atomic across partitions: a caller that writes two partitions writes them one
//   after the other and must survive stopping between the two (recovery from the change log, or
//   the transaction ledger of src/txn). OK means durable as the backend defines it (log rounds
//   below for the embedded engines).
// - The change log of a partition: records appended by commits, numbered 1, 2, 3... per
//   partition in commit order, never reused, even after trimming. ReadLog() returns records after
//   a position in order; TrimLog(through) drops records <= through (the position, i.e. the next
//   number, survives). ScanLogs() walks every partition of a keyspace that holds untrimmed records
//   (recovery of appliers); only partitions with records cost anything.
// - Reads. Get() reads one sort key; ReadRange() visits the sort keys of one partition in
//   [lower, upper) (empty upper: to the partition's end), forward or backward, from a consistent
//   view of that partition, until the visitor returns false. There is no snapshot across
//   partitions.
// - The partition directory. ScanKeyspace() visits the items of a keyspace partition by partition
//   in hash order (each partition whole and in sort order, each from a consistent view of that
//   partition; no view across partitions), reporting the key as partition id + sort key
//   concatenated (unambiguous because ids are prefix-free) and starting at the first such key
//   >= `lower`, stopping before `upper` (empty: the keyspace's end). A store without ordered
//   listing serves it from its directory of partitions; parallel Scan segments are hash ranges.
// - ApproximateBytes() estimates a partition's stored size (LSI item collections; no item need be
//   read). DropKeyspace() removes every item and log record of a keyspace; it is not serialized against
//   concurrent commits to it (the table layer keeps writes out of a keyspace it drops).
// - Derived writes (GSI, LSI, expiry and stream entries: src/changelog). A store that
//   AppliesDerivedInCommit() (the embedded engines) also offers CommitWithDerived(): one atomic
//   unit over keys of any partitions, given as full keys [keyspace u32][partition id][sort key]
//   (guards included); the write path then commits an item write and everything derived from it
//   in that one unit and appends no log record. Other stores refuse it (kInternal): their writes
//   log the change in the item's partition and appliers derive the rest from the log (GSI,
//   expiry and stream entries); an item's LSI entries are colocated with it (below) and written
//   by the item's own partition commit on every store.
// - Colocated keyspaces (an LSI's entries live with their item's partition: issue #45). A keyspace
//   may be colocated with a home keyspace: its partition X is part of the unit of the home's
//   partition X (same id). It is written only through a Commit on the home partition, whose
//   `local_mutations` (keyspace + sort key + value) are applied in the same atomic unit as the
//   commit's other mutations (they take no guards, markers or log records of their own). It is read
//   with the home named: PartitionRef{keyspace, id, home} for Get, ReadRange and ApproximateBytes
//   (that keyspace's entries only) and KeyspaceRef{keyspace, home} for ScanKeyspace (the home's
//   partitions, in hash order). Commit, markers and logs are never addressed to a colocated
//   keyspace. DropKeyspace(home) removes its colocated entries; the caller also drops each
//   colocated keyspace (a store that keeps them apart, as the ordered layout does, needs it; on
//   others it finds nothing). A store may keep colocated entries in a keyspace of their own
//   (ordered layout: [keyspace][id][sort key], exactly as before) as long as the home partition's
//   commit writes them in its atomic unit; CommitWithDerived's full keys address them the same way.
// - Prepare markers. Each partition also holds a side space of markers keyed by sort key (the
//   transaction coordinator of src/txn marks an item it has prepared with its transaction id under
//   the item's own sort key). Markers are invisible to Get, ReadRange, ScanKeyspace and
//   ApproximateBytes; GetMarker() reads one. A Commit's `marker_guards` are checked with its item
//   guards and its `marker_mutations` applied with its item mutations, in the same atomic unit
//   (kGuardFailed when any guard of either kind does not hold). DropKeyspace() removes the
//   keyspace's markers too; markers are durable like items.
// - Visitors receive views valid only during the call. All methods are thread-safe. Backend
//   failures surface as kIo / kCorruption; kGuardFailed is the only retryable answer.
//
// Part 2: the ordered byte-key Engine of the embedded backends.
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
#include <functional>
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

// ---- Part 1: PartitionStore ----

// Keyspaces from here up are the engine's own (an ordered backend keeps change logs and markers
// there; the transaction ledger of src/txn has one).
constexpr uint32_t kReservedKeyspaces = 0xFFFFFF00u;

// The `home` of a keyspace that is not colocated with another (see the contract).
constexpr uint32_t kNotColocated = 0xFFFFFFFFu;

// One partition: a keyspace and a partition id (see the contract); `home`: the home keyspace when
// `keyspace` is colocated with one. Views: the caller keeps the bytes.
struct PartitionRef {
  uint32_t keyspace = 0;
  std::string_view id;
  uint32_t home = kNotColocated;
};

// A keyspace for ScanKeyspace, with its home when it is colocated (implicitly from a plain keyspace).
struct KeyspaceRef {
  KeyspaceRef(uint32_t keyspace, uint32_t home = kNotColocated) : keyspace(keyspace), home(home) {}  // NOLINT
  uint32_t keyspace;
  uint32_t home;
  bool colocated() const { return home != kNotColocated; }
};

// A mutation of a colocated keyspace's entry in the committed partition's unit (same partition id).
struct LocalMutation {
  uint32_t keyspace = 0;
  std::string key;                   // sort key
  std::optional<std::string> value;  // nullopt: delete
};

struct PartitionWrite {
  std::vector<Guard> guards;        // keys are sort keys of the partition
  std::vector<Mutation> mutations;  // keys are sort keys of the partition
  std::vector<std::string> log;     // appended to the partition's change log, in order
  std::vector<Guard> marker_guards;        // on the partition's markers (keys are sort keys)
  std::vector<Mutation> marker_mutations;  // on the partition's markers (keys are sort keys)
  std::vector<LocalMutation> local_mutations;  // on keyspaces colocated with this partition's keyspace
};

// What a successful Commit() assigned: the number of the first record of `log` (the others
// follow consecutively); 0 when the write appended none.
struct CommitOutcome {
  uint64_t first_log_position = 0;
};

// Bounds of a ReadRange: sort keys in [lower, upper); an empty `upper` is the partition's end.
struct SortRange {
  std::string_view lower;
  std::string_view upper;
  bool forward = true;
};

// Visitors answer false to stop. Views are valid only during the call.
using EntryVisitor = std::function<bool(std::string_view key, std::string_view value)>;
using LogVisitor = std::function<bool(uint64_t position, std::string_view record)>;
using LoggedPartitionVisitor = std::function<bool(std::string_view partition_id, uint64_t first_position)>;

class PartitionStore {
 public:
  virtual ~PartitionStore() = default;

  virtual Result<std::optional<std::string>> Get(PartitionRef partition, std::string_view sort_key) = 0;
  [[nodiscard]] virtual Status ReadRange(PartitionRef partition, const SortRange& range,
                                         const EntryVisitor& visit) = 0;
  // kGuardFailed when a guard does not hold (nothing applied, nothing appended). The write is
  // taken by value so a backend may re-key it in place (callers move it in).
  virtual Result<CommitOutcome> Commit(PartitionRef partition, PartitionWrite write) = 0;
  // The prepare marker kept under `sort_key` in the partition (see the contract); nullopt: none.
  virtual Result<std::optional<std::string>> GetMarker(PartitionRef partition, std::string_view sort_key) = 0;
  // A token for a guard's read_token (taken before reading its expected value); 0: none.
  virtual uint64_t ReadToken(PartitionRef partition, std::string_view sort_key) { return 0; }

  // The directory walk: items of `keyspace` with partition id + sort key in [lower, upper).
  [[nodiscard]] virtual Status ScanKeyspace(KeyspaceRef keyspace, std::string_view lower, std::string_view upper,
                                            const EntryVisitor& visit) = 0;

  [[nodiscard]] virtual Status ReadLog(PartitionRef partition, uint64_t after, const LogVisitor& visit) = 0;
  [[nodiscard]] virtual Status TrimLog(PartitionRef partition, uint64_t through) = 0;
  // Partitions of `keyspace` holding untrimmed log records, with their first record's position.
  [[nodiscard]] virtual Status ScanLogs(uint32_t keyspace, const LoggedPartitionVisitor& visit) = 0;

  // Derived writes (see the contract): whether CommitWithDerived() is offered, and the commit.
  virtual bool AppliesDerivedInCommit() const { return false; }
  [[nodiscard]] virtual Status CommitWithDerived(const WriteBatch& batch) {
    return Status(ErrorCode::kInternal, Name() + ": no commit across partitions");
  }

  [[nodiscard]] virtual Status DropKeyspace(uint32_t keyspace) = 0;
  // Approximate bytes a partition's items take (sizes the API reports only as estimates).
  virtual uint64_t ApproximateBytes(PartitionRef partition) = 0;
  virtual std::string Name() const = 0;
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
