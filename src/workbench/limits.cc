// DynamoDB's definition limits (checks.h): 20 global secondary indexes per table (the default
// quota), 5 local secondary indexes, 100 projected non-key attributes summed over all of a table's
// indexes, a local index only on a table with a sort key, 100 items per TransactWriteItems.

#include "workbench/checks.h"

namespace monotable::workbench {

void CheckLimits(CheckContext& ctx) {
  for (const auto& t : ctx.model.tables) {
    size_t gsis = 0, lsis = 0, projected = 0;
    for (const auto& i : t.indexes) {
      (i.global ? gsis : lsis)++;
      projected += i.include.size();
    }
    if (gsis > 20) {
      ctx.Add("limit.gsi-count", Severity::kError, "table", t.name,
              std::to_string(gsis) + " global secondary indexes; a table has at most 20 (the default quota)",
              "overload indexes: generic GSI1PK/GSI1SK attributes that each entity fills with its own meaning");
    }
    if (lsis > 5) {
      ctx.Add("limit.lsi-count", Severity::kError, "table", t.name,
              std::to_string(lsis) + " local secondary indexes; a table has at most 5, fixed at creation",
              "use global secondary indexes for the rest (or overload one local index's sort key)");
    }
    if (lsis > 0 && !t.sort_key) {
      ctx.Add("limit.lsi-without-sort-key", Severity::kError, "table", t.name,
              "a local secondary index needs a table with a sort key (composite primary key)",
              "give the table a sort key, or make the index global");
    }
    if (projected > 100) {
      ctx.Add("limit.projected-attributes", Severity::kError, "table", t.name,
              std::to_string(projected) +
                  " projected non-key attributes over its indexes; DynamoDB allows 100 "
                  "summed over all of a table's secondary indexes",
              "project ALL on the index that needs many attributes, or KEYS_ONLY and read the rest from the table");
    }
  }
  for (const auto& w : ctx.model.writes) {
    double items = 0;
    for (const auto& i : w.items) items += i.count;
    if (w.transactional && items > 100) {
      ctx.Add("limit.transaction-items", Severity::kError, "write", w.name,
              "writes about " + Figure(items) + " items in one transaction; TransactWriteItems takes at most 100",
              "split the use case, or write the children outside the transaction (idempotently)");
    }
  }
}

}  // namespace monotable::workbench
