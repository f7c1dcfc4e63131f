// HTTP content codings of DynamoDB's endpoint: compressed request bodies (Content-Encoding) and
// compressed responses (Accept-Encoding).
//
// Contract:
// - DecodeRequestBody() turns a body sent with `Content-Encoding: gzip` or `deflate` (zlib
//   format, raw deflate accepted too) into the JSON text; "identity" and an empty header leave it
//   as it is. Concatenated gzip members are one body (RFC 1952); bytes after the last complete
//   member that do not start another member are ignored, as DynamoDB ignores them. The output is
//   bounded while it is inflated: more than `limit` bytes is kRequestTooLarge (a zip bomb never
//   takes more than `limit` bytes of memory). A body that is not what it declares (empty,
//   truncated, corrupt) and an unknown coding are kSerialization.
// - ChooseResponseCoding() reads Accept-Encoding the way DynamoDB does (measured against AWS by
//   ScyllaDB's test_compressed_response.py): gzip and deflate are offered, "identity" is ignored,
//   "*" stands for the codings not named, q=0 refuses a coding, a malformed q counts as 1, a q
//   above 1 as 1, a negative one as 0; the highest q wins, ties go to the coding named first,
//   and a coding named explicitly beats one reached through "*".
// - EncodeResponseBody() compresses with libdeflate; kResponseCompressionThreshold is DynamoDB's
//   (responses under 4 KB are never compressed).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/status.h"

namespace monotable::api {

enum class ContentCoding { kIdentity, kGzip, kDeflate };

constexpr size_t kResponseCompressionThreshold = 4096;

Status DecodeRequestBody(std::string_view content_encoding, std::string& body, size_t limit);
ContentCoding ChooseResponseCoding(std::string_view accept_encoding);
// Replaces `body` with its compressed form; the name of the coding for Content-Encoding.
std::string_view EncodeResponseBody(ContentCoding coding, std::string& body);

}  // namespace monotable::api
