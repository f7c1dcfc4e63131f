#include "api/shape.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include <boost/container/small_vector.hpp>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "common/base64.h"
#include "model/json_writer.h"

namespace monotable::api {

enum class Kind {
  kBoolean, kInteger, kDouble, kString, kBlob, kList, kParamList, kParamMap, kMap,
  kValueStruct, kFieldStruct, kAttrStruct
};

enum class Check { kNotNull, kRegex, kLenGe, kLenLe, kEnum, kGe, kLe, kKeys, kValues, kChildren };

struct Constraint {
  Check check;
  double number = 0;                 // kLenGe/kLenLe/kGe/kLe
  std::string pattern;               // kRegex
  std::shared_ptr<std::regex> regex; // kRegex (unless the fast table-name pattern)
  std::vector<std::string> values;   // kEnum
  std::vector<Constraint> nested;    // kKeys/kValues
};

struct Shape {
  Kind kind = Kind::kString;
  std::string type_name;  // "String", "Long", ...: used in conversion messages
  std::string subtype;    // Map<subtype>, ValueStruct<subtype>, AttrStruct<subtype>
  bool required = false;
  bool table_name = false;
  std::vector<Constraint> constraints;  // in the order the description lists them
  std::shared_ptr<Shape> element;       // List / Map children
  std::vector<std::pair<std::string, std::shared_ptr<Shape>>> members;  // structs
  bool constrained = false;  // this value or one below it has a constraint the second pass checks
};

namespace {

constexpr std::string_view kNamePattern = "[a-zA-Z0-9_.-]+";
constexpr int kMaxAttributeDepth = 33;
constexpr size_t kMaxStructMembers = 64;  // a struct's members are tracked in a 64-bit set
constexpr const char* kNestingMessage =
    "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit";

[[noreturn]] void BadShape(std::string_view what) {
  std::fprintf(stderr, "monotable: bad request shape: %.*s\n", static_cast<int>(what.size()), what.data());
  std::abort();
}

std::shared_ptr<Shape> BuildShape(const rapidjson::Value& spec);

Constraint BuildConstraint(std::string_view key, const rapidjson::Value& v) {
  Constraint c;
  if (key == "notNull") c.check = Check::kNotNull;
  else if (key == "regex") {
    c.check = Check::kRegex;
    c.pattern = v.GetString();
    if (c.pattern != kNamePattern) c.regex = std::make_shared<std::regex>(c.pattern);
  } else if (key == "lengthGreaterThanOrEqual") c.check = Check::kLenGe, c.number = v.GetDouble();
  else if (key == "lengthLessThanOrEqual") c.check = Check::kLenLe, c.number = v.GetDouble();
  else if (key == "greaterThanOrEqual") c.check = Check::kGe, c.number = v.GetDouble();
  else if (key == "lessThanOrEqual") c.check = Check::kLe, c.number = v.GetDouble();
  else if (key == "enum") {
    c.check = Check::kEnum;
    for (const auto& e : v.GetArray()) c.values.emplace_back(e.GetString());
  } else if (key == "keys" || key == "values") {
    c.check = key == "keys" ? Check::kKeys : Check::kValues;
    for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
      c.nested.push_back(BuildConstraint(it->name.GetString(), it->value));
    }
  } else {
    BadShape(key);
  }
  return c;
}

std::shared_ptr<Shape> BuildShape(const rapidjson::Value& spec) {
  auto shape = std::make_shared<Shape>();
  std::string type;
  if (spec.IsString()) type = spec.GetString();
  else if (spec.HasMember("type")) type = spec["type"].GetString();
  else BadShape("shape without type");

  auto lt = type.find('<');
  std::string base = lt == std::string::npos ? type : type.substr(0, lt);
  if (lt != std::string::npos) shape->subtype = type.substr(lt + 1, type.size() - lt - 2);
  shape->type_name = base;
  if (base == "Boolean") shape->kind = Kind::kBoolean;
  else if (base == "Short" || base == "Integer" || base == "Long") shape->kind = Kind::kInteger;
  else if (base == "Double") shape->kind = Kind::kDouble;
  else if (base == "String") shape->kind = Kind::kString;
  else if (base == "Blob") shape->kind = Kind::kBlob;
  else if (base == "List") shape->kind = Kind::kList;
  else if (base == "ParameterizedList") shape->kind = Kind::kParamList;
  else if (base == "ParameterizedMap") shape->kind = Kind::kParamMap;
  else if (base == "Map") shape->kind = Kind::kMap;
  else if (base == "ValueStruct") shape->kind = Kind::kValueStruct;
  else if (base == "FieldStruct") shape->kind = Kind::kFieldStruct;
  else if (base == "AttrStruct") shape->kind = Kind::kAttrStruct;
  else BadShape(type);
  if (!spec.IsObject()) return shape;

  for (auto it = spec.MemberBegin(); it != spec.MemberEnd(); ++it) {
    std::string_view key = it->name.GetString();
    if (key == "type") continue;
    if (key == "required") { shape->required = it->value.GetBool(); continue; }
    if (key == "tableName") { shape->table_name = it->value.GetBool(); continue; }
    if (key == "children") {
      Constraint children;
      children.check = Check::kChildren;
      shape->constraints.push_back(std::move(children));
      const auto& ch = it->value;
      bool is_struct = shape->kind == Kind::kValueStruct || shape->kind == Kind::kFieldStruct;
      if (is_struct) {
        for (auto m = ch.MemberBegin(); m != ch.MemberEnd(); ++m) {
          shape->members.emplace_back(m->name.GetString(), BuildShape(m->value));
        }
        if (shape->members.size() > kMaxStructMembers) BadShape("too many members");
      } else {
        shape->element = BuildShape(ch);
      }
      continue;
    }
    shape->constraints.push_back(BuildConstraint(key, it->value));
  }
  for (const Constraint& c : shape->constraints) shape->constrained |= c.check != Check::kChildren;
  if (shape->element) shape->constrained |= shape->element->constrained;
  for (const auto& member : shape->members) shape->constrained |= member.second->constrained;
  return shape;
}

// ---- type pass -------------------------------------------------------------------------------

Status TypeError(std::string message) { return Status::Serialization(std::move(message)); }

bool IsWhole(const rapidjson::Value& v) {
  if (v.IsInt64() || v.IsUint64()) return true;
  double d = v.GetDouble();
  return std::floor(d) == d;
}

std::string NumberKind(const rapidjson::Value& v) { return IsWhole(v) ? "NUMBER_VALUE" : "DECIMAL_VALUE"; }

std::string QualifiedMapType(const std::string& subtype) {
  if (subtype.find('.') != std::string::npos) return subtype;
  return "com.amazonaws.dynamodb.v20120810." + subtype;
}

Status CheckValue(const Shape& shape, rapidjson::Value& v, rapidjson::Document::AllocatorType& alloc, int depth);

const Shape& AttributeValueStruct(bool value_struct);

// The position of `name` among a struct's members, or -1.
int MemberIndex(const std::vector<std::pair<std::string, std::shared_ptr<Shape>>>& members,
                const rapidjson::Value& name) {
  const char* text = name.GetString();
  const size_t length = name.GetStringLength();
  for (size_t i = 0; i < members.size(); ++i) {
    const std::string& m = members[i].first;
    if (m.size() == length && std::memcmp(m.data(), text, length) == 0) return static_cast<int>(i);
  }
  return -1;
}

// `found`, when given (one entry per shape member, all null), receives each kept member's value,
// so the checks that follow need not look the members up again.
Status CheckStructMembers(const std::vector<std::pair<std::string, std::shared_ptr<Shape>>>& members,
                          rapidjson::Value& obj, rapidjson::Document::AllocatorType& alloc, int depth,
                          rapidjson::Value** found = nullptr) {
  // Drop members the shape does not know, and nulls; note where each kept member sits in the
  // shape (a repeated name counts once: its first occurrence, as FindMember reads it).
  struct Present {
    int index;
    rapidjson::Value* value;
  };
  Present present[kMaxStructMembers];
  size_t count = 0;
  uint64_t seen = 0;
  // By position: RapidJSON's non-const member iterators compare ambiguously in C++20.
  for (rapidjson::SizeType position = 0; position < obj.MemberCount();) {
    auto it = obj.MemberBegin() + position;
    int index = MemberIndex(members, it->name);
    if (index < 0 || it->value.IsNull()) {
      obj.EraseMember(it);
      continue;
    }
    if (!(seen & (uint64_t{1} << index))) {
      seen |= uint64_t{1} << index;
      // Insertion in shape order: values are checked in the order AWS checks them.
      size_t at = count++;
      for (; at > 0 && present[at - 1].index > index; --at) present[at] = present[at - 1];
      present[at] = {index, &it->value};
      if (found) found[index] = &it->value;
    }
    ++position;
  }
  for (size_t i = 0; i < count; ++i) {
    MT_RETURN_IF_ERROR(CheckValue(*members[present[i].index].second, *present[i].value, alloc, depth));
  }
  return Status::Ok();
}

Status CheckValue(const Shape& shape, rapidjson::Value& v, rapidjson::Document::AllocatorType& alloc, int depth) {
  if (v.IsNull()) return Status::Ok();
  if (depth > 200) return Status::Validation(kNestingMessage);
  const std::string& type = shape.type_name;
  switch (shape.kind) {
    case Kind::kBoolean:
      if (v.IsNumber()) return TypeError(NumberKind(v) + " cannot be converted to " + type);
      if (v.IsString()) {
        std::string upper(v.GetString(), v.GetStringLength());
        for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        if (upper == "TRUE" || upper == "1" || upper == "YES") v.SetBool(true);
        else if (upper == "FALSE" || upper == "0" || upper == "NO") v.SetBool(false);
        else return TypeError("Unexpected token received from parser");
      }
      if (v.IsArray()) return TypeError("Unrecognized collection type class java.lang." + type);
      if (v.IsObject()) return TypeError("Start of structure or map found where not expected");
      return Status::Ok();
    case Kind::kInteger:
    case Kind::kDouble:
      if (v.IsBool()) return TypeError(std::string(v.GetBool() ? "TRUE_VALUE" : "FALSE_VALUE") + " cannot be converted to " + type);
      if (v.IsString()) return TypeError("STRING_VALUE cannot be converted to " + type);
      if (v.IsArray()) return TypeError("Unrecognized collection type class java.lang." + type);
      if (v.IsObject()) return TypeError("Start of structure or map found where not expected");
      if (shape.kind == Kind::kInteger && !v.IsInt64() && !v.IsUint64()) {
        double d = std::floor(v.GetDouble());
        if (d >= -9.2e18 && d <= 9.2e18) v.SetInt64(static_cast<int64_t>(d));
        else v.SetDouble(d);
      }
      return Status::Ok();
    case Kind::kString:
      if (v.IsBool()) return TypeError(std::string(v.GetBool() ? "TRUE_VALUE" : "FALSE_VALUE") + " cannot be converted to " + type);
      if (v.IsNumber()) return TypeError(NumberKind(v) + " cannot be converted to " + type);
      if (v.IsArray()) return TypeError("Unrecognized collection type class java.lang." + type);
      if (v.IsObject()) return TypeError("Start of structure or map found where not expected");
      return Status::Ok();
    case Kind::kBlob: {
      if (v.IsBool() || v.IsNumber()) return TypeError("only base-64-encoded strings are convertible to bytes");
      if (v.IsArray()) return TypeError("Unrecognized collection type class java.nio.ByteBuffer");
      if (v.IsObject()) return TypeError("Start of structure or map found where not expected");
      std::string_view text(v.GetString(), v.GetStringLength());
      if (text.size() % 4 != 0) {
        return TypeError("Base64 encoded length is expected a multiple of 4 bytes but found: " + std::to_string(text.size()));
      }
      if (!IsCanonicalBase64(text)) return TypeError("Invalid last non-pad Base64 character dectected");
      return Status::Ok();
    }
    case Kind::kList:
    case Kind::kParamList:
      if (v.IsBool() || v.IsNumber() || v.IsString()) {
        if (shape.kind == Kind::kList) return TypeError("Unexpected field type");
        return TypeError("class sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl cannot be cast to class java.lang.Class (sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl and java.lang.Class are in module java.base of loader 'bootstrap')");
      }
      if (v.IsObject()) return TypeError("Start of structure or map found where not expected");
      if (shape.element) {
        for (auto& e : v.GetArray()) MT_RETURN_IF_ERROR(CheckValue(*shape.element, e, alloc, depth + 1));
      }
      return Status::Ok();
    case Kind::kMap:
    case Kind::kParamMap:
      if (v.IsBool() || v.IsNumber() || v.IsString()) {
        if (shape.kind == Kind::kMap) return TypeError("Unexpected field type");
        return TypeError("class sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl cannot be cast to class java.lang.Class (sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl and java.lang.Class are in module java.base of loader 'bootstrap')");
      }
      if (v.IsArray()) {
        if (shape.kind == Kind::kParamMap) {
          return TypeError("Unrecognized collection type java.util.Map<java.lang.String, com.amazonaws.dynamodb.v20120810.AttributeValue>");
        }
        return TypeError("Unrecognized collection type java.util.Map<java.lang.String, " + QualifiedMapType(shape.subtype) + ">");
      }
      if (shape.element) {
        for (rapidjson::SizeType position = 0; position < v.MemberCount(); ++position) {
          MT_RETURN_IF_ERROR(CheckValue(*shape.element, (v.MemberBegin() + position)->value, alloc, depth + 1));
        }
      }
      return Status::Ok();
    case Kind::kValueStruct:
    case Kind::kFieldStruct:
      if (v.IsBool() || v.IsNumber() || v.IsString()) {
        return TypeError(shape.kind == Kind::kValueStruct ? "Unexpected value type in payload" : "Unexpected field type");
      }
      if (v.IsArray()) return TypeError("Unrecognized collection type class com.amazonaws.dynamodb.v20120810." + shape.subtype);
      return CheckStructMembers(shape.members, v, alloc, depth + 1);
    case Kind::kAttrStruct: {
      if (depth > 2 * kMaxAttributeDepth + 20) return Status::Validation(kNestingMessage);
      const Shape& attr = AttributeValueStruct(shape.subtype == "ValueStruct");
      return CheckValue(attr, v, alloc, depth);
    }
  }
  return Status::Ok();
}

std::shared_ptr<Shape> MakeAttributeValueStruct(bool value_struct) {
  auto s = std::make_shared<Shape>();
  s->kind = value_struct ? Kind::kValueStruct : Kind::kFieldStruct;
  s->type_name = value_struct ? "ValueStruct" : "FieldStruct";
  s->subtype = "AttributeValue";
  auto make = [](Kind k, const char* name) {
    auto m = std::make_shared<Shape>();
    m->kind = k;
    m->type_name = name;
    return m;
  };
  auto nested = std::make_shared<Shape>();
  nested->kind = Kind::kAttrStruct;
  nested->type_name = "AttrStruct";
  nested->subtype = "ValueStruct";
  auto list_of = [&](std::shared_ptr<Shape> element) {
    auto l = make(Kind::kList, "List");
    l->element = std::move(element);
    return l;
  };
  auto map = make(Kind::kMap, "Map");
  map->subtype = "AttributeValue";
  map->element = nested;
  s->members = {{"S", make(Kind::kString, "String")},  {"B", make(Kind::kBlob, "Blob")},
                {"N", make(Kind::kString, "String")},  {"BOOL", make(Kind::kBoolean, "Boolean")},
                {"NULL", make(Kind::kBoolean, "Boolean")}, {"BS", list_of(make(Kind::kBlob, "Blob"))},
                {"NS", list_of(make(Kind::kString, "String"))}, {"SS", list_of(make(Kind::kString, "String"))},
                {"L", list_of(nested)}, {"M", map}};
  return s;
}

const Shape& AttributeValueStruct(bool value_struct) {
  static const auto kValue = MakeAttributeValueStruct(true);
  static const auto kField = MakeAttributeValueStruct(false);
  return value_struct ? *kValue : *kField;
}

// ---- constraint pass -------------------------------------------------------------------------

std::string LowerFirst(std::string_view s) {
  std::string out(s);
  if (!out.empty()) out[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(out[0])));
  return out;
}

