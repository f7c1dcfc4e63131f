// Operation: one DynamoDB API action, as the dispatch table sees it.
//
// Each operation lives in its own file under src/api/ops/ and defines its input shape (checked
// generically before it runs, see shape.h), an optional `validate` step for the cross-field
// rules DynamoDB applies after the shape checks, and `run`, which reads the checked request,
// calls the table layer and writes the whole response object into `out`. On a non-OK Status
// the response written so far is discarded and the error is sent instead.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <rapidjson/document.h>

#include "api/read_work.h"
#include "api/shape.h"
#include "api/wire_value.h"
#include "table/database.h"
#include "txn/idempotency.h"

namespace monotable::backup {
class BackupService;
}

namespace monotable::api {

struct ServerIdentity {
  std::string region = "us-east-1";
  std::string account = "000000000000";
};

struct OperationContext {
  table::Database& db;
  const ServerIdentity& identity;
  rapidjson::Document& request;
  JsonWriter& out;
  txn::IdempotencyCache& idempotency;
  // Set by an operation whose error carries more than a message: writes extra members of the
  // error object (the Item of ReturnValuesOnConditionCheckFailure, CancellationReasons, ...).
  std::function<void(JsonWriter&)> error_details;
  ReadWork read_work;  // set by Query and Scan
  std::string_view host;  // the request's Host header (DescribeEndpoints answers with it)
  backup::BackupService* backups = nullptr;  // backups, PITR, export and import (src/backup)
};

struct Operation {
  std::string_view name;
  LazyShape shape;
  Status (*validate)(OperationContext& ctx) = nullptr;
  Status (*run)(OperationContext& ctx) = nullptr;
};

}  // namespace monotable::api
