// Throughput: per-partition traffic counters (the console's heat map) and, when enabled,
// provisioned-throughput simulation with AWS's limits.
//
// Contract:
// - Consume() records `units` of reads or writes against the table (index == nullptr) or one of
//   its indexes, in the partition holding `partition_key`. Counters are always kept (lock-free
//   per partition; the hot-key list is sampled).
// - With simulation on, PROVISIONED tables and their GSIs throttle (LSIs share the table's
//   throughput). Three token buckets apply to a request, separately for reads and writes:
//   * the table's (or GSI's): refills at the provisioned rate R;
//   * the partition's: refills at min(R, 3,000 RCU / 1,000 WCU) (adaptive capacity lets one
//     partition use the table's whole rate up to that ceiling);
//   * the partition's ceiling: a partition never serves more than 3,000 RCU / 1,000 WCU in a
//     second, burst or not ("burst capacity can't alleviate partition-level throttling").
//   The first two keep up to burst_seconds (default 300, AWS's "up to 5 minutes of unused read
//   and write capacity") of their rate as burst credit, so one request costing more than a
//   second's rate is served once that much is banked. The docs describe burst credit as capacity
//   left unused, so none is banked at creation: a bucket starts with one second of its rate plus
//   what it would have banked since the table's creation time (a GSI's too: indexes keep no
//   creation time; a table created long ago, e.g. before a restart, starts full). The partition
//   ceiling starts full. A request without a partition key (Scan) draws on the table's bucket
//   only. A request that would overdraw any bucket consumes nothing and gets
//   ProvisionedThroughputExceededException (so one costing more than a bucket can hold is never
//   served). The partition count is AWS's
//   max(ceil(RCU / 3000 + WCU / 1000), ceil(size / 10 GB)). PAY_PER_REQUEST tables are never
//   throttled.
// - Refund() undoes a Consume() whose work was not done after all (a write retried after losing an
//   optimistic race): the units go back to the buckets, capped at what each keeps, and the counters
//   drop them.
// - The clock (epoch seconds, never going backwards) is injectable for tests.
// - HeatJson() reports the counters of a table and its indexes.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "common/status.h"
#include "model/attribute_value.h"
#include "model/table_description.h"

namespace monotable::table {

class Throughput {
 public:
  using SecondsClock = std::function<double()>;  // epoch seconds, monotonic
  static constexpr double kDefaultBurstSeconds = 300;

  // `clock` null: the steady clock, on the epoch scale.
  explicit Throughput(bool simulate = false, SecondsClock clock = nullptr);

  void set_simulate(bool on) { simulate_ = on; }
  bool simulate() const { return simulate_; }
  // Seconds of unused capacity a bucket keeps (> 0). Set before serving.
  void set_burst_seconds(double seconds) { burst_seconds_ = seconds; }
  double burst_seconds() const { return burst_seconds_; }

  Status Consume(const TableDescription& table, const IndexDescription* index, const AttributeValue* partition_key,
                 double units, bool write, int64_t table_bytes = 0);

  // Gives back what a successful Consume() with the same arguments took: its units to the buckets
  // it drew on (never beyond what they hold) and its traffic counts. For a charge whose work was
  // not done after all (a write whose commit lost a race and is retried).
  void Refund(const TableDescription& table, const IndexDescription* index, const AttributeValue* partition_key,
              double units, bool write, int64_t table_bytes = 0);

  std::string HeatJson(const TableDescription& table) const;

 private:
  struct Space;
  // Where a request lands: its bucket rates and partition.
  struct Placement {
    bool on_demand = false;
    double rate = 0, ceiling = 0;
    size_t partition = 0;
    Space* space = nullptr;  // owned by spaces_, which never drops one
  };
  Placement Place(const TableDescription& table, const IndexDescription* index, const AttributeValue* partition_key,
                  bool write, int64_t table_bytes);
  // Lock-free for a table the calling thread has seen lately (a small thread-local cache).
  Space* SpaceFor(uint32_t key_prefix);

  const uint64_t serial_;  // tells this object's entries in the thread-local cache from another's
  bool simulate_;
  double burst_seconds_ = kDefaultBurstSeconds;
  SecondsClock clock_;
  mutable std::shared_mutex mutex_;
  std::map<uint32_t, std::shared_ptr<Space>> spaces_;  // by table / index key prefix
};

}  // namespace monotable::table
