#include <gtest/gtest.h>

#include <random>
#include <string>

#include "api/wire_value.h"

namespace monotable::api {
namespace {

// The fast path must give exactly RapidJSON's output, escapes included.
std::string Plain(const std::string& key, const std::string& value) {
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  w.StartObject();
  w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
  w.EndObject();
  return b.GetString();
}

std::string Fast(const std::string& key, const std::string& value) {
  rapidjson::StringBuffer b;
  JsonWriter w(b);
  w.StartObject();
  w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
  w.EndObject();
  return b.GetString();
}

TEST(JsonWriter, SameOutputAsRapidJson) {
  const std::string cases[] = {"", "plain", "exactly8", "sixteen-bytes-xx", "quote\"inside", "back\\slash",
                               "tab\tnewline\n", std::string("nul\0byte", 8), "\x1f", "\x20", "\x7f",
                               "caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80", "long run of text then a \"quote\" late",
                               "0123456789abcdef0123456789abcde\\"};
  for (const std::string& s : cases) EXPECT_EQ(Fast(s, s), Plain(s, s)) << s;
}

TEST(JsonWriter, EveryByteAtEveryPosition) {
  // Each byte value at each offset of a 17-byte string (word-at-a-time scan, then the tail).
  for (int c = 0; c < 256; ++c) {
    for (size_t pos = 0; pos < 17; ++pos) {
      std::string s(17, 'a');
      s[pos] = static_cast<char>(c);
      ASSERT_EQ(Fast("k", s), Plain("k", s)) << "byte " << c << " at " << pos;
    }
  }
}

}  // namespace
}  // namespace monotable::api
