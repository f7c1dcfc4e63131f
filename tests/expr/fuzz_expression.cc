// libFuzzer target: arbitrary text parsed as each expression kind, then bound, evaluated, projected
// and applied, against fixed ExpressionAttributeNames / Values and a fixed item. Any crash, sanitizer
// report or stack overflow is a bug: every input must end in a result or a ValidationException,
// and the message of that exception (which quotes the input) must be UTF-8, so that the answer
// carrying it quotes the client's text exactly rather than a cut byte sequence.
//
// Built only when the CMake option MONOTABLE_FUZZ is on and the compiler is clang (the build wires
// it with -fsanitize=fuzzer,address,undefined); not part of expr_tests.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "expr/expression.h"
#include "expr/key_condition.h"
#include "expr/parser.h"

namespace {

using monotable::AttributeValue;
using monotable::Item;
using monotable::Number;
namespace expr = monotable::expr;

const expr::NameMap& Names() {
  static const expr::NameMap names = {{"#a", "a"}, {"#b", "b"}, {"#l", "l"}, {"#m", "m"}, {"#k", "pk"}, {"#d", "x.y"}};
  return names;
}

const expr::ValueMap& Values() {
  static const expr::ValueMap values = [] {
    expr::ValueMap v;
    v.emplace(":s", AttributeValue::S("abc"));
    v.emplace(":t", AttributeValue::S("S"));
    v.emplace(":n", AttributeValue::N(Number::FromInt(7)));
    v.emplace(":z", AttributeValue::N(Number::FromInt(0)));
    v.emplace(":b", AttributeValue::B(std::string("\x01\x02", 2)));
    v.emplace(":l", AttributeValue::L({AttributeValue::N(Number::FromInt(1)), AttributeValue::S("x")}));
    v.emplace(":m", AttributeValue::M({{"k", AttributeValue::Bool(true)}}));
    v.emplace(":ss", AttributeValue::SS({"a", "b"}));
    v.emplace(":ns", AttributeValue::NS({Number::FromInt(1), Number::FromInt(2)}));
    v.emplace(":null", AttributeValue::Null());
    return v;
  }();
  return values;
}

const Item& TheItem() {
  static const Item item = {
      {"pk", AttributeValue::S("p")},
      {"a", AttributeValue::N(Number::FromInt(5))},
      {"b", AttributeValue::S("abcdef")},
      {"l", AttributeValue::L({AttributeValue::N(Number::FromInt(1)),
                               AttributeValue::M({{"q", AttributeValue::SS({"a"})}}), AttributeValue::S("z")})},
      {"m", AttributeValue::M({{"n", AttributeValue::M({{"o", AttributeValue::N(Number::FromInt(3))}})},
                               {"l", AttributeValue::L({})}})},
      {"s", AttributeValue::SS({"a", "c"})},
  };
  return item;
}

// True when `s` is well-formed UTF-8 (RFC 3629).
bool IsUtf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  for (size_t i = 0; i < n;) {
    const unsigned char c = p[i];
    size_t length = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c < 0x80) {
      length = 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    } else {
      return false;
    }
    if (i + length > n) return false;
    for (size_t k = 1; k < length; ++k) {
      const unsigned char t = p[i + k];
      if (k == 1 ? (t < lo || t > hi) : (t < 0x80 || t > 0xBF)) return false;
    }
    i += length;
  }
  return true;
}

// The input is UTF-8 (requests are validated before expressions see them): so must every message be.
template <typename R>
void CheckMessage(std::string_view input, const R& result) {
  if (result.ok() || !IsUtf8(input)) return;
  const std::string& message = result.status().message();
  if (!IsUtf8(message)) {
    std::fprintf(stderr, "message is not UTF-8: %s\n", message.c_str());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // The parser alone, every kind (no cache: fuzzing should not grow one).
  for (auto kind : {expr::ExpressionKind::kCondition, expr::ExpressionKind::kFilter, expr::ExpressionKind::kKeyCondition,
                    expr::ExpressionKind::kProjection, expr::ExpressionKind::kUpdate}) {
    CheckMessage(text, expr::ParseExpression(kind, text));
  }
  // The whole pipeline through a small private cache.
  static expr::ExpressionCache cache(256, 4);
  expr::UsageTracker tracker;
  expr::ExpressionInputs in{&Names(), &Values(), &tracker, &cache};
  const Item& item = TheItem();

  CheckMessage(text, expr::ParseConditionExpression(text, in));
  CheckMessage(text, expr::ParseUpdateExpression(text, in));
  CheckMessage(text, expr::ParseProjectionExpression(text, in));
  CheckMessage(text, expr::ParseKeyConditionExpression(text, in));
  if (auto c = expr::ParseConditionExpression(text, in); c.ok()) {
    (void)c->Evaluate(&item);
    (void)c->Evaluate(nullptr);
    (void)c->PathHeads(true);
  }
  if (auto k = expr::ParseKeyConditionExpression(text, in); k.ok()) {
    if (auto parts = expr::ExtractKeyConditionParts(*k); parts.ok()) {
      expr::KeySchemaInfo schema{"pk", std::string("a"), std::nullopt, std::nullopt};
      if (auto key = expr::ResolveKeyCondition(*parts, schema); key.ok() && key->sort) {
        (void)key->sort->Matches(AttributeValue::N(Number::FromInt(5)));
      }
    }
  }
  if (auto p = expr::ParseProjectionExpression(text, in); p.ok()) (void)p->Apply(item);
  if (auto u = expr::ParseUpdateExpression(text, in); u.ok()) {
    (void)expr::CheckKeyAttributesNotUpdated(*u, {"pk"});
    if (auto out = u->Apply(&item, Item{}); out.ok()) (void)expr::ProjectionExpression(out->updated_paths).Apply(out->item);
    (void)u->Apply(nullptr, Item{{"pk", AttributeValue::S("p")}});
  }
  (void)expr::CheckAllUsed(in);
  return 0;
}
