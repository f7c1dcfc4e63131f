// RocksDB engine: the persistent engine::Engine backend (one RocksDB instance, default column
// family, bytewise comparator).
//
// Contract (beyond engine.h):
// - OpenRocksDbEngine creates options.path (and parents) if missing, and a database in it when
//   the directory is new or empty. A directory that holds files but no CURRENT file, or a database
//   that does not open (corrupt CURRENT or MANIFEST, missing files, a lock held by another
//   process), is refused with an error naming the directory and the problem: an open never
//   deletes, clears or recreates anything.
// - EngineOptions' knobs map to RocksDB's: block_cache_bytes (the LRU block cache),
//   write_buffer_bytes (write_buffer_size), background_jobs (max_background_jobs), wal_dir.
// - DeleteRange() queues the range for a background CompactRange (one thread, started by the first
//   DeleteRange, stopped by the destructor), which drops the deleted keys' data from the table
//   files.
// - Commits go through the striped GuardedCommitter and are written as one rocksdb::WriteBatch; options.sync fsyncs the
//   WAL before Commit/DeleteRange return.
// - Snapshots and iterators share ownership of the DB handle, so they never dangle, but the DB
//   (and its directory LOCK) is only closed when the engine AND every snapshot/iterator it handed
//   out are gone. Callers must drop them before destroying the engine if they intend to reopen
//   the same path.
// - An iterator without a snapshot reads RocksDB's implicit snapshot taken at creation; a range
//   within one group (options.group_prefix_bytes) is read in RocksDB's prefix mode. Reads go
//   through RocksDB's block cache (block_cache_bytes); no row cache (it ignores range deletions).
// - RocksDB errors map to kCorruption (corruption) or kIo (everything else) with its message.
#pragma once

#include <memory>

#include "engine/engine.h"

namespace monotable::engine {

Result<std::unique_ptr<Engine>> OpenRocksDbEngine(const EngineOptions& options);

}  // namespace monotable::engine
