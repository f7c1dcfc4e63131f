#include <gtest/gtest.h>

#include <random>
#include <string>

#include "api/wire_value.h"
#include "model/item_codec.h"

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
  // Each byte value at each offset of 17- and 25-byte strings (16 bytes at a time, then 8 at a
  // time, then the tail).
  for (size_t size : {17u, 25u}) {
    for (int c = 0; c < 256; ++c) {
      for (size_t pos = 0; pos < size; ++pos) {
        std::string s(size, 'a');
        s[pos] = static_cast<char>(c);
        ASSERT_EQ(Fast("k", s), Plain("k", s)) << "byte " << c << " at " << pos << " of " << size;
      }
    }
  }
}

Number Num(const char* text) { return Number::Parse(text).value(); }

// A stored record is written as text, without the writer's structure tracking: it must give
// exactly what WriteItem gives for the decoded item, as a lone value and among others.
TEST(JsonWriter, StoredRecordAsTextMatchesWriteItem) {
  using AV = AttributeValue;
  Item nested{{"inner \"q\"", AV::S("x")}, {"n", AV::N(Num("-1.5e3"))}};
  Item item{
      {"pk", AV::S("user#1")},
      {"escaped", AV::S("tab\tquote\"back\\slash\x01")},
      {"na\"me", AV::S("")},
      {"bin", AV::B(std::string("\x00\xff\x10" "binary", 9))},
      {"num", AV::N(Num("0.000123"))},
      {"yes", AV::Bool(true)},
      {"no", AV::Bool(false)},
      {"nothing", AV::Null()},
      {"map", AV::M(nested)},
      {"empty map", AV::M({})},
      {"empty list", AV::L({})},
      {"list", AV::L({AV::S("a"), AV::N(Num("7")), AV::L({AV::Null(), AV::M({{"k", AV::Bool(false)}})}),
                      AV::SS({"s1", "s\"2"}), AV::B("b")})},
      {"ss", AV::SS({"a", "b", "c"})},
      {"ns", AV::NS({Num("1"), Num("10"), Num("-2")})},
      {"bs", AV::BS({"x", std::string("\0", 1)})},
  };
  const std::string record = EncodeItem(item);

  auto written = [&](bool encoded) {
    rapidjson::StringBuffer b;
    JsonWriter w(b);
    w.StartObject();
    w.Key("Items");
    w.StartArray();
    for (int i = 0; i < 2; ++i) {
      if (encoded) {
        EXPECT_TRUE(WriteEncodedItem(w, record).ok());
      } else {
        WriteItem(w, item);
      }
    }
    w.EndArray();
    w.Key("Count");
    w.Int(2);
    w.EndObject();
    EXPECT_TRUE(w.IsComplete());
    return std::string(b.GetString(), b.GetSize());
  };
  EXPECT_EQ(written(true), written(false));

  rapidjson::StringBuffer alone;
  JsonWriter w(alone);
  ASSERT_TRUE(WriteEncodedItem(w, EncodeItem(Item{{"a", AV::S("b")}})).ok());
  EXPECT_EQ(std::string(alone.GetString()), R"({"a":{"S":"b"}})");
}

}  // namespace
}  // namespace monotable::api
