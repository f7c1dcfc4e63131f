// IdempotencyCache: ClientRequestToken bookkeeping of TransactWriteItems and ExecuteTransaction.
//
// Contract: Begin(token, digest) decides what a request with that token may do, `digest` being a
// fixed-size digest of the request's parameters (api/client_request_token.h):
//  - kRun: no live record of the token; the caller runs the transaction, commits RecordMutations()
//    in the SAME engine batch as the transaction's writes, then calls Finish (or Abandon when it
//    failed and applied nothing).
//  - kReplay: the same request finished within the window.
//  - kMismatch: the token finished within the window with a different digest, or is running now
//    with a different digest.
//  - kInProgress: the same token is running now in another request.
// A finished token is a record in the store (the system partition, key space 0 and partition id
// "": the token, its finish time and digest), written atomically with the transaction: a retry after a crash or restart within the
// window finds it and replays. The window is 10 minutes after the finish, as on AWS.
//
// Bounds: memory holds running tokens and a cache of recently finished ones, in kShards shards,
// each with its own lock, hash map and a queue in finish order; a shard keeps at most
// capacity / kShards finished entries and drops its oldest (expired or not: the engine still has
// the record) beyond that. Expiry works from the front of the queues and of an engine index in
// finish-time order (ExpireRecords, at most once a second, a bounded number of records each time):
// nothing ever walks every entry, and no lock is held across shards.
//
// Thread-safe. The clock gives epoch milliseconds (tests may fake it).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/status.h"
#include "engine/engine.h"

namespace monotable::txn {

class IdempotencyCache {
 public:
  using Clock = std::function<int64_t()>;  // epoch milliseconds
  enum class Decision { kRun, kReplay, kMismatch, kInProgress };
  struct Outcome {
    Decision decision;
  };
  static constexpr size_t kShards = 16;
  static constexpr size_t kDefaultCapacity = 65536;
  static constexpr size_t kExpiryBatch = 1000;  // engine records removed per ExpireRecords call at most

  explicit IdempotencyCache(engine::PartitionStore& store, std::chrono::milliseconds window = std::chrono::minutes(10),
                            size_t capacity = kDefaultCapacity, Clock clock = nullptr);

  Outcome Begin(const std::string& token, std::string_view digest);
  // What records `token` as finished (empty for an empty token or one Begin did not let run).
  std::vector<engine::Mutation> RecordMutations(const std::string& token);
  void Finish(const std::string& token);
  void Abandon(const std::string& token);

  // Deletes up to kExpiryBatch engine records older than the window, oldest first; returns how
  // many. Called by Finish at most once a second; tests call it directly.
  Result<size_t> ExpireRecords();
  // Entries held in memory (running and finished), for tests.
  size_t MemoryEntries();

 private:
  struct Entry {
    std::string digest;
    bool done = false;
    int64_t finished_ms = 0;
    int64_t record_ms = 0;  // the finish time RecordMutations() wrote
  };
  struct Shard {
    std::mutex mutex;
    std::unordered_map<std::string, Entry> entries;
    std::deque<std::pair<int64_t, std::string>> finished;  // (finish time, token), oldest first
  };

  Shard& ShardOf(const std::string& token);
  void DropOldLocked(Shard& shard, int64_t now);
  int64_t Now() const;

  engine::PartitionStore& store_;
  int64_t window_ms_;
  size_t shard_capacity_;
  Clock clock_;
  std::array<Shard, kShards> shards_;
  std::atomic<int64_t> last_expiry_ms_{0};
  std::mutex expiry_mutex_;  // one ExpireRecords at a time (try_lock from Finish)
};

}  // namespace monotable::txn
