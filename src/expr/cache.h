// ExpressionCache: parse results keyed by (expression kind, text), shared across requests.
//
// Contract:
// - GetOrParse(kind, text) returns the same immutable outcome ParseExpression(kind, text) would:
//   the ParsedExpression, or the syntax/size/empty error. Failed parses are cached too (clients
//   retry the same bad expression), except texts over the 4 KB limit, which are never stored.
// - Thread-safe. The cache is split into shards selected by the key's hash; a hit takes only its
//   shard's reader lock, a miss parses outside any lock and then takes the shard's writer lock to
//   insert (a concurrent duplicate insert keeps the first entry).
// - Bounded: at most `capacity` entries (rounded up to a multiple of the shard count); a full shard
//   evicts with the CLOCK (second chance) policy, so recently used expressions stay.
// - Outcomes are handed out as shared_ptr, so eviction never invalidates an expression in use.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string_view>

#include "common/status.h"
#include "expr/ast.h"

namespace monotable::expr {

struct ParseOutcome {
  Status status;            // OK, or the full validation error
  ParsedExpression parsed;  // meaningful when status.ok()
};

class ExpressionCache {
 public:
  explicit ExpressionCache(size_t capacity = 8192, size_t shards = 16);
  ~ExpressionCache();
  ExpressionCache(const ExpressionCache&) = delete;
  ExpressionCache& operator=(const ExpressionCache&) = delete;

  std::shared_ptr<const ParseOutcome> GetOrParse(ExpressionKind kind, std::string_view text);

  size_t size() const;
  uint64_t hits() const { return hits_.load(std::memory_order_relaxed); }
  uint64_t misses() const { return misses_.load(std::memory_order_relaxed); }

 private:
  struct Shard;
  std::unique_ptr<Shard[]> shards_;
  size_t shard_count_;
  size_t per_shard_capacity_;
  std::atomic<uint64_t> hits_{0};
  std::atomic<uint64_t> misses_{0};
};

// The process-wide cache used when a caller does not supply one.
ExpressionCache& DefaultExpressionCache();

// Parses without any cache (the cache's miss path; also for tests and fuzzing).
std::shared_ptr<const ParseOutcome> ParseUncached(ExpressionKind kind, std::string_view text);

}  // namespace monotable::expr
