// UpdateTable's GlobalSecondaryIndexUpdates: Create (online, backfilled), Update (throughput)
// and Delete, with DynamoDB's validation: one create or delete per call, attribute definitions
// for new key attributes that may not redefine existing types, no duplicate index names.
#pragma once

#include "api/operation.h"

namespace monotable::api {

// Validation that needs only the request (runs before the table is looked up).
Status ValidateGsiUpdates(const rapidjson::Value& request);

// Applies the updates to `table` (a copy of the current description). When an index is created
// or deleted, `started` is set: the change was published and the caller must not publish again.
Status ApplyGsiUpdates(OperationContext& ctx, TableDescription& table, bool& started);

}  // namespace monotable::api
