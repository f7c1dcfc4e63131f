// Throughput: per-partition traffic counters (the console's heat map) and, when enabled,
// provisioned-throughput simulation with AWS's limits.
//
// Contract:
// - Consume() records `units` of reads or writes against the table (index == nullptr) or one of
//   its indexes, in the partition holding `partition_key`. Counters are always kept (lock-free
//   per partition; the hot-key list is sampled).
// - With simulation on, PROVISIONED tables and their GSIs throttle: a table/index token bucket
//   refills at the provisioned rate and holds up to 300 s of unused capacity (burst credit); each
//   partition may serve at most 3,000 RCU / 1,000 WCU per second (adaptive capacity lets one
//   partition use the table's whole rate up to that cap). The partition count is AWS's
//   max(ceil(RCU / 3000 + WCU / 1000), ceil(size / 10 GB)). A request that would overdraw either
//   bucket consumes nothing and gets ProvisionedThroughputExceededException. PAY_PER_REQUEST
//   tables are never throttled.
// - HeatJson() reports the counters of a table and its indexes.
#pragma once

#include <atomic>
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
  explicit Throughput(bool simulate = false) : simulate_(simulate) {}

  void set_simulate(bool on) { simulate_ = on; }
  bool simulate() const { return simulate_; }

  Status Consume(const TableDescription& table, const IndexDescription* index, const AttributeValue* partition_key,
                 double units, bool write, int64_t table_bytes = 0);

  std::string HeatJson(const TableDescription& table) const;

 private:
  struct Space;
  std::shared_ptr<Space> SpaceFor(uint32_t key_prefix);

  bool simulate_;
  mutable std::shared_mutex mutex_;
  std::map<uint32_t, std::shared_ptr<Space>> spaces_;  // by table / index key prefix
};

}  // namespace monotable::table
