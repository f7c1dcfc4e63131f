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
// - JsonWriter's output is always JSON a strict reader accepts: control characters, quotes and
//   backslashes are escaped, and bytes that are not UTF-8 are replaced by U+FFFD.
#pragma once

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstring>
#include <string>
#include <string_view>

#include "model/attribute_value.h"

namespace monotable::api {

// RapidJSON's writer, with the same output for UTF-8 text, but every string is written by
// RawString: one with nothing to escape (no control character, quote or backslash: most keys and
// values) is copied whole instead of byte by byte, control characters are escaped (RapidJSON's own
// SSE2 string writer leaves U+001A..U+001F raw), and text that is not UTF-8 has its stray bytes
// replaced by U+FFFD. Every String and Key overload goes through here.
class JsonWriter : public rapidjson::Writer<rapidjson::StringBuffer> {
 public:
  using Writer::Writer;
  bool String(const char* s, rapidjson::SizeType length, bool copy = false);
  bool String(const char* s) { return String(s, static_cast<rapidjson::SizeType>(std::strlen(s))); }
  bool String(const std::string& s) { return String(s.data(), static_cast<rapidjson::SizeType>(s.size())); }
  bool Key(const char* s, rapidjson::SizeType length, bool copy = false) { return String(s, length, copy); }
  bool Key(const char* s) { return String(s); }
  bool Key(const std::string& s) { return String(s); }

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
