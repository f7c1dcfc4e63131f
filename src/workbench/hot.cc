// Hot partitions (checks.h): per partition value, the read and write units per second the
// declared rates send there, against DynamoDB's per-partition ceilings (3,000 RCU, 1,000 WCU).
// Rates spread evenly over a template's cardinality; a write-shard placeholder (`shards:`)
// spreads writes over its shards, while a reader that queries every shard loads each of them.
// Local index arms land in the table partition they belong to.
#include <algorithm>
#include <cmath>
#include <map>

#include "workbench/checks.h"

namespace monotable::workbench {
namespace {

constexpr double kPartitionReadUnits = 3000;
constexpr double kPartitionWriteUnits = 1000;

struct Load {
  double units = 0;
  bool static_key = false;
  bool global_index = false;
  std::vector<std::string> sources;
};

double ShardsNeeded(double units, double ceiling) { return std::max(2.0, std::ceil(units / (ceiling * 0.8))); }

}  // namespace

void CheckHotPartitions(CheckContext& ctx) {
  const Model& m = ctx.model;
  std::map<std::pair<std::string, std::string>, Load> reads, writes;  // (target, partition template) ->

  for (size_t i = 0; i < m.patterns.size(); ++i) {
    const AccessPattern& p = m.patterns[i];
    const PatternPlan& plan = ctx.report.patterns[i];
    if (!plan.served || plan.operation == "Scan" || p.rps <= 0) continue;
    const EntityDef& e = *m.FindEntity(p.entities[0]);
    auto parsed = ParseKeyTemplate(plan.partition_template);
    if (!parsed.ok()) continue;
    double partitions = 1;
    for (const auto& v : parsed->Variables()) {
      if (std::find(plan.shard_variables.begin(), plan.shard_variables.end(), v) == plan.shard_variables.end()) {
        partitions *= Cardinality(m, e, v);
      }
    }
    const TableDef& table = m.tables[p.table];
    Load& load =
        reads[{TargetName(table, p.index.empty() ? nullptr : table.FindIndex(p.index)), plan.partition_template}];
    load.units += plan.rcu_per_second / static_cast<double>(plan.fan_out) / std::max(1.0, partitions);
    load.static_key = parsed->IsStatic();
    load.sources.push_back(p.name);
  }
  for (size_t w = 0; w < m.writes.size(); ++w) {
    const WriteUseCase& use = m.writes[w];
    const WritePlan& plan = ctx.report.writes[w];
    if (use.rps <= 0) continue;
    for (const auto& arm : plan.arms) {
      const EntityDef& e = *m.FindEntity(arm.entity);
      const TableDef& table = m.tables[e.table];
      const IndexDef* index = nullptr;
      if (size_t slash = arm.target.find('/'); slash != std::string::npos)
        index = table.FindIndex(arm.target.substr(slash + 1));
      bool global = index && index->global;
      const KeyTemplate& pk = *e.Key(global ? index->partition_key.name : table.partition_key.name);
      Load& load = writes[{global ? arm.target : table.name, pk.Text()}];
      load.units += arm.wcu * use.rps / TemplateCardinality(m, e, pk);
      load.static_key = pk.IsStatic();
      load.global_index = global;
      if (std::find(load.sources.begin(), load.sources.end(), use.name) == load.sources.end())
        load.sources.push_back(use.name);
    }
  }
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
  };
  for (const auto& [key, load] : reads) {
    if (load.units <= kPartitionReadUnits) continue;
    ctx.Add("hot.read-partition", Severity::kError, "pattern", load.sources[0],
            "one partition of " + key.first + " (\"" + key.second + "\") is asked for about " + Figure(load.units) +
                " RCU per second by " + join(load.sources) + "; a partition serves at most 3,000",
            "cache the result (DAX or the application), or write " +
                Figure(ShardsNeeded(load.units, kPartitionReadUnits)) +
                " copies (a {copy} suffix 0..N-1) and let each reader pick one at random");
  }
  for (const auto& [key, load] : writes) {
    double n = ShardsNeeded(load.units, kPartitionWriteUnits);
    if (load.units > kPartitionWriteUnits) {
      ctx.Add("hot.write-partition", Severity::kError, "write", load.sources[0],
              "one partition of " + key.first + " (\"" + key.second + "\") takes about " + Figure(load.units) +
                  " WCU per second from " + join(load.sources) + "; a partition accepts at most 1,000",
              "shard the key: append #{shard} with shards: " + Figure(n) + " (\"" + key.second +
                  "#{shard}\"), writers pick a shard at random (or by hash) and readers query all " + Figure(n));
    } else if (load.static_key && load.global_index && load.units >= kPartitionWriteUnits / 10) {
      ctx.Add("hot.static-gsi-key", Severity::kWarning, "write", load.sources[0],
              "every write to " + key.first + " lands in the one partition \"" + key.second + "\" (about " +
                  Figure(load.units) + " of its 1,000 WCU per second); it caps the whole index's write rate",
              "shard it before it grows: \"" + key.second + "#{shard}\" with shards: " + Figure(std::max(n, 4.0)) +
                  ", readers query every shard and merge");
    }
  }
}

}  // namespace monotable::workbench
