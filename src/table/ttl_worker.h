// TtlWorker: deletes expired items, and keeps each table's expiry index in step with its TTL
// setting.
//
// Contract:
// - RunOnce() reads, for every table with TTL enabled, the expiry index up to now (entries older
//   than five years are never visited) and deletes each item whose TTL attribute is still a
//   top-level Number due for expiry. Each deletion is one commit guarded by the item's
//   current value (with its derived writes, or logged: table/item_commit.h) (so a concurrent write that extends or removes the TTL wins; the worker then
//   re-reads the item), removes the item's secondary-index and expiry entries, and records a
//   REMOVE change with the service identity. Deletions consume no capacity.
// - Enable()/Disable() change TimeToLiveSettings through Catalog::Modify.
// - StartBackfill(): after TTL was enabled, indexes the items written before, in the background,
//   once no request still holds the table's previous description; each entry is committed
//   guarded by its item's value. Clears TimeToLiveSettings::backfilling when done.
// - StartDrop(): after TTL was disabled, drops the old expiry index once no request can still
//   write to it. Resume() restarts backfills a shutdown interrupted.
// - The destructor stops and joins background jobs.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/engine.h"
#include "table/catalog.h"
#include "table/item_commit.h"
#include "table/stream_catalog.h"

namespace monotable::table {

class TtlWorker {
 public:
  TtlWorker(engine::PartitionStore& store, ItemCommitter& committer, Catalog& catalog, StreamCatalog& streams,
            Clock clock = SystemNowMs)
      : store_(store), committer_(committer), catalog_(catalog), streams_(streams), clock_(std::move(clock)) {}
  ~TtlWorker();

  Result<size_t> RunOnce();

  // UpdateTimeToLive's state changes, checked against the current setting atomically (with
  // DynamoDB's messages): enabling assigns a fresh expiry index and starts its backfill;
  // disabling starts dropping it. A change less than `min_interval_ms` after the previous one
  // is refused.
  Status Enable(std::string_view table_name, const std::string& attribute, int64_t min_interval_ms);
  Status Disable(std::string_view table_name, const std::string& attribute, int64_t min_interval_ms);

  void StartBackfill(std::string table_name, std::weak_ptr<const TableHandle> previous);
  void StartDrop(uint32_t key_prefix, std::weak_ptr<const TableHandle> previous);
  void Resume();
  void WaitIdle();  // tests

 private:
  Result<size_t> ExpireTable(const TableHandle& handle, double now_seconds);
  // Deletes the entry's item if it is still due; false when it was not (the entry may be dropped).
  Result<bool> ExpireEntry(const TableHandle& handle, const std::string& entry, double now_seconds);
  Status Backfill(std::stop_token stop, const std::string& table_name);
  // Indexes one item (engine key, stored value) in the expiry index, guarded by its value.
  Status BackfillItem(const TableDescription& table, const std::string& key, std::string value);

  engine::PartitionStore& store_;
  ItemCommitter& committer_;
  Catalog& catalog_;
  StreamCatalog& streams_;
  Clock clock_;
  std::mutex mutex_;
  std::vector<std::jthread> jobs_;
};

}  // namespace monotable::table
