#include "txn/idempotency.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>

#include "changelog/keys.h"

namespace monotable::txn {
namespace {

int64_t SystemNowMs() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

// The system partition's records of finished tokens ("K" + token: finish time and digest) and
// their index in finish-time order ("k" + big-endian finish time + token), for expiry, by sort
// key; RecordMutations() gives them as full keys ([key space 0][sort key]: the partition id is "").
constexpr engine::PartitionRef kSystemPartition{table::kSystemKeyPrefix, ""};
std::string RecordSortKey(const std::string& token) { return "K" + token; }
std::string FullKey(std::string sort_key) { return table::PrefixBytes(table::kSystemKeyPrefix) + sort_key; }

void AppendBigEndian64(uint64_t v, std::string& out) {
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xFF));
}

uint64_t ReadBigEndian64(std::string_view bytes) {
  uint64_t v = 0;
  for (size_t i = 0; i < 8; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[i]);
  return v;
}

std::string IndexSortKey(int64_t ms, const std::string& token) {
  std::string key = "k";
  AppendBigEndian64(static_cast<uint64_t>(ms), key);
  key += token;
  return key;
}

}  // namespace

IdempotencyCache::IdempotencyCache(engine::PartitionStore& store, std::chrono::milliseconds window,
                                   size_t capacity, Clock clock)
    : store_(store),
      window_ms_(window.count()),
      shard_capacity_(std::max<size_t>(1, capacity / kShards)),
      clock_(clock ? std::move(clock) : Clock(SystemNowMs)) {}

int64_t IdempotencyCache::Now() const { return clock_(); }

IdempotencyCache::Shard& IdempotencyCache::ShardOf(const std::string& token) {
  return shards_[std::hash<std::string>{}(token) % kShards];
}

// Drops finished entries from the front of the shard's queue while they are past the window or
// the shard holds more than its share (the engine keeps their records). A queue position whose
// entry was replaced since (abandoned, run again) is skipped.
void IdempotencyCache::DropOldLocked(Shard& shard, int64_t now) {
  while (!shard.finished.empty()) {
    auto& [finished_ms, token] = shard.finished.front();
    if (shard.finished.size() <= shard_capacity_ && now - finished_ms <= window_ms_) break;
    auto it = shard.entries.find(token);
    if (it != shard.entries.end() && it->second.done && it->second.finished_ms == finished_ms) {
      shard.entries.erase(it);
    }
    shard.finished.pop_front();
  }
}

IdempotencyCache::Outcome IdempotencyCache::Begin(const std::string& token, std::string_view digest) {
  Shard& shard = ShardOf(token);
  const int64_t now = Now();
  auto decide = [&](const Entry& e) -> std::optional<Decision> {
    if (!e.done) return e.digest == digest ? Decision::kInProgress : Decision::kMismatch;
    if (now - e.finished_ms > window_ms_) return std::nullopt;  // expired: runs again
    return e.digest == digest ? Decision::kReplay : Decision::kMismatch;
  };
  {
    std::lock_guard lock(shard.mutex);
    DropOldLocked(shard, now);
    auto it = shard.entries.find(token);
    if (it != shard.entries.end()) {
      if (auto d = decide(it->second)) return {*d};
      shard.entries.erase(it);
    }
  }
  // Not in memory: the engine may hold the record (finished before a restart, or dropped from
  // memory). Read outside the lock; what another request did meanwhile is in memory by then.
  std::optional<Entry> recorded;
  auto record = store_.Get(kSystemPartition, RecordSortKey(token));
  if (record.ok() && record->has_value() && (*record)->size() >= 8) {
    Entry e;
    e.done = true;
    e.finished_ms = static_cast<int64_t>(ReadBigEndian64(**record));
    e.digest = (*record)->substr(8);
    recorded = std::move(e);
  } else if (!record.ok()) {
    // Unknown whether it ran: the client retries later (TransactionInProgressException).
    std::fprintf(stderr, "monotable: reading a ClientRequestToken record failed: %s\n",
                 record.status().message().c_str());
    return {Decision::kInProgress};
  }
  std::lock_guard lock(shard.mutex);
  auto it = shard.entries.find(token);
  if (it != shard.entries.end()) {
    if (auto d = decide(it->second)) return {*d};
    shard.entries.erase(it);
  }
  if (recorded) {
    if (auto d = decide(*recorded)) {
      shard.finished.emplace_back(recorded->finished_ms, token);
      shard.entries.emplace(token, std::move(*recorded));
      DropOldLocked(shard, now);
      return {*d};
    }
  }
  shard.entries.emplace(token, Entry{std::string(digest), false, 0, 0});
  return {Decision::kRun};
}

