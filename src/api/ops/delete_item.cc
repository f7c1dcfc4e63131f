// DeleteItem: removes one item by its full primary key, optionally under a condition.
#include "api/capacity.h"
#include "api/item_collections.h"
#include "api/item_request.h"
#include "api/ops/operations.h"
#include "api/request_fields.h"
#include "api/request_expressions.h"
#include "changelog/keys.h"

namespace monotable::api {
namespace {

std::string ShapeText() {
  return std::string(R"({"ReturnConsumedCapacity": )") + kReturnConsumedCapacityShape +
         R"(, "TableName": )" + kTableNameShape + R"(,
         "ReturnValues": {"type": "String", "enum": ["ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE", "UPDATED_NEW"]},
         "ReturnItemCollectionMetrics": {"type": "String", "enum": ["SIZE", "NONE"]},
         "Key": {"type": "Map<AttributeValue>", "notNull": true, "children": "AttrStruct<ValueStruct>"},
         "ConditionalOperator": {"type": "String", "enum": ["OR", "AND"]},
         "Expected": )" + kExpectedShape + R"(,
         "ConditionExpression": "String",
         "ExpressionAttributeValues": )" + kExpressionValuesShape + R"(,
         "ExpressionAttributeNames": )" + kExpressionNamesShape + R"(,
         "ReturnValuesOnConditionCheckFailure": {"type": "String", "enum": ["ALL_OLD", "NONE"]}})";
}

Status Run(OperationContext& ctx) {
  const auto& req = ctx.request;
  MT_RETURN_IF_ERROR(CheckExpressionParameters(req, kConditionKind));
  MT_ASSIGN_OR_RETURN(Item key, DecodeItemMember(req, "Key"));
  std::string_view return_values = StringOr(req, "ReturnValues", "NONE");
  if (return_values != "ALL_OLD" && return_values != "NONE") {
    return Status::Validation("ReturnValues can only be ALL_OLD or NONE");
  }
  MT_ASSIGN_OR_RETURN(RequestExpressions expressions, ParseRequestExpressions(req, kConditionKind));
  MT_ASSIGN_OR_RETURN(auto table, RequestTable(ctx));
  MT_RETURN_IF_ERROR(table::ValidateKey(*table->description, key));
  bool return_old_on_failure = StringOr(req, "ReturnValuesOnConditionCheckFailure", "NONE") == "ALL_OLD";
  std::optional<Item> failed_item;
  auto result = WriteInCollection(ctx.db, *table, key, [&](const Item* existing) -> Result<std::optional<Item>> {
    Status ok = CheckCondition(expressions, existing);
    if (!ok.ok()) {
      if (return_old_on_failure && existing) failed_item = *existing;
      return ok;
    }
    return std::optional<Item>();
  });
  if (!result.ok()) {
    if (failed_item && result.status().code() == ErrorCode::kConditionalCheckFailed) {
      ctx.error_details = [item = std::move(*failed_item)](JsonWriter& w) {
        w.Key("Item");
        WriteItem(w, item);
      };
    }
    return result.status();
  }
  ctx.out.StartObject();
  WriteReturnedAttributes(ctx.out, return_values, result->old_item);
  WriteItemCollectionMetrics(ctx, *table, key);
  Consumption consumed{WriteUnits(result->old_item ? ItemSize(*result->old_item) : 0, 0), {}, {}};
  consumed.AddIndexCosts(result->index_costs);
  WriteConsumedCapacity(ctx.out, StringOr(req, "ReturnConsumedCapacity", "NONE"), table->description->name, consumed,
                        false);
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kDeleteItem{"DeleteItem", ShapeText, nullptr, Run};

}  // namespace monotable::api
