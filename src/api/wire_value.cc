#include "api/wire_value.h"

#include "model/item_codec.h"

#include <cstring>
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
    MT_ASSIGN_OR_RETURN(AttributeValue value, Decode(it->value, 1));
    item.insert_or_assign(std::string(View(it->name)), std::move(value));
  }
  return item;
}

void WriteAttributeValue(JsonWriter& w, const AttributeValue& value) {
  w.StartObject();
  switch (value.type()) {
    case AttrType::kS:
      w.Key("S");
      w.String(value.s().data(), static_cast<rapidjson::SizeType>(value.s().size()));
      break;
    case AttrType::kN: {
      w.Key("N");
      std::string text = value.n().ToString();
      w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
      break;
    }
    case AttrType::kB: {
      w.Key("B");
      std::string text = Base64Encode(value.bytes());
      w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
      break;
    }
    case AttrType::kBool:
      w.Key("BOOL");
      w.Bool(value.boolean());
      break;
    case AttrType::kNull:
      w.Key("NULL");
      w.Bool(true);
      break;
    case AttrType::kL:
      w.Key("L");
      w.StartArray();
      for (const auto& element : value.l()) WriteAttributeValue(w, element);
      w.EndArray();
      break;
    case AttrType::kM:
      w.Key("M");
      WriteItem(w, value.m());
      break;
    case AttrType::kSS:
      w.Key("SS");
      w.StartArray();
      for (const auto& m : value.string_set()) w.String(m.data(), static_cast<rapidjson::SizeType>(m.size()));
      w.EndArray();
      break;
    case AttrType::kBS:
      w.Key("BS");
      w.StartArray();
      for (const auto& m : value.string_set()) {
        std::string text = Base64Encode(m);
        w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
      }
      w.EndArray();
      break;
    case AttrType::kNS:
      w.Key("NS");
      w.StartArray();
      for (const auto& m : value.number_set()) {
        std::string text = m.ToString();
        w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
      }
      w.EndArray();
      break;
  }
  w.EndObject();
}

namespace {

// True when some byte is below 0x20, a quote or a backslash (what JSON strings escape), checked
// eight bytes at a time: a byte b < n sets the high bit of (b - n) & ~b (exact as to whether any does).
bool NeedsEscape(const char* s, size_t n) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL, kHigh = 0x8080808080808080ULL;
  auto has_less = [&](uint64_t x, uint64_t below) { return (x - below * kOnes) & ~x & kHigh; };
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x;
    std::memcpy(&x, s + i, 8);
    if (has_less(x, 0x20) | has_less(x ^ (0x22 * kOnes), 1) | has_less(x ^ (0x5C * kOnes), 1)) return true;
  }
  for (; i < n; ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == '"' || c == '\\') return true;
  }
  return false;
}

}  // namespace

bool JsonWriter::String(const char* s, rapidjson::SizeType length, bool copy) {
  if (NeedsEscape(s, length)) return Writer::String(s, length, copy);
  Prefix(rapidjson::kStringType);
  char* out = os_->Push(length + 2);
  out[0] = '"';
  std::memcpy(out + 1, s, length);
  out[length + 1] = '"';
  return EndValue(true);
}

namespace {

// Emits DynamoDB JSON while the item codec walks a stored record. Set members are bare strings;
// every other value is wrapped in its one-member type object.
class JsonRecordWriter : public EncodedItemVisitor {
 public:
  explicit JsonRecordWriter(JsonWriter& w) : w_(w) {}

  void Name(std::string_view name) override { w_.Key(name.data(), static_cast<rapidjson::SizeType>(name.size())); }
  void Bytes(AttrType type, std::string_view bytes) override {
    bool member = InSet();
    if (!member) Open(type == AttrType::kS ? "S" : "B");
    if (type == AttrType::kS) {
      w_.String(bytes.data(), static_cast<rapidjson::SizeType>(bytes.size()));
    } else {
      std::string text = Base64Encode(bytes);
      w_.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
    }
    if (!member) w_.EndObject();
  }
  void Num(const Number& number) override {
    bool member = InSet();
    if (!member) Open("N");
    std::string text = number.ToString();
    w_.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
    if (!member) w_.EndObject();
  }
  void Boolean(bool value) override {
    Open("BOOL");
    w_.Bool(value);
    w_.EndObject();
  }
  void Null() override {
    Open("NULL");
    w_.Bool(true);
    w_.EndObject();
  }
  void Begin(AttrType type, uint64_t) override {
    switch (type) {
      case AttrType::kM: Open("M"); w_.StartObject(); break;
      case AttrType::kL: Open("L"); w_.StartArray(); break;
      case AttrType::kSS: Open("SS"); w_.StartArray(); break;
      case AttrType::kBS: Open("BS"); w_.StartArray(); break;
      default: Open("NS"); w_.StartArray(); break;
    }
    sets_.push_back(type == AttrType::kSS || type == AttrType::kBS || type == AttrType::kNS);
  }
  void End(AttrType type) override {
    sets_.pop_back();
    if (type == AttrType::kM) {
      w_.EndObject();
    } else {
      w_.EndArray();
    }
    w_.EndObject();
  }

 private:
  bool InSet() const { return !sets_.empty() && sets_.back(); }
  void Open(const char* type) {
    w_.StartObject();
    w_.Key(type);
  }

  JsonWriter& w_;
  std::vector<bool> sets_;  // per open container: is it a set
};

}  // namespace

Status WriteEncodedItem(JsonWriter& w, std::string_view record) {
  JsonRecordWriter writer(w);
  w.StartObject();
  MT_RETURN_IF_ERROR(VisitEncodedItem(record, writer));
  w.EndObject();
  return Status::Ok();
}

void WriteItem(JsonWriter& w, const Item& item) {
  w.StartObject();
  for (const auto& [name, value] : item) {
    w.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()));
    WriteAttributeValue(w, value);
  }
  w.EndObject();
}

}  // namespace monotable::api