std::vector<engine::Mutation> IdempotencyCache::RecordMutations(const std::string& token) {
  if (token.empty()) return {};
  Shard& shard = ShardOf(token);
  std::lock_guard lock(shard.mutex);
  auto it = shard.entries.find(token);
  if (it == shard.entries.end() || it->second.done) return {};
  const int64_t now = Now();
  it->second.record_ms = now;
  std::string value;
  AppendBigEndian64(static_cast<uint64_t>(now), value);
  value += it->second.digest;
  return {{FullKey(RecordSortKey(token)), std::move(value)}, {FullKey(IndexSortKey(now, token)), std::string()}};
}

void IdempotencyCache::Finish(const std::string& token) {
  Shard& shard = ShardOf(token);
  const int64_t now = Now();
  {
    std::lock_guard lock(shard.mutex);
    auto it = shard.entries.find(token);
    if (it == shard.entries.end() || it->second.done) return;
    it->second.done = true;
    it->second.finished_ms = it->second.record_ms != 0 ? it->second.record_ms : now;
    shard.finished.emplace_back(it->second.finished_ms, token);
    DropOldLocked(shard, now);
  }
  int64_t last = last_expiry_ms_.load(std::memory_order_relaxed);
  if (now - last >= 1000 && last_expiry_ms_.compare_exchange_strong(last, now)) {
    std::unique_lock expiring(expiry_mutex_, std::try_to_lock);
    if (expiring.owns_lock()) {
      auto expired = ExpireRecords();
      if (!expired.ok()) {
        std::fprintf(stderr, "monotable: expiring ClientRequestToken records failed: %s\n",
                     expired.status().message().c_str());
      }
    }
  }
}

void IdempotencyCache::Abandon(const std::string& token) {
  Shard& shard = ShardOf(token);
  std::lock_guard lock(shard.mutex);
  auto it = shard.entries.find(token);
  if (it != shard.entries.end() && !it->second.done) shard.entries.erase(it);
}

Result<size_t> IdempotencyCache::ExpireRecords() {
  const int64_t cutoff = Now() - window_ms_;
  std::vector<std::string> index_keys;
  MT_RETURN_IF_ERROR(store_.ReadRange(kSystemPartition, {"k", "l", true}, [&](std::string_view key, std::string_view) {
    if (key.size() < 1 + 8) return true;
    if (static_cast<int64_t>(ReadBigEndian64(key.substr(1))) >= cutoff) return false;  // the rest is younger
    index_keys.emplace_back(key);
    return index_keys.size() < kExpiryBatch;
  }));
  if (index_keys.empty()) return size_t{0};
  engine::PartitionWrite write;
  for (const std::string& key : index_keys) {
    const auto ms = static_cast<int64_t>(ReadBigEndian64(std::string_view(key).substr(1)));
    const std::string token = key.substr(1 + 8);
    write.mutations.push_back({key, std::nullopt});
    // The record goes with it unless the token ran again since (a newer record, its own index key).
    MT_ASSIGN_OR_RETURN(auto record, store_.Get(kSystemPartition, RecordSortKey(token)));
    if (record && record->size() >= 8 && static_cast<int64_t>(ReadBigEndian64(*record)) == ms) {
      write.guards.push_back({RecordSortKey(token), record});
      write.mutations.push_back({RecordSortKey(token), std::nullopt});
    }
  }
  auto committed = store_.Commit(kSystemPartition, std::move(write));
  if (committed.status().code() == ErrorCode::kGuardFailed) return size_t{0};  // a token ran again: next time
  MT_RETURN_IF_ERROR(committed.status());
  return index_keys.size();
}

size_t IdempotencyCache::MemoryEntries() {
  size_t n = 0;
  for (Shard& shard : shards_) {
    std::lock_guard lock(shard.mutex);
    n += shard.entries.size();
  }
  return n;
}

}  // namespace monotable::txn