size_t Utf16Length(std::string_view s) {
  size_t n = 0;
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8, n += 8) {  // ASCII eight bytes at a time
    uint64_t word;
    std::memcpy(&word, s.data() + i, 8);
    if (word & 0x8080808080808080ULL) break;
  }
  for (; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if ((c & 0xC0) == 0x80) continue;  // continuation byte
    n += c >= 0xF0 ? 2 : 1;            // supplementary planes take a surrogate pair
  }
  return n;
}

std::string ValueText(const rapidjson::Value& v) {
  if (v.IsNull()) return "null";
  if (v.IsString()) return std::string(v.GetString(), v.GetStringLength());
  if (v.IsBool()) return v.GetBool() ? "true" : "false";
  if (v.IsInt64()) return std::to_string(v.GetInt64());
  if (v.IsUint64()) return std::to_string(v.GetUint64());
  if (v.IsDouble()) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v.GetDouble());
    return buf;
  }
  if (v.IsArray()) {
    std::string out = "[";
    bool first = true;
    for (const auto& e : v.GetArray()) {
      if (!first) out += ", ";
      first = false;
      out += ValueText(e);
    }
    return out + "]";
  }
  rapidjson::StringBuffer buffer;
  model::JsonWriter writer(buffer);
  v.Accept(writer);
  return buffer.GetString();
}

