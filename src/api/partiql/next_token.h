// NextToken of a paged PartiQL SELECT: where the next ExecuteStatement call resumes.
//
// Contract:
// - The token is opaque to clients (base64 of a small JSON document) and carries a fingerprint
//   of the statement text and its parameters, the partition the read stopped in (for a SELECT
//   that queries several partitions) and the last evaluated key there.
// - DecodeNextToken refuses text that is not a token ("Invalid NextToken") and a token of
//   another statement or parameters ("The provided starting key is invalid"), and validates the
//   key against the table's (and index's) key schema, so a forged token cannot reach the reader.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "api/partiql/prepare.h"

namespace monotable::api::partiql {

struct PagePosition {
  size_t partition = 0;
  std::optional<Item> start;  // resume strictly after this key; none: at the partition's start
};

std::string EncodeNextToken(const PreparedStatement& s, const PagePosition& position);
Result<PagePosition> DecodeNextToken(const PreparedStatement& s, std::string_view token);

}  // namespace monotable::api::partiql
