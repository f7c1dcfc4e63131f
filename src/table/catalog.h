// Catalog: the set of tables, persisted in the engine's system key space.
//
// Contract:
// - Readers (every data-plane request) get an immutable snapshot of a table's description
//   without taking any lock: the catalog publishes a new immutable map on every change
//   (copy-on-write) and bumps a generation number; each thread keeps its own copy of the map of the
//   generation it last saw, of weak references (it keeps no handle alive: requests in flight do),
//   and takes the publication lock (shared) only to pick up a newer map, once per thread and change.
// - Every table has a TableGate, shared by all its handles (an Update keeps it): writes into the
//   table hold it shared around their engine commit and refuse to commit once it is marked
//   dropped; Drop() marks it under the exclusive lock (waiting for the commits in flight) before
//   it deletes the table's key spaces, so no write can land in a dropped table's space.
// - Create/Update/Drop are serialized among themselves (control plane) and durable when they
//   return. Create assigns the table id, creation time and fresh engine key spaces.
// - Each table carries live statistics (item count, bytes) maintained by the write path; a clean
//   shutdown saves them so that the next start need not walk every table to count its items
//   (after a crash it does, beyond the first kSynchronousCountItems items in the background).
// - Storage goes through the partition contract (engine.h): every record lives in the system
//   partition (key space 0, partition id ""), each change is one partition commit, and the table
//   record changes are ordered by the catalog version (version(); a change guarded by the version
//   it replaces fails rather than overwrite a change made by another writer sharing the engine;
//   Refresh() picks such changes up: the Database runs it every second on a shared store).
//   Dropping a table drops its key spaces (PartitionStore::DropKeyspace). The statistics walk
//   after a crash reads one engine snapshot of the table's key space when an ordered engine is
//   given (exact); over a store alone it walks the partition directory, each partition from a
//   view of its own, so writes during the background walk may be counted twice or missed
//   (approximate, as DynamoDB's own figures are).
// - Enabling a stream (a new stream label) assigns the stream a fresh key space
//   (StreamSettings::key_prefix). The change listener hears of every published change (before is
//   null for a created table, after is null for a dropped one), under the control-plane lock.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/engine.h"
#include "model/table_description.h"

namespace monotable::table {

struct TableStats {
  std::atomic<int64_t> item_count{0};
  std::atomic<int64_t> size_bytes{0};
  // False while the start's background walk of the table has not ended: the figures then hold the
  // items walked so far plus every write's change since the start (so they can even be negative).
  std::atomic<bool> counted{true};
};

struct TableGate {
  std::shared_mutex mutex;  // writes into the table: shared around their commit; Drop: exclusive
  bool dropped = false;     // under `mutex`
};

struct TableHandle {
  std::shared_ptr<const TableDescription> description;
  std::shared_ptr<TableStats> stats;
  std::shared_ptr<TableGate> gate;
};

class Catalog {
 public:
  // Over an ordered engine (an adapter of its own for the partition contract), or over the store
  // the Database serves from (`engine`: the same data's ordered engine when there is one, else null).
  explicit Catalog(engine::Engine& engine);
  Catalog(engine::Engine* engine, engine::PartitionStore& store);

  // The catalog version: bumped by every table record change (Create, Update/Modify, Drop), in
  // the same partition commit, guarded by the version it replaces. What this process last wrote
  // or loaded; 0 before the first change.
  uint64_t version() const { return version_.load(std::memory_order_acquire); }

  // At most this many items are walked by Load() itself; the rest in the background.
  static constexpr uint64_t kSynchronousCountItems = 20000;

  // Reads every table record. A table's statistics come from the record SaveStatistics() left at
  // the last clean shutdown when it holds them, else from walking the table's items as of the
  // load (the first kSynchronousCountItems of them before Load returns, the rest on a background
  // thread; writes meanwhile add their changes). The record is deleted as it is read (before any
  // other write), so it never outlives the state it describes. Call once, before serving.
  Status Load();
  // Waits until the background walk, if any, has ended (tests).
  void WaitCounted();
  // Records the statistics of every table whose walk has ended, for the next Load(), after
  // stopping a walk still running. Call only once no item write can follow (the server and the
  // TTL passes stopped): a write after it would make the record stale.
  Status SaveStatistics();

