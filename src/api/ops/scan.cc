// Scan: reads a table or index in partition-hash order, optionally as one segment of a parallel scan.
#include "api/item_request.h"
#include "api/ops/operations.h"
#include "api/read_request.h"
#include "api/request_fields.h"

namespace monotable::api {
namespace {

std::string ShapeText() {
  return std::string(R"({
  "AttributesToGet": {"type": "List", "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 255, "children": "String"},
  "ExclusiveStartKey": {"type": "Map<AttributeValue>", "children": "AttrStruct<ValueStruct>"},
  "IndexName": {"type": "String", "regex": "[a-zA-Z0-9_.-]+", "lengthGreaterThanOrEqual": 3, "lengthLessThanOrEqual": 255},
  "Segment": {"type": "Integer", "greaterThanOrEqual": 0, "lessThanOrEqual": 999999},
  "ConditionalOperator": {"type": "String", "enum": ["OR", "AND"]},
  "Select": {"type": "String", "enum": ["SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES"]},
  "ScanFilter": {"type": "Map<Condition>", "children": {"type": "ValueStruct<Condition>", "children": {
    "AttributeValueList": {"type": "List", "children": "AttrStruct<ValueStruct>"},
    "ComparisonOperator": {"type": "String", "notNull": true, "enum": ["IN", "NULL", "BETWEEN", "LT", "NOT_CONTAINS",
      "EQ", "GT", "NOT_NULL", "NE", "LE", "BEGINS_WITH", "GE", "CONTAINS"]}}}},
  "Limit": {"type": "Integer", "greaterThanOrEqual": 1},
  "TotalSegments": {"type": "Integer", "greaterThanOrEqual": 1, "lessThanOrEqual": 1000000},
  "TableName": )") + kTableNameShape + R"(,
  "ReturnConsumedCapacity": )" + kReturnConsumedCapacityShape + R"(,
  "ConsistentRead": "Boolean",
  "FilterExpression": "String",
  "ProjectionExpression": "String",
  "ExpressionAttributeValues": )" + kExpressionValuesShape + R"(,
  "ExpressionAttributeNames": )" + kExpressionNamesShape + "}";
}

Status Validate(OperationContext& ctx) {
  const auto& req = ctx.request;
  MT_RETURN_IF_ERROR(CheckExpressionParameters(req, kFilterKind | kProjectionKind));
  auto segment = IntMember(req, "Segment");
  auto total = IntMember(req, "TotalSegments");
  if (segment && !total) {
    return Status::Validation(
        "The TotalSegments parameter is required but was not present in the request when Segment parameter is "
        "present");
  }
  if (total) {
    if (!segment) {
      return Status::Validation(
          "The Segment parameter is required but was not present in the request when parameter TotalSegments is "
          "present");
    }
    if (*segment >= *total) {
      return Status::Validation(
          "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: " +
          std::to_string(*segment) + " is not less than TotalSegments: " + std::to_string(*total));
    }
  }
  return Status::Ok();
}

Status Run(OperationContext& ctx) {
  ReadPlan plan;
  MT_RETURN_IF_ERROR(PrepareRead(ctx, plan, kFilterKind | kProjectionKind));
  MT_RETURN_IF_ERROR(FinishRead(plan));
  int segment = static_cast<int>(IntMember(ctx.request, "Segment").value_or(0));
  int total = static_cast<int>(IntMember(ctx.request, "TotalSegments").value_or(1));
  if (plan.exclusive_start && total > 1 &&
      !table::InScanSegment(*plan.table->description, plan.index, *plan.exclusive_start, segment, total)) {
    return Status::Validation(
        "The provided Exclusive start key does not map to the provided Segment and TotalSegments values.");
  }
  MT_ASSIGN_OR_RETURN(table::Page page, table::ScanSegment(ctx.db, *plan.table, plan.index, segment, total, plan.page));
  return WriteReadResponse(ctx, plan, std::move(page));
}

}  // namespace

const Operation kScan{"Scan", ShapeText, Validate, Run};

}  // namespace monotable::api