double NumberOf(const rapidjson::Value& v) {
  if (v.IsInt64()) return static_cast<double>(v.GetInt64());
  if (v.IsUint64()) return static_cast<double>(v.GetUint64());
  return v.IsNumber() ? v.GetDouble() : 0;
}

size_t LengthOf(const rapidjson::Value& v) {
  if (v.IsString()) return Utf16Length({v.GetString(), v.GetStringLength()});
  if (v.IsArray()) return v.Size();
  if (v.IsObject()) return v.MemberCount();
  return 0;
}

// The characters of kNamePattern, [a-zA-Z0-9_.-].
struct NameChars {
  bool allowed[256];
  constexpr NameChars() : allowed() {
    for (int c = 0; c < 256; ++c) {
      allowed[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                   c == '.' || c == '-';
    }
  }
};
constexpr NameChars kNameChars;

// `table_name`: the value names a table (a TableName member, or a RequestItems key), where AWS
// also accepts the table's ARN. Index names and ExclusiveStartTableName take plain names only.
bool MatchesPattern(const Constraint& c, std::string_view s, bool table_name) {
  if (!c.regex) {
    if (table_name && s.substr(0, 4) == "arn:") return true;
    // An empty TableName is reported by its length constraint only (dynamodb-conformance's
    // error-messages/putItem.test.ts: "Member must have length greater than or equal to 1").
    if (s.empty()) return table_name;
    for (char ch : s) {
      if (!kNameChars.allowed[static_cast<unsigned char>(ch)]) return false;
    }
    return true;
  }
  return std::regex_match(s.begin(), s.end(), *c.regex);
}

std::string FormatNumber(double d) {
  char buf[64];
  if (std::floor(d) == d && std::fabs(d) < 1e18) std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(d));
  else std::snprintf(buf, sizeof buf, "%g", d);
  return buf;
}

