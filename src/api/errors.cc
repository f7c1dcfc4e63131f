#include "api/errors.h"

#include "api/wire_value.h"

namespace monotable::api {
namespace {

struct ErrorType {
  const char* type;
  int http_status;
  bool capital_message;  // SerializationException and TransactionCanceledException say "Message"
};

ErrorType TypeOf(ErrorCode code) {
  constexpr const char* kDynamo = "com.amazonaws.dynamodb.v20120810#";
  (void)kDynamo;
  switch (code) {
    case ErrorCode::kValidation: return {"com.amazon.coral.validate#ValidationException", 400, false};
    case ErrorCode::kSerialization: return {"com.amazon.coral.service#SerializationException", 400, true};
    case ErrorCode::kUnknownOperation: return {"com.amazon.coral.service#UnknownOperationException", 400, false};
    case ErrorCode::kAccessDenied: return {"com.amazon.coral.service#AccessDeniedException", 400, false};
    case ErrorCode::kUnrecognizedClient: return {"com.amazon.coral.service#UnrecognizedClientException", 400, false};
    case ErrorCode::kInvalidSignature: return {"com.amazon.coral.service#InvalidSignatureException", 400, false};
    case ErrorCode::kMissingAuthenticationToken:
      return {"com.amazon.coral.service#MissingAuthenticationTokenException", 400, false};
    case ErrorCode::kIncompleteSignature: return {"com.amazon.coral.service#IncompleteSignatureException", 400, false};
    case ErrorCode::kThrottling: return {"com.amazon.coral.availability#ThrottlingException", 400, false};
    case ErrorCode::kResourceNotFound: return {"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", 400, false};
    case ErrorCode::kResourceInUse: return {"com.amazonaws.dynamodb.v20120810#ResourceInUseException", 400, false};
    case ErrorCode::kConditionalCheckFailed:
      return {"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException", 400, false};
    case ErrorCode::kLimitExceeded: return {"com.amazonaws.dynamodb.v20120810#LimitExceededException", 400, false};
    case ErrorCode::kItemCollectionSizeLimitExceeded:
      return {"com.amazonaws.dynamodb.v20120810#ItemCollectionSizeLimitExceededException", 400, false};
    case ErrorCode::kTransactionCanceled:
      return {"com.amazonaws.dynamodb.v20120810#TransactionCanceledException", 400, true};
    case ErrorCode::kTransactionConflict:
      return {"com.amazonaws.dynamodb.v20120810#TransactionConflictException", 400, false};
    case ErrorCode::kTransactionInProgress:
      return {"com.amazonaws.dynamodb.v20120810#TransactionInProgressException", 400, false};
    case ErrorCode::kIdempotentParameterMismatch:
      return {"com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException", 400, false};
    case ErrorCode::kDuplicateItem: return {"com.amazonaws.dynamodb.v20120810#DuplicateItemException", 400, false};
    case ErrorCode::kProvisionedThroughputExceeded:
      return {"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException", 400, false};
    case ErrorCode::kRequestLimitExceeded:
      return {"com.amazonaws.dynamodb.v20120810#RequestLimitExceeded", 400, false};
    case ErrorCode::kTrimmedDataAccess:
      return {"com.amazonaws.dynamodb.v20120810#TrimmedDataAccessException", 400, false};
    case ErrorCode::kExpiredIterator:
      return {"com.amazonaws.dynamodb.v20120810#ExpiredIteratorException", 400, false};
    case ErrorCode::kTableNotFound:
      return {"com.amazonaws.dynamodb.v20120810#TableNotFoundException", 400, false};
    case ErrorCode::kTableAlreadyExists:
      return {"com.amazonaws.dynamodb.v20120810#TableAlreadyExistsException", 400, false};
    case ErrorCode::kTableInUse:
      return {"com.amazonaws.dynamodb.v20120810#TableInUseException", 400, false};
    case ErrorCode::kBackupNotFound:
      return {"com.amazonaws.dynamodb.v20120810#BackupNotFoundException", 400, false};
    case ErrorCode::kBackupInUse:
      return {"com.amazonaws.dynamodb.v20120810#BackupInUseException", 400, false};
    case ErrorCode::kContinuousBackupsUnavailable:
      return {"com.amazonaws.dynamodb.v20120810#ContinuousBackupsUnavailableException", 400, false};
    case ErrorCode::kPointInTimeRecoveryUnavailable:
      return {"com.amazonaws.dynamodb.v20120810#PointInTimeRecoveryUnavailableException", 400, false};
    case ErrorCode::kInvalidRestoreTime:
      return {"com.amazonaws.dynamodb.v20120810#InvalidRestoreTimeException", 400, false};
    case ErrorCode::kInvalidExportTime:
      return {"com.amazonaws.dynamodb.v20120810#InvalidExportTimeException", 400, false};
    case ErrorCode::kExportNotFound:
      return {"com.amazonaws.dynamodb.v20120810#ExportNotFoundException", 400, false};
    case ErrorCode::kExportConflict:
      return {"com.amazonaws.dynamodb.v20120810#ExportConflictException", 400, false};
    case ErrorCode::kImportNotFound:
      return {"com.amazonaws.dynamodb.v20120810#ImportNotFoundException", 400, false};
    case ErrorCode::kImportConflict:
      return {"com.amazonaws.dynamodb.v20120810#ImportConflictException", 400, false};
    case ErrorCode::kRequestTooLarge: return {"com.amazon.coral.service#RequestEntityTooLargeException", 413, false};
    default: return {"com.amazonaws.dynamodb.v20120810#InternalServerError", 500, false};
  }
}

}  // namespace

WireError ToWireError(const Status& status, const std::function<void(JsonWriter&)>& details) {
  ErrorType type = TypeOf(status.code());
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("__type");
  w.String(type.type);
  bool internal = type.http_status == 500;
  const std::string& message = internal ? std::string("Internal server error") : status.message();
  if (!message.empty()) {
    w.Key(type.capital_message ? "Message" : "message");
    w.String(message.data(), static_cast<rapidjson::SizeType>(message.size()));
  }
  if (details) details(w);
  w.EndObject();
  return {type.http_status, std::string(buffer.GetString(), buffer.GetSize())};
}

}  // namespace monotable::api
