// Memory engine: an in-process MVCC ordered map implementing engine::Engine (tests, ephemeral
// servers).
//
// Contract (beyond engine.h):
// - Each key holds a list of (sequence, optional value) versions. All mutations of one commit get
//   the same sequence and are published together under an exclusive lock, so readers never see
//   part of a batch. A snapshot is a registered sequence number.
// - Versions no live snapshot can see are pruned when their key is written (plus a small amount
//   of background-free catch-up work per commit), so memory follows the live data.
// - Iterators hold no lock between calls: each step re-finds its position from the current key,
//   so a thread holding an iterator may Commit. An iterator without an explicit snapshot takes one
//   at creation (same as RocksDB's implicit iterator snapshot).
// - Nothing is persisted; EngineOptions are ignored.
#pragma once

#include <memory>

#include "engine/engine.h"

namespace monotable::engine {

std::unique_ptr<Engine> NewMemoryEngine();

}  // namespace monotable::engine