  // nullptr when there is no such table.
  std::shared_ptr<const TableHandle> Find(std::string_view name) const;
  // The description of the table whose items live in `keyspace` (key_prefix), or null. Walks the
  // published tables (change-log appliers resolve records by it).
  std::shared_ptr<const TableDescription> FindByKeyspace(uint32_t keyspace) const;
  std::vector<std::string> Names() const;  // sorted bytewise, as ListTables returns them

  Result<TableDescription> Create(TableDescription table);
  // Replaces the description of an existing table (same name, id and key prefixes). Returns the
  // handle it replaced: requests still holding it may still be writing with the old description.
  Result<std::shared_ptr<const TableHandle>> Update(const TableDescription& table);
  // Read-modify-write of an existing table's description under the control-plane lock, so
  // concurrent Modify calls never lose each other's change; a non-OK Status from `change` aborts.
  Result<std::shared_ptr<const TableHandle>> Modify(std::string_view name,
                                                    const std::function<Status(TableDescription&)>& change);
  // Picks up what another server sharing the store changed (table records and the version): when
  // the stored version differs from version(), re-reads every table record and publishes them,
  // keeping the statistics and gate of each table whose id is unchanged; a table gone or
  // replaced has its gate marked dropped. Listeners hear of each change. Returns whether
  // anything changed. Create and Drop refresh and try again when their guarded commit finds the
  // version moved; an Update then answers ResourceInUseException (retry).
  Result<bool> Refresh();
  // Allocates a fresh key space for a new global secondary index of an existing table.
  Result<uint32_t> NewKeyPrefix();
  // Marks the table dropped (its gate), then removes the table record and its item, index and
  // expiry-index key spaces; the engine gives their space back in the background.
  Result<TableDescription> Drop(std::string_view name);

  using ChangeListener = std::function<void(const TableDescription* before, const TableDescription* after)>;
  void SetChangeListener(ChangeListener listener) { listener_ = std::move(listener); }

 private:
  using TableMap = std::map<std::string, std::shared_ptr<const TableHandle>, std::less<>>;

  Status Persist(const TableDescription& table);
  // Writes (or deletes, nullopt) one record of the system partition with the version bump.
  Status CommitRecord(std::string key, std::optional<std::string> value);
  Result<std::shared_ptr<const TableHandle>> UpdateLocked(const TableDescription& table);
  Result<std::shared_ptr<const TableHandle>> UpdateOnce(const TableDescription& table);
  Result<TableDescription> CreateLocked(TableDescription table);
  Result<TableDescription> DropLocked(std::string_view name);
  Result<bool> RefreshLocked();
  void Notify(const TableDescription* before, const TableDescription* after) {
    if (listener_) listener_(before, after);
  }
  Result<uint32_t> AllocateKeyPrefixes(uint32_t count);
  void Publish(std::shared_ptr<const TableMap> tables);
  std::shared_ptr<const TableMap> Current() const {
    std::shared_lock lock(tables_mutex_);
    return tables_;
  }
  friend struct CatalogPeer;  // tests

  // Where a table's background walk resumes: [from, upper) of its key space.
  struct PendingCount {
    std::shared_ptr<TableStats> stats;
    uint32_t keyspace;
    std::string from, upper;  // engine keys; over a store alone, `from` is keyspace-relative
  };

  std::unique_ptr<engine::PartitionStore> owned_store_;  // when built over an engine alone
  engine::Engine* engine_;  // the statistics walk's snapshot (CountItems) only; null: none
  engine::PartitionStore& store_;
  std::atomic<uint64_t> version_{0};
  std::mutex control_mutex_;
  ChangeListener listener_;
  // Publish() replaces tables_ and bumps generation_ under the exclusive lock; a thread whose copy
  // (Find) is of an older generation, or of another catalog (instance_), takes the lock shared to
  // copy the map. (libstdc++'s atomic<shared_ptr> would spin on a lock bit on every lookup.)
  mutable std::shared_mutex tables_mutex_;
  std::shared_ptr<const TableMap> tables_ = std::make_shared<const TableMap>();
  std::atomic<uint64_t> generation_{1};
  const uint64_t instance_;
  std::jthread counter_;  // the start's background walk; declared last, so stopped first
};

}  // namespace monotable::table
