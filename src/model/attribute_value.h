// AttributeValue: one DynamoDB value of any of the ten types; Item: an item's top-level attributes.
//
// Contract:
// - A value's type() decides which accessor is valid: s() for S, bytes() for B (raw bytes, not
//   base64), n() for N, boolean() for BOOL, l() for L, m() for M, string_set() for SS and BS,
//   number_set() for NS. NULL carries nothing. Calling the wrong accessor is a programming error.
// - Sets are kept in one canonical order, the order every response returns them in: SS and BS
//   members sorted by their bytes (unsigned), NS members numerically. The factories sort; code
//   that changes a set's members in place calls Canonicalize() after. Equality treats them as
//   sets. Maps are ordered by name.
// - Values are plain data: copyable, movable, comparable with ==. Validation of user input (empty
//   sets, duplicates, nesting depth) is done by the decoders, not here.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "model/number.h"

namespace monotable {

enum class AttrType : uint8_t { kS, kN, kB, kBool, kNull, kL, kM, kSS, kNS, kBS };

// The wire name of a type: "S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS".
std::string_view AttrTypeName(AttrType type);
bool IsSetType(AttrType type);

class AttributeValue {
 public:
  using List = std::vector<AttributeValue>;
  using Map = std::map<std::string, AttributeValue, std::less<>>;

  AttributeValue() : type_(AttrType::kNull) {}

  static AttributeValue S(std::string v) { return AttributeValue(AttrType::kS, std::move(v)); }
  static AttributeValue B(std::string bytes) { return AttributeValue(AttrType::kB, std::move(bytes)); }
  static AttributeValue N(Number v) { return AttributeValue(AttrType::kN, std::move(v)); }
  static AttributeValue Bool(bool v) { return AttributeValue(AttrType::kBool, v); }
  static AttributeValue Null() { return AttributeValue(); }
  static AttributeValue L(List v) { return AttributeValue(AttrType::kL, std::move(v)); }
  static AttributeValue M(Map v) { return AttributeValue(AttrType::kM, std::move(v)); }
  static AttributeValue SS(std::vector<std::string> v) { return Sorted(AttributeValue(AttrType::kSS, std::move(v))); }
  static AttributeValue BS(std::vector<std::string> v) { return Sorted(AttributeValue(AttrType::kBS, std::move(v))); }
  static AttributeValue NS(std::vector<Number> v) { return Sorted(AttributeValue(AttrType::kNS, std::move(v))); }

  AttrType type() const { return type_; }

  const std::string& s() const { return std::get<std::string>(v_); }
  const std::string& bytes() const { return std::get<std::string>(v_); }
  const Number& n() const { return std::get<Number>(v_); }
  bool boolean() const { return std::get<bool>(v_); }
  const List& l() const { return std::get<List>(v_); }
  List& l() { return std::get<List>(v_); }
  const Map& m() const { return std::get<Map>(v_); }
  Map& m() { return std::get<Map>(v_); }
  const std::vector<std::string>& string_set() const { return std::get<std::vector<std::string>>(v_); }
  std::vector<std::string>& string_set() { return std::get<std::vector<std::string>>(v_); }
  const std::vector<Number>& number_set() const { return std::get<std::vector<Number>>(v_); }
  std::vector<Number>& number_set() { return std::get<std::vector<Number>>(v_); }

  bool operator==(const AttributeValue& other) const;

  // Puts a set's members back in canonical order (a no-op for other types and sorted sets).
  void Canonicalize();

 private:
  static AttributeValue Sorted(AttributeValue v) {
    v.Canonicalize();
    return v;
  }
  template <typename T>
  AttributeValue(AttrType type, T&& v) : type_(type), v_(std::forward<T>(v)) {}

  AttrType type_;
  std::variant<std::monostate, std::string, Number, bool, List, Map, std::vector<std::string>,
               std::vector<Number>>
      v_;
};

using Item = AttributeValue::Map;

// Size in bytes as DynamoDB counts it (shared spec "Types and sizes").
size_t AttributeValueSize(const AttributeValue& value);
size_t ItemSize(const Item& item);

// Nesting depth of a value: scalars and sets are 1... a map or list adds one level per container.
int NestingDepth(const AttributeValue& value);

}  // namespace monotable
