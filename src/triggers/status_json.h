// The triggers' status as JSON, for GET /monotable/triggers (the web console's Triggers view):
// each trigger's settings, state, last error and counters (the figures /metrics and
// `monotable triggers` show) and, per shard of its table's stream, where delivery stands.
//
// Contract: TriggersStatusJson() renders a snapshot and never fails. Shape:
//   {"configured": true, "now": MS, "triggers": [{
//      "name", "table", "handler": {"kind": "command", "command": [...]} | {"kind": "url", "url"},
//      "startingPosition", "batchSize", "batchingWindowSeconds", "maximumRetryAttempts",
//      "maximumRecordAgeSeconds", "bisectBatchOnFunctionError", "reportBatchItemFailures",
//      "filters": N, "onFailure": "file:PATH" | "table:NAME" | null, "timeoutSeconds",
//      "state", "lastError" (string | null), "invocations", "invocationErrors", "batchesDelivered",
//      "recordsDelivered", "recordsFiltered", "recordsFailed", "batchesBisected", "lagRecords",
//      "oldestUnacknowledgedAgeSeconds",
//      "shards": [{"shardId", "current", "closed", "nextSequenceNumber" (null: none saved yet),
//                  "lastSequenceNumber" (null: empty shard), "lagRecords"}]}]}
// Sequence numbers are the 21-digit strings DynamoDB Streams uses.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "triggers/config.h"
#include "triggers/metrics.h"

namespace monotable::triggers {

struct ShardStatus {
  std::string shard_id;
  bool current = false;  // the shard the worker reads now
  bool closed = false;   // the stream was disabled (its last record is final)
  std::optional<uint64_t> next;  // the saved checkpoint: first record not yet acknowledged
  std::optional<uint64_t> last;  // last settled record (nullopt: none)
  int64_t lag = 0;               // records from the delivery position to `last`
};

struct TriggerStatus {
  TriggerConfig config;
  std::shared_ptr<TriggerStats> stats;
  std::vector<ShardStatus> shards;  // oldest first
};

std::string TriggersStatusJson(const std::vector<TriggerStatus>& triggers, int64_t now_ms);

}  // namespace monotable::triggers
