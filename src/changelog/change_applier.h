// ChangeApplier: derives what hangs off an item change (GSI and LSI entries, the expiry-index
// entry, the stream record) and applies it, from the item's partition change log.
//
// Contract:
// - AppendDerived() is the derivation, used by every path: the index-entry and expiry-index
//   mutations that turn the old image into the new one (index_entries.h, ttl_index.h), then the
//   change's extra writes (an embedded engine's stream record, PITR history), all as full keys with their sort offsets.
// - On a store that AppliesDerivedInCommit() (the embedded engines) the write path does not log:
//   it commits the item, its guards and AppendDerived()'s mutations in ONE CommitWithDerived
//   (engine.h): the derived state is visible when the write returns and no applier runs.
// - On any other store, CommitLogged() commits the item partition's write with EncodeItemChange()
//   appended to that partition's log (one partition commit), then Drain()s the partition: under
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
  Status Recover(const std::vector<uint32_t>& table_keyspaces);

 private:
  Status Apply(engine::PartitionRef partition, uint64_t position, std::string_view record);
  std::mutex& LockOf(engine::PartitionRef partition);

  engine::PartitionStore& store_;
  TableResolver tables_;
  std::array<std::mutex, 64> locks_;
};

}  // namespace monotable::changelog
