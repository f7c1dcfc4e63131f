// JsonWriter: RapidJSON's writer with every string escaped by a loop of our own, for every JSON the
// server writes (API answers, stream-trigger events, exports, records).
//
// Contract: the output is always JSON a strict reader accepts. Control characters, quotes and
// backslashes are escaped (RapidJSON's own SSE2 string writer, enabled project-wide, leaves
// U+001A..U+001F raw), and bytes that are not UTF-8 are replaced by U+FFFD. Code that writes JSON
// uses this class, never rapidjson::Writer directly.
#pragma once

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstring>
#include <string>
#include <string_view>

namespace monotable::model {

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

}  // namespace monotable::model
