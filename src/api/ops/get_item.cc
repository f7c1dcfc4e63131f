// GetItem: reads one item by its full primary key.
#include "api/capacity.h"
#include "api/item_request.h"
#include "api/ops/operations.h"
#include "api/read_charge.h"
#include "api/request_expressions.h"
#include "api/request_fields.h"
#include "model/item_codec.h"
#include "changelog/keys.h"

namespace monotable::api {
namespace {

std::string ShapeText() {
  return std::string(R"({"ReturnConsumedCapacity": )") + kReturnConsumedCapacityShape + R"(,
         "AttributesToGet": {"type": "List", "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 255,
                             "children": "String"},
         "TableName": )" + kTableNameShape + R"(,
         "Key": {"type": "Map<AttributeValue>", "notNull": true, "children": "AttrStruct<ValueStruct>"},
         "ConsistentRead": "Boolean",
         "ProjectionExpression": "String",
         "ExpressionAttributeNames": )" + kExpressionNamesShape + "}";
}

Status Run(OperationContext& ctx) {
  const auto& req = ctx.request;
  MT_RETURN_IF_ERROR(CheckExpressionParameters(req, kProjectionKind));
  MT_ASSIGN_OR_RETURN(Item key, DecodeItemMember(req, "Key"));
  MT_ASSIGN_OR_RETURN(RequestExpressions expressions, ParseRequestExpressions(req, kProjectionKind));
  MT_ASSIGN_OR_RETURN(auto table, RequestTable(ctx));
  MT_RETURN_IF_ERROR(table::ValidateKey(*table->description, key));
  MT_RETURN_IF_ERROR(CheckProjectionKeys(expressions, *table->description));
  // Without a projection the stored record is written out as it is, never decoded, and measured
  // in the same walk. The read is charged after the writing, which gives the item's size: a
  // throttled read answers with an error, and what was written is dropped.
  MT_ASSIGN_OR_RETURN(auto record, ctx.db.GetRecord(*table, key));
  uint64_t size = 0;
  ctx.out.StartObject();
  if (record) {
    ctx.out.Key("Item");
    if (expressions.projection) {
      MT_ASSIGN_OR_RETURN(Item item, monotable::DecodeItem(std::string_view(*record)));
      size = ItemSize(item);
      WriteItem(ctx.out, expressions.projection->Apply(item));
    } else {
      MT_RETURN_IF_ERROR(WriteEncodedItem(ctx.out, *record, &size));
    }
  }
  bool consistent = BoolMember(req, "ConsistentRead").value_or(false);
  double units = ReadUnits(size, consistent);
  MT_RETURN_IF_ERROR(ChargeItemRead(ctx.db, *table, key, units));
  WriteConsumedCapacity(ctx.out, StringOr(req, "ReturnConsumedCapacity", "NONE"), table->description->name, units,
                        true);
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kGetItem{"GetItem", ShapeText, nullptr, Run};

}  // namespace monotable::api
