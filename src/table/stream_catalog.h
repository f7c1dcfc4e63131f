// StreamCatalog: every readable stream (enabled ones, and disabled ones for 24 hours), their
// persisted metadata, sequence allocation, reading and trimming.
//
// Contract:
// - A stream is born when a table's description enables one (the catalog assigns it a fresh key
//   space and label), and is closed when the table disables it, enables a new one, or is
//   deleted; a closed stream stays readable (DISABLED) for `kRetentionMs`, then it and its
//   records are removed. Stream metadata is persisted in the system key space
//   ([0000]['S'][key_prefix]), created once: a server that learns of a stream another server
//   created (its catalog's Refresh calls OnTableChange) adopts the persisted record. Load()
//   reconciles them with the tables after a crash.
// - OnTableChange() is the catalog's change listener (called under the catalog's control lock).
// - Shards and numbering (layout: changelog/stream_record.h). On an embedded engine a stream has
//   one shard numbered by this process (StreamLog::sequences()); on a logged store
//   (numbered_in_store) it has kStoreStreamShards shards numbered in the store by the change
//   applier (changelog/stream_append.h), shared by every server; closing such a stream first
//   closes every shard's head in the store, so no server appends to it afterwards.
// - Read() returns records of the shard holding `from`, in sequence order, never beyond what is
//   settled (the allocator's watermark; in the store, records are appended without gaps), so
//   what a reader has seen never gains a new record below it. Positions below the shard's trim
//   horizon fail with kTrimmedDataAccess. For a closed stream, `shard_end` tells that nothing
//   follows in that shard. Horizon() and Last() give a shard's first untrimmed and last number.
// - Trim() deletes records older than the retention shard by shard (advancing the persisted trim
//   horizon in the same commit, guarded on the horizon read, so servers trimming together agree),
//   drops a store-numbered shard's applied positions whose source records were trimmed long ago,
//   and removes streams closed for longer than the retention.
// - Storage goes through the partition contract (engine.h): each shard is one partition of the
//   stream's key space, so a trim (records + horizon) is one partition commit; stream metadata
//   lives in the system partition (key space 0, id "").
// - Thread-safe; lookups read an immutable snapshot (copy-on-write) without locking.
#pragma once

#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "model/table_description.h"
#include "table/change_log.h"

namespace monotable::table {

class Catalog;

struct StreamInfo {
  std::string table_name;
  std::string table_id;
  std::string label;
  std::string view_type;
  std::vector<KeyElement> key_schema;
  uint32_t key_prefix = 0;
  int64_t created_ms = 0;
  int64_t disabled_ms = 0;  // 0 while enabled
  uint64_t start = 0;       // first sequence number of the stream
  uint64_t end = 0;         // last sequence number handed out (start - 1 if none), once disabled
};

class StreamLog {
 public:
  StreamLog(StreamInfo info, uint64_t next, uint64_t horizon, bool numbered_in_store = false)
      : info_(std::move(info)), numbered_in_store_(numbered_in_store), sequences_(next), horizon_(horizon) {}

  StreamInfo info() const {
    std::lock_guard lock(mu_);
    return info_;
  }
  uint32_t key_prefix() const { return key_prefix_; }
  // Numbered in the store's shards (a logged store) rather than by sequences() (embedded).
  bool numbered_in_store() const { return numbered_in_store_; }
  uint32_t shard_count() const { return numbered_in_store_ ? kStoreStreamShards : 1; }
  bool closed() const {
    std::lock_guard lock(mu_);
    return info_.disabled_ms != 0;
  }
  // The last sequence number this server saw in a shard (numbered in the store: the head as last
  // read; else the watermark): lag figures only.
  uint64_t LastSeen(uint32_t shard) const;
  void NoteLast(uint32_t shard, uint64_t last) {
    if (shard < last_seen_.size()) last_seen_[shard].store(last, std::memory_order_relaxed);
  }
  const std::string& view_type() const { return view_type_; }
  SequenceAllocator& sequences() { return sequences_; }
  const SequenceAllocator& sequences() const { return sequences_; }
  // The single shard's trim horizon (embedded engines; in the store: StreamCatalog::Horizon).
  uint64_t horizon() const { return horizon_.load(std::memory_order_acquire); }
  void set_horizon(uint64_t h) { horizon_.store(h, std::memory_order_release); }
  // Closes the allocator and records when; returns the updated info. (A stream numbered in the
  // store has its shard heads closed first: StreamCatalog.)
  StreamInfo Close(int64_t now_ms);

