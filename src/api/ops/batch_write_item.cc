// BatchWriteItem: up to 25 independent puts and deletes over several tables.
#include <set>

#include "api/capacity.h"
#include "api/item_collections.h"
#include "api/item_request.h"
#include "api/ops/operations.h"
#include "api/request_fields.h"
#include "changelog/keys.h"
#include "table/transaction.h"

namespace monotable::api {
namespace {

std::string ShapeText() {
  return std::string(R"({"ReturnConsumedCapacity": )") + kReturnConsumedCapacityShape + R"(,
  "ReturnItemCollectionMetrics": {"type": "String", "enum": ["SIZE", "NONE"]},
  "RequestItems": {"type": "Map<java.util.List<com.amazonaws.dynamodb.v20120810.WriteRequest>>", "notNull": true,
    "keys": {"lengthLessThanOrEqual": 255, "lengthGreaterThanOrEqual": 3, "regex": "[a-zA-Z0-9_.-]+"},
    "values": {"lengthLessThanOrEqual": 25, "lengthGreaterThanOrEqual": 1},
    "children": {"type": "List", "children": {"type": "ValueStruct<WriteRequest>", "children": {
      "DeleteRequest": {"type": "FieldStruct<DeleteRequest>", "children": {
        "Key": {"type": "Map<AttributeValue>", "notNull": true, "children": "AttrStruct<ValueStruct>"}}},
      "PutRequest": {"type": "FieldStruct<PutRequest>", "children": {
        "Item": {"type": "Map<AttributeValue>", "notNull": true, "children": "AttrStruct<ValueStruct>"}}}}}}}})";
}

struct PendingWrite {
  std::shared_ptr<const table::TableHandle> table;
  Item key;
  std::optional<Item> item;  // a put's item; nullopt for a delete
};

// An empty RequestItems map is refused in words of its own, after the shape's constraints
// (dynamodb-conformance's error-messages/batch*Item.test.ts, recorded against AWS in 2026; a few
// regions have started to answer in the constraint framework's words instead).
Status Validate(OperationContext& ctx) {
  if (Member(ctx.request, "RequestItems")->ObjectEmpty()) {
    return Status::Validation("The requestItems parameter is required for BatchWriteItem");
  }
  return Status::Ok();
}

