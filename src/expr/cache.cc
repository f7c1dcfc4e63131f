#include "expr/cache.h"

#include <functional>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "expr/parser.h"

namespace monotable::expr {
namespace {

// Keys view the text owned by the cached outcome, so a lookup needs no allocation.
struct Key {
  ExpressionKind kind;
  std::string_view text;
  bool operator==(const Key& o) const { return kind == o.kind && text == o.text; }
};

struct KeyHash {
  size_t operator()(const Key& k) const {
    return std::hash<std::string_view>()(k.text) * 31 + static_cast<size_t>(k.kind);
  }
};

struct Entry {
  std::shared_ptr<const ParseOutcome> outcome;
  mutable std::atomic<bool> referenced{false};  // set on a hit; new entries go first

  explicit Entry(std::shared_ptr<const ParseOutcome> o) : outcome(std::move(o)) {}
};

}  // namespace

struct ExpressionCache::Shard {
  mutable std::shared_mutex mu;
  std::unordered_map<Key, Entry, KeyHash> map;
  std::vector<Key> ring;  // CLOCK order; ring[hand] is the next eviction candidate
  size_t hand = 0;
};

ExpressionCache::ExpressionCache(size_t capacity, size_t shards)
    : shards_(new Shard[shards == 0 ? 1 : shards]),
      shard_count_(shards == 0 ? 1 : shards),
      per_shard_capacity_((capacity + shard_count_ - 1) / shard_count_ == 0 ? 1
                                                                             : (capacity + shard_count_ - 1) / shard_count_) {}

ExpressionCache::~ExpressionCache() = default;

std::shared_ptr<const ParseOutcome> ParseUncached(ExpressionKind kind, std::string_view text) {
  auto outcome = std::make_shared<ParseOutcome>();
  Result<ParsedExpression> parsed = ParseExpression(kind, text);
  if (parsed.ok()) {
    outcome->parsed = std::move(parsed).value();
  } else {
    outcome->status = parsed.status();
    outcome->parsed.kind = kind;
    outcome->parsed.text = std::string(text);
  }
  return outcome;
}

std::shared_ptr<const ParseOutcome> ExpressionCache::GetOrParse(ExpressionKind kind, std::string_view text) {
  if (text.size() > kMaxExpressionBytes) return ParseUncached(kind, text);
  const Key probe{kind, text};
  Shard& shard = shards_[KeyHash()(probe) % shard_count_];
  {
    std::shared_lock lock(shard.mu);
    auto it = shard.map.find(probe);
    if (it != shard.map.end()) {
      it->second.referenced.store(true, std::memory_order_relaxed);
      hits_.fetch_add(1, std::memory_order_relaxed);
      return it->second.outcome;
    }
  }
  misses_.fetch_add(1, std::memory_order_relaxed);
  std::shared_ptr<const ParseOutcome> outcome = ParseUncached(kind, text);
  const Key key{kind, outcome->parsed.text};

  std::unique_lock lock(shard.mu);
  auto existing = shard.map.find(key);
  if (existing != shard.map.end()) return existing->second.outcome;
  if (shard.map.size() < per_shard_capacity_) {
    shard.map.emplace(key, outcome);
    shard.ring.push_back(key);
    return outcome;
  }
  // CLOCK: skip (and clear) recently referenced entries; replace the first unreferenced one.
  while (true) {
    Key& victim = shard.ring[shard.hand];
    auto it = shard.map.find(victim);
    if (it != shard.map.end() && it->second.referenced.exchange(false, std::memory_order_relaxed)) {
      shard.hand = (shard.hand + 1) % shard.ring.size();
      continue;
    }
    if (it != shard.map.end()) shard.map.erase(it);
    victim = key;
    shard.map.emplace(key, outcome);
    shard.hand = (shard.hand + 1) % shard.ring.size();
    return outcome;
  }
}

size_t ExpressionCache::size() const {
  size_t total = 0;
  for (size_t i = 0; i < shard_count_; ++i) {
    std::shared_lock lock(shards_[i].mu);
    total += shards_[i].map.size();
  }
  return total;
}

ExpressionCache& DefaultExpressionCache() {
  static ExpressionCache* cache = new ExpressionCache();  // never destroyed: usable during shutdown
  return *cache;
}

}  // namespace monotable::expr
