// Test helpers for src/expr: a compact "document" notation for AttributeValues and items.
//
//   "text" -> S        12, -1.5e3 -> N (text kept exactly)   true/false -> BOOL   null -> NULL
//   [..] -> L          {"k": v} -> M                         {"$B": "base64"} -> B
//   {"$SS": ["a"]}, {"$NS": ["1"]}, {"$BS": ["YQ=="]} -> sets
//
// Doc() renders back in the same notation (maps by key, set members sorted) for comparisons.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

#include "common/base64.h"
#include "expr/binder.h"
#include "model/attribute_value.h"

namespace monotable::expr::testing {

class DocParser {
 public:
  explicit DocParser(std::string_view text) : s_(text) {}

  AttributeValue Value() {
    Skip();
    if (i_ >= s_.size()) return Fail("unexpected end");
    const char c = s_[i_];
    if (c == '"') return AttributeValue::S(String());
    if (c == '[') {
      ++i_;
      AttributeValue::List list;
      Skip();
      if (Peek() == ']') {
        ++i_;
        return AttributeValue::L(std::move(list));
      }
      while (true) {
        list.push_back(Value());
        Skip();
        if (Peek() == ',') {
          ++i_;
          continue;
        }
        Expect(']');
        return AttributeValue::L(std::move(list));
      }
    }
    if (c == '{') return Object();
    if (s_.compare(i_, 4, "true") == 0) {
      i_ += 4;
      return AttributeValue::Bool(true);
    }
    if (s_.compare(i_, 5, "false") == 0) {
      i_ += 5;
      return AttributeValue::Bool(false);
    }
    if (s_.compare(i_, 4, "null") == 0) {
      i_ += 4;
      return AttributeValue::Null();
    }
    const size_t start = i_;
    while (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '-' || s_[i_] == '+' ||
                              s_[i_] == '.' || s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
    }
    return Num(s_.substr(start, i_ - start));
  }

  void Done() {
    Skip();
    EXPECT_EQ(i_, s_.size()) << "trailing text in " << s_;
  }

 private:
  AttributeValue Object() {
    Expect('{');
    AttributeValue::Map map;
    Skip();
    if (Peek() == '}') {
      ++i_;
      return AttributeValue::M(std::move(map));
    }
    while (true) {
      Skip();
      std::string key = String();
      Skip();
      Expect(':');
      if (key == "$B") {
        Skip();
        std::string b64 = String();
        Skip();
        Expect('}');
        return AttributeValue::B(Base64Decode(b64));
      }
      if (key == "$SS" || key == "$NS" || key == "$BS") {
        AttributeValue list = Value();
        Skip();
        Expect('}');
        std::vector<std::string> members;
        std::vector<Number> numbers;
        for (const auto& m : list.l()) {
          if (key == "$NS") numbers.push_back(Num(m.s()).n());
          if (key == "$SS") members.push_back(m.s());
          if (key == "$BS") members.push_back(Base64Decode(m.s()));
        }
        if (key == "$NS") return AttributeValue::NS(std::move(numbers));
        return key == "$SS" ? AttributeValue::SS(std::move(members)) : AttributeValue::BS(std::move(members));
      }
      map.insert_or_assign(key, Value());
      Skip();
      if (Peek() == ',') {
        ++i_;
        continue;
      }
      Expect('}');
      return AttributeValue::M(std::move(map));
    }
  }

  std::string String() {
    Expect('"');
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      if (s_[i_] == '\\' && i_ + 1 < s_.size()) ++i_;
      out.push_back(s_[i_++]);
    }
    Expect('"');
    return out;
  }

  static AttributeValue Num(std::string_view text) {
    auto n = Number::Parse(text);
    EXPECT_TRUE(n.ok()) << "bad number " << text;
    return AttributeValue::N(n.ok() ? n.value() : Number());
  }

  char Peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  void Skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  void Expect(char c) {
    Skip();
    EXPECT_EQ(Peek(), c) << "at " << i_ << " in " << s_;
    ++i_;
  }
  AttributeValue Fail(const char* what) {
    ADD_FAILURE() << what << " in " << s_;
    return AttributeValue();
  }

  std::string_view s_;
  size_t i_ = 0;
};

inline AttributeValue Av(std::string_view text) {
  DocParser p(text);
  AttributeValue v = p.Value();
  p.Done();
  return v;
}

inline Item It(std::string_view text) {
  if (text.empty()) return {};
  AttributeValue v = Av(text);
  return v.type() == AttrType::kM ? v.m() : Item{};
}

inline NameMap Names(std::string_view text) {
  NameMap out;
  for (const auto& [k, v] : It(text)) out.emplace(k, v.s());
  return out;
}

inline ValueMap Values(std::string_view text) {
  ValueMap out;
  for (const auto& [k, v] : It(text)) out.emplace(k, v);
  return out;
}

inline std::string Quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

inline std::string Doc(const AttributeValue& v);

inline std::string Doc(const Item& item) {
  std::string out = "{";
  bool first = true;
  for (const auto& [k, v] : item) {
    if (!first) out += ",";
    first = false;
    out += Quote(k) + ":" + Doc(v);
  }
  return out + "}";
}

inline std::string Doc(const AttributeValue& v) {
  switch (v.type()) {
    case AttrType::kS: return Quote(v.s());
    case AttrType::kN: return v.n().ToString();
    case AttrType::kB: return "{\"$B\":" + Quote(Base64Encode(v.bytes())) + "}";
    case AttrType::kBool: return v.boolean() ? "true" : "false";
    case AttrType::kNull: return "null";
    case AttrType::kL: {
      std::string out = "[";
      for (size_t i = 0; i < v.l().size(); ++i) out += (i ? "," : "") + Doc(v.l()[i]);
      return out + "]";
    }
    case AttrType::kM: return Doc(v.m());
    case AttrType::kSS:
    case AttrType::kBS: {
      std::vector<std::string> members = v.string_set();
      if (v.type() == AttrType::kBS) {
        for (auto& m : members) m = Base64Encode(m);
      }
      std::sort(members.begin(), members.end());
      std::string out = v.type() == AttrType::kSS ? "{\"$SS\":[" : "{\"$BS\":[";
      for (size_t i = 0; i < members.size(); ++i) out += (i ? "," : "") + Quote(members[i]);
      return out + "]}";
    }
    case AttrType::kNS: {
      std::vector<Number> members = v.number_set();
      std::sort(members.begin(), members.end());
      std::string out = "{\"$NS\":[";
      for (size_t i = 0; i < members.size(); ++i) out += (i ? "," : "") + Quote(members[i].ToString());
      return out + "]}";
    }
  }
  return "?";
}

}  // namespace monotable::expr::testing
