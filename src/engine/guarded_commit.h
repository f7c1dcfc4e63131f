// GuardedCommitter: the guard/commit protocol shared by every engine backend.
//
// Contract:
// - A fixed array of striped mutexes; each key maps to one stripe by hash. Commit() locks the
//   distinct stripes of all guard and mutation keys in ascending stripe order (so concurrent
//   commits never deadlock), checks every guard against `read_latest`, and on success hands the
//   mutations to `apply_atomically`; then unlocks. There is no global lock: commits whose keys
//   fall on disjoint stripes run in parallel.
// - Every stripe carries a version, bumped (under its lock, after the mutations are applied) by
//   each commit that mutates a key on it. Token(key) reads it; a guard whose read_token still
//   equals its stripe's version at commit time is known to hold without calling `read_latest`
//   (its expected value was read after the token, and no commit touched the stripe since).
// - Atomicity holds only among writers that go through the same committer. Writers that bypass
//   it (e.g. Engine::DeleteRange) are not serialized against guarded commits.
// - `apply_atomically` must make all mutations visible to readers as one unit.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.h"

namespace monotable::engine {

class GuardedCommitter {
 public:
  using ReadLatestFn = std::function<Result<std::optional<std::string>>(std::string_view key)>;
  using ApplyFn = std::function<Status(const std::vector<Mutation>& mutations)>;

  // 1,024 cache-line stripes (64 KB, all touched at start): concurrent commits are at most a few
  // per I/O thread, so two unrelated ones rarely share a stripe.
  static constexpr size_t kNumStripes = 1024;

  GuardedCommitter(ReadLatestFn read_latest, ApplyFn apply_atomically);
  GuardedCommitter(const GuardedCommitter&) = delete;
  GuardedCommitter& operator=(const GuardedCommitter&) = delete;

  // kGuardFailed when a guard does not hold (nothing applied); backend errors pass through.
  Status Commit(const WriteBatch& batch);

  static size_t StripeOf(std::string_view key);
  uint64_t Token(std::string_view key) const;

 private:
  struct alignas(64) Stripe {
    std::mutex mu;
    std::atomic<uint64_t> version{1};  // never 0: 0 is "no token"
  };

  ReadLatestFn read_latest_;
  ApplyFn apply_;
  std::unique_ptr<Stripe[]> stripes_;
};

}  // namespace monotable::engine
