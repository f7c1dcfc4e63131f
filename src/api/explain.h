// The explain header: a request that carries `x-monotable-explain` (any value) is answered with
// an `x-monotable-explain` header that says what the request did, for `monotable model verify`;
// SDKs ignore it. Without the request header nothing changes.
//
// Contract: WantsExplain(headers) tells whether the request asked (header name case-insensitive).
// ExplainJson(operation, request, read_work, answer) is one line of JSON:
//   {"operation": "Query", "table": "T", "index": "GSI1" (when the request named one),
//    "itemsRead": n, "bytesRead": b (Query and Scan: every item read, filtered ones included),
//    "itemsReturned": m (Count of a Query or Scan; 1 or 0 for GetItem: the item was found or not),
//    "readUnits": r (the answer's ConsumedCapacity when it has one; for Query and Scan otherwise
//    the read units of bytesRead rounded as model/capacity's SummedReadUnits, strongly consistent
//    when the request said ConsistentRead)}
// The answer is parsed only here, so only explained requests pay for it.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/read_work.h"

namespace monotable::api {

bool WantsExplain(const std::vector<std::pair<std::string_view, std::string_view>>& headers);
std::string ExplainJson(std::string_view operation, const rapidjson::Value& request, const ReadWork& read_work,
                        std::string_view answer);

}  // namespace monotable::api
