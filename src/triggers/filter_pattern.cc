#include "triggers/filter_pattern.h"

#include <algorithm>
#include <cctype>

namespace monotable::triggers {
namespace {

using Kind = FilterRule::Kind;

Status Bad(std::string what) { return Status::Validation("Invalid filter pattern: " + what); }

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool EndsWith(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

Result<FilterRule> Literal(const rapidjson::Value& v) {
  FilterRule r;
  if (v.IsString()) {
    r.kind = Kind::kString;
    r.text.assign(v.GetString(), v.GetStringLength());
  } else if (v.IsNumber()) {
    r.kind = Kind::kNumber;
    r.number = v.GetDouble();
  } else if (v.IsBool()) {
    r.kind = Kind::kBool;
    r.flag = v.GetBool();
  } else if (v.IsNull()) {
    r.kind = Kind::kNull;
  } else {
    return Bad("a rule must be a literal or an operator object");
  }
  return r;
}

// {"prefix": "x"} / {"prefix": {"equals-ignore-case": "x"}} and the same for suffix.
Result<FilterRule> Affix(const rapidjson::Value& v, Kind plain, Kind ignore_case, const char* name) {
  FilterRule r;
  if (v.IsString()) {
    r.kind = plain;
    r.text.assign(v.GetString(), v.GetStringLength());
    return r;
  }
  if (v.IsObject() && v.MemberCount() == 1 && v.HasMember("equals-ignore-case") && v["equals-ignore-case"].IsString()) {
    r.kind = ignore_case;
    r.text = Lower(v["equals-ignore-case"].GetString());
    return r;
  }
  return Bad(std::string(name) + " needs a string");
}

Result<FilterRule> AnythingBut(const rapidjson::Value& v) {
  FilterRule r;
  r.kind = Kind::kAnythingBut;
  if (v.IsArray()) {
    if (v.Empty()) return Bad("anything-but needs at least one value");
    for (const auto& e : v.GetArray()) {
      auto lit = Literal(e);
      if (!lit.ok() || lit.value().kind == Kind::kNull) return Bad("anything-but takes strings or numbers");
      r.values.push_back(std::move(lit).value());
    }
    return r;
  }
  if (v.IsObject()) {
    if (v.MemberCount() != 1 || !v.MemberBegin()->value.IsString()) {
      return Bad("anything-but takes one of prefix, suffix, equals-ignore-case with a string");
    }
    std::string_view op = v.MemberBegin()->name.GetString();
    r.text = v.MemberBegin()->value.GetString();
    if (op == "prefix")
      r.kind = Kind::kAnythingButPrefix;
    else if (op == "suffix")
      r.kind = Kind::kAnythingButSuffix;
    else if (op == "equals-ignore-case")
      r.kind = Kind::kAnythingButIgnoreCase, r.text = Lower(r.text);
    else
      return Bad("unknown anything-but operator " + std::string(op));
    return r;
  }
  auto lit = Literal(v);
  if (!lit.ok() || lit.value().kind == Kind::kNull || lit.value().kind == Kind::kBool) {
    return Bad("anything-but takes strings or numbers");
  }
  r.values.push_back(std::move(lit).value());
  return r;
}

Result<FilterRule> Numeric(const rapidjson::Value& v) {
  FilterRule r;
  r.kind = Kind::kNumeric;
  if (!v.IsArray() || (v.Size() != 2 && v.Size() != 4)) return Bad("numeric needs [op, number] or [op, n, op, n]");
  for (rapidjson::SizeType i = 0; i < v.Size(); i += 2) {
    if (!v[i].IsString() || !v[i + 1].IsNumber()) return Bad("numeric needs [op, number] pairs");
    std::string op = v[i].GetString();
    if (op != "<" && op != "<=" && op != "=" && op != ">" && op != ">=") return Bad("unknown numeric operator " + op);
    r.bounds.push_back({op, v[i + 1].GetDouble()});
  }
  if (r.bounds.size() == 2) {
    // A range: one lower bound (> or >=) then one upper bound (< or <=), lower below upper.
    const auto& lo = r.bounds[0];
    const auto& hi = r.bounds[1];
    bool lower_ok = lo.op == ">" || lo.op == ">=";
    bool upper_ok = hi.op == "<" || hi.op == "<=";
    if (!lower_ok || !upper_ok || !(lo.value < hi.value)) return Bad("numeric range must be [>|>=, low, <|<=, high]");
  }
  return r;
}

Result<FilterRule> Rule(const rapidjson::Value& v) {
  if (!v.IsObject()) return Literal(v);
  if (v.MemberCount() != 1) return Bad("an operator object holds exactly one operator");
  std::string_view op = v.MemberBegin()->name.GetString();
  const rapidjson::Value& arg = v.MemberBegin()->value;
  if (op == "prefix") return Affix(arg, Kind::kPrefix, Kind::kPrefixIgnoreCase, "prefix");
  if (op == "suffix") return Affix(arg, Kind::kSuffix, Kind::kSuffixIgnoreCase, "suffix");
  if (op == "equals-ignore-case") {
    if (!arg.IsString()) return Bad("equals-ignore-case needs a string");
    FilterRule r;
    r.kind = Kind::kIgnoreCase;
    r.text = Lower(arg.GetString());
    return r;
  }
  if (op == "anything-but") return AnythingBut(arg);
  if (op == "numeric") return Numeric(arg);
  if (op == "exists") {
    if (!arg.IsBool()) return Bad("exists needs true or false");
    FilterRule r;
    r.kind = Kind::kExists;
    r.flag = arg.GetBool();
    return r;
  }
  return Bad("unknown operator " + std::string(op));
}

bool LiteralEquals(const FilterRule& r, const rapidjson::Value& v) {
  switch (r.kind) {
    case Kind::kString:
      return v.IsString() && std::string_view(v.GetString(), v.GetStringLength()) == r.text;
    case Kind::kNumber:
      return v.IsNumber() && v.GetDouble() == r.number;
    case Kind::kBool:
      return v.IsBool() && v.GetBool() == r.flag;
    case Kind::kNull:
      return v.IsNull();
    default:
      return false;
  }
}

bool Compare(double x, const FilterRule::Bound& b) {
  if (b.op == "<") return x < b.value;
  if (b.op == "<=") return x <= b.value;
  if (b.op == "=") return x == b.value;
  if (b.op == ">") return x > b.value;
  return x >= b.value;
}

// One rule against one leaf value (never an object or array).
bool RuleMatches(const FilterRule& r, const rapidjson::Value& v) {
  std::string_view s = v.IsString() ? std::string_view(v.GetString(), v.GetStringLength()) : std::string_view();
  switch (r.kind) {
    case Kind::kString:
    case Kind::kNumber:
    case Kind::kBool:
    case Kind::kNull:
      return LiteralEquals(r, v);
    case Kind::kPrefix:
      return v.IsString() && StartsWith(s, r.text);
    case Kind::kSuffix:
      return v.IsString() && EndsWith(s, r.text);
    case Kind::kIgnoreCase:
      return v.IsString() && Lower(s) == r.text;
    case Kind::kPrefixIgnoreCase:
      return v.IsString() && StartsWith(Lower(s), r.text);
    case Kind::kSuffixIgnoreCase:
      return v.IsString() && EndsWith(Lower(s), r.text);
    case Kind::kAnythingBut:
      return std::none_of(r.values.begin(), r.values.end(), [&](const FilterRule& x) { return LiteralEquals(x, v); });
    case Kind::kAnythingButPrefix:
      return v.IsString() && !StartsWith(s, r.text);
    case Kind::kAnythingButSuffix:
      return v.IsString() && !EndsWith(s, r.text);
    case Kind::kAnythingButIgnoreCase:
      return v.IsString() && Lower(s) != r.text;
    case Kind::kNumeric:
      return v.IsNumber() && std::all_of(r.bounds.begin(), r.bounds.end(),
                                         [&](const FilterRule::Bound& b) { return Compare(v.GetDouble(), b); });
    case Kind::kExists:
      return r.flag;
  }
  return false;
}

}  // namespace

Status FilterPattern::CompileNode(const rapidjson::Value& json, Node& node, int depth) {
  if (depth > 32) return Bad("nesting deeper than 32 levels");
  if (json.IsArray()) {
    if (json.Empty()) return Bad("a rule list must not be empty");
    node.leaf = true;
    for (const auto& e : json.GetArray()) {
      auto rule = Rule(e);
      if (!rule.ok()) return rule.status();
      node.rules.push_back(std::move(rule).value());
    }
    return Status::Ok();
  }
  if (!json.IsObject()) return Bad("a field's pattern must be an object or an array of rules");
  if (json.ObjectEmpty() && depth > 0) return Bad("an empty object matches nothing");
  for (const auto& m : json.GetObject()) {
    std::string name(m.name.GetString(), m.name.GetStringLength());
    Node child;
    if (Status st = CompileNode(m.value, child, depth + 1); !st.ok()) return st;
    node.children.emplace(std::move(name), std::move(child));
  }
  return Status::Ok();
}

Result<std::shared_ptr<const FilterPattern>> FilterPattern::Compile(std::string_view json) {
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError()) return Bad("not JSON");
  if (!doc.IsObject()) return Bad("a pattern must be a JSON object");
  auto pattern = std::make_shared<FilterPattern>();
  if (Status st = CompileNode(doc, pattern->root_, 0); !st.ok()) return st;
  return std::shared_ptr<const FilterPattern>(std::move(pattern));
}

bool FilterPattern::MatchNode(const Node& node, const rapidjson::Value* value) {
  if (node.leaf) {
    bool has_leaf = value && !value->IsObject() &&
                    !(value->IsArray() && std::all_of(value->Begin(), value->End(), [](const rapidjson::Value& e) {
                        return e.IsObject() || e.IsArray();
                      }));
    for (const auto& rule : node.rules) {
      if (rule.kind == Kind::kExists) {
        if (rule.flag == has_leaf) return true;
        continue;
      }
      if (!has_leaf) continue;
      if (value->IsArray()) {
        for (const auto& e : value->GetArray()) {
          if (!e.IsObject() && !e.IsArray() && RuleMatches(rule, e)) return true;
        }
      } else if (RuleMatches(rule, *value)) {
        return true;
      }
    }
    return false;
  }
  for (const auto& [name, child] : node.children) {
    const rapidjson::Value* field = nullptr;
    if (value && value->IsObject()) {
      auto it = value->FindMember(rapidjson::Value(rapidjson::StringRef(name.data(), name.size())));
      if (it != value->MemberEnd()) field = &it->value;
    }
    if (!MatchNode(child, field)) return false;
  }
  return true;
}

bool FilterPattern::Matches(const rapidjson::Value& record) const { return MatchNode(root_, &record); }

}  // namespace monotable::triggers
