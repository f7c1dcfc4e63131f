// Model diff: what changes between two versions of a model (`monotable model diff OLD NEW`).
//
// Contract: DiffModels(old, new) lists, in this order:
// - tables added or removed, and tables whose primary key changed (they must be rebuilt);
// - indexes to add, to remove, or to rebuild (key schema or projection changed);
// - per entity, key templates that change: a table key template change rewrites every item (a
//   new key means a copy and a delete), an index key template added or changed needs a backfill
//   of the existing items (with the entity's declared count), one removed leaves stale entries
//   until the attribute is removed from the items;
// - access patterns that break (served before, not served or with new error findings now), whose
//   request changes (the application code must change with it), that are new and failing, or gone.
// Breaking() is true when a pattern breaks or a new one fails (exit status 1).
#pragma once

#include <string>
#include <vector>

#include "workbench/model.h"

namespace monotable::workbench {

struct DiffEntry {
  std::string kind;     // table, index, entity, pattern
  std::string subject;  // name ("Store", "Store/GSI1", "Order", "getOrder")
  std::string change;   // added, removed, rebuild, rewrite, backfill, stale, breaks, changed, fails
  std::string detail;
  double items = 0;  // items a rewrite or backfill touches (declared counts)
};

struct ModelDiff {
  std::vector<DiffEntry> entries;
  bool Breaking() const {
    for (const auto& e : entries)
      if (e.change == "breaks" || e.change == "fails") return true;
    return false;
  }
};

ModelDiff DiffModels(const Model& before, const Model& after);

}  // namespace monotable::workbench
