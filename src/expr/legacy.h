// Legacy parameters: Expected, QueryFilter / ScanFilter, ConditionalOperator, AttributesToGet,
// AttributeUpdates and KeyConditions, validated with DynamoDB's messages and converted into the
// same bound types as the expression parameters (expression.h / key_condition.h).
//
// Contract:
// - Inputs are plain structs holding model values; the JSON layer fills them in request order
//   (maps keep the order of the request) and has already validated the AttributeValues themselves.
// - Enum strings (ComparisonOperator, ConditionalOperator, Action) are expected to be validated by
//   the JSON layer; an unknown one here yields a generic "1 validation error detected: ..." message.
// - Conditions on an absent attribute follow DynamoDB: NE and NULL are true, every other operator
//   (including NOT_CONTAINS) is false. ConditionalOperator defaults to AND; no conditions = true.
// - Messages (all "One or more parameter values were invalid: ..." unless noted):
//     Expected: "Value and AttributeValueList cannot be used together for Attribute: a",
//       "Exists and ComparisonOperator cannot be used together for Attribute: a",
//       "Value or AttributeValueList must be used with ComparisonOperator: EQ for Attribute: a",
//       "AttributeValueList can only be used with a ComparisonOperator for Attribute: a",
//       "Value must be provided when Exists is null|true for Attribute: a",
//       "Value cannot be used when Exists is false for Attribute: a", then the argument checks below;
//     every ComparisonOperator: "Invalid number of argument(s) for the EQ ComparisonOperator",
//       "AttributeValues inside AttributeValueList must be of same type",
//       "ComparisonOperator LT is not valid for BOOL AttributeValue type", and (bare) "The BETWEEN
//       condition was provided a range where the lower bound is greater than the upper bound";
//     AttributesToGet: "Duplicate value in attribute name: a";
//     AttributeUpdates: "Only DELETE action is allowed when no attribute value is specified",
//       "DELETE action with value is not supported for the type S",
//       "ADD action is not supported for the type S"; applying them may fail with (bare)
//       "Type mismatch for attribute to update";
//     KeyConditions: the argument checks, then (bare) "Conditions can be of length 1 or 2 only".
// - Before any of these, every attribute name of the parameter goes through ValidateAttributeName
//   (binder.h): "1 validation error detected: Attribute name is too large, must be less than 65536 bytes".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "expr/expression.h"
#include "expr/key_condition.h"
#include "model/attribute_value.h"

namespace monotable::expr {

struct ExpectedCondition {
  std::string attribute;
  std::optional<AttributeValue> value;
  std::optional<bool> exists;
  std::optional<std::string> comparison_operator;
  std::optional<std::vector<AttributeValue>> attribute_value_list;  // present-but-empty != absent
};

// One entry of QueryFilter, ScanFilter or KeyConditions.
struct FilterCondition {
  std::string attribute;
  std::string comparison_operator;
  std::vector<AttributeValue> attribute_value_list;
};

struct AttributeUpdate {
  std::string attribute;
  std::optional<std::string> action;  // PUT (default), ADD, DELETE
  std::optional<AttributeValue> value;
};

Result<ConditionExpression> ConvertExpected(const std::vector<ExpectedCondition>& expected,
                                            const std::optional<std::string>& conditional_operator);
Result<ConditionExpression> ConvertFilter(const std::vector<FilterCondition>& filter,
                                          const std::optional<std::string>& conditional_operator);
Result<ProjectionExpression> ConvertAttributesToGet(const std::vector<std::string>& attributes);
Result<UpdateExpression> ConvertAttributeUpdates(const std::vector<AttributeUpdate>& updates);
Result<KeyConditionParts> ConvertKeyConditions(const std::vector<FilterCondition>& conditions);

}  // namespace monotable::expr
