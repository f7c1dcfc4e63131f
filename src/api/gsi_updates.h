// UpdateTable's GlobalSecondaryIndexUpdates: Create (online, backfilled), Update (throughput)
// and Delete, with DynamoDB's validation: one create or delete per call, attribute definitions
// for new key attributes that may not redefine existing types, no duplicate index names.
#pragma once

#include <optional>
#include <string>

#include "api/operation.h"

namespace monotable::api {

// A GSI key schema (CreateTable and UpdateTable Create): 1-4 HASH attributes, then 0-4 RANGE
// attributes (multi-attribute keys), no attribute twice.
Status CheckGlobalIndexKeySchema(const std::vector<KeyElement>& keys);

// A secondary index's Projection (CreateTable and UpdateTable Create): a ProjectionType, and
// NonKeyAttributes exactly when it is INCLUDE, each attribute once.
Status CheckProjection(const rapidjson::Value& projection);

// Validation that needs only the request (runs before the table is looked up).
Status ValidateGsiUpdates(const rapidjson::Value& request);

// What ApplyGsiUpdates changed that needs background work once the description is published.
struct GsiChange {
  std::optional<std::string> created;     // index to backfill
  std::optional<uint32_t> dropped_prefix;  // key space of a removed index, to drop
};

// Applies the updates to `table` (called inside Catalog::Modify: no catalog calls here).
// `new_index_prefix` is the key space for a created index, allocated by the caller.
Status ApplyGsiUpdates(OperationContext& ctx, TableDescription& table, std::optional<uint32_t> new_index_prefix,
                       GsiChange& change);

}  // namespace monotable::api
