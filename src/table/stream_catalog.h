// StreamCatalog: every readable stream (enabled ones, and disabled ones for 24 hours), their
// persisted metadata, sequence allocation, reading and trimming.
//
// Contract:
// - A stream is born when a table's description enables one (the catalog assigns it a fresh key
//   space and label), and is closed when the table disables it, enables a new one, or is
//   deleted; a closed stream stays readable (DISABLED) for `kRetentionMs`, then it and its
//   records are removed. Stream records are persisted in the system key space
//   ([0000]['S'][key_prefix]); Load() reconciles them with the tables after a crash.
// - OnTableChange() is the catalog's change listener (called under the catalog's control lock).
// - Read() returns records in sequence order, never beyond the stream's watermark, so what a
//   reader has seen never gains a new record below it. Positions below the trim horizon fail
//   with kTrimmedDataAccess. For a closed stream, `shard_end` tells that nothing follows.
// - Trim() deletes records older than the retention (advancing the persisted trim horizon in
//   the same batch) and removes streams closed for longer than it.
// - Storage goes through the partition contract (engine.h): a stream is ONE partition (its key
//   space, partition id "": a single shard), sort key the sequence number (u64 BE) and the trim
//   horizon at 0, so a trim (records + horizon) is one partition commit; stream records live in
//   the system partition (key space 0, id ""). The change records themselves are still appended
//   by the item write path in the item's engine batch (ChangeLogBatch), in the same layout; that
//   moves to a change-log applier with issue #45's next step.
// - Thread-safe; lookups read an immutable snapshot (copy-on-write) without locking.
#pragma once

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
  StreamLog(StreamInfo info, uint64_t next, uint64_t horizon)
      : info_(std::move(info)), sequences_(next), horizon_(horizon) {}

  StreamInfo info() const {
    std::lock_guard lock(mu_);
    return info_;
  }
  uint32_t key_prefix() const { return key_prefix_; }
  const std::string& view_type() const { return view_type_; }
  SequenceAllocator& sequences() { return sequences_; }
  const SequenceAllocator& sequences() const { return sequences_; }
  uint64_t horizon() const { return horizon_.load(std::memory_order_acquire); }
  void set_horizon(uint64_t h) { horizon_.store(h, std::memory_order_release); }
  // Closes the allocator and records when; returns the updated info.
  StreamInfo Close(int64_t now_ms);

 private:
  mutable std::mutex mu_;
  StreamInfo info_;
  const uint32_t key_prefix_ = info_.key_prefix;
  const std::string view_type_ = info_.view_type;
  SequenceAllocator sequences_;
  std::atomic<uint64_t> horizon_;
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
      : store_(store), clock_(std::move(clock)) {}

  Status Load(const Catalog& catalog);
  void OnTableChange(const TableDescription* before, const TableDescription* after);

  // The open stream a write to `table` (as its description says) records into, or nullptr.
  std::shared_ptr<StreamLog> Active(const TableDescription& table) const;
  // Every stream, ordered by table name, then creation.
  std::vector<std::shared_ptr<StreamLog>> List() const;
  std::shared_ptr<StreamLog> Find(std::string_view table_name, std::string_view label) const;

  Result<ChangePage> Read(StreamLog& log, uint64_t from, size_t limit, size_t max_bytes = 1024 * 1024);
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
  Status TrimLog(StreamLog& log, int64_t cutoff_ms);
  std::shared_ptr<const LogMap> Current() const { return logs_.load(std::memory_order_acquire); }

  engine::PartitionStore& store_;
  Clock clock_;
  std::mutex mu_;  // serializes changes of the map
  std::atomic<std::shared_ptr<const LogMap>> logs_{std::make_shared<const LogMap>()};
  std::atomic<ChangeHook*> hook_{nullptr};
  std::vector<std::shared_ptr<ChangeHook>> hooks_kept_;  // under mu_
};

}  // namespace monotable::table
