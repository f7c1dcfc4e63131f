#include "backup/dynamodb_json.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "common/base64.h"
#include "model/json_writer.h"

namespace monotable::backup {
namespace {

using Writer = model::JsonWriter;

Status Bad(const std::string& m) { return Status::Validation(m); }

Result<AttributeValue> ReadValue(const rapidjson::Value& json, int depth) {
  if (depth > 32) return Bad("Nesting Levels have exceeded supported limits");
  if (!json.IsObject() || json.MemberCount() != 1) {
    return Bad(
        "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes");
  }
  const auto& m = *json.MemberBegin();
  std::string_view type(m.name.GetString(), m.name.GetStringLength());
  const auto& v = m.value;
  auto str = [&](const rapidjson::Value& s) { return std::string(s.GetString(), s.GetStringLength()); };
  if (type == "S") {
    if (!v.IsString()) return Bad("S must be a string");
    return AttributeValue::S(str(v));
  }
  if (type == "N") {
    if (!v.IsString()) return Bad("N must be a string");
    MT_ASSIGN_OR_RETURN(Number n, Number::Parse(str(v)));
    return AttributeValue::N(std::move(n));
  }
  if (type == "B") {
    if (!v.IsString() || !IsCanonicalBase64(str(v))) return Bad("B must be base64");
    return AttributeValue::B(Base64Decode(str(v)));
  }
  if (type == "BOOL") {
    if (!v.IsBool()) return Bad("BOOL must be a boolean");
    return AttributeValue::Bool(v.GetBool());
  }
  if (type == "NULL") {
    if (!v.IsBool() || !v.GetBool())
      return Bad("One or more parameter values were invalid: Null attribute value types must have the value of true");
    return AttributeValue::Null();
  }
  if (type == "L") {
    if (!v.IsArray()) return Bad("L must be a list");
    AttributeValue::List list;
    for (const auto& e : v.GetArray()) {
      MT_ASSIGN_OR_RETURN(AttributeValue a, ReadValue(e, depth + 1));
      list.push_back(std::move(a));
    }
    return AttributeValue::L(std::move(list));
  }
  if (type == "M") {
    if (!v.IsObject()) return Bad("M must be a map");
    AttributeValue::Map map;
    for (const auto& e : v.GetObject()) {
      MT_ASSIGN_OR_RETURN(AttributeValue a, ReadValue(e.value, depth + 1));
      map.emplace(str(e.name), std::move(a));
    }
    return AttributeValue::M(std::move(map));
  }
  if (type == "SS" || type == "BS" || type == "NS") {
    if (!v.IsArray()) return Bad(std::string(type) + " must be a list");
    if (v.Empty()) return Bad("One or more parameter values were invalid: An string set  may not be empty");
    std::vector<std::string> strings;
    std::vector<Number> numbers;
    for (const auto& e : v.GetArray()) {
      if (!e.IsString()) return Bad(std::string(type) + " members must be strings");
      if (type == "NS") {
        MT_ASSIGN_OR_RETURN(Number n, Number::Parse(str(e)));
        numbers.push_back(std::move(n));
      } else if (type == "BS") {
        if (!IsCanonicalBase64(str(e))) return Bad("BS members must be base64");
        strings.push_back(Base64Decode(str(e)));
      } else {
        strings.push_back(str(e));
      }
    }
    AttributeValue set = type == "NS"   ? AttributeValue::NS(std::move(numbers))
                         : type == "BS" ? AttributeValue::BS(std::move(strings))
                                        : AttributeValue::SS(std::move(strings));
    size_t n = type == "NS" ? set.number_set().size() : set.string_set().size();
    for (size_t i = 1; i < n; ++i) {
      bool same = type == "NS" ? set.number_set()[i] == set.number_set()[i - 1]
                               : set.string_set()[i] == set.string_set()[i - 1];
      if (same) return Bad("One or more parameter values were invalid: Input collection contains duplicates");
    }
    return set;
  }
  return Bad("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
}

}  // namespace

std::string ItemLine(const Item& item) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  w.Key("Item");
  model::WriteItem(w, item);
  w.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

std::string ItemJson(const Item& item) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  model::WriteItem(w, item);
  return {buffer.GetString(), buffer.GetSize()};
}

Result<Item> ItemFromDynamoJson(const rapidjson::Value& map) {
  if (!map.IsObject()) return Bad("Item must be a map");
  Item item;
  for (const auto& e : map.GetObject()) {
    if (e.name.GetStringLength() == 0) return Bad("An attribute name may not be empty");
    MT_ASSIGN_OR_RETURN(AttributeValue v, ReadValue(e.value, 1));
    item.emplace(std::string(e.name.GetString(), e.name.GetStringLength()), std::move(v));
  }
  return item;
}

Result<Item> ItemFromLine(std::string_view line) {
  rapidjson::Document doc;
  doc.Parse(line.data(), line.size());
  if (doc.HasParseError() || !doc.IsObject()) return Bad("Unexpected token: the line is not a JSON object");
  const rapidjson::Value& object = doc;  // const: RapidJSON's mutable member iterators compare ambiguously in C++20
  auto it = object.FindMember("Item");
  if (it == object.MemberEnd()) return Bad("The line has no Item member");
  return ItemFromDynamoJson(it->value);
}

}  // namespace monotable::backup
