// OrderedStore: the PartitionStore contract (engine.h, part 1) kept by an ordered byte-key Engine
// (part 2): how the memory and RocksDB backends serve the partition interface.
//
// Layout (the items' layout is the one the table layer has always used, so data written before
// the adapter existed reads back unchanged):
//   item        [keyspace u32][partition id][sort key]                -> value
//   log record  [0xFFFFFFFF u32][keyspace u32][partition id][pos u64]  -> record
//   log head    [0xFFFFFFFE u32][keyspace u32][partition id]           -> next position (u64)
//   marker      [0xFFFFFFFD u32][keyspace u32][partition id][sort key] -> marker value
// all big-endian. One partition's items are one contiguous range, partitions follow hash order.
//
// Contract (beyond engine.h):
// - A commit is ONE engine batch, so it is atomic on the embedded engines whatever it holds. A
//   commit without log records takes no lock of its own and costs what the engine's Commit costs
//   (plus prefixing the keys it was handed, in place); a commit with log records also holds the
//   partition's stripe of a small mutex array while it reads the head and commits, which orders
//   the positions of one partition.
// - Colocated keyspaces (engine.h) keep the item layout of a keyspace of their own: a commit's
//   local_mutations are items [keyspace][partition id][sort key] in the same engine batch, and
//   reads ignore PartitionRef::home / KeyspaceRef::home.
// - AppliesDerivedInCommit(): CommitWithDerived(batch) is the engine's Commit(batch), the full
//   keys being the engine's keys: an item write and its derived writes are one engine batch.
// - The adapter does not own the engine; it must outlive the adapter.
#pragma once

#include <memory>

#include "engine/engine.h"

namespace monotable::engine {

std::unique_ptr<PartitionStore> NewOrderedStore(Engine& engine);

// Keyspaces the ordered layout uses for change logs and prepare markers.
constexpr uint32_t kLogRecordKeyspace = 0xFFFFFFFFu;
constexpr uint32_t kLogHeadKeyspace = 0xFFFFFFFEu;
constexpr uint32_t kMarkerKeyspace = 0xFFFFFFFDu;

}  // namespace monotable::engine
