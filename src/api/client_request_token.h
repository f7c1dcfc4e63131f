// ClientRequestToken handling shared by TransactWriteItems and ExecuteTransaction.
//
// Contract:
// - RequestFingerprint() renders the request members a replay must repeat exactly (absent members
//   as null), after an optional tag that keeps the two APIs' tokens from matching each other.
//   The token's bookkeeping (txn/idempotency.h) keeps only its SHA-256 digest (RequestDigest).
// - BeginIdempotent() starts the token's protocol for a request, fingerprinted by RequestFingerprint
//   (`tag`, `members`) (an empty token: nothing to do, nothing rendered, returns false). It returns true when the request was answered here: a replay of a finished
//   request, which applies nothing and reports (and charges, read_charge.h) the reads of `targets()`
//   as {ConsumedCapacity} in `capacity_mode`. It returns false when the transaction must run (the
//   caller commits ctx.idempotency.RecordMutations(token) with the transaction, then Finish()es or
//   Abandon()s the token), and DynamoDB's errors for a token reused with
//   other parameters (IdempotentParameterMismatchException) or still in progress
//   (TransactionInProgressException).
#pragma once

#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "api/operation.h"
#include "table/transaction.h"

namespace monotable::api {

std::string RequestFingerprint(const rapidjson::Value& request, std::string_view tag,
                               std::initializer_list<const char*> members);
std::string RequestDigest(std::string_view fingerprint);  // 32 bytes (SHA-256)

Result<bool> BeginIdempotent(OperationContext& ctx, const std::string& token, std::string_view tag,
                             std::initializer_list<const char*> members,
                             const std::function<std::vector<table::ReadTarget>()>& targets,
                             std::string_view capacity_mode);

}  // namespace monotable::api
