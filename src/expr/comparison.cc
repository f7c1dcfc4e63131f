#include "expr/comparison.h"

#include <algorithm>
#include <array>

namespace monotable::expr {
namespace {

constexpr std::array<std::string_view, 13> kOperatorNames = {
    "EQ", "NE", "LE", "LT", "GE", "GT", "NOT_NULL", "NULL", "CONTAINS", "NOT_CONTAINS", "BEGINS_WITH", "IN", "BETWEEN",
};

int Sign(int v) { return (v > 0) - (v < 0); }

// UTF-16 code units of UTF-8 text: one per character, two for a character outside the BMP (a
// 4-byte UTF-8 sequence). Counts lead bytes, so it is total on any input.
uint64_t Utf16Length(std::string_view text) {
  uint64_t units = 0;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte & 0xC0) != 0x80) ++units;  // not a continuation byte
    if (byte >= 0xF0) ++units;           // a supplementary character: a surrogate pair
  }
  return units;
}

}  // namespace

std::optional<ComparisonOperator> ParseComparisonOperator(std::string_view name) {
  for (size_t i = 0; i < kOperatorNames.size(); ++i) {
    if (kOperatorNames[i] == name) return static_cast<ComparisonOperator>(i);
  }
  return std::nullopt;
}

std::string_view ComparisonOperatorName(ComparisonOperator op) { return kOperatorNames[static_cast<size_t>(op)]; }

bool IsOrderedType(AttrType type) { return type == AttrType::kS || type == AttrType::kN || type == AttrType::kB; }

std::optional<int> CompareOrdered(const AttributeValue& a, const AttributeValue& b) {
  if (a.type() != b.type()) return std::nullopt;
  switch (a.type()) {
    case AttrType::kS:
    case AttrType::kB:
      // std::string::compare is memcmp-based: unsigned byte order, as DynamoDB orders S and B.
      return Sign(a.s().compare(b.s()));
    case AttrType::kN:
      return Sign(a.n().Compare(b.n()));
    default:
      return std::nullopt;
  }
}

std::optional<uint64_t> SizeOf(const AttributeValue& value) {
  switch (value.type()) {
    case AttrType::kS:
      return Utf16Length(value.s());
    case AttrType::kB:
      return value.s().size();
    case AttrType::kSS:
    case AttrType::kBS:
      return value.string_set().size();
    case AttrType::kNS:
      return value.number_set().size();
    case AttrType::kL:
      return value.l().size();
    case AttrType::kM:
      return value.m().size();
    default:
      return std::nullopt;
  }
}

bool Contains(const AttributeValue& haystack, const AttributeValue& needle) {
  switch (haystack.type()) {
    case AttrType::kS:
    case AttrType::kB:
      return needle.type() == haystack.type() && haystack.s().find(needle.s()) != std::string::npos;
    case AttrType::kSS:
      if (needle.type() != AttrType::kS) return false;
      return std::find(haystack.string_set().begin(), haystack.string_set().end(), needle.s()) !=
             haystack.string_set().end();
    case AttrType::kBS:
      if (needle.type() != AttrType::kB) return false;
      return std::find(haystack.string_set().begin(), haystack.string_set().end(), needle.bytes()) !=
             haystack.string_set().end();
    case AttrType::kNS:
      if (needle.type() != AttrType::kN) return false;
      return std::find(haystack.number_set().begin(), haystack.number_set().end(), needle.n()) !=
             haystack.number_set().end();
    case AttrType::kL:
      return std::find(haystack.l().begin(), haystack.l().end(), needle) != haystack.l().end();
    default:
      return false;
  }
}

bool BeginsWith(const AttributeValue& value, const AttributeValue& prefix) {
  if (value.type() != prefix.type()) return false;
  if (value.type() != AttrType::kS && value.type() != AttrType::kB) return false;
  return value.s().compare(0, prefix.s().size(), prefix.s()) == 0 && value.s().size() >= prefix.s().size();
}

bool ApplyComparison(ComparisonOperator op, const AttributeValue* attribute,
                     const std::vector<AttributeValue>& arguments) {
  const AttributeValue* arg = arguments.empty() ? nullptr : &arguments[0];
  auto ordered = [&](auto pred) {
    if (attribute == nullptr || arg == nullptr) return false;
    auto c = CompareOrdered(*attribute, *arg);
    return c.has_value() && pred(*c);
  };
  switch (op) {
    case ComparisonOperator::kEq:
      return attribute != nullptr && arg != nullptr && *attribute == *arg;
    case ComparisonOperator::kNe:
      return attribute == nullptr || arg == nullptr || !(*attribute == *arg);
    case ComparisonOperator::kLe: return ordered([](int c) { return c <= 0; });
    case ComparisonOperator::kLt: return ordered([](int c) { return c < 0; });
    case ComparisonOperator::kGe: return ordered([](int c) { return c >= 0; });
    case ComparisonOperator::kGt: return ordered([](int c) { return c > 0; });
    case ComparisonOperator::kNotNull:
      return attribute != nullptr;
    case ComparisonOperator::kNull:
      return attribute == nullptr;
    case ComparisonOperator::kContains:
      return attribute != nullptr && arg != nullptr && Contains(*attribute, *arg);
    case ComparisonOperator::kNotContains:
      return attribute != nullptr && arg != nullptr && !Contains(*attribute, *arg);
    case ComparisonOperator::kBeginsWith:
      return attribute != nullptr && arg != nullptr && BeginsWith(*attribute, *arg);
    case ComparisonOperator::kIn:
      return attribute != nullptr && std::find(arguments.begin(), arguments.end(), *attribute) != arguments.end();
    case ComparisonOperator::kBetween: {
      if (attribute == nullptr || arguments.size() != 2) return false;
      auto lo = CompareOrdered(*attribute, arguments[0]);
      auto hi = CompareOrdered(*attribute, arguments[1]);
      return lo.has_value() && hi.has_value() && *lo >= 0 && *hi <= 0;
    }
  }
  return false;
}

std::string ValidateComparisonArguments(ComparisonOperator op, const std::vector<AttributeValue>& arguments) {
  const std::string invalid = "One or more parameter values were invalid: ";
  const std::string name(ComparisonOperatorName(op));
  bool count_ok = false;
  switch (op) {
    case ComparisonOperator::kNull:
    case ComparisonOperator::kNotNull:
      count_ok = arguments.empty();
      break;
    case ComparisonOperator::kIn:
      count_ok = !arguments.empty();
      break;
    case ComparisonOperator::kBetween:
      count_ok = arguments.size() == 2;
      break;
    default:
      count_ok = arguments.size() == 1;
      break;
  }
  if (!count_ok) return invalid + "Invalid number of argument(s) for the " + name + " ComparisonOperator";
  for (const auto& v : arguments) {
    if (v.type() != arguments[0].type()) return invalid + "AttributeValues inside AttributeValueList must be of same type";
  }
  for (const auto& v : arguments) {
    const AttrType t = v.type();
    bool ok = true;
    if (op == ComparisonOperator::kBeginsWith) {
      ok = t == AttrType::kS || t == AttrType::kB;
    } else if (op != ComparisonOperator::kEq && op != ComparisonOperator::kNe) {
      ok = IsOrderedType(t);
    }
    if (!ok) {
      return invalid + "ComparisonOperator " + name + " is not valid for " + std::string(AttrTypeName(t)) +
             " AttributeValue type";
    }
  }
  if (op == ComparisonOperator::kBetween) {
    auto c = CompareOrdered(arguments[0], arguments[1]);
    if (c && *c > 0) return "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound";
  }
  return {};
}

}  // namespace monotable::expr
