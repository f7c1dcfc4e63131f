// Bridges requests to the expression layer (src/expr): every expression of one parameter object
// (a request, one transaction action, one table of a batch) parsed, bound and validated together,
// in DynamoDB's order, with DynamoDB's messages.
//
// Contract: ParseRequestExpressions needs no table; it checks the maps themselves, each
// expression (UpdateExpression, ConditionExpression, KeyConditionExpression, FilterExpression,
// ProjectionExpression, and their legacy forms Expected, AttributeUpdates, KeyConditions,
// QueryFilter/ScanFilter, AttributesToGet) and unused names/values. Table-dependent checks
// (key attributes in updates, filters or projections) are separate functions, called after the
// table lookup as DynamoDB does.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "api/operation.h"
#include "expr/expression.h"
#include "expr/key_condition.h"

namespace monotable::api {

enum ExpressionKind : unsigned {
  kConditionKind = 1,   // ConditionExpression / Expected
  kUpdateKind = 2,      // UpdateExpression / AttributeUpdates
  kKeyConditionKind = 4,  // KeyConditionExpression / KeyConditions
  kFilterKind = 8,      // FilterExpression / QueryFilter / ScanFilter
  kProjectionKind = 16,  // ProjectionExpression / AttributesToGet
};

struct RequestExpressions {
  expr::ConditionExpression condition;  // empty: always true
  std::optional<expr::UpdateExpression> update;
  std::optional<expr::KeyConditionParts> key_condition;
  bool legacy_key_conditions = false;
  expr::ConditionExpression filter;
  bool legacy_filter = false;
  std::optional<expr::ProjectionExpression> projection;
};

// The first checks DynamoDB makes on a request (before its Item/Key values): no mix of legacy and
// expression parameters, no ExpressionAttributeNames/Values without an expression.
Status CheckExpressionParameters(const rapidjson::Value& params, unsigned kinds);

Result<RequestExpressions> ParseRequestExpressions(const rapidjson::Value& params, unsigned kinds);

// ConditionalCheckFailedException unless the condition holds for `existing` (nullptr: absent).
Status CheckCondition(const RequestExpressions& e, const Item* existing);

// Key attributes may not be updated, nor addressed through nested paths.
Status CheckUpdateKeys(const RequestExpressions& e, const TableDescription& table);
// Projections may not use nested paths into key attributes ("Key attributes must be scalars; ...").
Status CheckProjectionKeys(const RequestExpressions& e, const TableDescription& table);
// Nor may a Scan's FilterExpression (a Query's filter may not name key attributes at all).
Status CheckFilterKeys(const RequestExpressions& e, const TableDescription& table);

}  // namespace monotable::api
