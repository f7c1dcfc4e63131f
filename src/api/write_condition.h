// Bridges requests to the expression layer (src/expr): conditions of writes, updates, projections.
//
// Each Parse* reads one parameter object (a request, or one action of a transaction / one table
// of a batch) with its ExpressionAttributeNames/Values, and returns a ready-to-run function, or an
// empty function when the object has no such expression. Unused or undefined names/values and
// syntax errors are reported here, with DynamoDB's messages.
#pragma once

#include <functional>
#include <set>
#include <string>

#include "api/operation.h"

namespace monotable::api {

// Returns OK when the write may proceed, ConditionalCheckFailedException otherwise.
using WriteCondition = std::function<Status(const Item* existing)>;

struct UpdateOutcome {
  Item item;                               // the item after the update
  std::set<std::string> changed;           // top-level attributes the update touched
};
// Applies an UpdateExpression / AttributeUpdates to the existing item (nullptr: absent) with `key`.
using UpdateFn = std::function<Result<UpdateOutcome>(const Item* existing, const Item& key)>;

using ProjectFn = std::function<Item(const Item&)>;

struct WriteExpressions {
  WriteCondition condition;
  UpdateFn update;
};

// ConditionExpression / Expected (+ UpdateExpression / AttributeUpdates when `with_update`).
Result<WriteExpressions> ParseWriteExpressions(const rapidjson::Value& params, const TableDescription& table,
                                               bool with_update);

// ProjectionExpression / AttributesToGet.
Result<ProjectFn> ParseProjection(const rapidjson::Value& params);

}  // namespace monotable::api
