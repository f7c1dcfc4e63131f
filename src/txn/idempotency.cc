#include "txn/idempotency.h"

namespace monotable::txn {

void IdempotencyCache::Expire(Clock::time_point now) {
  if (now - last_expiry_ < std::chrono::seconds(1)) return;
  last_expiry_ = now;
  std::erase_if(entries_, [&](const auto& kv) { return kv.second.done && now - kv.second.finished > window_; });
}

IdempotencyCache::Outcome IdempotencyCache::Begin(const std::string& token, const std::string& fingerprint) {
  std::lock_guard lock(mutex_);
  auto now = Clock::now();
  Expire(now);
  auto it = entries_.find(token);
  if (it != entries_.end() && it->second.done && now - it->second.finished > window_) {
    entries_.erase(it);
    it = entries_.end();
  }
  if (it == entries_.end()) {
    entries_.emplace(token, Entry{fingerprint, false, {}, {}});
    return {Decision::kRun, {}};
  }
  if (it->second.fingerprint != fingerprint) return {Decision::kMismatch, {}};
  if (!it->second.done) return {Decision::kInProgress, {}};
  return {Decision::kReplay, it->second.response};
}

void IdempotencyCache::Finish(const std::string& token, std::string response) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(token);
  if (it == entries_.end()) return;
  it->second.done = true;
  it->second.response = std::move(response);
  it->second.finished = Clock::now();
}

void IdempotencyCache::Abandon(const std::string& token) {
  std::lock_guard lock(mutex_);
  entries_.erase(token);
}

}  // namespace monotable::txn