Status Run(OperationContext& ctx) {
  const rapidjson::Value& request_items = *Member(ctx.request, "RequestItems");
  size_t total = 0;
  for (auto it = request_items.MemberBegin(); it != request_items.MemberEnd(); ++it) total += it->value.Size();
  if (total > 25) return Status::Validation("Too many items requested for the BatchWriteItem call");

  // Decode and validate everything before writing anything.
  std::vector<PendingWrite> writes;
  for (auto it = request_items.MemberBegin(); it != request_items.MemberEnd(); ++it) {
    for (const auto& request : it->value.GetArray()) {
      const rapidjson::Value* put = Member(request, "PutRequest");
      const rapidjson::Value* del = Member(request, "DeleteRequest");
      if ((put ? 1 : 0) + (del ? 1 : 0) != 1) {
        return Status::Validation(
            "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported "
            "datatypes");
      }
      PendingWrite w;
      if (put) {
        MT_ASSIGN_OR_RETURN(Item item, DecodeItemMember(*put, "Item"));
        if (ItemSize(item) > 409600) return Status::Validation("Item size has exceeded the maximum allowed size");
        w.item = std::move(item);
      } else {
        MT_ASSIGN_OR_RETURN(w.key, DecodeItemMember(*del, "Key"));
      }
      writes.push_back(std::move(w));
    }
  }
  size_t next = 0;
  for (auto it = request_items.MemberBegin(); it != request_items.MemberEnd(); ++it) {
    std::string name(it->name.GetString(), it->name.GetStringLength());
    if (name.substr(0, 4) == "arn:") name = name.substr(name.rfind('/') + 1);
    MT_ASSIGN_OR_RETURN(auto table, ctx.db.Table(name));
    std::set<std::string> seen;
    for (rapidjson::SizeType i = 0; i < it->value.Size(); ++i) {
      PendingWrite& w = writes[next++];
      w.table = table;
      const TableDescription& desc = *table->description;
      if (w.item) {
        Status valid = table::ValidateItemKeys(desc, *w.item);
        if (!valid.ok()) {
          if (valid.message().find("Missing the key") != std::string::npos ||
              valid.message().find("Type mismatch for key") != std::string::npos) {
            return Status::Validation("The provided key element does not match the schema");
          }
          return valid;
        }
        w.key = table::ExtractKey(desc, *w.item);
      } else {
        MT_RETURN_IF_ERROR(table::ValidateKey(desc, w.key));
      }
      if (!seen.insert(table::ItemKeyOf(desc, w.key)).second) {
        return Status::Validation("Provided list of item keys contains duplicates");
      }
    }
  }

  // One engine commit for the whole batch (the writes stay independent: no condition ties them).
  std::vector<table::WriteAction> actions;
  actions.reserve(writes.size());
  for (const PendingWrite& w : writes) {
    table::ApplyFn apply = [&w](const Item*) -> Result<std::optional<Item>> { return w.item; };
    if (!w.table->description->local_indexes.empty()) {
      apply = LimitItemCollection(ctx.db, *w.table, w.key, std::move(apply));
    }
    actions.push_back({w.table.get(), w.key, std::move(apply), false, nullptr});
  }
  MT_ASSIGN_OR_RETURN(auto committed, table::WriteAtomically(ctx.db, actions, table::WriteCharge::kStandard,
                                                             /*max_attempts=*/1 << 20,
                                                             table::Grouping::kEachOnItsOwn));

  CapacityByTable capacity;
  ItemCollectionMetricsByTable metrics(ctx.request);
  // Writes the throughput model throttles come back in UnprocessedItems, as on AWS; only when
  // every write was throttled does the whole call fail.
  std::vector<const PendingWrite*> unprocessed;
  for (size_t i = 0; i < writes.size(); ++i) {
    const PendingWrite& w = writes[i];
    if (!committed.outcomes[i].ok()) {
      unprocessed.push_back(&w);
      continue;
    }
    const table::WriteResult& result = committed.results[i];
    double u = WriteUnits(result.old_item ? ItemSize(*result.old_item) : 0, w.item ? ItemSize(*w.item) : 0);
    Consumption consumed{u, {}, {}};
    consumed.AddIndexCosts(result.index_costs);
    capacity.Add(w.table->description->name, consumed);
    metrics.Add(ctx.db, *w.table, w.key);
  }

  if (!writes.empty() && unprocessed.size() == writes.size()) {
    return Status(ErrorCode::kProvisionedThroughputExceeded,
                  "The level of configured provisioned throughput for the table was exceeded. Consider increasing "
                  "your provisioning level with the UpdateTable API.");
  }
  auto& out = ctx.out;
  out.StartObject();
  out.Key("UnprocessedItems");
  out.StartObject();
  for (size_t i = 0; i < unprocessed.size();) {
    const std::string& name = unprocessed[i]->table->description->name;
    out.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()));
    out.StartArray();
    for (; i < unprocessed.size() && unprocessed[i]->table->description->name == name; ++i) {
      out.StartObject();
      if (unprocessed[i]->item) {
        out.Key("PutRequest");
        out.StartObject();
        out.Key("Item");
        WriteItem(out, *unprocessed[i]->item);
      } else {
        out.Key("DeleteRequest");
        out.StartObject();
        out.Key("Key");
        WriteItem(out, unprocessed[i]->key);
      }
      out.EndObject();
      out.EndObject();
    }
    out.EndArray();
  }
  out.EndObject();
  capacity.Write(out, StringOr(ctx.request, "ReturnConsumedCapacity", "NONE"), false);
  metrics.Write(out);
  out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kBatchWriteItem{"BatchWriteItem", ShapeText, Validate, Run};

}  // namespace monotable::api
