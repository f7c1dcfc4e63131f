// The families of static checks `monotable model check` runs, and the helpers they share.
//
// Contract:
// - Each Check* function reads the model, appends findings (and, for PlanAccessPatterns and
//   CheckCosts, plans) to the context's report, and never fails: a model that ParseModel accepted
//   can always be checked. RunChecks (check.h) calls them in the order declared here.
// - Estimates assume keys spread evenly over their declared cardinalities: Cardinality(entity,
//   attribute) is the attribute's `values` count, `shards`, `cardinality` hint, else the count of
//   the smallest entity that has the attribute in a key template, else the entity's count.
// - Finding codes are stable; docs/workbench/model-format.md lists each with its meaning.
#pragma once

#include <map>
#include <string>

#include "workbench/findings.h"
#include "workbench/model.h"
#include "workbench/sizes.h"

namespace monotable::workbench {

struct CheckContext {
  const Model& model;
  CheckReport& report;
  const ModelSizes& sizes;

  void Add(std::string code, Severity severity, std::string kind, std::string subject, std::string message,
           std::string fix) {
    report.findings.push_back(
        {std::move(code), severity, std::move(kind), std::move(subject), std::move(message), std::move(fix), false});
  }
};

// The key attributes of the table (index == nullptr) or of one of its indexes.
struct IndexKeyNames {
  const KeyAttribute* partition = nullptr;
  const KeyAttribute* sort = nullptr;
};
IndexKeyNames KeyNamesOf(const TableDef& table, const IndexDef* index);

// An entity's templates for those key attributes; `indexed` is false when the entity lacks one
// (it has no entry in that sparse index).
struct EntityKeys {
  const KeyTemplate* partition = nullptr;
  const KeyTemplate* sort = nullptr;
  bool indexed = false;
};
EntityKeys KeysOn(const EntityDef& entity, const TableDef& table, const IndexDef* index);

double Cardinality(const Model& model, const EntityDef& entity, const std::string& attribute);
// Distinct values the template's placeholders take together, at most the entity's count.
double TemplateCardinality(const Model& model, const EntityDef& entity, const KeyTemplate& t);
// A placeholder that is a write-shard suffix (`shards:` on the attribute) of this entity.
const AttributeDef* ShardAttribute(const EntityDef& entity, const std::string& attribute);
// "Store" or "Store/GSI1".
std::string TargetName(const TableDef& table, const IndexDef* index);
// 1234.5 -> "1,235"; 0.25 -> "0.25".
std::string Figure(double v);

void PlanAccessPatterns(CheckContext& ctx);  // access.cc: request per pattern, scan/filter/buildable, bleed
void CheckKeyCollisions(CheckContext& ctx);  // keys.cc: two entities that can build the same key
void CheckSortOrder(CheckContext& ctx);      // order.cc: padding, UTC times, case where order matters
void CheckCosts(CheckContext& ctx);          // cost.cc: RCU per pattern, WCU per write, 400 KB, 10 GB
void CheckHotPartitions(CheckContext& ctx);  // hot.cc: 3,000 RCU / 1,000 WCU per partition, static keys
void CheckRelationships(CheckContext& ctx);  // relationships.cc: reverse edges, unbounded lists
void CheckLimits(CheckContext& ctx);         // limits.cc: 20 GSIs, 5 LSIs, 100 projected attributes

}  // namespace monotable::workbench
