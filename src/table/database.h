// Database: the in-process C++ API of monotable (libmonotable). The HTTP server is a thin
// front end over it; tools and tests may use it directly.
//
// Contract:
// - Open() opens the engine (RocksDB under `path`, memory, or the partitioned test engine) and
//   loads the catalog; OpenOnStore() does the same over any PartitionStore (Ceph RADOS).
// - Every item write goes through Write(): a read-modify-write of one item. The `apply`
//   callback sees the current item (nullptr when absent) and returns the new item (nullopt to
//   delete it) or a Status to refuse (e.g. ConditionalCheckFailed). It must have no side effects:
//   if another writer changes the item between the read and the commit, the commit's guard fails
//   and Write() calls `apply` again on the newer item (see Storage below for what commits with it).
// - Destroying the Database is a clean shutdown: no request may still be using it.
// - Reads (GetItem) are served from the latest committed state; every committed write is visible
//   to every later read, so eventually and strongly consistent reads behave alike here.
//
// Storage: every read and write goes through the partition contract (store(), engine.h part 1).
// Two write paths, chosen by the store (ItemCommitter::logged()):
// - Embedded stores (memory, RocksDB) apply derived writes in the commit: an item write (single,
//   batch, transaction) commits the item with everything derived from it (GSI/LSI and expiry
//   entries, stream records: changelog::AppendDerived) in one PartitionStore::CommitWithDerived.
// - Other stores (the partitioned test engine, Ceph RADOS) take the logged path: one partition
//   commit per item with its change logged, then the change-log applier (table/item_commit.h);
//   transactions of several items go through the coordinator and ledger of src/txn. Open()
//   re-applies untrimmed change logs and recovers in-doubt transactions; the background loop
//   refreshes the catalog (other servers' DDL) and recovers transactions stale for 5 s.
// engine() (the ordered engine under an embedded store) serves what only an embedded engine
// offers: read tokens on the embedded write path, TransactGetItems' snapshot, the statistics walk's
// snapshot and write-stall detection. Over a store alone has_engine() is false and each of those
// takes its partition-contract way (markers, per-partition views) or does without.
//
// Per-server state (held in this process, not in the engine; what a shared engine must replace or
// invalidate):
// - Catalog: the published table map (a cache of the records in the system key space, refreshed
//   from the store on a miss and every background period on a shared store) and each table's live
//   statistics (item count, bytes: counters of this process's writes, saved at a clean shutdown).
// - StreamCatalog: the streams' metadata (a cache of the records in the system key space, created
//   once and followed through the catalog's refresh); on an embedded engine, each stream's
//   sequence allocator. On a shared store stream records are numbered in the store's shards by the
//   change applier (changelog/stream_append.h), shared by every server.
// - Throughput: the simulated capacity buckets (per table / index / partition): local by design.
// - IdempotencyCache (txn): running tokens and a cache of finished ones, in front of the store's
//   token records; the in-progress check is local. On the logged path the token also names the
//   transaction's ledger record, which any server finds.
// - TtlWorker: on a shared store, only the server holding the "ttl" lease (table/lease.h, kept in
//   the store) runs the passes; a stopped holder is replaced within 10 s.
// - IndexBuilder: background jobs of this process; every server that sees a backfilling index
//   runs its backfill (its writes are guarded: duplicated work, not duplicated effects).
// - TableGate: a table's drop lock, local to the process (another server's drop is seen by the
//   catalog refresh, which closes the gate).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "engine/engine.h"
#include "model/attribute_value.h"
#include "changelog/index_entries.h"
#include "table/catalog.h"
#include "table/throughput.h"
#include "table/index_builder.h"
#include "table/item_commit.h"
#include "table/lease.h"
#include "table/stream_catalog.h"
#include "table/ttl_worker.h"

