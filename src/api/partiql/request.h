// Request/response pieces the three PartiQL operations share: shape fragments, Parameters
// decoding, the short error codes of BatchExecuteStatement responses, and "Validation failed in
// TransactStatements[i]: ..." wrapping.
//
// Contract: DecodeParameters returns the statement's `?` values in order (none when absent),
// with DynamoDB's AttributeValue validation messages.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "model/attribute_value.h"

namespace monotable::api::partiql {

// Shape fragments (JSON text): a Statement string and a Parameters list.
extern const char* const kStatementShape;
extern const char* const kParametersShape;

Result<std::vector<AttributeValue>> DecodeParameters(const rapidjson::Value& params);

// "ValidationError", "ConditionalCheckFailed", "DuplicateItem", "ResourceNotFound", ...
std::string_view BatchErrorCode(ErrorCode code);
// Errors that are the server's fault: a batch fails as a whole on them instead of per statement.
bool IsServerError(ErrorCode code);

// A transaction member's error, as ExecuteTransaction reports it.
Status InTransactStatement(size_t index, const Status& status);

}  // namespace monotable::api::partiql