std::string ConstraintMessage(const Constraint& c) {
  switch (c.check) {
    case Check::kNotNull: return "Member must not be null";
    case Check::kRegex: return "Member must satisfy regular expression pattern: " + c.pattern;
    case Check::kLenGe: return "Member must have length greater than or equal to " + FormatNumber(c.number);
    case Check::kLenLe: return "Member must have length less than or equal to " + FormatNumber(c.number);
    case Check::kGe: return "Member must have value greater than or equal to " + FormatNumber(c.number);
    case Check::kLe: return "Member must have value less than or equal to " + FormatNumber(c.number);
    case Check::kEnum: {
      std::string out = "Member must satisfy enum value set: [";
      for (size_t i = 0; i < c.values.size(); ++i) out += (i ? ", " : "") + c.values[i];
      return out + "]";
    }
    default: return "";
  }
}

constexpr size_t kMaxTableArnLength = 1024;

bool IsArn(const rapidjson::Value& v) {
  return v.IsString() && std::string_view(v.GetString(), v.GetStringLength()).substr(0, 4) == "arn:";
}

// Whether a present, non-null value satisfies a scalar constraint.
bool Satisfies(const Constraint& c, const rapidjson::Value& v, bool table_name = false) {
  switch (c.check) {
    case Check::kRegex: return v.IsString() && MatchesPattern(c, {v.GetString(), v.GetStringLength()}, table_name);
    case Check::kLenGe: return LengthOf(v) >= c.number;
    case Check::kLenLe:
      // A table ARN may be longer than a table name (AWS takes up to 1024 characters there).
      if (table_name && IsArn(v)) return LengthOf(v) <= kMaxTableArnLength;
      return LengthOf(v) <= c.number;
    case Check::kGe: return NumberOf(v) >= c.number;
    case Check::kLe: return NumberOf(v) <= c.number;
    case Check::kEnum:
      if (!v.IsString()) return false;
      for (const auto& e : c.values) {
        if (e == std::string_view(v.GetString(), v.GetStringLength())) return true;
      }
      return false;
    default: return true;
  }
}

