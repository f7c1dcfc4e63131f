// IdempotencyCache: TransactWriteItems ClientRequestToken bookkeeping.
//
// Contract: Begin(token, fingerprint) decides what a request with that token may do:
//  - kRun: no live entry; the caller runs the transaction and then calls Finish (or Abandon when
//    it failed with an error that did not apply anything).
//  - kReplay: the same request already completed within the window; `response` is its answer.
//  - kMismatch: the token was used within the window with different parameters.
//  - kInProgress: the same token is still being processed by another request.
// Entries live for `window` after completion (10 minutes, as on AWS). Thread-safe; the lock is
// per cache and held only for map operations.
#pragma once

#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

namespace monotable::txn {

class IdempotencyCache {
 public:
  using Clock = std::chrono::steady_clock;
  enum class Decision { kRun, kReplay, kMismatch, kInProgress };
  struct Outcome {
    Decision decision;
    std::string response;
  };

  explicit IdempotencyCache(Clock::duration window = std::chrono::minutes(10)) : window_(window) {}

  Outcome Begin(const std::string& token, const std::string& fingerprint);
  void Finish(const std::string& token, std::string response);
  void Abandon(const std::string& token);

 private:
  struct Entry {
    std::string fingerprint;
    bool done = false;
    std::string response;
    Clock::time_point finished;
  };
  void Expire(Clock::time_point now);

  Clock::duration window_;
  std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
  Clock::time_point last_expiry_;
};

}  // namespace monotable::txn
