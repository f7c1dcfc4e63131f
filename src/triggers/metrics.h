// Trigger metrics: each trigger's state, lag and delivery counters, rendered in Prometheus text
// for GET /metrics (appended to the request metrics of src/api/metrics).
//
// Contract: counters are monotonic for the life of the process (a reload that keeps a trigger
// keeps its counters); gauges reflect the worker's last step. Recording is lock-free except the
// state name and last error (a small mutex). Label values are escaped as Prometheus requires.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "table/stream_catalog.h"

namespace monotable::triggers {

struct TriggerStats {
  std::string name;
  std::string table;
  std::atomic<uint64_t> invocations{0};
  std::atomic<uint64_t> invocation_errors{0};
  std::atomic<uint64_t> batches_delivered{0};  // invocations that acknowledged their whole batch
  std::atomic<uint64_t> records_delivered{0};  // acknowledged by the handler
  std::atomic<uint64_t> records_filtered{0};   // matched no filter: never delivered
  std::atomic<uint64_t> records_failed{0};     // sent to the on-failure destination (or dropped)
  std::atomic<uint64_t> batches_bisected{0};
  std::atomic<int64_t> oldest_unacked_ms{0};  // creation time of the oldest unacknowledged record; 0: none
  std::atomic<uint64_t> checkpoint{0};        // next sequence number to deliver

  void SetState(std::string state, std::string error = "");
  // The shard being read (nullptr: none); the lag is measured against it when rendered.
  void SetShard(const std::shared_ptr<table::StreamLog>& log, uint32_t shard);
  std::shared_ptr<table::StreamLog> Shard() const;
  uint32_t shard_index() const;
  // Records in the current shard at or past the checkpoint (settled ones: up to the watermark).
  int64_t LagRecords() const;
  std::string state() const;
  std::string last_error() const;

 private:
  mutable std::mutex mu_;
  std::string state_ = "starting";
  std::string last_error_;
  std::weak_ptr<table::StreamLog> shard_;
  uint32_t shard_index_ = 0;
};

std::string RenderTriggerMetrics(const std::vector<std::shared_ptr<TriggerStats>>& stats, int64_t now_ms);

}  // namespace monotable::triggers