// Walks the request in shape order collecting constraint violations. The path of the value being
// checked is kept as a stack of segments and only spelled out ("attributeDefinitions.1.member.
// attributeType") when a violation is reported, so a valid request costs no string building.
class ConstraintWalker {
 public:
  std::vector<std::string> errors;

  // A struct whose members' values are already known (`found`, by shape index, null if absent).
  void FoundMembers(const std::vector<std::pair<std::string, std::shared_ptr<Shape>>>& members,
                    rapidjson::Value* const* found) {
    for (size_t i = 0; i < members.size(); ++i) {
      if (members[i].second->constrained) One(members[i].first, found[i], *members[i].second);
    }
  }

  void Members(const std::vector<std::pair<std::string, std::shared_ptr<Shape>>>& members,
               const rapidjson::Value* obj) {
    for (const auto& [name, shape] : members) {
      if (!shape->constrained) continue;
      const rapidjson::Value* v = nullptr;
      if (obj && obj->IsObject()) {
        auto it = obj->FindMember(rapidjson::StringRef(name.data(), name.size()));
        if (it != obj->MemberEnd()) v = &it->value;
      }
      One(name, v, *shape);
    }
  }

  void One(std::string_view attr, const rapidjson::Value* v, const Shape& shape) {
    if (!shape.constrained) return;
    if (v && v->IsNull()) v = nullptr;
    for (const auto& c : shape.constraints) {
      if (errors.size() >= 10) return;
      if (c.check != Check::kNotNull && !v) continue;
      switch (c.check) {
        case Check::kChildren:
          path_.push_back({attr, true, 0});
          if (shape.kind == Kind::kList || shape.kind == Kind::kParamList) {
            if (shape.element) {
              for (rapidjson::SizeType i = 0; i < v->Size(); ++i) {
                path_.push_back({{}, false, i + 1});
                One("member", &(*v)[i], *shape.element);
                path_.pop_back();
              }
            }
          } else if (shape.kind == Kind::kMap || shape.kind == Kind::kParamMap) {
            if (shape.element) {
              for (auto it = v->MemberBegin(); it != v->MemberEnd(); ++it) {
                path_.push_back({{it->name.GetString(), it->name.GetStringLength()}, false, 0});
                One("member", &it->value, *shape.element);
                path_.pop_back();
              }
            }
          } else {
            Members(shape.members, v);
          }
          path_.pop_back();
          break;
        case Check::kKeys:
        case Check::kValues: {
          for (auto it = v->MemberBegin(); it != v->MemberEnd(); ++it) {
            const rapidjson::Value& subject = c.check == Check::kKeys ? it->name : it->value;
            bool ok = true;
            for (const auto& n : c.nested) ok = ok && Satisfies(n, subject, c.check == Check::kKeys);
            if (ok) continue;
            std::string msg = c.check == Check::kKeys ? "Map keys must satisfy constraint: ["
                                                      : "Map value must satisfy constraint: [";
            for (size_t i = 0; i < c.nested.size(); ++i) msg += (i ? ", " : "") + ConstraintMessage(c.nested[i]);
            Add(msg + "]", v, attr);
          }
          break;
        }
        case Check::kNotNull:
          if (!v) Add(ConstraintMessage(c), v, attr);
          break;
        default:
          if (!Satisfies(c, *v, attr == "TableName")) Add(ConstraintMessage(c), v, attr);
      }
    }
  }

