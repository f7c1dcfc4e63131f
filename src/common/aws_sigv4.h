// AWS Signature Version 4: the hashes and the signing computation shared by the API layer's request
// authentication and client signing (api/sigv4.h) and the backup layer's S3 client (backup/s3_client.h).
//
// Contract:
// - Sha256Hex/HmacSha256/Hex: OpenSSL's SHA-256 and HMAC-SHA256, lower-case hex.
// - SignatureFor() derives the signing key (AWS4+secret, date, region, service, "aws4_request") and
//   returns the hex HMAC of `string_to_sign`.
// - UriEncode() percent-encodes all but A-Z a-z 0-9 - _ . ~ (and '/' when encode_slash is false, as
//   S3's canonical URI of an object key needs); upper-case hex digits, as SigV4 requires.
// - Sign() builds the canonical request (method, canonical URI as given, query parameters encoded
//   and sorted, headers lower-cased, trimmed and sorted with host and x-amz-date and, with a session
//   token, x-amz-security-token added, the payload hash as given), the string to sign and the
//   Authorization header value. No I/O; `now` makes it reproducible.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace monotable::sigv4 {

std::string Hex(std::string_view bytes);
std::string Sha256Hex(std::string_view data);
std::string HmacSha256(std::string_view key, std::string_view data);
std::string SignatureFor(std::string_view secret, std::string_view date, std::string_view region,
                         std::string_view service, std::string_view string_to_sign);
std::string UriEncode(std::string_view s, bool encode_slash = true);
std::string Lower(std::string_view s);
// A header value as SigV4 canonicalizes it: outer blanks removed, inner runs of spaces made one.
std::string TrimValue(std::string_view s);
// "20240101T000000Z"
std::string FormatAmzDate(std::chrono::system_clock::time_point t);

struct Credentials {
  std::string access_key;
  std::string secret;
  std::string session_token;  // empty: none
};

struct CanonicalInput {
  std::string_view method;
  std::string_view canonical_uri;  // already URI-encoded, "/" when empty
  std::vector<std::pair<std::string, std::string>> query;    // decoded names and values
  std::vector<std::pair<std::string, std::string>> headers;  // besides host, x-amz-date, x-amz-security-token
  std::string_view host;
  std::string payload_hash;  // hex SHA-256 of the body, or "UNSIGNED-PAYLOAD"
};

struct Signed {
  std::string amz_date;       // the X-Amz-Date header to send
  std::string authorization;  // the Authorization header to send
  std::string canonical_request, string_to_sign;  // for tests and diagnostics
};

Signed Sign(const Credentials& key, std::string_view region, std::string_view service, const CanonicalInput& input,
            std::chrono::system_clock::time_point now);

}  // namespace monotable::sigv4
