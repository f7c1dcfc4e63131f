// TransactWriteItems: up to 100 Put/Update/Delete/ConditionCheck actions, all or nothing,
// idempotent per ClientRequestToken for 10 minutes.
// Errors as DynamoDB sorts them: malformed expressions, a Put item over 400 KB, unknown tables,
// an empty string/binary key value, two actions on one item (keys compared as values: 1e2 is
// 100) and a payload over 4 MB (items, keys and expression values of every action) refuse the
// whole request (ValidationException / ResourceNotFound); an action whose key does not match its
// table cancels the transaction (TransactionCanceledException, ValidationError for the first such
// action, None for every other, no condition evaluated); conditions and writes that fail (an
// Update growing its item over 400 KB among them) cancel it with every action's outcome.
#include <algorithm>
#include <set>

#include <rapidjson/stringbuffer.h>

#include "api/capacity.h"
#include "api/client_request_token.h"
#include "api/item_collections.h"
#include "api/item_request.h"
#include "api/ops/operations.h"
#include "api/read_charge.h"
#include "api/transaction_cancel.h"
#include "api/request_fields.h"
#include "api/request_expressions.h"
#include "model/capacity.h"
#include "changelog/keys.h"
#include "table/transaction.h"

namespace monotable::api {
namespace {

std::string ShapeText() {
  std::string common = std::string(R"("TableName": )") + kTableNameShape + R"(,
      "ConditionExpression": "String",
      "ExpressionAttributeNames": )" + kExpressionNamesShape + R"(,
      "ExpressionAttributeValues": )" + kExpressionValuesShape + R"(,
      "ReturnValuesOnConditionCheckFailure": {"type": "String", "enum": ["ALL_OLD", "NONE"]})";
  std::string key = R"("Key": {"type": "Map<AttributeValue>", "notNull": true, "children": "AttrStruct<ValueStruct>"})";
  return std::string(R"({
  "ReturnConsumedCapacity": )") + kReturnConsumedCapacityShape + R"(,
  "ReturnItemCollectionMetrics": {"type": "String", "enum": ["SIZE", "NONE"]},
  "ClientRequestToken": {"type": "String", "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 36},
  "TransactItems": {"type": "List", "notNull": true, "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 100,
    "children": {"type": "ValueStruct<TransactWriteItem>", "children": {
      "ConditionCheck": {"type": "FieldStruct<ConditionCheck>", "children": {)" + key + ", " + common + R"(}},
      "Put": {"type": "FieldStruct<Put>", "children": {
        "Item": {"type": "Map<AttributeValue>", "notNull": true, "children": "AttrStruct<ValueStruct>"}, )" + common + R"(}},
      "Delete": {"type": "FieldStruct<Delete>", "children": {)" + key + ", " + common + R"(}},
      "Update": {"type": "FieldStruct<Update>", "children": {)" + key + R"(,
        "UpdateExpression": {"type": "String", "notNull": true}, )" + common + R"(}}}}}
})";
}

enum class Kind { kCheck, kPut, kDelete, kUpdate };

// A transaction's payload (what its request carries: every action's item or key and its
// expression values) is at most 4 MB; the items it only names (a Delete's) do not count.
constexpr size_t kMaxTransactionPayload = 4 * 1024 * 1024;
// AWS's refusal repeats its sentence around the measured size, as a client library recorded it
// ("Transaction payload size cannot exceed 4MB. Payload Size: : Transaction payload size cannot
// exceed 4MB. Payload Size: 4306456"); the size here is monotable's measure of the payload.
std::string PayloadTooLarge(size_t size) {
  const std::string sentence = "Transaction payload size cannot exceed 4MB. Payload Size: ";
  return sentence + ": " + sentence + std::to_string(size);
}

struct Action {
  Kind kind;
  const rapidjson::Value* params;
  std::shared_ptr<const table::TableHandle> table;
  Item key;
  std::optional<Item> item;  // Put
  RequestExpressions expressions;
  bool return_old_on_failure = false;
  // A per-action refusal (key attributes): the transaction is cancelled with a ValidationError
  // reason for the first such action, before any condition is evaluated.
  Status invalid;
};

Result<std::vector<Action>> DecodeActions(OperationContext& ctx) {
  std::vector<Action> actions;
  size_t total_size = 0;
  for (const auto& entry : Member(ctx.request, "TransactItems")->GetArray()) {
    static const std::pair<const char*, Kind> kKinds[] = {
        {"ConditionCheck", Kind::kCheck}, {"Put", Kind::kPut}, {"Delete", Kind::kDelete}, {"Update", Kind::kUpdate}};
    int found = 0;
    Action action{};
    for (const auto& [name, kind] : kKinds) {
      if (const auto* p = Member(entry, name)) {
        ++found;
        action.kind = kind;
        action.params = p;
      }
    }
    if (found == 0) {
      return Status::Validation("Invalid Request: TransactWriteRequest should contain Delete or Put or Update request");
    }
    if (found > 1) return Status::Validation("TransactItems can only contain one of Check, Put, Update or Delete");
    const rapidjson::Value& p = *action.params;
    if (action.kind == Kind::kCheck && !Member(p, "ConditionExpression")) {
      return Status::Validation(
          "1 validation error detected: Value null at 'transactItems.1.member.conditionCheck.conditionExpression' "
          "failed to satisfy constraint: Member must not be null");
    }
    if (action.kind == Kind::kPut) {
      MT_ASSIGN_OR_RETURN(Item item, DecodeItemMember(p, "Item"));
      size_t size = ItemSize(item);
      if (size > 409600) return Status::Validation("Item size has exceeded the maximum allowed size");
      total_size += size;
      action.item = std::move(item);
    } else {
      MT_ASSIGN_OR_RETURN(action.key, DecodeItemMember(p, "Key"));
      total_size += ItemSize(action.key);
    }
    unsigned kinds = kConditionKind | (action.kind == Kind::kUpdate ? unsigned{kUpdateKind} : 0u);
    MT_RETURN_IF_ERROR(CheckExpressionParameters(p, kinds));
    MT_ASSIGN_OR_RETURN(action.expressions, ParseRequestExpressions(p, kinds));
    if (Member(p, "ExpressionAttributeValues")) {
      auto values = DecodeItemMember(p, "ExpressionAttributeValues");
      if (values.ok()) total_size += ItemSize(*values);
    }
    action.return_old_on_failure = StringOr(p, "ReturnValuesOnConditionCheckFailure", "NONE") == "ALL_OLD";
    actions.push_back(std::move(action));
  }
  if (total_size > kMaxTransactionPayload) return Status::Validation(PayloadTooLarge(total_size));
  for (Action& a : actions) {
    MT_ASSIGN_OR_RETURN(a.table, ctx.db.Table(TableNameOf(*a.params)));
    if (a.kind == Kind::kUpdate) MT_RETURN_IF_ERROR(CheckUpdateKeys(a.expressions, *a.table->description));
  }
  for (const Action& a : actions) {
    MT_RETURN_IF_ERROR(CheckKeyValuesNotEmpty(*a.table->description, a.item ? *a.item : a.key));
  }
  for (Action& a : actions) {
    const TableDescription& desc = *a.table->description;
    Status keys = a.item ? table::ValidateItemKeys(desc, *a.item) : table::ValidateKey(desc, a.key);
    if (!keys.ok()) a.invalid = std::move(keys);
    if (!a.invalid.ok()) return actions;  // only the first invalid action is reported
    if (a.item) a.key = table::ExtractKey(desc, *a.item);
  }
  std::set<std::pair<std::string, std::string>> targets;
  for (Action& a : actions) {
    const TableDescription& desc = *a.table->description;
    if (!targets.emplace(desc.name, table::ItemKeyOf(desc, a.key)).second) {
      return Status::Validation("Transaction request cannot include multiple operations on one item");
    }
  }
  return actions;
}

// The first invalid action cancels the transaction: ValidationError for it, None for the others.
std::optional<Status> CancelInvalid(OperationContext& ctx, const std::vector<Action>& actions) {
  auto first = std::find_if(actions.begin(), actions.end(), [](const Action& a) { return !a.invalid.ok(); });
  if (first == actions.end()) return std::nullopt;
  std::vector<Status> outcomes(actions.size(), Status::Ok());
  outcomes[first - actions.begin()] = first->invalid;
  std::vector<const char*> codes;
  for (const Status& s : outcomes) codes.push_back(CancellationCode(s));
  return TransactionCanceled(ctx, std::move(outcomes), std::move(codes));
}

Status Run(OperationContext& ctx) {
  MT_ASSIGN_OR_RETURN(std::vector<Action> actions, DecodeActions(ctx));
  if (auto cancelled = CancelInvalid(ctx, actions)) return *cancelled;
  std::string token(StringOr(ctx.request, "ClientRequestToken", ""));
  std::string_view capacity_mode = StringOr(ctx.request, "ReturnConsumedCapacity", "NONE");
  auto replay_targets = [&] {
    std::vector<table::ReadTarget> targets;
    for (const Action& a : actions) targets.push_back({a.table, a.key});
    return targets;
  };
  MT_ASSIGN_OR_RETURN(bool replayed,
                      BeginIdempotent(ctx, token, "", {"TransactItems", "ReturnConsumedCapacity", "ReturnItemCollectionMetrics"},
                                      replay_targets, capacity_mode));
  if (replayed) return Status::Ok();

  std::vector<table::WriteAction> writes;
  for (const Action& a : actions) {
    table::ApplyFn apply = [&a](const Item* existing) -> Result<std::optional<Item>> {
      MT_RETURN_IF_ERROR(CheckCondition(a.expressions, existing));
      switch (a.kind) {
        case Kind::kCheck: return existing ? std::optional<Item>(*existing) : std::optional<Item>();
        case Kind::kPut: return a.item;
        case Kind::kDelete: return std::optional<Item>();
        case Kind::kUpdate: {
          MT_ASSIGN_OR_RETURN(expr::UpdateOutcome updated, a.expressions.update->Apply(existing, a.key));
          MT_RETURN_IF_ERROR(table::ValidateItemKeys(*a.table->description, updated.item));
          if (ItemSize(updated.item) > 409600) {
            return Status::Validation("Item size to update has exceeded the maximum allowed size");
          }
          return std::optional<Item>(std::move(updated.item));
        }
      }
      return std::optional<Item>();
    };
    if (a.kind != Kind::kCheck) apply = LimitItemCollection(ctx.db, *a.table, a.key, std::move(apply));
    // A failed condition is charged for the larger of the existing item and the one it would write.
    table::AttemptedSizeFn attempted = [&a](const Item* existing) -> size_t {
      if (a.kind == Kind::kPut) return a.item ? ItemSize(*a.item) : 0;
      if (a.kind != Kind::kUpdate) return 0;
      auto updated = a.expressions.update->Apply(existing, a.key);
      return updated.ok() ? ItemSize(updated->item) : 0;
    };
    writes.push_back({a.table.get(), a.key, std::move(apply), a.kind == Kind::kCheck, std::move(attempted)});
  }
  // The token's record commits with the transaction: a retry after a crash finds it.
  auto result = table::WriteAtomically(ctx.db, writes, table::WriteCharge::kTransactional, 16,
                                       table::Grouping::kAllOrNothing, ctx.idempotency.RecordMutations(token));
  if (!result.ok()) {
    if (!token.empty()) ctx.idempotency.Abandon(token);
    return result.status();
  }
  if (!result->committed) {
    if (!token.empty()) ctx.idempotency.Abandon(token);
    std::vector<const char*> codes;
    std::vector<std::optional<Item>> items;
    for (size_t i = 0; i < result->outcomes.size(); ++i) {
      const Status& outcome = result->outcomes[i];
      codes.push_back(CancellationCode(outcome));
      bool returned = outcome.code() == ErrorCode::kConditionalCheckFailed && actions[i].return_old_on_failure;
      items.push_back(returned ? result->old_items[i] : std::nullopt);
    }
    return TransactionCanceled(ctx, result->outcomes, std::move(codes), std::move(items));
  }
  CapacityByTable capacity;
  for (size_t i = 0; i < actions.size(); ++i) {
    const auto& r = result->results[i];
    size_t old_size = r.old_item ? ItemSize(*r.old_item) : 0;
    size_t new_size = r.new_item && actions[i].kind != Kind::kCheck ? ItemSize(*r.new_item) : 0;
    // The table arm of a transactional write costs double; index arms do not.
    Consumption consumed{monotable::WriteUnits(std::max(old_size, new_size), true), {}, {}};
    consumed.AddIndexCosts(r.index_costs);
    capacity.Add(actions[i].table->description->name, consumed);
  }
  ItemCollectionMetricsByTable metrics(ctx.request);
  for (const Action& a : actions) {
    if (a.kind != Kind::kCheck) metrics.Add(ctx.db, *a.table, a.key);
  }
  ctx.out.StartObject();
  capacity.Write(ctx.out, capacity_mode, false);
  metrics.Write(ctx.out);
  ctx.out.EndObject();
  if (!token.empty()) ctx.idempotency.Finish(token);
  return Status::Ok();
}

}  // namespace

const Operation kTransactWriteItems{"TransactWriteItems", ShapeText, nullptr, Run};

}  // namespace monotable::api
