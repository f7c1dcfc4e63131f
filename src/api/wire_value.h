// DynamoDB JSON <-> model values: the only place where AttributeValues cross the wire.
//
// Contract:
// - Decoders run after the shape type pass (so every member has its JSON kind) and apply
//   DynamoDB's value validation with its messages: empty AttributeValue, several types set,
//   NULL false, empty sets, duplicate set members, bad numbers (src/model/number.h messages),
//   nesting deeper than 32 levels, attribute names (item names and map keys at any depth) that
//   are empty or of 64 KB or more.
// - Writers emit normalised numbers, base64 binary, sets in stored order.
#pragma once

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstring>
#include <string_view>

#include "model/attribute_value.h"

namespace monotable::api {

// RapidJSON's writer, with the same output, but a string with nothing to escape (no control
// character, quote or backslash: most keys and values) is copied whole instead of byte by byte.
class JsonWriter : public rapidjson::Writer<rapidjson::StringBuffer> {
 public:
  using Writer::Writer;
  using Writer::Key;
  using Writer::String;
  bool String(const char* s, rapidjson::SizeType length, bool copy = false);
  bool Key(const char* s, rapidjson::SizeType length, bool copy = false) { return String(s, length, copy); }

  // One value written as text straight into the buffer (WriteEncodedItem): the writer places it
  // like any value of `type`; in between, Raw and RawString append text and a quoted, escaped
  // string without the writer tracking the value's structure.
  void BeginRawValue(rapidjson::Type type) { Prefix(type); }
  void EndRawValue() { EndValue(true); }
  void Raw(std::string_view text) { std::memcpy(os_->Push(text.size()), text.data(), text.size()); }
  void RawString(std::string_view text);
};

Result<AttributeValue> DecodeAttributeValue(const rapidjson::Value& json);
// A map of attribute name -> AttributeValue (Item, Key, ExclusiveStartKey).
Result<Item> DecodeItem(const rapidjson::Value& json);

void WriteAttributeValue(JsonWriter& w, const AttributeValue& value);
void WriteItem(JsonWriter& w, const Item& item);
// Writes a stored record (model/item_codec.h) exactly as WriteItem(DecodeItem(record)) would;
// with `size`, also measures the item (EncodedItemSize) in the same walk.
Status WriteEncodedItem(JsonWriter& w, std::string_view record, uint64_t* size = nullptr);

// Java-style rendering of a value list used in a few messages: "[a, b]".
std::string CollectionText(const std::vector<std::string>& members);

}  // namespace monotable::api
