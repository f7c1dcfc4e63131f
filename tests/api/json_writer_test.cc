#include <gtest/gtest.h>

#include <random>
#include <string>

#include "api/wire_value.h"
#include "model/item_codec.h"

namespace monotable::api {
namespace {

// The reference output: RapidJSON's format (\b \t \n \f \r \" \\ and \u00XX, uppercase), written
// byte by byte. (RapidJSON's own writer is no oracle: built with RAPIDJSON_SSE2 it leaves
// U+001A..U+001F unescaped inside aligned 16-byte blocks.)
std::string Quoted(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\f': out += "\\f"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          static const char* kHex = "0123456789ABCDEF";
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string Plain(const std::string& key, const std::string& value) { return "{" + Quoted(key) + ":" + Quoted(value) + "}"; }

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

TEST(JsonWriter, ControlCharactersInAlignedBlocksAreEscaped) {
  // The RapidJSON SSE2 writer's fault: U+001A..U+001F inside an aligned 16-byte block went out raw.
  std::string s(64, 'a');
  for (int c = 0x1A; c <= 0x1F; ++c) s[16 + c - 0x1A] = static_cast<char>(c);
  const std::string out = Fast(s, s);
  for (char c : out) EXPECT_GE(static_cast<unsigned char>(c), 0x20) << out;
  EXPECT_NE(out.find("\\u001A\\u001B\\u001C\\u001D\\u001E\\u001F"), std::string::npos) << out;
}

TEST(JsonWriter, EveryByteAtEveryPosition) {
  // Each byte value at each offset of 17- and 25-byte strings (16 bytes at a time, then 8 at a
  // time, then the tail).
  for (size_t size : {17u, 25u}) {
    for (int c = 0; c < 256; ++c) {
      for (size_t pos = 0; pos < size; ++pos) {
        std::string s(size, 'a');
        s[pos] = static_cast<char>(c);
        // A lone byte of 0x80 or above is no UTF-8: it goes out as U+FFFD.
        std::string expected = s;
        if (c >= 0x80) expected.replace(pos, 1, "\xEF\xBF\xBD");
        ASSERT_EQ(Fast("k", s), Plain("k", expected)) << "byte " << c << " at " << pos << " of " << size;
      }
    }
  }
}

TEST(JsonWriter, TextThatIsNotUtf8IsRepaired) {
  // Every answer must decode as UTF-8: stray bytes become U+FFFD, well-formed sequences stay.
  const std::pair<std::string, std::string> cases[] = {
      {"\xc3\xa9", "\xc3\xa9"},                           // é
      {"\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf"},       // U+10FFFF
      {"\xc3", "\xef\xbf\xbd"},                           // truncated
      {"a\xe4\xb8", "a\xef\xbf\xbd\xef\xbf\xbd"},       // truncated three-byte sequence
      {"\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd"},         // overlong
      {"\xed\xb0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},  // an encoded lone surrogate
      {"\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},  // above U+10FFFF
      {"q\"\xff\x01", "q\"\xef\xbf\xbd\x01"},             // escapes and repairs together
  };
  for (const auto& [in, out] : cases) {
    EXPECT_EQ(Fast(in, in), Plain(out, out)) << in;
    rapidjson::StringBuffer b;
    JsonWriter w(b);
    w.BeginRawValue(rapidjson::kStringType);
    w.RawString(in);
    w.EndRawValue();
    EXPECT_EQ(std::string(b.GetString()), Quoted(out)) << in;
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
