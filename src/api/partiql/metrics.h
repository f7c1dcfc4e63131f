// PartiQL statement accounting: how each statement was executed, counted per access kind and
// logged, so it is observable whether a SELECT ran as a GetItem, a Query or a full Scan.
//
// Contract:
// - Every executed statement calls RecordStatement() exactly once (a SELECT page counts once per
//   ExecuteStatement call). It bumps the counter of its kind and writes one line to stderr:
//     "partiql: SELECT on <table>[.<index>] ran as Scan"
//     "partiql: UPDATE on <table> ran as UpdateItem (transaction)"
// - PartiqlMetrics is process-wide, lock-free (relaxed atomics) and safe to read from any thread;
//   a /metrics endpoint can Snapshot() it. SetPartiqlLogging(false) silences the stderr line
//   (counters still count).
#pragma once

#include <atomic>
#include <cstdint>
#include <string_view>

namespace monotable::api::partiql {

enum class AccessKind : uint8_t { kGetItem, kQuery, kScan, kPutItem, kUpdateItem, kDeleteItem, kConditionCheck };

std::string_view AccessKindName(AccessKind kind);

struct PartiqlMetricsSnapshot {
  uint64_t get_item = 0, query = 0, scan = 0, put_item = 0, update_item = 0, delete_item = 0, condition_check = 0;
};

class PartiqlMetrics {
 public:
  void Count(AccessKind kind) { counters_[static_cast<size_t>(kind)].fetch_add(1, std::memory_order_relaxed); }
  uint64_t Get(AccessKind kind) const { return counters_[static_cast<size_t>(kind)].load(std::memory_order_relaxed); }
  PartiqlMetricsSnapshot Snapshot() const;

 private:
  std::atomic<uint64_t> counters_[7] = {};
};

PartiqlMetrics& GlobalPartiqlMetrics();
void SetPartiqlLogging(bool enabled);

// `verb` is SELECT / INSERT / UPDATE / DELETE / EXISTS.
void RecordStatement(std::string_view verb, std::string_view table, std::string_view index, AccessKind kind,
                     bool transaction);

}  // namespace monotable::api::partiql
