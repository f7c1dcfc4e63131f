#include "api/partiql/request.h"

#include "api/request_fields.h"
#include "api/wire_value.h"

namespace monotable::api::partiql {

const char* const kStatementShape =
    R"({"type": "String", "notNull": true, "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 8192})";
const char* const kParametersShape =
    R"({"type": "List", "lengthGreaterThanOrEqual": 1, "children": "AttrStruct<ValueStruct>"})";

Result<std::vector<AttributeValue>> DecodeParameters(const rapidjson::Value& params) {
  std::vector<AttributeValue> out;
  const rapidjson::Value* list = Member(params, "Parameters");
  if (!list) return out;
  for (const auto& v : list->GetArray()) {
    MT_ASSIGN_OR_RETURN(AttributeValue value, DecodeAttributeValue(v));
    out.push_back(std::move(value));
  }
  return out;
}

std::string_view BatchErrorCode(ErrorCode code) {
  switch (code) {
    case ErrorCode::kConditionalCheckFailed:
      return "ConditionalCheckFailed";
    case ErrorCode::kDuplicateItem:
      return "DuplicateItem";
    case ErrorCode::kResourceNotFound:
      return "ResourceNotFound";
    case ErrorCode::kTransactionConflict:
      return "TransactionConflict";
    case ErrorCode::kProvisionedThroughputExceeded:
      return "ProvisionedThroughputExceeded";
    case ErrorCode::kItemCollectionSizeLimitExceeded:
      return "ItemCollectionSizeLimitExceeded";
    case ErrorCode::kRequestLimitExceeded:
      return "RequestLimitExceeded";
    case ErrorCode::kThrottling:
      return "ThrottlingError";
    case ErrorCode::kAccessDenied:
      return "AccessDenied";
    case ErrorCode::kValidation:
      return "ValidationError";
    default:
      return "InternalServerError";
  }
}

bool IsServerError(ErrorCode code) {
  return code == ErrorCode::kInternal || code == ErrorCode::kIo || code == ErrorCode::kCorruption;
}

Status InTransactStatement(size_t index, const Status& status) {
  if (status.code() != ErrorCode::kValidation) return status;
  return Status::Validation("Validation failed in TransactStatements[" + std::to_string(index) +
                            "]: " + status.message());
}

}  // namespace monotable::api::partiql
