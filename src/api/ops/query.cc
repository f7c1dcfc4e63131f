// Query: one partition of a table or index, in sort-key order, under a key condition.
#include <set>

#include "api/item_request.h"
#include "api/ops/operations.h"
#include "api/read_request.h"
#include "api/request_fields.h"
#include "table/index_entries.h"

namespace monotable::api {
namespace {

std::string ShapeText() {
  std::string condition_map = R"({"type": "Map<Condition>", "children": {"type": "ValueStruct<Condition>",
    "children": {"AttributeValueList": {"type": "List", "children": "AttrStruct<ValueStruct>"},
      "ComparisonOperator": {"type": "String", "notNull": true, "enum": ["IN", "NULL", "BETWEEN", "LT",
        "NOT_CONTAINS", "EQ", "GT", "NOT_NULL", "NE", "LE", "BEGINS_WITH", "GE", "CONTAINS"]}}}})";
  return std::string(R"({
  "AttributesToGet": {"type": "List", "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 255, "children": "String"},
  "QueryFilter": )") + condition_map + R"(,
  "ConditionalOperator": {"type": "String", "enum": ["OR", "AND"]},
  "TableName": )" + kTableNameShape + R"(,
  "ExclusiveStartKey": {"type": "Map<AttributeValue>", "children": "AttrStruct<ValueStruct>"},
  "ReturnConsumedCapacity": )" + kReturnConsumedCapacityShape + R"(,
  "ScanIndexForward": "Boolean",
  "Select": {"type": "String", "enum": ["SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES"]},
  "KeyConditions": )" + condition_map + R"(,
  "IndexName": {"type": "String", "regex": "[a-zA-Z0-9_.-]+", "lengthGreaterThanOrEqual": 3, "lengthLessThanOrEqual": 255},
  "ConsistentRead": "Boolean",
  "Limit": {"type": "Integer", "greaterThanOrEqual": 1},
  "FilterExpression": "String",
  "ProjectionExpression": "String",
  "KeyConditionExpression": "String",
  "ExpressionAttributeValues": )" + kExpressionValuesShape + R"(,
  "ExpressionAttributeNames": )" + kExpressionNamesShape + "}";
}

constexpr unsigned kKinds = kKeyConditionKind | kFilterKind | kProjectionKind;

Status Validate(OperationContext& ctx) {
  const auto& req = ctx.request;
  MT_RETURN_IF_ERROR(CheckExpressionParameters(req, kKinds));
  if (!Member(req, "KeyConditions") && !Member(req, "KeyConditionExpression")) {
    return Status::Validation(
        "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.");
  }
  return Status::Ok();
}

Result<table::SortOp> SortOpOf(expr::ComparisonOperator op) {
  switch (op) {
    case expr::ComparisonOperator::kEq: return table::SortOp::kEq;
    case expr::ComparisonOperator::kLt: return table::SortOp::kLt;
    case expr::ComparisonOperator::kLe: return table::SortOp::kLe;
    case expr::ComparisonOperator::kGt: return table::SortOp::kGt;
    case expr::ComparisonOperator::kGe: return table::SortOp::kGe;
    case expr::ComparisonOperator::kBetween: return table::SortOp::kBetween;
    case expr::ComparisonOperator::kBeginsWith: return table::SortOp::kBeginsWith;
    default: return Status::Validation("Query key condition not supported");
  }
}

Status Run(OperationContext& ctx) {
  ReadPlan plan;
  MT_RETURN_IF_ERROR(PrepareRead(ctx, plan, kKinds));
  const TableDescription& table = *plan.table->description;
  const std::vector<KeyElement>& keys = plan.index ? plan.index->key_schema : table.key_schema;
  expr::KeySchemaInfo schema;
  schema.partition_key = keys[0].name;
  schema.partition_type = table.AttributeType(keys[0].name);
  if (keys.size() > 1) {
    schema.sort_key = keys[1].name;
    schema.sort_type = table.AttributeType(keys[1].name);
  }
  MT_ASSIGN_OR_RETURN(expr::KeyCondition key_condition,
                      expr::ResolveKeyCondition(*plan.expressions.key_condition, schema));

  // Filters may not use the queried key attributes.
  if (!plan.expressions.filter.empty()) {
    std::vector<std::string> heads = plan.expressions.filter.PathHeads();
    for (const auto& k : keys) {
      if (std::find(heads.begin(), heads.end(), k.name) != heads.end()) {
        return Status::Validation(std::string(plan.expressions.legacy_filter ? "QueryFilter" : "Filter Expression") +
                                  " can only contain non-primary key attributes: Primary key attribute: " + k.name);
      }
    }
  }

  table::SortCondition sort;
  if (key_condition.sort) {
    MT_ASSIGN_OR_RETURN(sort.op, SortOpOf(key_condition.sort->op));
    sort.first = key_condition.sort->values.at(0);
    if (sort.op == table::SortOp::kBetween) sort.second = key_condition.sort->values.at(1);
  }
  if (plan.exclusive_start) {
    const AttributeValue& start_partition = plan.exclusive_start->at(keys[0].name);
    if (!(start_partition == key_condition.partition_value)) {
      return Status::Validation("The provided starting key is outside query boundaries based on provided conditions");
    }
    if (key_condition.sort && keys.size() > 1 &&
        !key_condition.sort->Matches(plan.exclusive_start->at(keys[1].name))) {
      return Status::Validation("The provided starting key does not match the range key predicate");
    }
  }
  plan.page.forward = BoolMember(ctx.request, "ScanIndexForward").value_or(true);
  MT_ASSIGN_OR_RETURN(table::Page page, table::QueryPartition(ctx.db, *plan.table, plan.index,
                                                              {key_condition.partition_value}, sort, plan.page));
  return WriteReadResponse(ctx, plan, std::move(page));
}

}  // namespace

const Operation kQuery{"Query", ParseShape(ShapeText()), Validate, Run};

}  // namespace monotable::api
