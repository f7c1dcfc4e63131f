#include "engine/guarded_commit.h"

#include <algorithm>
#include <utility>

namespace monotable::engine {

GuardedCommitter::GuardedCommitter(ReadLatestFn read_latest, ApplyFn apply_atomically)
    : read_latest_(std::move(read_latest)),
      apply_(std::move(apply_atomically)),
      stripes_(std::make_unique<Stripe[]>(kNumStripes)) {}

size_t GuardedCommitter::StripeOf(std::string_view key) {
  return std::hash<std::string_view>{}(key) % kNumStripes;
}

uint64_t GuardedCommitter::Token(std::string_view key) const {
  return stripes_[StripeOf(key)].version.load(std::memory_order_acquire);
}

Status GuardedCommitter::Commit(const WriteBatch& batch) {
  if (batch.guards.empty() && batch.mutations.empty()) return Status::Ok();

  std::vector<size_t> ids;
  ids.reserve(batch.guards.size() + batch.mutations.size());
  for (const Guard& g : batch.guards) ids.push_back(StripeOf(g.key));
  for (const Mutation& m : batch.mutations) ids.push_back(StripeOf(m.key));
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());

  for (size_t id : ids) stripes_[id].mu.lock();
  struct Unlocker {
    GuardedCommitter* self;
    const std::vector<size_t>& ids;
    ~Unlocker() {
      for (auto it = ids.rbegin(); it != ids.rend(); ++it) self->stripes_[*it].mu.unlock();
    }
  } unlocker{this, ids};

  for (const Guard& g : batch.guards) {
    if (g.read_token != 0 && g.read_token == stripes_[StripeOf(g.key)].version.load(std::memory_order_acquire)) {
      continue;  // untouched since the caller read it: `expected` is current
    }
    Result<std::optional<std::string>> current = read_latest_(g.key);
    if (!current.ok()) return current.status();
    if (*current != g.expected) {
      return Status(ErrorCode::kGuardFailed, "guard failed");
    }
  }
  if (batch.mutations.empty()) return Status::Ok();
  Status applied = apply_(batch.mutations);
  // Bumped even when applying failed part-way: a reader's token must never vouch for a value
  // that may have changed. Still under the stripe locks, after the mutations are visible.
  for (const Mutation& m : batch.mutations) stripes_[StripeOf(m.key)].version.fetch_add(1, std::memory_order_acq_rel);
  return applied;
}

}  // namespace monotable::engine
