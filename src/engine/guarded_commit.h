// GuardedCommitter: the guard/commit protocol shared by every engine backend.
//
// Contract:
// - A fixed array of striped mutexes; each key maps to one stripe by hash. Commit() locks the
//   distinct stripes of all guard and mutation keys in ascending stripe order (so concurrent
//   commits never deadlock), checks every guard against `read_latest`, and on success hands the
//   mutations to `apply_atomically`; then unlocks. There is no global lock: commits whose keys
//   fall on disjoint stripes run in parallel.
// - Atomicity holds only among writers that go through the same committer. Writers that bypass
//   it (e.g. Engine::DeleteRange) are not serialized against guarded commits.
// - `apply_atomically` must make all mutations visible to readers as one unit.
#pragma once

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

  static constexpr size_t kNumStripes = 4096;

  GuardedCommitter(ReadLatestFn read_latest, ApplyFn apply_atomically);
  GuardedCommitter(const GuardedCommitter&) = delete;
  GuardedCommitter& operator=(const GuardedCommitter&) = delete;

  // kGuardFailed when a guard does not hold (nothing applied); backend errors pass through.
  Status Commit(const WriteBatch& batch);

  static size_t StripeOf(std::string_view key);

 private:
  struct alignas(64) Stripe {
    std::mutex mu;
  };

  ReadLatestFn read_latest_;
  ApplyFn apply_;
  std::unique_ptr<Stripe[]> stripes_;
};

}  // namespace monotable::engine
