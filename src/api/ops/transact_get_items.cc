// TransactGetItems: up to 100 Gets read from one consistent snapshot, each charged at the
// transactional rate; a throttled read cancels the whole transaction (read_charge.h), and so does
// a key that does not match its table (ValidationError); malformed expressions, unknown tables,
// empty key values, two Gets of one item and items totalling over 4 MB refuse the whole request.
#include <set>

#include "api/capacity.h"
#include "api/item_request.h"
#include "api/ops/operations.h"
#include "api/read_charge.h"
#include "api/request_fields.h"
#include "api/request_expressions.h"
#include "api/transaction_cancel.h"
#include "changelog/keys.h"
#include "table/transaction.h"

namespace monotable::api {
namespace {

std::string ShapeText() {
  return std::string(R"({
  "ReturnConsumedCapacity": )") + kReturnConsumedCapacityShape + R"(,
  "TransactItems": {"type": "List", "notNull": true, "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 100,
    "children": {"type": "ValueStruct<TransactGetItem>", "children": {
      "Get": {"type": "FieldStruct<Get>", "notNull": true, "children": {
        "Key": {"type": "Map<AttributeValue>", "notNull": true, "children": "AttrStruct<ValueStruct>"},
        "TableName": )" + kTableNameShape + R"(,
        "ProjectionExpression": "String",
        "ExpressionAttributeNames": )" + kExpressionNamesShape + R"(}}}}}
})";
}

constexpr size_t kMaxTransactionItems = 4 * 1024 * 1024;

Status Run(OperationContext& ctx) {
  std::vector<table::ReadTarget> targets;
  std::vector<std::optional<expr::ProjectionExpression>> projections;
  for (const auto& entry : Member(ctx.request, "TransactItems")->GetArray()) {
    const rapidjson::Value& get = *Member(entry, "Get");
    MT_RETURN_IF_ERROR(CheckExpressionParameters(get, kProjectionKind));
    MT_ASSIGN_OR_RETURN(Item key, DecodeItemMember(get, "Key"));
    MT_ASSIGN_OR_RETURN(RequestExpressions expressions, ParseRequestExpressions(get, kProjectionKind));
    MT_ASSIGN_OR_RETURN(auto table, ctx.db.Table(TableNameOf(get)));
    MT_RETURN_IF_ERROR(CheckProjectionKeys(expressions, *table->description));
    targets.push_back({std::move(table), std::move(key)});
    projections.push_back(std::move(expressions.projection));
  }
  for (const auto& t : targets) MT_RETURN_IF_ERROR(CheckKeyValuesNotEmpty(*t.table->description, t.key));
  // A key that does not match its table's schema (a user error in one action) cancels the
  // transaction: ValidationError for the first such Get, None for the others.
  for (size_t i = 0; i < targets.size(); ++i) {
    Status valid = table::ValidateKey(*targets[i].table->description, targets[i].key);
    if (valid.ok()) continue;
    std::vector<Status> outcomes(targets.size(), Status::Ok());
    outcomes[i] = std::move(valid);
    std::vector<const char*> codes;
    for (const Status& s : outcomes) codes.push_back(CancellationCode(s));
    return TransactionCanceled(ctx, std::move(outcomes), std::move(codes));
  }
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& t : targets) {
    if (!seen.emplace(t.table->description->name, table::ItemKeyOf(*t.table->description, t.key)).second) {
      return Status::Validation("Transaction request cannot include multiple operations on one item");
    }
  }
  size_t conflict = 0;
  auto read = table::ReadConsistent(ctx.db, targets, &conflict);
  if (read.status().code() == ErrorCode::kTransactionConflict) {
    std::vector<Status> outcomes(targets.size(), Status::Ok());
    outcomes[conflict] = read.status();
    std::vector<const char*> codes;
    for (const Status& s : outcomes) codes.push_back(CancellationCode(s));
    return TransactionCanceled(ctx, std::move(outcomes), std::move(codes));
  }
  MT_RETURN_IF_ERROR(read.status());
  auto items = std::move(read).value();
  // The items read may total at most 4 MB (API reference: "DynamoDB rejects the entire
  // TransactGetItems request if ... the aggregate size of the items in the transaction exceeded
  // 4 MB"). AWS's text is not recorded; this is DynamoDB Local's: the sum up to the item that
  // crossed the limit, appended as it appends it.
  size_t total = 0;
  for (const auto& item : items) {
    if (item) total += ItemSize(*item);
    if (total > kMaxTransactionItems) {
      return Status::Validation("Payload in response is too large." + std::to_string(total));
    }
  }
  MT_ASSIGN_OR_RETURN(CapacityByTable capacity, ChargeTransactionalReads(ctx, targets, items));
  auto& out = ctx.out;
  out.StartObject();
  out.Key("Responses");
  out.StartArray();
  for (size_t i = 0; i < items.size(); ++i) {
    out.StartObject();
    if (items[i]) {
      out.Key("Item");
      WriteItem(out, projections[i] ? projections[i]->Apply(*items[i]) : *items[i]);
    }
    out.EndObject();
  }
  out.EndArray();
  capacity.Write(out, StringOr(ctx.request, "ReturnConsumedCapacity", "NONE"), true);
  out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kTransactGetItems{"TransactGetItems", ShapeText, nullptr, Run};

}  // namespace monotable::api
