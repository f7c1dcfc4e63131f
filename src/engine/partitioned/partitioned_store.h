// Partitioned test engine: a PartitionStore that keeps every partition apart, as a distributed
// store does (one object per partition), and can stop "the process" between any two partition
// writes. It proves that nothing above the engine relies on atomicity across partitions.
//
// Contract (beyond engine.h):
// - State lives in a PartitionedState shared by the stores opened on it: what a crash leaves
//   behind. Each partition has its own mutex; a partition's commit is atomic and nothing else is.
//   The directory of partitions is a map per keyspace in partition-id (hash) order. A partition
//   keeps its items, its prepare markers, its change log and the entries of keyspaces colocated
//   with its keyspace (engine.h; one map per colocated keyspace) under its mutex: a commit's
//   local_mutations are applied with its item mutations, as one partition write, so a crash never
//   separates them. Reads of a colocated keyspace go to its home's partitions; dropping the home
//   keyspace drops them.
// - Reads copy what they visit out of the partition under its lock and visit the copy, so each
//   read sees one consistent view of its partition and a visitor may call back into the store.
// - Partition writes (a Commit that is not refused by its guards, a TrimLog that removes records,
//   a DropKeyspace) are counted. CrashAfter(n, point) arms a crash at write n + 1 (counting from
//   the arming): with kBeforeWrite it is not applied; with kAfterWrite it is applied but its
//   caller gets the failure (the acknowledgment is lost). From the crash on, every call of every
//   store opened before it fails with kIo "simulated crash" and applies nothing, as if the process
//   had stopped. Restart() ends the crash: stores opened afterwards see exactly what was applied.
// - Nothing is persisted beyond the state object; ReadToken is not used (guards always re-read).
#pragma once

#include <cstdint>
#include <memory>

#include "engine/engine.h"

namespace monotable::engine {

class PartitionedState;

enum class CrashPoint { kBeforeWrite, kAfterWrite };

std::shared_ptr<PartitionedState> NewPartitionedState();
std::unique_ptr<PartitionStore> OpenPartitionedStore(std::shared_ptr<PartitionedState> state);

// Fault injection (see the contract).
void CrashAfter(PartitionedState& state, uint64_t writes, CrashPoint point = CrashPoint::kBeforeWrite);
void Restart(PartitionedState& state);  // disarms, ends a crash, starts a new generation of stores
bool Crashed(const PartitionedState& state);
uint64_t PartitionWrites(const PartitionedState& state);  // writes applied since the state was made
size_t PartitionCount(const PartitionedState& state, uint32_t keyspace);

}  // namespace monotable::engine
