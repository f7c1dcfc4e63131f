// Key conditions: a Query's KeyConditionExpression (or legacy KeyConditions) as a partition-key
// value plus an optional sort-key condition, with DynamoDB's validation in DynamoDB's order.
//
// Contract:
// - ExtractKeyConditionParts(bound key condition) performs the table-independent checks that
//   DynamoDB applies once all the request's expressions validated (after the unused-names check):
//     OR / NOT / IN / <>           -> "Invalid operator used in KeyConditionExpression: OR" (NOT, IN, <>)
//     attribute_exists & co        -> "Invalid operator used in KeyConditionExpression: contains"
//     size()                       -> "KeyConditionExpressions cannot contain nested operations"
//     BETWEEN / begins_with not on a path
//                                  -> "Invalid condition in KeyConditionExpression: BETWEEN operator must
//                                      have the key attribute as its first operand"
//     two paths in one condition   -> "Invalid condition in KeyConditionExpression: Multiple attribute
//                                      names used in one condition"
//     a nested path                -> "KeyConditionExpressions cannot have conditions on nested attributes"
//     no path                      -> "Invalid condition in KeyConditionExpression: No key attribute specified"
//     the same attribute twice     -> "KeyConditionExpressions must only contain one condition per key"
//     not 1 or 2 conditions        -> "Conditions can be of length 1 or 2 only"
//   ":v < k" is normalised to "k > :v".
// - ResolveKeyCondition(parts, schema) applies the table's key schema (after the table lookup):
//   "Query key condition not supported", "Query condition missed key schema element: <name>",
//   "Attempted conditional constraint is not an indexable operation" (legacy NULL, NE, ...), and,
//   when the key types are known, "One or more parameter values were invalid: Condition parameter
//   type does not match schema type".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "expr/binder.h"
#include "expr/comparison.h"
#include "model/attribute_value.h"

namespace monotable::expr {

struct KeyConditionPart {
  std::string attribute;
  ComparisonOperator op = ComparisonOperator::kEq;
  std::vector<AttributeValue> values;
};
using KeyConditionParts = std::vector<KeyConditionPart>;

struct KeySchemaInfo {
  std::string partition_key;
  std::optional<std::string> sort_key;
  std::optional<AttrType> partition_type;  // optional: enables the type check
  std::optional<AttrType> sort_type;
};

struct SortKeyCondition {
  std::string attribute;
  ComparisonOperator op = ComparisonOperator::kEq;  // EQ LT LE GT GE BETWEEN BEGINS_WITH
  std::vector<AttributeValue> values;               // one value, two for BETWEEN

  bool Matches(const AttributeValue& sort_value) const;
};

struct KeyCondition {
  std::string partition_key;
  AttributeValue partition_value;
  std::optional<SortKeyCondition> sort;
};

Result<KeyConditionParts> ExtractKeyConditionParts(const ParsedExpression& parsed, const Bindings& bindings);
Result<KeyCondition> ResolveKeyCondition(const KeyConditionParts& parts, const KeySchemaInfo& schema);

}  // namespace monotable::expr
