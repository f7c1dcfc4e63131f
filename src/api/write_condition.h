// The condition of a conditional write (ConditionExpression or legacy Expected/ConditionalOperator),
// parsed once per request and evaluated by the table layer against the current item.
#pragma once

#include <functional>

#include "api/operation.h"

namespace monotable::api {

// Returns OK when the write may proceed, ConditionalCheckFailedException otherwise.
using WriteCondition = std::function<Status(const Item* existing)>;

// Parses the request's condition; an empty function when the request has none.
Result<WriteCondition> ParseWriteCondition(OperationContext& ctx);

}  // namespace monotable::api
