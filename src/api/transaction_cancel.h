// TransactionCanceledException as DynamoDB gives it, shared by TransactWriteItems,
// ExecuteTransaction and the throttled transactional reads (read_charge.cc).
//
// Contract:
// - CancellationCode() is the reason code of one action's outcome: None, ConditionalCheckFailed,
//   DuplicateItem, TransactionConflict, ProvisionedThroughputExceeded,
//   ItemCollectionSizeLimitExceeded, or ValidationError for any other refusal.
// - TransactionCanceled() returns the error whose message lists `codes` in action order, and sets
//   ctx.error_details to write CancellationReasons: per action its Code, the Message of a refused
//   action (its error's message; "Collection size exceeded" for ItemCollectionSizeLimitExceeded,
//   as the TransactionCanceledException reference lists it), and `items[i]` as Item when present (the item an action with
//   ReturnValuesOnConditionCheckFailure=ALL_OLD saw). `items` may be empty (no items at all).
#pragma once

#include <optional>
#include <vector>

#include "api/operation.h"

namespace monotable::api {

const char* CancellationCode(const Status& outcome);

// A key attribute of `item` (an item to put or a key) holding an empty string or binary: refused
// up front for the whole request ("One or more parameter values are not valid. ..."), unlike the
// other key errors of one action, which cancel the transaction.
Status CheckKeyValuesNotEmpty(const TableDescription& table, const Item& item);

Status TransactionCanceled(OperationContext& ctx, std::vector<Status> outcomes, std::vector<const char*> codes,
                           std::vector<std::optional<Item>> items = {});

}  // namespace monotable::api
