#include "model/attribute_value.h"

#include <algorithm>
#include <unordered_set>

namespace monotable {

std::string_view AttrTypeName(AttrType type) {
  switch (type) {
    case AttrType::kS: return "S";
    case AttrType::kN: return "N";
    case AttrType::kB: return "B";
    case AttrType::kBool: return "BOOL";
    case AttrType::kNull: return "NULL";
    case AttrType::kL: return "L";
    case AttrType::kM: return "M";
    case AttrType::kSS: return "SS";
    case AttrType::kNS: return "NS";
    case AttrType::kBS: return "BS";
  }
  return "?";
}

bool IsSetType(AttrType type) {
  return type == AttrType::kSS || type == AttrType::kNS || type == AttrType::kBS;
}

namespace {

template <typename T>
bool SameMembers(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return false;
  // Sets are small in practice; a quadratic check avoids hashing Numbers.
  for (const auto& x : a) {
    if (std::find(b.begin(), b.end(), x) == b.end()) return false;
  }
  return true;
}

}  // namespace

void AttributeValue::Canonicalize() {
  if (type_ == AttrType::kSS || type_ == AttrType::kBS) {
    auto& members = string_set();  // std::string orders by unsigned bytes (char_traits<char>::compare)
    if (!std::is_sorted(members.begin(), members.end())) std::sort(members.begin(), members.end());
  } else if (type_ == AttrType::kNS) {
    auto& members = number_set();
    auto less = [](const Number& a, const Number& b) { return a.Compare(b) < 0; };
    if (!std::is_sorted(members.begin(), members.end(), less)) std::sort(members.begin(), members.end(), less);
  }
}

bool AttributeValue::operator==(const AttributeValue& other) const {
  if (type_ != other.type_) return false;
  switch (type_) {
    case AttrType::kSS:
    case AttrType::kBS: {
      const auto& a = string_set();
      const auto& b = other.string_set();
      if (a.size() != b.size()) return false;
      std::unordered_set<std::string_view> members(a.begin(), a.end());
      return std::all_of(b.begin(), b.end(), [&](const std::string& x) { return members.count(x) > 0; });
    }
    case AttrType::kNS:
      return SameMembers(number_set(), other.number_set());
    default:
      return v_ == other.v_;
  }
}

size_t AttributeValueSize(const AttributeValue& value) {
  switch (value.type()) {
    case AttrType::kS:
    case AttrType::kB:
      return value.s().size();
    case AttrType::kN:
      return value.n().StorageSize();
    case AttrType::kBool:
    case AttrType::kNull:
      return 1;
    case AttrType::kL: {
      size_t size = 3;
      for (const auto& element : value.l()) size += 1 + AttributeValueSize(element);
      return size;
    }
    case AttrType::kM: {
      size_t size = 3;
      for (const auto& [name, element] : value.m()) size += 1 + name.size() + AttributeValueSize(element);
      return size;
    }
    case AttrType::kSS:
    case AttrType::kBS: {
      size_t size = 0;
      for (const auto& member : value.string_set()) size += member.size();
      return size;
    }
    case AttrType::kNS: {
      size_t size = 0;
      for (const auto& member : value.number_set()) size += member.StorageSize();
      return size;
    }
  }
  return 0;
}

size_t ItemSize(const Item& item) {
  size_t size = 0;
  for (const auto& [name, value] : item) size += name.size() + AttributeValueSize(value);
  return size;
}

int NestingDepth(const AttributeValue& value) {
  int deepest = 0;
  if (value.type() == AttrType::kL) {
    for (const auto& element : value.l()) deepest = std::max(deepest, NestingDepth(element));
    return deepest + 1;
  }
  if (value.type() == AttrType::kM) {
    for (const auto& [name, element] : value.m()) deepest = std::max(deepest, NestingDepth(element));
    return deepest + 1;
  }
  return 0;
}

}  // namespace monotable
