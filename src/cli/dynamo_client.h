// DynamoClient: a minimal synchronous DynamoDB JSON client for the `monotable model` commands.
//
// Contract: Call(operation, body) POSTs `body` to / with X-Amz-Target DynamoDB_20120810.<operation>
// over HTTP/1.1 (Boost.Beast), signed with SigV4 (api/sigv4.h SignRequest) when the settings hold
// a key (cli/aws_credentials.h finds it as the AWS CLI does), unsigned otherwise (monotable
// without --credentials and DynamoDB Local accept that). The Host header names host:port as the
// SDKs send it (the port left out when it is the scheme's). https:// endpoints verify the server's
// certificate (the system's CAs, or the settings' CA bundle) and its host name. A 200 answer is
// returned parsed; any other answer is a Status whose message is "<ErrorType>: <message>", and
// *error_type (when given) receives the error's short type name (ResourceInUseException, ...).
// Connection failures are Io statuses. Never throws.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <utility>
#include <vector>

#include "cli/aws_credentials.h"
#include "common/status.h"

namespace monotable::cli {

class DynamoClient {
 public:
  // endpoint: http://host[:port] or https://host[:port].
  static Result<DynamoClient> Create(const std::string& endpoint, AwsSettings settings = {});
  // explain: when given, the request asks for monotable's explain header (api/explain.h) and
  // *explain receives its value ("" when the endpoint sent none).
  Result<rapidjson::Document> Call(const std::string& operation, const std::string& body,
                                   std::string* error_type = nullptr, std::string* explain = nullptr) const;
  // Any answer of the server to a GET of `path` (no query string; signed like Call; e.g.
  // /monotable/triggers).
  struct Answer {
    int status = 0;
    std::string body;
    std::string explain;  // the explain header, "" when none
  };
  Result<Answer> Get(const std::string& path) const;

 private:
  Result<Answer> Exchange(const std::string& method, const std::string& path,
                          const std::vector<std::pair<std::string, std::string>>& headers, const std::string& body,
                          bool ask_explain, const std::string& what) const;

  std::string host_;
  std::string port_;
  AwsSettings settings_;
  bool tls_ = false;
};

}  // namespace monotable::cli
