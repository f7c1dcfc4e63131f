#include "api/wire_value.h"

#include "model/item_codec.h"

#include <cstring>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <set>
#include <string_view>

#include "common/base64.h"

namespace monotable::api {
namespace {

constexpr int kMaxNesting = 32;
// AWS's wording, measured: 32 levels (31 maps or lists around a scalar) are accepted, 33 refused.
constexpr const char* kNestingMessage =
    "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit";

std::string_view View(const rapidjson::Value& v) { return {v.GetString(), v.GetStringLength()}; }

Status Invalid(const std::string& m) { return Status::Validation("One or more parameter values were invalid: " + m); }

// An attribute name, at the top of an item or a key in a map at any depth: at least one byte,
// less than 64 KB (AWS's developer guide, naming rules; the message for a long name is the one
// the expression and legacy parameters give, expr/binder.h).
Status CheckAttributeName(std::string_view name) {
  if (name.empty()) return Invalid("Empty attribute name");
  if (name.size() >= 65536) {
    return Status::Validation(
        "1 validation error detected: Attribute name is too large, must be less than 65536 bytes");
  }
  return Status::Ok();
}

Result<Number> DecodeNumber(const rapidjson::Value& v) { return Number::Parse(View(v)); }

Result<AttributeValue> Decode(const rapidjson::Value& json, int depth) {
  if (!json.IsObject() || json.MemberCount() == 0) {
    return Status::Validation("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
  }
  if (depth > kMaxNesting) return Status::Validation(kNestingMessage);
  // DynamoDB validates each type member present, then complains about several types.
  std::optional<AttributeValue> result;
  for (auto it = json.MemberBegin(); it != json.MemberEnd(); ++it) {
    std::string_view type = View(it->name);
    const rapidjson::Value& v = it->value;
    if (type == "S") {
      result = AttributeValue::S(std::string(View(v)));
    } else if (type == "N") {
      if (v.GetStringLength() == 0) return Status::Validation("The parameter cannot be converted to a numeric value");
      MT_ASSIGN_OR_RETURN(Number n, DecodeNumber(v));
      result = AttributeValue::N(std::move(n));
    } else if (type == "B") {
      result = AttributeValue::B(Base64Decode(View(v)));
    } else if (type == "BOOL") {
      result = AttributeValue::Bool(v.GetBool());
    } else if (type == "NULL") {
      if (!v.GetBool()) return Invalid("Null attribute value types must have the value of true");
      result = AttributeValue::Null();
    } else if (type == "SS") {
      if (v.Empty()) return Invalid("An string set  may not be empty");
      std::vector<std::string> members;
      std::set<std::string_view> seen;
      for (const auto& m : v.GetArray()) {
        if (!seen.insert(View(m)).second) {
          std::vector<std::string> all;
          for (const auto& x : v.GetArray()) all.emplace_back(View(x));
          return Invalid("Input collection " + CollectionText(all) + " contains duplicates.");
        }
        members.emplace_back(View(m));
      }
      result = AttributeValue::SS(std::move(members));
    } else if (type == "NS") {
      if (v.Empty()) return Invalid("An number set  may not be empty");
      std::vector<Number> members;
      for (const auto& m : v.GetArray()) {
        if (m.GetStringLength() == 0) return Status::Validation("The parameter cannot be converted to a numeric value");
        MT_ASSIGN_OR_RETURN(Number n, DecodeNumber(m));
        for (const auto& existing : members) {
          if (existing == n) return Status::Validation("Input collection contains duplicates");
        }
        members.push_back(std::move(n));
      }
      result = AttributeValue::NS(std::move(members));
    } else if (type == "BS") {
      if (v.Empty()) return Invalid("Binary sets should not be empty");
      std::vector<std::string> members;
      std::set<std::string> seen;
      for (const auto& m : v.GetArray()) {
        std::string bytes = Base64Decode(View(m));
        if (!seen.insert(bytes).second) {
          std::vector<std::string> all;
          for (const auto& x : v.GetArray()) all.emplace_back(View(x));
          return Invalid("Input collection " + CollectionText(all) + "of type BS contains duplicates.");
        }
        members.push_back(std::move(bytes));
      }
      result = AttributeValue::BS(std::move(members));
    } else if (type == "M") {
      AttributeValue::Map map;
      for (auto m = v.MemberBegin(); m != v.MemberEnd(); ++m) {
        MT_RETURN_IF_ERROR(CheckAttributeName(View(m->name)));
        MT_ASSIGN_OR_RETURN(AttributeValue element, Decode(m->value, depth + 1));
        map.insert_or_assign(std::string(View(m->name)), std::move(element));
      }
      result = AttributeValue::M(std::move(map));
    } else if (type == "L") {
      AttributeValue::List list;
      list.reserve(v.Size());
      for (const auto& m : v.GetArray()) {
        MT_ASSIGN_OR_RETURN(AttributeValue element, Decode(m, depth + 1));
        list.push_back(std::move(element));
      }
      result = AttributeValue::L(std::move(list));
    }
  }
  if (json.MemberCount() > 1) {
    return Status::Validation(
        "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes");
  }
  if (!result) {
    return Status::Validation("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
  }
  return std::move(*result);
}

}  // namespace

std::string CollectionText(const std::vector<std::string>& members) {
  std::string out = "[";
  for (size_t i = 0; i < members.size(); ++i) out += (i ? ", " : "") + members[i];
  return out + "]";
}

Result<AttributeValue> DecodeAttributeValue(const rapidjson::Value& json) { return Decode(json, 1); }

Result<Item> DecodeItem(const rapidjson::Value& json) {
  Item item;
  if (!json.IsObject()) return item;
  for (auto it = json.MemberBegin(); it != json.MemberEnd(); ++it) {
    MT_RETURN_IF_ERROR(CheckAttributeName(View(it->name)));
    MT_ASSIGN_OR_RETURN(AttributeValue value, Decode(it->value, 1));
    item.insert_or_assign(std::string(View(it->name)), std::move(value));
  }
  return item;
}



namespace {

// Emits DynamoDB JSON as text while the item codec walks a stored record, with the separators
// and type wrappers RapidJSON's writer would produce: set members are bare strings, every other
// value is wrapped in its one-member type object.
class JsonRecordWriter : public EncodedItemVisitor {
 public:
  explicit JsonRecordWriter(JsonWriter& w) : w_(w) {}

  void OpenItem() {
    w_.Raw("{");
    open_.push_back({false, false});
  }
  void CloseItem() { w_.Raw("}"); }

  void Name(std::string_view name) override {
    Separate(open_.back());
    w_.RawString(name);
    w_.Raw(":");
  }
  void Bytes(AttrType type, std::string_view bytes) override {
    const bool member = StartValue();
    if (!member) w_.Raw(type == AttrType::kS ? R"({"S":)" : R"({"B":)");
    if (type == AttrType::kS) {
      w_.RawString(bytes);
    } else {
      w_.RawString(Base64Encode(bytes));
    }
    if (!member) w_.Raw("}");
  }
  void Num(const StoredNumber& number) override {
    const bool member = StartValue();
    if (!member) w_.Raw(R"({"N":)");
    char text[StoredNumber::kMaxTextBytes + 2];  // quoted; a number's text has nothing to escape
    text[0] = '"';
    const size_t length = number.WriteText(text + 1);
    text[length + 1] = '"';
    w_.Raw({text, length + 2});
    if (!member) w_.Raw("}");
  }
  void Boolean(bool value) override {
    StartValue();
    w_.Raw(value ? R"({"BOOL":true})" : R"({"BOOL":false})");
  }
  void Null() override {
    StartValue();
    w_.Raw(R"({"NULL":true})");
  }
  void Begin(AttrType type, uint64_t) override {
    StartValue();
    switch (type) {
      case AttrType::kM: w_.Raw(R"({"M":{)"); break;
      case AttrType::kL: w_.Raw(R"({"L":[)"); break;
      case AttrType::kSS: w_.Raw(R"({"SS":[)"); break;
      case AttrType::kBS: w_.Raw(R"({"BS":[)"); break;
      default: w_.Raw(R"({"NS":[)"); break;
    }
    open_.push_back({type != AttrType::kM, type == AttrType::kSS || type == AttrType::kBS || type == AttrType::kNS});
  }
  void End(AttrType type) override {
    open_.pop_back();
    w_.Raw(type == AttrType::kM ? "}}" : "]}");
  }

 private:
  struct Container {
    bool array;   // a list or a set: its values are separated here; a map's names are
    bool set;     // members are bare strings
    bool any = false;
  };

  void Separate(Container& c) {
    if (c.any) w_.Raw(",");
    c.any = true;
  }
  // Places a value in its container; true when it is a set member.
  bool StartValue() {
    Container& c = open_.back();
    if (c.array) Separate(c);
    return c.set;
  }

  JsonWriter& w_;
  std::vector<Container> open_;
};

}  // namespace

Status WriteEncodedItem(JsonWriter& w, std::string_view record, uint64_t* size) {
  // The text goes straight into the buffer; a record that turns out corrupt leaves it partly
  // written, and the caller answers with an error instead.
  JsonRecordWriter writer(w);
  w.BeginRawValue(rapidjson::kObjectType);
  writer.OpenItem();
  if (size) {
    MT_ASSIGN_OR_RETURN(*size, VisitEncodedItemSized(record, writer));
  } else {
    MT_RETURN_IF_ERROR(VisitEncodedItem(record, writer));
  }
  writer.CloseItem();
  w.EndRawValue();
  return Status::Ok();
}


}  // namespace monotable::api
