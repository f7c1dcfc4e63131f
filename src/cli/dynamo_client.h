// DynamoClient: a minimal synchronous DynamoDB JSON client for the `monotable model` commands.
//
// Contract: Call(operation, body) POSTs `body` to / with X-Amz-Target DynamoDB_20120810.<operation>
// over HTTP/1.1 (Boost.Beast), unsigned (monotable without --credentials, DynamoDB Local accept
// that; AWS itself needs signed requests, which this client does not make). A 200 answer is
// returned parsed; any other answer is a Status whose message is "<ErrorType>: <message>", and
// *error_type (when given) receives the error's short type name (ResourceInUseException, ...).
// Connection failures are Io statuses. Never throws.
#pragma once

#include <rapidjson/document.h>

#include <string>

#include "common/status.h"

namespace monotable::cli {

class DynamoClient {
 public:
  // endpoint: http://host:port (https is not supported).
  static Result<DynamoClient> Create(const std::string& endpoint);
  // explain: when given, the request asks for monotable's explain header (api/explain.h) and
  // *explain receives its value ("" when the endpoint sent none).
  Result<rapidjson::Document> Call(const std::string& operation, const std::string& body,
                                   std::string* error_type = nullptr, std::string* explain = nullptr) const;

 private:
  std::string host_;
  std::string port_;
};

}  // namespace monotable::cli
