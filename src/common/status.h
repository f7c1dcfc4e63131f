// Status and Result<T>: how every layer reports failure without exceptions.
//
// A Status is either OK or carries an ErrorCode plus a human-readable message. The codes name
// DynamoDB's error families directly, so the API layer can map a Status to the wire error
// (type name and HTTP status) in one place (src/api/errors). Lower layers (engine) only use the
// generic codes (kIo, kCorruption, kGuardFailed, kInternal).
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace monotable {

enum class ErrorCode {
  kOk = 0,
  // Client errors with DynamoDB names.
  kValidation,                     // ValidationException
  kSerialization,                  // SerializationException (malformed JSON / wrong JSON types)
  kUnknownOperation,               // UnknownOperationException
  kResourceNotFound,               // ResourceNotFoundException
  kResourceInUse,                  // ResourceInUseException
  kConditionalCheckFailed,         // ConditionalCheckFailedException
  kLimitExceeded,                  // LimitExceededException
  kItemCollectionSizeLimitExceeded,
  kTransactionCanceled,
  kTransactionConflict,
  kTransactionInProgress,
  kIdempotentParameterMismatch,
  kDuplicateItem,
  kProvisionedThroughputExceeded,
  kThrottling,
  kRequestLimitExceeded,
  kTrimmedDataAccess,
  kExpiredIterator,
  kAccessDenied,
  kUnrecognizedClient,
  kInvalidSignature,
  kMissingAuthenticationToken,
  kIncompleteSignature,
  kRequestTooLarge,                // HTTP 413
  // Backups, point-in-time recovery, export and import (src/backup).
  kTableNotFound,                  // TableNotFoundException
  kTableAlreadyExists,             // TableAlreadyExistsException
  kTableInUse,                     // TableInUseException
  kBackupNotFound,                 // BackupNotFoundException
  kBackupInUse,                    // BackupInUseException
  kContinuousBackupsUnavailable,   // ContinuousBackupsUnavailableException
  kPointInTimeRecoveryUnavailable, // PointInTimeRecoveryUnavailableException
  kInvalidRestoreTime,             // InvalidRestoreTimeException
  kInvalidExportTime,              // InvalidExportTimeException
  kExportNotFound,                 // ExportNotFoundException
  kExportConflict,                 // ExportConflictException
  kImportNotFound,                 // ImportNotFoundException
  kImportConflict,                 // ImportConflictException
  // Engine / internal.
  kGuardFailed,                    // a guarded commit found a changed precondition (retryable)
  kIo,
  kCorruption,
  kInternal,                       // InternalServerError (500)
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return {}; }
  static Status Validation(std::string m) { return {ErrorCode::kValidation, std::move(m)}; }
  static Status Serialization(std::string m) { return {ErrorCode::kSerialization, std::move(m)}; }
  static Status NotFound(std::string m) { return {ErrorCode::kResourceNotFound, std::move(m)}; }
  static Status InUse(std::string m) { return {ErrorCode::kResourceInUse, std::move(m)}; }
  static Status Internal(std::string m) { return {ErrorCode::kInternal, std::move(m)}; }
  static Status Io(std::string m) { return {ErrorCode::kIo, std::move(m)}; }

  bool ok() const { return code_ == ErrorCode::kOk; }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  ErrorCode code_ = ErrorCode::kOk;
  std::string message_;
};

// Result<T>: a value or a non-OK Status.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}                 // NOLINT(implicit)
  Result(Status status) : data_(std::move(status)) { assert(!std::get<Status>(data_).ok()); }  // NOLINT

  bool ok() const { return std::holds_alternative<T>(data_); }
  const Status& status() const {
    static const Status kOkStatus;
    return ok() ? kOkStatus : std::get<Status>(data_);
  }
  T& value() & { return std::get<T>(data_); }
  const T& value() const& { return std::get<T>(data_); }
  T&& value() && { return std::get<T>(std::move(data_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> data_;
};

}  // namespace monotable

#define MT_RETURN_IF_ERROR(expr)           \
  do {                                     \
    ::monotable::Status _st = (expr);      \
    if (!_st.ok()) return _st;             \
  } while (0)

#define MT_CONCAT_INNER(a, b) a##b
#define MT_CONCAT(a, b) MT_CONCAT_INNER(a, b)
#define MT_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                             \
  if (!tmp.ok()) return tmp.status();            \
  lhs = std::move(tmp).value()
#define MT_ASSIGN_OR_RETURN(lhs, expr) MT_ASSIGN_OR_RETURN_IMPL(MT_CONCAT(_res_, __LINE__), lhs, expr)
