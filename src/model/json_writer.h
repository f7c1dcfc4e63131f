// JsonWriter: RapidJSON's writer with every string escaped by a loop of our own, for every JSON the
// server writes (API answers, stream-trigger events, exports, records).
//
// Contract: the output is always JSON a strict reader accepts. Control characters, quotes and
// backslashes are escaped (RapidJSON's own SSE2 string writer, enabled project-wide, leaves
// U+001A..U+001F raw), and bytes that are not UTF-8 are replaced by U+FFFD. Code that writes JSON
// uses this class, never rapidjson::Writer directly.
// - WriteAttributeValue/WriteItem write DynamoDB JSON ({"S": "..."}, {"M": {...}}): normalised numbers,
//   base64 binary, set members in their stored order. The one writer of values for API answers,
//   exports and stream-trigger events.
#pragma once

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstring>
#include <string>
#include <string_view>

#include "model/attribute_value.h"

namespace monotable::model {

// RapidJSON's writer with every String and Key overload routed through RawString, which copies a
// string with nothing to escape whole (most keys and values) instead of byte by byte.
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

void WriteAttributeValue(JsonWriter& w, const AttributeValue& value);
void WriteItem(JsonWriter& w, const Item& item);

}  // namespace monotable::model
