// Change log: the stream records of a write (their layout and codec: changelog/stream_record.h),
// and the sequence numbers that order them.
//
// Contract:
// - SequenceAllocator hands out increasing numbers per stream. Every reservation must be settled
//   exactly once, after its engine commit returned (committed) or instead of committing
//   (abandoned). Watermark() is the largest number w such that every number <= w is settled: a
//   reader that reads only up to the watermark never sees a number appear later below what it
//   has read, even though concurrent commits finish out of order. One small mutex per stream;
//   streams never share state.
// - ChangeLogBatch is the write path's helper: Add() each item change of one engine batch, then
//   AppendTo() right before Commit() reserves the numbers and adds the records to the batch; the
//   destructor settles the reservations (after the commit, or abandoning them on a guard failure
//   or an error). A write prepared while its table's stream was being disabled emits nothing.
//   A stream numbered in the store (logged stores, StreamLog::numbered_in_store()) reserves
//   nothing here: given `stream_parts` (the logged path: ItemChange::stream), AppendTo() hands its
//   records there, unnumbered, and the change applier numbers them in the stream's shard.
// - ChangeHook: a second consumer of every item change besides the stream (point-in-time
//   recovery's history, src/backup). When one is set on the StreamCatalog, Add() passes it every
//   change (whether or not the table has a stream) and AppendTo() runs what it captured, so its
//   mutations commit with the change: in the same batch (full keys), or, given `addressed` (the
//   logged path), as addressed mutations (key + sort offset) for the change record's `extra`.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.h"
#include "model/attribute_value.h"
#include "model/table_description.h"
#include "changelog/item_change.h"
#include "changelog/stream_record.h"

namespace monotable::table {

// Milliseconds since the epoch; injectable so tests can move time.
using Clock = std::function<int64_t()>;
int64_t SystemNowMs();

class SequenceAllocator {
 public:
  explicit SequenceAllocator(uint64_t next) : next_(next) {}
  SequenceAllocator(const SequenceAllocator&) = delete;
  SequenceAllocator& operator=(const SequenceAllocator&) = delete;

  // Reserves `count` consecutive numbers and returns the first; nullopt once closed.
  std::optional<uint64_t> Reserve(uint64_t count);
  // Settles the reservation that starts at `first` (committed or abandoned).
  void Settle(uint64_t first);
  uint64_t Watermark() const;
  // Stops handing out numbers; returns the last number ever handed out (next - 1).
  uint64_t Close();
  bool closed() const;
  uint64_t next() const;

 private:
  mutable std::mutex mu_;
  uint64_t next_;
  std::map<uint64_t, uint64_t> pending_;  // first -> count, unsettled reservations
  bool closed_ = false;
};

class StreamCatalog;
class StreamLog;

class ChangeHook {
 public:
  virtual ~ChangeHook() = default;
  // Called for each item change of a write attempt (before its commit); returns what to add to
  // the attempt's write right before the commit (called at most once): mutations of full keys
  // [keyspace u32][partition id][sort key], each with its sort key's offset; or an empty function
  // when the change does not concern the hook. Must not block; thread-safe.
  using Append = std::function<void(std::vector<changelog::AddressedMutation>&)>;
  virtual Append Capture(const TableDescription& table, const Item* old_item, const Item* new_item) = 0;
};

class ChangeLogBatch {
 public:
  explicit ChangeLogBatch(StreamCatalog& streams) : streams_(streams) {}
  ChangeLogBatch(const ChangeLogBatch&) = delete;
  ChangeLogBatch& operator=(const ChangeLogBatch&) = delete;
  ~ChangeLogBatch();

  void Add(const TableDescription& table, const Item* old_item, const Item* new_item, bool by_service = false);
  // Adds the stream records (full keys) and the hooks' mutations to `batch`; with `addressed`, the
  // hooks' mutations go there instead (the logged path: ItemChange::extra).
  void AppendTo(engine::WriteBatch& batch, std::vector<changelog::AddressedMutation>* addressed = nullptr,
                std::vector<changelog::StreamPart>* stream_parts = nullptr);
  // Settles now (the destructor does it otherwise).
  void Settle();

 private:
  struct Pending {
    std::shared_ptr<StreamLog> log;
    std::vector<ChangeRecord> records;
    std::optional<uint64_t> first;  // reserved
  };
  StreamCatalog& streams_;
  std::vector<Pending> pending_;  // one entry per stream
  std::vector<ChangeHook::Append> hooked_;  // ChangeHook captures
};

}  // namespace monotable::table