 private:
  mutable std::mutex mu_;
  StreamInfo info_;
  const uint32_t key_prefix_ = info_.key_prefix;
  const std::string view_type_ = info_.view_type;
  const bool numbered_in_store_;
  SequenceAllocator sequences_;
  std::atomic<uint64_t> horizon_;
  std::array<std::atomic<uint64_t>, kStoreStreamShards> last_seen_{};
};

struct Change {
  uint64_t seq = 0;
  ChangeRecord record;
};

struct ChangePage {
  std::vector<Change> changes;
  uint64_t next = 0;       // where the following read starts
  bool shard_end = false;  // closed stream, everything read
};

class StreamCatalog {
 public:
  static constexpr int64_t kRetentionMs = 24LL * 3600 * 1000;

  explicit StreamCatalog(engine::PartitionStore& store, Clock clock = SystemNowMs)
      : store_(store), clock_(std::move(clock)), numbered_in_store_(!store.AppliesDerivedInCommit()) {}

  Status Load(const Catalog& catalog);
  void OnTableChange(const TableDescription* before, const TableDescription* after);

  // The open stream a write to `table` (as its description says) records into, or nullptr.
  std::shared_ptr<StreamLog> Active(const TableDescription& table) const;
  // Every stream, ordered by table name, then creation.
  std::vector<std::shared_ptr<StreamLog>> List() const;
  std::shared_ptr<StreamLog> Find(std::string_view table_name, std::string_view label) const;

  // Reads the shard holding `from` (ShardOfSequence).
  Result<ChangePage> Read(StreamLog& log, uint64_t from, size_t limit, size_t max_bytes = 1024 * 1024);
  // A shard's first untrimmed sequence number, and its last one (first - 1 when none; once the
  // stream is closed, its EndingSequenceNumber).
  Result<uint64_t> Horizon(StreamLog& log, uint32_t shard);
  Result<uint64_t> Last(StreamLog& log, uint32_t shard);
  Status Trim();

  int64_t NowMs() const { return clock_(); }

  // The consumer ChangeLogBatch passes every item change to besides the streams (change_log.h);
  // nullptr: none. A hook once set stays alive as long as the catalog (a write may still be using
  // it after it is replaced), so the lookup on every write is one atomic load.
  void SetChangeHook(std::shared_ptr<ChangeHook> hook) {
    std::lock_guard lock(mu_);
    hook_.store(hook.get(), std::memory_order_release);
    if (hook) hooks_kept_.push_back(std::move(hook));
  }
  ChangeHook* change_hook() const { return hook_.load(std::memory_order_acquire); }

 private:
  using LogMap = std::map<uint32_t, std::shared_ptr<StreamLog>>;

  std::shared_ptr<StreamLog> Open(const TableDescription& table);  // under mu_
  Status Persist(const StreamInfo& info);
  // Closes `log`: its shard heads in the store first (numbered in the store), then the log.
  void CloseLog(StreamLog& log);
  Status TrimShard(StreamLog& log, uint32_t shard, int64_t cutoff_ms);
  Status DropAppliedPositions(StreamLog& log, uint32_t shard, int64_t cutoff_ms);
  std::shared_ptr<const LogMap> Current() const { return logs_.load(std::memory_order_acquire); }

  engine::PartitionStore& store_;
  Clock clock_;
  const bool numbered_in_store_;
  std::mutex mu_;  // serializes changes of the map
  std::atomic<std::shared_ptr<const LogMap>> logs_{std::make_shared<const LogMap>()};
  std::atomic<ChangeHook*> hook_{nullptr};
  std::vector<std::shared_ptr<ChangeHook>> hooks_kept_;  // under mu_
};

}  // namespace monotable::table
