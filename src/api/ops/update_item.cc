// UpdateItem: edits (or creates) one item with an UpdateExpression or legacy AttributeUpdates,
// optionally under a condition, returning NONE / ALL_OLD / UPDATED_OLD / ALL_NEW / UPDATED_NEW.
#include "api/capacity.h"
#include "api/item_collections.h"
#include "api/item_request.h"
#include "api/ops/operations.h"
#include "api/request_expressions.h"
#include "api/request_fields.h"
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
         "AttributeUpdates": {"type": "Map<AttributeValueUpdate>", "children": {
           "type": "ValueStruct<AttributeValueUpdate>", "children": {
             "Action": {"type": "String", "enum": ["DELETE", "ADD", "PUT"]},
             "Value": "AttrStruct<FieldStruct>"}}},
         "UpdateExpression": "String",
         "ConditionExpression": "String",
         "ExpressionAttributeValues": )" + kExpressionValuesShape + R"(,
         "ExpressionAttributeNames": )" + kExpressionNamesShape + R"(,
         "ReturnValuesOnConditionCheckFailure": {"type": "String", "enum": ["ALL_OLD", "NONE"]}})";
}

// An update made only of removals (REMOVE, DELETE from a set, legacy DELETE) does not create an
// absent item: DynamoDB leaves it absent and ignores the removals, even on nested paths whose parent
// would not exist. (No update at all, or an empty AttributeUpdates, does create it.)
bool OnlyRemovals(const expr::UpdateExpression& update) {
  const expr::ParsedExpression* parsed = update.parsed();
  if (!parsed || parsed->actions.empty()) return false;
  for (const auto& action : parsed->actions) {
    if (action.kind != expr::UpdateActionKind::kRemove && action.kind != expr::UpdateActionKind::kDelete) return false;
  }
  return true;
}

Status Run(OperationContext& ctx) {
  const auto& req = ctx.request;
  MT_RETURN_IF_ERROR(CheckExpressionParameters(req, kConditionKind | kUpdateKind));
  MT_ASSIGN_OR_RETURN(Item key, DecodeItemMember(req, "Key"));
  MT_ASSIGN_OR_RETURN(RequestExpressions expressions, ParseRequestExpressions(req, kConditionKind | kUpdateKind));
  MT_ASSIGN_OR_RETURN(auto table, RequestTable(ctx));
  const TableDescription& desc = *table->description;
  MT_RETURN_IF_ERROR(table::ValidateKey(desc, key));
  MT_RETURN_IF_ERROR(CheckUpdateKeys(expressions, desc));

  std::string_view return_values = StringOr(req, "ReturnValues", "NONE");
  bool return_old_on_failure = StringOr(req, "ReturnValuesOnConditionCheckFailure", "NONE") == "ALL_OLD";
  std::optional<Item> failed_item;
  std::vector<expr::DocumentPath> updated_paths;
  auto result = WriteInCollection(ctx.db, *table, key, [&](const Item* existing) -> Result<std::optional<Item>> {
    Status ok = CheckCondition(expressions, existing);
    if (!ok.ok()) {
      if (return_old_on_failure && existing) failed_item = *existing;
      return ok;
    }
    if (!expressions.update) {
      // No update at all: the item is created with its key if it does not exist.
      return std::optional<Item>(existing ? *existing : key);
    }
    if (!existing && OnlyRemovals(*expressions.update)) return std::optional<Item>();
    MT_ASSIGN_OR_RETURN(expr::UpdateOutcome outcome, expressions.update->Apply(existing, key));
    if (ItemSize(outcome.item) > 409600) {
      return Status::Validation("Item size to update has exceeded the maximum allowed size");
    }
    MT_RETURN_IF_ERROR(table::ValidateItemKeys(desc, outcome.item, table::ItemSource::kUpdate));
    updated_paths = std::move(outcome.updated_paths);
    return std::optional<Item>(std::move(outcome.item));
  }, [&](const Item* existing) -> size_t {
    // A failed condition is charged for the item the update would have written, too.
    if (!expressions.update) return ItemSize(existing ? *existing : key);
    auto outcome = expressions.update->Apply(existing, key);
    return outcome.ok() ? ItemSize(outcome->item) : 0;
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

  auto& out = ctx.out;
  out.StartObject();
  const std::optional<Item>& old_item = result->old_item;
  const std::optional<Item>& new_item = result->new_item;
  if (return_values == "ALL_OLD" && old_item) {
    out.Key("Attributes");
    WriteItem(out, *old_item);
  } else if (return_values == "ALL_NEW" && new_item) {
    out.Key("Attributes");
    WriteItem(out, *new_item);
  } else if ((return_values == "UPDATED_OLD" || return_values == "UPDATED_NEW") && !updated_paths.empty()) {
    const std::optional<Item>& source = return_values == "UPDATED_OLD" ? old_item : new_item;
    if (source) {
      Item projected = expr::ProjectionExpression(updated_paths).Apply(*source);
      if (!projected.empty()) {
        out.Key("Attributes");
        WriteItem(out, projected);
      }
    }
  }
  WriteItemCollectionMetrics(ctx, *table, key);
  size_t old_size = old_item ? ItemSize(*old_item) : 0;
  size_t new_size = new_item ? ItemSize(*new_item) : 0;
  Consumption consumed{WriteUnits(old_size, new_size), {}, {}};
  consumed.AddIndexCosts(result->index_costs);
  WriteConsumedCapacity(out, StringOr(req, "ReturnConsumedCapacity", "NONE"), desc.name, consumed, false);
  out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kUpdateItem{"UpdateItem", ShapeText, nullptr, Run};

}  // namespace monotable::api
