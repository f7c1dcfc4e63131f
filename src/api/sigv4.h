// SigV4 request authentication (off unless credentials are configured).
//
// Contract: Verify() accepts a request signed with AWS Signature Version 4 by one of the
// configured access keys, in the Authorization header or in presigned query parameters
// (X-Amz-Algorithm, X-Amz-Credential, X-Amz-Date, X-Amz-SignedHeaders, X-Amz-Signature), and
// refuses the rest with AWS's errors and messages: MissingAuthenticationTokenException (nothing
// signed), IncompleteSignatureException (malformed header or parameters),
// UnrecognizedClientException (unknown access key), InvalidSignatureException (wrong signature,
// date more than 15 minutes off, expired presigned URL). On success it returns the access key,
// which per-key table rules (CanAccess) then authorize.
//
// Credentials: a file with one key per line, `ACCESS_KEY SECRET [TABLE_PATTERN ...]` (`#` starts a
// comment; patterns may end in `*`; no pattern = every table), or the environment variable
// MONOTABLE_CREDENTIALS = "AK1:SECRET1,AK2:SECRET2".
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/aws_sigv4.h"
#include "common/status.h"

namespace monotable::api {

struct SignedRequest {
  std::string_view method;
  std::string_view url;  // path and query string as received
  std::vector<std::pair<std::string_view, std::string_view>> headers;
  std::string_view body;
};

class Authenticator {
 public:
  // Loads credentials; an empty authenticator (no keys) accepts everything.
  static Result<Authenticator> FromFile(const std::string& path);
  static Result<Authenticator> FromEnvironment(std::string_view spec);
  void AddKey(std::string access_key, std::string secret, std::vector<std::string> table_patterns = {});

  bool enabled() const { return !keys_.empty(); }
  Result<std::string> Verify(const SignedRequest& request,
                             std::chrono::system_clock::time_point now = std::chrono::system_clock::now()) const;
  bool CanAccess(const std::string& access_key, std::string_view table) const;

 private:
  struct Key {
    std::string secret;
    std::vector<std::string> tables;
  };
  std::map<std::string, Key, std::less<>> keys_;
};

// Client side (`monotable model apply|seed|verify`): the headers that sign a request with SigV4 as
// the AWS SDKs sign DynamoDB requests. Signed: host, x-amz-date, x-amz-security-token (with a
// session token) and every header of `headers` (names lower-cased, values trimmed), the body's
// SHA-256 as the payload hash. Returns the headers to add: X-Amz-Date, X-Amz-Security-Token (with a
// session token) and Authorization. `path` is the request's path, already URI-encoded ("/").
using SigningKey = sigv4::Credentials;
std::vector<std::pair<std::string, std::string>> SignRequest(
    const SigningKey& key, std::string_view region, std::string_view service, std::string_view method,
    std::string_view path, std::string_view host, const std::vector<std::pair<std::string, std::string>>& headers,
    std::string_view body, std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

// The signing helpers live in common/aws_sigv4.h (the S3 client signs with them too).
using sigv4::SignatureFor;
using sigv4::Sha256Hex;

}  // namespace monotable::api
