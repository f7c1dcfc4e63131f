#include "api/transaction_cancel.h"

#include "api/request_fields.h"
#include "api/wire_value.h"

namespace monotable::api {

const char* CancellationCode(const Status& outcome) {
  switch (outcome.code()) {
    case ErrorCode::kOk: return "None";
    case ErrorCode::kConditionalCheckFailed: return "ConditionalCheckFailed";
    case ErrorCode::kDuplicateItem: return "DuplicateItem";
    case ErrorCode::kTransactionConflict: return "TransactionConflict";
    case ErrorCode::kProvisionedThroughputExceeded: return "ProvisionedThroughputExceeded";
    case ErrorCode::kItemCollectionSizeLimitExceeded: return "ItemCollectionSizeLimitExceeded";
    default: return "ValidationError";
  }
}

namespace {

// The Message of a cancellation reason: the action's error message, except where the
// TransactionCanceledException reference gives the reason its own text.
std::string ReasonMessage(const Status& outcome) {
  if (outcome.code() == ErrorCode::kItemCollectionSizeLimitExceeded) return "Collection size exceeded";
  return outcome.message();
}

}  // namespace

Status CheckKeyValuesNotEmpty(const TableDescription& table, const Item& item) {
  for (const auto& element : table.key_schema) {
    auto it = item.find(element.name);
    if (it == item.end()) continue;
    AttrType type = it->second.type();
    if ((type != AttrType::kS && type != AttrType::kB) || type != *table.AttributeType(element.name)) continue;
    if (!it->second.s().empty()) continue;
    return Status::Validation(
        "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty " +
        std::string(type == AttrType::kS ? "string" : "binary") + " value. Key: " + element.name);
  }
  return Status::Ok();
}

Status TransactionCanceled(OperationContext& ctx, std::vector<Status> outcomes, std::vector<const char*> codes,
                           std::vector<std::optional<Item>> items) {
  std::string listed;
  for (size_t i = 0; i < codes.size(); ++i) listed += std::string(i ? ", " : "") + codes[i];
  ctx.error_details = [outcomes = std::move(outcomes), codes = std::move(codes), items = std::move(items)](JsonWriter& w) {
    w.Key("CancellationReasons");
    w.StartArray();
    for (size_t i = 0; i < outcomes.size(); ++i) {
      w.StartObject();
      WriteString(w, "Code", codes[i]);
      if (!outcomes[i].ok()) WriteString(w, "Message", ReasonMessage(outcomes[i]));
      if (i < items.size() && items[i]) {
        w.Key("Item");
        WriteItem(w, *items[i]);
      }
      w.EndObject();
    }
    w.EndArray();
  };
  return Status(ErrorCode::kTransactionCanceled,
                "Transaction cancelled, please refer cancellation reasons for specific reasons [" + listed + "]");
}

}  // namespace monotable::api
