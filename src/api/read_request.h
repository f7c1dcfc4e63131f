// Shared request handling of Query and Scan: index resolution, Select rules, ExclusiveStartKey
// validation, the filter/projection step and the response (Items, Count, ScannedCount,
// LastEvaluatedKey, ConsumedCapacity).
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
  bool consistent = false;
  std::string select;                       // ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES, SPECIFIC_ATTRIBUTES, COUNT
  bool fetch_from_table = false;            // LSI read of ALL_ATTRIBUTES with a narrower projection
  std::optional<Item> exclusive_start;
  table::PageOptions page;
  // Key condition (Query), filter and projection.
  RequestExpressions expressions;
};

// Parses the request's expressions of `kinds`, then resolves table and index and checks
// ConsistentRead/Select/Limit/ExclusiveStartKey as DynamoDB does.
Status PrepareRead(OperationContext& ctx, ReadPlan& plan, unsigned kinds);

// Filters, projects and writes the response for one page.
Status WriteReadResponse(OperationContext& ctx, const ReadPlan& plan, table::Page page);

}  // namespace monotable::api
