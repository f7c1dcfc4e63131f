// ChangeApplier: derives what hangs off an item change (GSI entries, the expiry-index entry, the
// stream record) and applies it, from the item's partition change log. LSI entries are not
// derived here on the logged path: they live with the item's partition (colocated keyspaces,
// engine.h) and are written by the item's own partition commit (AppendLocalIndexWrites).
//
// Contract:
// - AppendDerived() is the derivation, used by every path: the index-entry and expiry-index
//   mutations that turn the old image into the new one (index_entries.h, ttl_index.h; the indexes
//   of `scope`), then the change's extra writes (an embedded engine's stream record, PITR
//   history), all as full keys with their sort offsets.
// - On a store that AppliesDerivedInCommit() (the embedded engines) the write path does not log:
//   it commits the item, its guards and AppendDerived()'s mutations (every index) in ONE
//   CommitWithDerived (engine.h): the derived state is visible when the write returns and no
//   applier runs.
// - On any other store, the item partition's write carries the change's LSI entry mutations as
//   local_mutations (AppendLocalIndexWrites: one partition commit with the item, so an LSI entry
//   never exists without its item nor misses for it, whatever stops when). CommitLogged() commits
//   that write with EncodeItemChange() appended to the partition's log, then Drain()s the
//   partition (GSI, expiry and stream writes only: AppendDerived with IndexScope::kGlobal): under
//   the partition's lock (a striped mutex array), it reads the untrimmed records in order, commits
//   each record's derived writes partition by partition, then its stream records (ItemChange::
//   stream: AppendStreamPart numbers each in its stream's shard, once per (partition, position),
//   stream_append.h), and TrimLog()s through the last record applied. Every other derived write
//   is a put or delete of a key fixed by the record, so re-applying an untrimmed suffix of the
//   log, in order, by this server or another one draining the same partition at the same time,
//   leaves exactly the state of applying it once. A write is acknowledged
//   (OK) only once its own record was applied; an error after the partition commit means the
//   acknowledgment is lost, not the write.
// - Recover() drains every partition of the given table keyspaces that holds untrimmed records
//   (ScanLogs): run at open, before writes, so a stop between an item commit and its derived
//   writes leaves no GSI/stream/TTL gap and no GSI entry without its item.
// - A record of a table the resolver no longer knows (dropped) is trimmed without applying.
// - Thread-safe; the store and the resolver must outlive the applier.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "changelog/index_entries.h"
#include "changelog/item_change.h"
#include "engine/engine.h"
#include "model/table_description.h"

namespace monotable::changelog {

// The table whose items live in `keyspace`, or null when there is none (dropped).
using TableResolver = std::function<std::shared_ptr<const TableDescription>(uint32_t keyspace)>;

// Appends `change`'s derived mutations to `batch` (full keys); `sort_offsets`, when given,
// receives each one's sort offset. Returns what each touched index arm costs.
std::vector<table::IndexWriteCost> AppendDerived(const TableDescription& table, const Item* old_item,
                                                 const Item* new_item, const std::vector<AddressedMutation>& extra,
                                                 engine::WriteBatch& batch,
                                                 std::vector<uint32_t>* sort_offsets = nullptr,
                                                 const std::string* encoded_new_item = nullptr,
                                                 table::IndexScope scope = table::IndexScope::kAll);

// Appends to `write` (a commit of the item's partition `partition_id` in the table's keyspace) the
// local_mutations that turn the item's LSI entries from `old_item`'s into `new_item`'s (either may
// be null); `encoded_new_item` as AppendDerived's. kInternal when an entry is not in that partition.
Status AppendLocalIndexWrites(const TableDescription& table, std::string_view partition_id, const Item* old_item,
                              const Item* new_item, engine::PartitionWrite& write,
                              const std::string* encoded_new_item = nullptr);

class ChangeApplier {
 public:
  ChangeApplier(engine::PartitionStore& store, TableResolver tables)
      : store_(store), tables_(std::move(tables)) {}
  ChangeApplier(const ChangeApplier&) = delete;
  ChangeApplier& operator=(const ChangeApplier&) = delete;

  // Commits `write` (the item partition's guards and mutations) with `change` logged, then
  // drains the partition. kGuardFailed: nothing written.
  Status CommitLogged(engine::PartitionRef partition, engine::PartitionWrite write, const ItemChange& change);
  Status Drain(engine::PartitionRef partition);
  // Adds to `write` the LSI entry writes of the logged change `record` (EncodeItemChange) of an item
  // in `partition` (AppendLocalIndexWrites; nothing for a table the resolver no longer knows).
  Status AddLocalIndexWrites(engine::PartitionRef partition, std::string_view record, engine::PartitionWrite& write);
  Status Recover(const std::vector<uint32_t>& table_keyspaces);

 private:
  Status Apply(engine::PartitionRef partition, uint64_t position, std::string_view record);
  std::mutex& LockOf(engine::PartitionRef partition);

  engine::PartitionStore& store_;
  TableResolver tables_;
  std::array<std::mutex, 64> locks_;
};

}  // namespace monotable::changelog
