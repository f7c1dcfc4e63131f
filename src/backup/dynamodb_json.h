// DynamoDB JSON for export and import files (one item per line, {"Item": {...}}), independent of
// the API layer's request decoding: a file line is untrusted text, so the reader checks every
// JSON kind itself and refuses a bad line with a message instead of assuming a checked shape.
//
// Contract: ItemFromDynamoJson(parse(ItemLine(item))) == item for every item; a line that is not
// an object with an "Item" map of well-formed AttributeValues (one type each, numbers DynamoDB
// accepts, base64 binaries, non-empty sets, depth <= 32) is refused with a message.
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <string_view>

#include "model/attribute_value.h"

namespace monotable::backup {

// {"Item":{...}} without a trailing newline.
std::string ItemLine(const Item& item);
// The item's map alone: {"pk":{"S":"a"},...}.
std::string ItemJson(const Item& item);
Result<Item> ItemFromLine(std::string_view line);
Result<Item> ItemFromDynamoJson(const rapidjson::Value& map);

}  // namespace monotable::backup
