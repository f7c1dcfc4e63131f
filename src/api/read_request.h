// Shared request handling of Query and Scan: index resolution, Select rules, ExclusiveStartKey
// validation, the filter/projection step and the response (Items, Count, ScannedCount,
// LastEvaluatedKey, ConsumedCapacity).
//
// Contract (DynamoDB's order of checks, each with DynamoDB's message):
// - PrepareRead: Select against ProjectionExpression/AttributesToGet (Query wraps these messages
//   in "1 validation error detected: ", Scan does not), ExclusiveStartKey values, the request's
//   expressions, then the table, IndexName, ConsistentRead on a GSI and the ExclusiveStartKey
//   against the key schema of what is read (table keys plus the index keys).
//   A Query on a multi-attribute GSI may carry up to 8 key conditions: the expression layer's
//   "Conditions can be of length 1 or 2 only" is lifted for those indexes only.
// - FinishRead (after the key condition): nested paths into key attributes, a Query filter on
//   the read's key attributes, then on an index that does not project ALL: a Query filter naming
//   attributes the index does not project, GSI or LSI ("Secondary index X does not project one or
//   more filter attributes: [a, b]", sorted; a Scan's filter is evaluated on the index entries,
//   where those attributes are absent), Select=ALL_ATTRIBUTES on such a GSI, a GSI read asking
//   for attributes it does not project (ProjectionExpression/AttributesToGet: "Global secondary
//   index X does not project [a, b]"), and whether items must be fetched from the table (an LSI
//   read asking for attributes the index does not project, or for ALL_ATTRIBUTES).
// - WriteReadResponse: one page, filtered after the read (Count vs ScannedCount), projected,
//   with the capacity of every byte read (index entries, plus table items fetched for an LSI).
#pragma once

#include <functional>
#include <optional>

#include "api/operation.h"
#include "api/request_expressions.h"
#include "table/reader.h"

namespace monotable::api {

struct ReadPlan {
  std::shared_ptr<const table::TableHandle> table;
  const IndexDescription* index = nullptr;
  bool is_query = false;
  bool consistent = false;
  std::string select;              // ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES, SPECIFIC_ATTRIBUTES, COUNT
  bool fetch_from_table = false;   // LSI read needing attributes the index does not project
  std::optional<Item> exclusive_start;
  table::PageOptions page;
  // Query: the partition read (throughput model); Scan: none.
  std::optional<AttributeValue> partition_key;
  // Key condition (Query), filter and projection.
  RequestExpressions expressions;

  // The key attributes of what is read: the index's (HASH then RANGE), else the table's.
  std::vector<std::string> ReadKeyNames() const;
};

// Parses the request's expressions of `kinds`, then resolves table and index and checks
// ConsistentRead/Select/Limit/ExclusiveStartKey as DynamoDB does.
Status PrepareRead(OperationContext& ctx, ReadPlan& plan, unsigned kinds);

// The checks DynamoDB makes after the key condition (see the contract above).
Status FinishRead(ReadPlan& plan);

// Filters, projects and writes the response for one page.
Status WriteReadResponse(OperationContext& ctx, const ReadPlan& plan, table::Page page);

}  // namespace monotable::api
