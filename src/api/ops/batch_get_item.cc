// BatchGetItem: up to 100 keys over several tables; what would push the response past 16 MB,
// and the keys the throughput model throttles, come back in UnprocessedKeys. Each item read is
// charged on its own (its own partition, its own rounding); only when every key was throttled
// does the call fail with ProvisionedThroughputExceededException, as AWS documents.
#include <set>

#include "api/capacity.h"
#include "api/item_request.h"
#include "api/ops/operations.h"
#include "api/read_charge.h"
#include "api/request_fields.h"
#include "api/request_expressions.h"
#include "model/capacity.h"
#include "model/item_codec.h"
#include "changelog/keys.h"

namespace monotable::api {
namespace {

constexpr size_t kMaxResponseBytes = 16 * 1024 * 1024;

std::string ShapeText() {
  return std::string(R"({
  "ReturnConsumedCapacity": )") + kReturnConsumedCapacityShape + R"(,
  "RequestItems": {"type": "Map<KeysAndAttributes>", "notNull": true,
    "keys": {"lengthLessThanOrEqual": 255, "lengthGreaterThanOrEqual": 3, "regex": "[a-zA-Z0-9_.-]+"},
    "children": {"type": "ValueStruct<KeysAndAttributes>", "children": {
      "Keys": {"type": "List", "notNull": true, "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 100,
               "children": {"type": "ParameterizedMap", "children": "AttrStruct<ValueStruct>"}},
      "AttributesToGet": {"type": "List", "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 255,
                          "children": "String"},
      "ConsistentRead": "Boolean",
      "ProjectionExpression": "String",
      "ExpressionAttributeNames": )" + kExpressionNamesShape + R"(}}}
})";
}

struct TableRequest {
  std::string name;  // as the request spelled it (a name or an ARN): responses use it
  const rapidjson::Value* params;
  std::shared_ptr<const table::TableHandle> table;
  std::vector<Item> keys;
  RequestExpressions expressions;  // the projection only
  bool consistent = false;
};

// An empty RequestItems map is refused after the shape's constraints, in the constraint framework's
// words (dynamodb-conformance's error-messages/batchGetItem.test.ts: by AWS's 2026-09-02 sweep every
// region but me-central-1 had moved from "The requestItems parameter is required for BatchGetItem";
// BatchWriteItem keeps its own sentence).
Status Validate(OperationContext& ctx) {
  if (Member(ctx.request, "RequestItems")->ObjectEmpty()) {
    return Status::Validation(
        "1 validation error detected: Value at 'RequestItems' failed to satisfy constraint: Member must have length "
        "greater than or equal to 1");
  }
  return Status::Ok();
}

Status Run(OperationContext& ctx) {
  std::vector<TableRequest> requests;
  size_t total = 0;
  const rapidjson::Value& items = *Member(ctx.request, "RequestItems");
  for (auto it = items.MemberBegin(); it != items.MemberEnd(); ++it) {
    TableRequest r;
    r.name.assign(it->name.GetString(), it->name.GetStringLength());
    r.params = &it->value;
    MT_RETURN_IF_ERROR(CheckExpressionParameters(it->value, kProjectionKind));
    MT_ASSIGN_OR_RETURN(RequestExpressions expressions, ParseRequestExpressions(it->value, kProjectionKind));
    r.expressions = std::move(expressions);
    std::set<std::string> seen;
    for (const auto& key_json : Member(it->value, "Keys")->GetArray()) {
      MT_ASSIGN_OR_RETURN(Item key, DecodeItem(key_json));
      if (!seen.insert(EncodeItem(key)).second) return Status::Validation("Provided list of item keys contains duplicates");
      if (++total > 100) return Status::Validation("Too many items requested for the BatchGetItem call");
      r.keys.push_back(std::move(key));
    }
    r.consistent = BoolMember(it->value, "ConsistentRead").value_or(false);
    requests.push_back(std::move(r));
  }
  for (TableRequest& r : requests) {
    std::string name = r.name.substr(0, 4) == "arn:" ? r.name.substr(r.name.rfind('/') + 1) : r.name;
    MT_ASSIGN_OR_RETURN(r.table, ctx.db.Table(name));
    for (const Item& key : r.keys) MT_RETURN_IF_ERROR(table::ValidateKey(*r.table->description, key));
    MT_RETURN_IF_ERROR(CheckProjectionKeys(r.expressions, *r.table->description));
  }

  auto& out = ctx.out;
  CapacityByTable capacity;
  size_t response_bytes = 0;
  size_t processed = 0;
  Status throttled;  // the last throttle, reported when no key could be read
  std::vector<std::pair<const TableRequest*, std::vector<const Item*>>> unprocessed;
  out.StartObject();
  out.Key("Responses");
  out.StartObject();
  for (const TableRequest& r : requests) {
    out.Key(r.name.data(), static_cast<rapidjson::SizeType>(r.name.size()));
    out.StartArray();
    std::vector<const Item*> left;
    for (const Item& key : r.keys) {
      if (response_bytes >= kMaxResponseBytes) {
        left.push_back(&key);
        continue;
      }
      MT_ASSIGN_OR_RETURN(auto item, ctx.db.GetItem(*r.table, key));
      size_t size = item ? ItemSize(*item) : 0;
      double units = monotable::ReadUnits(size, r.consistent ? ReadMode::kStrong : ReadMode::kEventual);
      Status charged = ChargeItemRead(ctx.db, *r.table, key, units);
      if (charged.code() == ErrorCode::kProvisionedThroughputExceeded) {
        throttled = std::move(charged);
        left.push_back(&key);
        continue;
      }
      MT_RETURN_IF_ERROR(charged);
      ++processed;
      capacity.Add(r.table->description->name, units);
      if (!item) continue;
      response_bytes += size;
      WriteItem(out, r.expressions.projection ? r.expressions.projection->Apply(*item) : *item);
    }
    out.EndArray();
    if (!left.empty()) unprocessed.emplace_back(&r, std::move(left));
  }
  out.EndObject();
  if (processed == 0 && !throttled.ok()) return throttled;
  out.Key("UnprocessedKeys");
  out.StartObject();
  for (const auto& [r, keys] : unprocessed) {
    out.Key(r->name.data(), static_cast<rapidjson::SizeType>(r->name.size()));
    out.StartObject();
    out.Key("Keys");
    out.StartArray();
    for (const Item* key : keys) WriteItem(out, *key);
    out.EndArray();
    for (const char* m : {"ProjectionExpression", "ExpressionAttributeNames", "AttributesToGet", "ConsistentRead"}) {
      if (const auto* v = Member(*r->params, m)) {
        out.Key(m);
        v->Accept(out);
      }
    }
    out.EndObject();
  }
  out.EndObject();
  capacity.Write(out, StringOr(ctx.request, "ReturnConsumedCapacity", "NONE"), true);
  out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kBatchGetItem{"BatchGetItem", ShapeText, Validate, Run};

}  // namespace monotable::api
