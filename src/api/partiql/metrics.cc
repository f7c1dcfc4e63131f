#include "api/partiql/metrics.h"

#include <cstdio>
#include <string>

namespace monotable::api::partiql {
namespace {

std::atomic<bool> g_logging{true};

}  // namespace

std::string_view AccessKindName(AccessKind kind) {
  switch (kind) {
    case AccessKind::kGetItem:
      return "GetItem";
    case AccessKind::kQuery:
      return "Query";
    case AccessKind::kScan:
      return "Scan";
    case AccessKind::kPutItem:
      return "PutItem";
    case AccessKind::kUpdateItem:
      return "UpdateItem";
    case AccessKind::kDeleteItem:
      return "DeleteItem";
    case AccessKind::kConditionCheck:
      return "ConditionCheck";
  }
  return "?";
}

PartiqlMetricsSnapshot PartiqlMetrics::Snapshot() const {
  PartiqlMetricsSnapshot s;
  s.get_item = Get(AccessKind::kGetItem);
  s.query = Get(AccessKind::kQuery);
  s.scan = Get(AccessKind::kScan);
  s.put_item = Get(AccessKind::kPutItem);
  s.update_item = Get(AccessKind::kUpdateItem);
  s.delete_item = Get(AccessKind::kDeleteItem);
  s.condition_check = Get(AccessKind::kConditionCheck);
  return s;
}

PartiqlMetrics& GlobalPartiqlMetrics() {
  static PartiqlMetrics metrics;
  return metrics;
}

void SetPartiqlLogging(bool enabled) { g_logging.store(enabled, std::memory_order_relaxed); }

void RecordStatement(std::string_view verb, std::string_view table, std::string_view index, AccessKind kind,
                     bool transaction) {
  GlobalPartiqlMetrics().Count(kind);
  if (!g_logging.load(std::memory_order_relaxed)) return;
  std::string line = "partiql: " + std::string(verb) + " on " + std::string(table);
  if (!index.empty()) line += "." + std::string(index);
  line += " ran as " + std::string(AccessKindName(kind));
  if (transaction) line += " (transaction)";
  line += "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace monotable::api::partiql
