// DynamoDB JSON <-> model values: the only place where AttributeValues cross the wire.
//
// Contract:
// - Decoders run after the shape type pass (so every member has its JSON kind) and apply
//   DynamoDB's value validation with its messages: empty AttributeValue, several types set,
//   NULL false, empty sets, duplicate set members, bad numbers (src/model/number.h messages),
//   nesting deeper than 32 levels, attribute names (item names and map keys at any depth) that
//   are empty or of 64 KB or more.
// - Writers emit normalised numbers, base64 binary, sets in their canonical order (sorted, see
//   model/attribute_value.h; records stored by older versions keep their stored order).
// - Everything is written with model::JsonWriter (model/json_writer.h): JSON a strict reader accepts;
//   WriteAttributeValue and WriteItem are model's (json_writer.h).
#pragma once

#include <rapidjson/document.h>

#include <string>
#include <string_view>

#include "model/attribute_value.h"
#include "model/json_writer.h"

namespace monotable::api {

using model::JsonWriter;

Result<AttributeValue> DecodeAttributeValue(const rapidjson::Value& json);
// A map of attribute name -> AttributeValue (Item, Key, ExclusiveStartKey).
Result<Item> DecodeItem(const rapidjson::Value& json);

using model::WriteAttributeValue;
using model::WriteItem;
// Writes a stored record (model/item_codec.h) exactly as WriteItem(DecodeItem(record)) would;
// with `size`, also measures the item (EncodedItemSize) in the same walk.
Status WriteEncodedItem(JsonWriter& w, std::string_view record, uint64_t* size = nullptr);

// Java-style rendering of a value list used in a few messages: "[a, b]".
std::string CollectionText(const std::vector<std::string>& members);

}  // namespace monotable::api
