// PartiQL execution: runs a planned statement (prepare.h) against the table layer.
//
// Contract:
// - Execute() runs one statement outside a transaction and records it (metrics.h):
//   SELECT reads one page (GetItem per key, or Query per partition, or a Scan), applies the WHERE
//     as a filter and the SELECT list, honours Limit (items read, before the filter), the 1 MB
//     page size and NextToken, and charges read units like GetItem (per key, each in its own
//     partition) or Query/Scan (summed sizes, rounded once; an index read to the index arm, what
//     an LSI read fetched from the table to the table arm), to the throughput model as well as
//     in `consumed` (a throttled read: ProvisionedThroughputExceededException, no items);
//   INSERT puts the item unless one with its key exists (DuplicateItemException "Duplicate
//     primary key exists in table");
//   UPDATE applies SET/REMOVE to an existing item whose extra WHERE conditions hold, else
//     ConditionalCheckFailedException; DELETE removes the item if its conditions hold and does
//     nothing when there is no item. RETURNING fills `items`; with return_old_on_failure the item
//     that failed the condition comes back in `failed_item`. A write's `consumed` holds its table
//     arm and the arm of every index it touched, as PutItem / UpdateItem / DeleteItem report.
//   On a table with an LSI a write that grows an item collection past its limit is refused with
//   ItemCollectionSizeLimitExceededException (item_collections.h), as PutItem / UpdateItem are.
//   The outcome is a value: `status` carries any error, ConditionalCheckFailed included.
// - WriteApply() is the side-effect-free apply step of a write statement (INSERT / UPDATE /
//   DELETE / EXISTS) for table::WriteAtomically, as ExecuteTransaction runs them (which adds the
//   item-collection limit, LimitItemCollection, to the writes).
// - Project() applies the SELECT list (or nothing for *) to an item.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "api/capacity.h"
#include "api/partiql/prepare.h"
#include "table/database.h"

namespace monotable::api::partiql {

struct ExecOptions {
  bool consistent = false;
  std::optional<int64_t> limit;
  std::string next_token;
  bool return_old_on_failure = false;
};

struct ExecResult {
  Status status;
  std::optional<Item> failed_item;
  std::vector<Item> items;
  std::optional<std::string> next_token;
  std::optional<Item> last_evaluated_key;
  Consumption consumed;  // table and index arms (ConsumedCapacity)
};

ExecResult Execute(table::Database& db, const PreparedStatement& s, const ExecOptions& options);
// The SELECT part of Execute (select_exec.cc).
ExecResult RunSelect(table::Database& db, const PreparedStatement& s, const ExecOptions& options);

table::ApplyFn WriteApply(const PreparedStatement& s);
// True for the outcome of an INSERT that found its key taken (alone or inside WriteApply).
bool IsDuplicateItem(const Status& status);
inline constexpr const char* kDuplicateItemMessage = "Duplicate primary key exists in table";

Item Project(const PreparedStatement& s, const Item& item);

AccessKind WriteKind(const PreparedStatement& s);

}  // namespace monotable::api::partiql