namespace monotable::table {

struct DatabaseOptions {
  std::string path;        // RocksDB data directory
  bool in_memory = false;  // use the memory engine instead
  // With in_memory: the partitioned test engine (engine/partitioned) instead of the memory engine,
  // so every item write takes the logged path (tests of the distributed storage contract).
  bool partitioned_test_engine = false;
  bool sync = false;       // fsync the WAL before acknowledging a write
  bool simulate_throughput = false;  // throttle PROVISIONED tables as AWS would
  double burst_seconds = Throughput::kDefaultBurstSeconds;  // unused capacity a simulated bucket keeps
  int64_t ttl_period_ms = 1000;         // how often the TTL worker looks for expired items
  int64_t ttl_change_interval_ms = 0;   // UpdateTimeToLive refuses a change this soon after the last (AWS: 1 h)
  // RocksDB's knobs (engine::EngineOptions; the same small-machine defaults).
  size_t block_cache_bytes = engine::EngineOptions{}.block_cache_bytes;
  size_t write_buffer_bytes = engine::EngineOptions{}.write_buffer_bytes;
  int background_jobs = engine::EngineOptions{}.background_jobs;
  std::string wal_dir;
};

struct WriteResult {
  std::optional<Item> old_item;  // the item before the write, if it existed
  std::optional<Item> new_item;  // the item after the write, if it exists
  std::vector<IndexWriteCost> index_costs;  // indexes the write touched (no entry: costs nothing)
};

using ApplyFn = std::function<Result<std::optional<Item>>(const Item* existing)>;
// The size of the item a write would have written had its condition held (0: none, e.g. a
// delete), given the item it found: a failed conditional write is charged as a write of the larger
// of that and the existing item, as AWS charges it.
using AttemptedSizeFn = std::function<size_t(const Item* existing)>;

class Database {
 public:
  static Result<std::unique_ptr<Database>> Open(const DatabaseOptions& options);
  // `clock` (epoch milliseconds) drives stream records, retention and TTL; tests may fake it.
  explicit Database(std::unique_ptr<engine::Engine> engine, Clock clock = SystemNowMs);
  // Over a partition store alone (the partitioned test engine, Ceph RADOS): item writes take the
  // logged path (ItemCommitter); engine() is unavailable (has_engine() false).
  explicit Database(std::unique_ptr<engine::PartitionStore> store, Clock clock = SystemNowMs);
  // Opens over `store` as Open() does over an engine (catalog, change-log recovery, streams, jobs).
  static Result<std::unique_ptr<Database>> OpenOnStore(std::unique_ptr<engine::PartitionStore> store,
                                                       const DatabaseOptions& options);
  // Stops the background loop, then saves the tables' statistics for the next Open (a clean
  // shutdown; the caller has stopped serving requests).
  ~Database();

  Catalog& catalog() { return catalog_; }
  Throughput& throughput() { return throughput_; }
  IndexBuilder& index_builder() { return index_builder_; }
  StreamCatalog& streams() { return streams_; }
  TtlWorker& ttl() { return ttl_; }
  const DatabaseOptions& options() const { return options_; }
  // The ordered engine under the store, when there is one (the embedded engines): backups, PITR and
  // exports still read its snapshots.
  bool has_engine() const { return engine_ != nullptr; }
  engine::Engine& engine() { return *engine_; }
  // The partition-scoped interface of the same engine (engine.h, part 1): what reads and writes
  // are being moved onto (issue #45); Query and Scan already go through it.
  engine::PartitionStore& store() { return *store_; }
  ItemCommitter& committer() { return committer_; }

  // The table, or ResourceNotFoundException "Requested resource not found".
  // On a shared store (ItemCommitter::logged()) a miss refreshes the catalog first.
  Result<std::shared_ptr<const TableHandle>> Table(std::string_view name);

  // `key` must already be validated against the table's key schema (ValidateKey).
  Result<std::optional<Item>> GetItem(const TableHandle& table, const Item& key);
  // The item as stored (model/item_codec.h encoding), for writing it out without decoding it.
  Result<std::optional<std::string>> GetRecord(const TableHandle& table, const Item& key);
  Result<WriteResult> Write(const TableHandle& table, const Item& key, const ApplyFn& apply,
                            const AttemptedSizeFn& attempted_size = nullptr);

  // Re-applies every change-log record left untrimmed in the tables' partitions (a stop between an
  // item commit and its derived writes; changelog/change_applier.h). Open() runs it before the
  // streams are loaded and any write is taken. The embedded engines apply derived writes in the
  // item's commit and log nothing, so there it finds nothing.
  Status RecoverChangeLogs();

 private:
  // Both public constructors: an ordered engine (the store adapts it) or a store alone.
  Database(std::unique_ptr<engine::Engine> engine, std::unique_ptr<engine::PartitionStore> store, Clock clock);
  // What Open() does after constructing: options, catalog, recovery, streams, background jobs.
  Status Start(const DatabaseOptions& options);
  // The background loop: a TTL pass every ttl_period_ms, stream trimming every minute.
  void RunBackground(std::stop_token stop);

  DatabaseOptions options_;
  std::unique_ptr<engine::Engine> engine_;
  std::unique_ptr<engine::PartitionStore> store_;
  Throughput throughput_;
  Catalog catalog_;
  ItemCommitter committer_;
  StreamCatalog streams_;
  IndexBuilder index_builder_{*store_, committer_, catalog_};  // destroyed early: stops background builds
  TtlWorker ttl_;
  // On a shared store one server at a time runs the TTL passes (renewed every background period).
  Lease ttl_lease_;
  std::jthread background_;  // destroyed first
};

}  // namespace monotable::table
