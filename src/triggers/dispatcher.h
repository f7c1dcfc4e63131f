// The trigger dispatcher: one worker thread per configured trigger that reads its table's stream
// from the trigger's checkpoint, filters, batches, invokes the handler and checkpoints, with the
// delivery semantics of a Lambda event source mapping for DynamoDB.
//
// Contract:
// - Workers run off the server's I/O and request threads; a slow or failing handler holds only
//   its own trigger. Per shard there is one batch in flight, in sequence order; a table's shards
//   (one per stream: a re-enabled stream is a new shard) are read oldest first, each to its end.
// - Starting position: when a trigger first starts (no checkpoint of it anywhere), LATEST starts
//   after the last record of each stream that exists then (and is saved at once); TRIM_HORIZON
//   and every stream created later start at the oldest untrimmed record.
// - Batching: up to BatchSize records that pass the filters; with a batching window, a partial
//   batch waits up to the window for more. Filtered-out records are acknowledged unseen.
// - Failure handling: a failed invocation is retried (backoff 100 ms doubling to 2 s) until
//   MaximumRetryAttempts retries have failed; with BisectBatchOnFunctionError a failed batch of
//   more than one record is split in two first (a split does not count as a retry). A partial
//   batch response acknowledges the records before the lowest reported one and retries from it
//   (with bisecting on too: the batch is split at that record, not halved).
//   Records past MaximumRecordAgeInSeconds, and batches out of retries, go to the on-failure
//   destination (RecordAgeExceeded / RetryAttemptsExhausted) and are acknowledged.
// - The checkpoint is saved after each acknowledgement and before the next invocation, so a crash
//   re-delivers at most the batch that was in flight.
// - Apply() replaces the configuration: unchanged triggers keep running, changed ones restart
//   from their checkpoint, removed ones stop. The destructor stops every worker (killing a
//   running handler command).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "table/database.h"
#include "triggers/checkpoint_store.h"
#include "triggers/config.h"
#include "triggers/metrics.h"
#include "triggers/status_json.h"

namespace monotable::triggers {

struct DispatcherOptions {
  std::string region = "us-east-1";
  std::string account = "000000000000";
  std::string endpoint;  // the server's URL: AWS_ENDPOINT_URL_DYNAMODB for command handlers
  int poll_ms = 50;      // how often an idle worker looks for new records
  int backoff_initial_ms = 100;
  int backoff_max_ms = 2000;
};

class Dispatcher {
 public:
  Dispatcher(table::Database& db, CheckpointStore& checkpoints, DispatcherOptions options);
  ~Dispatcher();
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  void Apply(std::vector<TriggerConfig> configs);
  std::string RenderMetrics() const;
  std::vector<std::shared_ptr<TriggerStats>> Stats() const;
  // Each running trigger whose table `visible` accepts (all when empty), with where delivery
  // stands in every shard of its table's stream; StatusJson() renders it (status_json.h).
  std::vector<TriggerStatus> Snapshot(const std::function<bool(const std::string& table)>& visible = {}) const;
  std::string StatusJson(const std::function<bool(const std::string& table)>& visible = {}) const;

 private:
  struct Running {
    TriggerConfig config;
    std::shared_ptr<TriggerStats> stats;
    std::jthread thread;
  };
  void Work(const TriggerConfig& config, TriggerStats& stats, std::stop_token stop);

  table::Database& db_;
  CheckpointStore& checkpoints_;
  DispatcherOptions options_;
  std::mutex apply_mu_;    // one Apply at a time
  mutable std::mutex mu_;  // running_ and stats_
  std::map<std::string, std::unique_ptr<Running>> running_;
  std::map<std::string, std::shared_ptr<TriggerStats>> stats_;  // kept across reloads
};

}  // namespace monotable::triggers