 private:
  struct Segment {
    std::string_view text;
    bool lower_first;   // a member name: spelled with a lower-case first letter
    uint32_t number;    // a list position (1-based) when non-zero
  };

  std::string PathTo(std::string_view attr) const {
    std::string out;
    for (const Segment& s : path_) {
      if (s.number) out += std::to_string(s.number);
      else out += s.lower_first ? LowerFirst(s.text) : std::string(s.text);
      out.push_back('.');
    }
    return out + LowerFirst(attr);
  }

  void Add(const std::string& msg, const rapidjson::Value* v, std::string_view attr) {
    std::string value = v ? "'" + ValueText(*v) + "'" : "null";
    errors.push_back("Value " + value + " at '" + PathTo(attr) + "' failed to satisfy constraint: " + msg);
  }

  boost::container::small_vector<Segment, 16> path_;  // deeper paths (rare) take the heap
};

}  // namespace

std::shared_ptr<const Shape> ParseShape(std::string_view description_json) {
  rapidjson::Document doc;
  doc.Parse(description_json.data(), description_json.size());
  if (doc.HasParseError() || !doc.IsObject()) BadShape(description_json);
  auto root = std::make_shared<Shape>();
  root->kind = Kind::kFieldStruct;
  root->type_name = "FieldStruct";
  for (const auto& member : std::as_const(doc).GetObject()) {
    root->members.emplace_back(member.name.GetString(), BuildShape(member.value));
  }
  if (root->members.size() > kMaxStructMembers) BadShape("too many members");
  return root;
}

