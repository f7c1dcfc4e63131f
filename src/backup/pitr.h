// PitrLog: point-in-time recovery. While a table has it enabled, every change to one of its
// items also records the item as it was before the change (an undo record) in the table's history
// keyspace, with the change (a table::ChangeHook): in the same CommitWithDerived batch on the
// embedded engines; on a logged store as a mutation of the change's record (ItemChange::extra),
// which the applier writes before the item write returns.
//
// History layout: partition "" of keyspace history_prefix, sort key [time ms u64 BE][sequence u64
// BE] (engine key [history_prefix][time][sequence] on the ordered engines) ->
//   [u32 BE length][the item's key without the table prefix][0 | 1 + the old item (item codec)]
// Times never decrease (a clock stepping back is held at the last time handed out), so for any
// one item its records are in commit order.
//
// Contract:
// - The table's state at time T (ForEachItemAt): the table is read (ScanKeyspace, consistent per
//   partition), then the history after T; every item read, except that an item changed after T
//   takes the old image of its first record after T (absent: it did not exist at T). Reading the
//   history after the items makes this exact for every write acknowledged before the call; a
//   write in flight meanwhile may be seen half (there is no snapshot across partitions). T must
//   lie in [Earliest, Latest] (the caller checks). The reads happen when the job runs: a source
//   dropped before then reads as empty (the caller reads before dropping). The table's items are
//   held in memory for the call (the history is read after them).
// - Earliest(r) = max(the time PITR was enabled, now - recovery period); Latest = now.
// - Enable() allocates a fresh history key space (re-enabling after a Disable starts a new
//   window); Disable() forgets the window and drops the history. Records persist in the system
//   key space (records.h) and are reloaded by Load().
// - Trim() deletes history older than each table's window and forgets tables that no longer
//   exist (a dropped table's history is dropped with it).
// - Thread-safe. Capture() costs one atomic load when no table has PITR enabled.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "backup/records.h"
#include "engine/engine.h"
#include "table/catalog.h"
#include "table/change_log.h"

namespace monotable::backup {

class PitrLog : public table::ChangeHook {
 public:
  PitrLog(engine::PartitionStore& store, table::Catalog& catalog, table::Clock clock)
      : store_(store), catalog_(catalog), clock_(std::move(clock)) {}

  Status Load();

  Append Capture(const TableDescription& table, const Item* old_item, const Item* new_item) override;

  // The table's PITR record while it is enabled (the same table: prefix and id).
  std::optional<PitrRecord> Find(const TableDescription& table) const;
  Result<PitrRecord> Enable(const TableDescription& table, int64_t recovery_days);
  Status Disable(const TableDescription& table);

  int64_t NowMs() const { return clock_(); }
  int64_t Earliest(const PitrRecord& r) const;

  // Calls `fn` with every item (item codec bytes) the table held at `at_ms`, in no particular order.
  Status ForEachItemAt(const TableDescription& table, const PitrRecord& r, int64_t at_ms,
                       const std::function<Status(std::string_view record)>& fn);

  // The items changed in [from_ms, to_ms), each once: its image just before from_ms and just before
  // to_ms (nullopt: absent then; both absent: left out) and the time of its last change in the range.
  struct Change {
    std::optional<std::string> before, after;  // item codec bytes
    int64_t write_ms = 0;
  };
  Status ForEachChange(const TableDescription& table, const PitrRecord& r, int64_t from_ms, int64_t to_ms,
                       const std::function<Status(const Change&)>& fn);

  Status Trim();

 private:
  using Map = std::map<uint32_t, PitrRecord>;  // by table prefix
  void Publish(Map map);                       // under mu_
  int64_t NextTime();
  Status DropHistory(const PitrRecord& r);
  // Deletes the history records whose sort key is < `before`.
  Status TrimHistory(const PitrRecord& r, const std::string& before);

  engine::PartitionStore& store_;
  table::Catalog& catalog_;
  table::Clock clock_;
  std::mutex mu_;  // serializes changes
  Map records_;    // under mu_
  std::atomic<std::shared_ptr<const Map>> published_{std::make_shared<const Map>()};
  std::atomic<size_t> enabled_count_{0};
  std::atomic<int64_t> last_time_{0};
  std::atomic<uint64_t> sequence_{0};
};

}  // namespace monotable::backup