const Shape& LazyShape::get() const {
  std::call_once(once_, [this] { shape_ = ParseShape(make_text_ ? make_text_() : std::string(text_)); });
  return *shape_;
}

Status CheckRequest(const Shape& shape, rapidjson::Value& request, rapidjson::Document::AllocatorType& alloc) {
  // A top-level array is reported as such; any other non-object body (a string, a number, a
  // boolean, null) is a SerializationException without a message, as AWS's deserializer answers.
  if (request.IsArray()) return Status::Serialization("Start of list found where not expected");
  if (!request.IsObject()) return Status::Serialization("");
  rapidjson::Value* found[kMaxStructMembers] = {};
  MT_RETURN_IF_ERROR(CheckStructMembers(shape.members, request, alloc, 0, found));

  for (size_t i = 0; i < shape.members.size(); ++i) {
    const auto& [name, member] = shape.members[i];
    const rapidjson::Value* value = found[i];
    if (member->required && !value) {
      return Status::Validation("The parameter '" + name + "' is required but was not present in the request");
    }
    if (member->table_name && value && value->IsString()) {
      // The table operations check the name on its own, before the other members: AWS reports
      // only the tableName constraints when the name is bad (dynamodb-conformance's
      // validation-ordering/createTable.test.ts), in the constraint framework's words
      // ("Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length
      // greater than or equal to 3", error-messages/createTable.test.ts, recorded in 2026).
      std::string_view text(value->GetString(), value->GetStringLength());
      size_t len = Utf16Length(text);
      bool arn = IsArn(*value);
      std::vector<std::string> errors;
      std::string quoted =
          "Value '" + std::string(text) + "' at '" + LowerFirst(name) + "' failed to satisfy constraint: ";
      if (!arn) {
        bool pattern = !text.empty();
        for (char ch : text) pattern = pattern && kNameChars.allowed[static_cast<unsigned char>(ch)];
        if (!pattern)
          errors.push_back(quoted + "Member must satisfy regular expression pattern: " + std::string(kNamePattern));
      }
      if (len < 3) errors.push_back(quoted + "Member must have length greater than or equal to 3");
      if (len > (arn ? kMaxTableArnLength : 255)) {
        errors.push_back(quoted + "Member must have length less than or equal to " +
                         std::to_string(arn ? kMaxTableArnLength : 255));
      }
      if (!errors.empty()) {
        std::string msg =
            std::to_string(errors.size()) + " validation error" + (errors.size() > 1 ? "s" : "") + " detected: ";
        for (size_t e = 0; e < errors.size(); ++e) msg += (e ? "; " : "") + errors[e];
        return Status::Validation(std::move(msg));
      }
    }
  }

  ConstraintWalker walker;
  walker.FoundMembers(shape.members, found);
  if (!walker.errors.empty()) {
    std::string msg = std::to_string(walker.errors.size()) + " validation error" +
                      (walker.errors.size() > 1 ? "s" : "") + " detected: ";
    for (size_t i = 0; i < walker.errors.size(); ++i) msg += (i ? "; " : "") + walker.errors[i];
    return Status::Validation(std::move(msg));
  }
  return Status::Ok();
}

}  // namespace monotable::api
