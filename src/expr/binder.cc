#include "expr/binder.h"

#include <algorithm>
#include <optional>

#include "common/base64.h"
#include "expr/comparison.h"

namespace monotable::expr {
namespace {

constexpr size_t kMaxAttributeKeyBytes = 255;

// The first error of each class found in one leaf condition (or one update).
struct Errors {
  std::string attr;      // undefined name / value
  std::string operand;   // operand count
  std::string distinct;  // identical first and second operand
  std::string function;  // operand types

  static void Set(std::string& slot, std::string message) {
    if (slot.empty()) slot = std::move(message);
  }
  const std::string* First() const {
    for (const std::string* s : {&attr, &operand, &distinct, &function}) {
      if (!s->empty()) return s;
    }
    return nullptr;
  }
};

std::string IncorrectType(std::string_view op, std::string_view type) {
  std::string m = "Incorrect operand type for operator or function; operator or function: ";
  m.append(op).append(", operand type: ").append(type);
  return m;
}

std::string WrongOperandCount(std::string_view op, size_t n) {
  std::string m = "Incorrect number of operands for operator or function; operator or function: ";
  m.append(op).append(", number of operands: ").append(std::to_string(n));
  return m;
}

std::string RequiresPath(std::string_view op) {
  return "Operator or function requires a document path; operator or function: " + std::string(op);
}

// "{N:1}" as DynamoDB renders a literal in BETWEEN errors.
std::string RenderLiteral(const AttributeValue& v) {
  std::string out = "{";
  out.append(AttrTypeName(v.type())).push_back(':');
  switch (v.type()) {
    case AttrType::kS: out.append(v.s()); break;
    case AttrType::kN: out.append(v.n().ToString()); break;
    case AttrType::kB: out.append(Base64Encode(v.bytes())); break;
    case AttrType::kBool: out.append(v.boolean() ? "true" : "false"); break;
    case AttrType::kNull: out.append("true"); break;
    default: out.append("..."); break;
  }
  out.push_back('}');
  return out;
}

// Resolution state shared by the per-kind validators.
class Resolver {
 public:
  Resolver(const ParsedExpression& parsed, const NameMap* names, const ValueMap* values) {
    resolved_names_.resize(parsed.name_refs.size());
    resolved_values_.resize(parsed.value_refs.size(), nullptr);
    for (size_t i = 0; i < parsed.name_refs.size(); ++i) {
      if (names == nullptr) continue;
      auto it = names->find(parsed.name_refs[i]);
      if (it != names->end()) resolved_names_[i] = &it->second;
    }
    for (size_t i = 0; i < parsed.value_refs.size(); ++i) {
      if (values == nullptr) continue;
      auto it = values->find(parsed.value_refs[i]);
      if (it != values->end()) resolved_values_[i] = &it->second;
    }
  }

  const std::string* Name(uint32_t slot) const { return resolved_names_[slot]; }
  const AttributeValue* Value(uint32_t slot) const { return resolved_values_[slot]; }

  std::string UndefinedName(const std::string& ref) const {
    return "An expression attribute name used in the document path is not defined; attribute name: " + ref;
  }
  std::string UndefinedValue(const std::string& ref) const {
    return "An expression attribute value used in expression is not defined; attribute value: " + ref;
  }

  // Records the path's first undefined #name (in text order).
  void CheckPathNames(const Path& path, Errors& e) const {
    for (const auto& el : path.elements) {
      if (el.kind == PathElement::Kind::kNameRef && Name(el.slot) == nullptr) {
        Errors::Set(e.attr, UndefinedName(el.text));
        return;
      }
    }
  }

  // The path with names resolved, or nullopt while a name is undefined.
  std::optional<DocumentPath> Resolve(const Path& path) const {
    DocumentPath out;
    out.reserve(path.elements.size());
    for (const auto& el : path.elements) {
      PathStep step;
      if (el.kind == PathElement::Kind::kIndex) {
        step.is_index = true;
        step.index = el.slot;
      } else if (el.kind == PathElement::Kind::kName) {
        step.name = el.text;
      } else {
        const std::string* name = Name(el.slot);
        if (name == nullptr) return std::nullopt;
        step.name = *name;
      }
      out.push_back(std::move(step));
    }
    return out;
  }

  // The type a constant or size() call is known to have before evaluation ("" when unknown).
  std::string_view StaticType(const Operand& op) const {
    if (op.kind == OperandKind::kValue) {
      const AttributeValue* v = Value(op.value_slot);
      return v == nullptr ? std::string_view() : AttrTypeName(v->type());
    }
    if (op.kind == OperandKind::kFunction && op.name == "size") return "N";
    return {};
  }
  std::string_view ImmediateType(const Operand& op) const {
    return op.kind == OperandKind::kValue ? StaticType(op) : std::string_view();
  }

  void CheckDistinct(std::string_view op_name, const Operand& a, const Operand& b, Errors& e) const {
    if (a.kind != OperandKind::kPath || b.kind != OperandKind::kPath) return;
    auto pa = Resolve(a.path);
    auto pb = Resolve(b.path);
    if (!pa || !pb || *pa != *pb) return;
    Errors::Set(e.distinct, "The first operand must be distinct from the remaining operands for this operator or "
                            "function; operator: " + std::string(op_name) + ", first operand: " + FormatPath(*pa));
  }

  std::vector<const std::string*> resolved_names_;
  std::vector<const AttributeValue*> resolved_values_;
};

// ---- Conditions ----

class ConditionValidator {
 public:
  explicit ConditionValidator(const Resolver& r) : r_(r) {}

  // The first leaf (in text order) with any problem decides the message.
  std::string Check(const Condition& c) const {
    if (!c.IsLeaf()) {
      for (const auto& child : c.children) {
        std::string m = Check(child);
        if (!m.empty()) return m;
      }
      return {};
    }
    Errors e;
    CheckLeaf(c, e);
    const std::string* first = e.First();
    return first == nullptr ? std::string() : *first;
  }

 private:
  void CheckLeaf(const Condition& c, Errors& e) const {
    for (const auto& op : c.operands) CheckOperand(op, e);
    switch (c.kind) {
      case ConditionKind::kCompare: {
        const std::string_view name = ComparatorText(c.comparator);
        r_.CheckDistinct(name, c.operands[0], c.operands[1], e);
        if (c.comparator != Comparator::kEq && c.comparator != Comparator::kNe) {
          for (const auto& op : c.operands) CheckOrderable(name, op, e);
        }
        break;
      }
      case ConditionKind::kBetween:
        CheckBetween(c, e);
        break;
      case ConditionKind::kIn:
        if (c.operands.size() - 1 > kMaxInOperands) {
          Errors::Set(e.operand, "The IN operator is provided with too many operands; number of operands: " +
                                     std::to_string(c.operands.size() - 1));
        }
        break;
      default:
        break;
    }
  }

  void CheckOrderable(std::string_view op_name, const Operand& op, Errors& e) const {
    if (op.kind != OperandKind::kValue) return;
    const AttributeValue* v = r_.Value(op.value_slot);
    if (v != nullptr && !IsOrderedType(v->type())) Errors::Set(e.function, IncorrectType(op_name, AttrTypeName(v->type())));
  }

  void CheckBetween(const Condition& c, Errors& e) const {
    const AttributeValue* lo = c.operands[1].kind == OperandKind::kValue ? r_.Value(c.operands[1].value_slot) : nullptr;
    const AttributeValue* hi = c.operands[2].kind == OperandKind::kValue ? r_.Value(c.operands[2].value_slot) : nullptr;
    const std::string bounds = lo && hi ? "lower bound operand: AttributeValue: " + RenderLiteral(*lo) +
                                              ", upper bound operand: AttributeValue: " + RenderLiteral(*hi)
                                        : std::string();
    if (lo && hi && lo->type() != hi->type()) {
      Errors::Set(e.function, "The BETWEEN operator requires same data type for lower and upper bounds; " + bounds);
      return;
    }
    for (const auto& op : c.operands) CheckOrderable("BETWEEN", op, e);
    if (lo && hi) {
      auto cmp = CompareOrdered(*lo, *hi);
      if (cmp && *cmp > 0) {
        Errors::Set(e.function,
                    "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; " + bounds);
      }
    }
  }

  void CheckOperand(const Operand& op, Errors& e) const {
    switch (op.kind) {
      case OperandKind::kPath:
        r_.CheckPathNames(op.path, e);
        return;
      case OperandKind::kValue:
        if (r_.Value(op.value_slot) == nullptr) Errors::Set(e.attr, r_.UndefinedValue(op.name));
        return;
      case OperandKind::kFunction:
        for (const auto& arg : op.args) CheckOperand(arg, e);
        CheckFunction(op, e);
        return;
      default:
        return;
    }
  }

  void CheckFunction(const Operand& f, Errors& e) const {
    size_t arity = 2;
    if (f.name == "attribute_exists" || f.name == "attribute_not_exists" || f.name == "size") arity = 1;
    if (f.args.size() != arity) {
      Errors::Set(e.operand, WrongOperandCount(f.name, f.args.size()));
      return;
    }
    if (arity == 2) r_.CheckDistinct(f.name, f.args[0], f.args[1], e);
    if (!e.function.empty()) return;
    if (f.name == "attribute_exists" || f.name == "attribute_not_exists") {
      if (f.args[0].kind != OperandKind::kPath) Errors::Set(e.function, RequiresPath(f.name));
    } else if (f.name == "begins_with") {
      for (const auto& arg : f.args) {
        std::string_view t = r_.StaticType(arg);
        if (!t.empty() && t != "S" && t != "B") {
          Errors::Set(e.function, IncorrectType(f.name, t));
          return;
        }
      }
    } else if (f.name == "attribute_type") {
      std::string_view t = r_.StaticType(f.args[1]);
      if (t != "S") {
        Errors::Set(e.function, IncorrectType(f.name, t.empty() ? "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}" : t));
        return;
      }
      const std::string& name = r_.Value(f.args[1].value_slot)->s();
      static constexpr std::string_view kTypes[] = {"S", "N", "B", "NULL", "SS", "BOOL", "L", "BS", "NS", "M"};
      if (std::find(std::begin(kTypes), std::end(kTypes), name) == std::end(kTypes)) {
        Errors::Set(e.function,
                    "Invalid attribute type name found; type: " + name + ", valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}");
      }
    } else if (f.name == "size") {
      std::string_view t = r_.StaticType(f.args[0]);
      if (t == "N" || t == "BOOL" || t == "NULL") Errors::Set(e.function, IncorrectType(f.name, t));
    }
  }

  const Resolver& r_;
};

// ---- Update ----

std::string_view LongTypeName(AttrType t) {
  switch (t) {
    case AttrType::kS: return "STRING";
    case AttrType::kN: return "NUMBER";
    case AttrType::kB: return "BINARY";
    case AttrType::kNull: return "NULL";
    case AttrType::kBool: return "BOOLEAN";
    case AttrType::kL: return "LIST";
    case AttrType::kM: return "MAP";
    default: return {};
  }
}

void CheckUpdateValueRefs(const Resolver& r, const Operand& op, std::string& first_undefined) {
  if (!first_undefined.empty()) return;
  if (op.kind == OperandKind::kValue) {
    if (r.Value(op.value_slot) == nullptr) first_undefined = r.UndefinedValue(op.name);
    return;
  }
  for (const auto& arg : op.args) CheckUpdateValueRefs(r, arg, first_undefined);
}

void CheckUpdateNameRefs(const Resolver& r, const Operand& op, Errors& e) {
  if (op.kind == OperandKind::kPath) {
    r.CheckPathNames(op.path, e);
    return;
  }
  for (const auto& arg : op.args) CheckUpdateNameRefs(r, arg, e);
}

void CheckUpdateFunction(const Resolver& r, const Operand& op, std::string& error) {
  if (op.kind != OperandKind::kFunction && op.kind != OperandKind::kPlus && op.kind != OperandKind::kMinus) return;
  for (const auto& arg : op.args) CheckUpdateFunction(r, arg, error);
  if (!error.empty()) return;
  if (op.kind != OperandKind::kFunction) {
    const std::string_view name = op.kind == OperandKind::kPlus ? "+" : "-";
    for (const auto& arg : op.args) {
      std::string_view t = r.ImmediateType(arg);
      if (!t.empty() && t != "N") {
        error = IncorrectType(name, t);
        return;
      }
    }
    return;
  }
  if (op.args.size() != 2) {
    error = WrongOperandCount(op.name, op.args.size());
    return;
  }
  if (op.name == "if_not_exists") {
    if (op.args[0].kind != OperandKind::kPath) error = RequiresPath(op.name);
  } else {  // list_append
    for (const auto& arg : op.args) {
      std::string_view t = r.ImmediateType(arg);
      if (!t.empty() && t != "L") {
        error = IncorrectType(op.name, t);
        return;
      }
    }
  }
}

std::string CheckUpdate(const Resolver& r, const ParsedExpression& p) {
  Errors names;
  for (const auto& a : p.actions) {
    r.CheckPathNames(a.path, names);
    if (a.kind == UpdateActionKind::kSet) CheckUpdateNameRefs(r, a.value, names);
  }
  if (!names.attr.empty()) return names.attr;
  std::string undefined_value;
  for (const auto& a : p.actions) {
    if (a.kind != UpdateActionKind::kRemove) CheckUpdateValueRefs(r, a.value, undefined_value);
  }
  if (!undefined_value.empty()) return undefined_value;
  std::vector<DocumentPath> targets;
  for (const auto& a : p.actions) targets.push_back(*r.Resolve(a.path));
  std::string overlap = CheckPathOverlaps(targets);
  if (!overlap.empty()) return overlap;
  if (!p.legacy_update) {
    for (const auto& a : p.actions) {
      if (a.kind != UpdateActionKind::kAdd && a.kind != UpdateActionKind::kDelete) continue;
      const AttrType t = r.Value(a.value.value_slot)->type();
      if (IsSetType(t) || (a.kind == UpdateActionKind::kAdd && t == AttrType::kN)) continue;
      return std::string("Incorrect operand type for operator or function; operator: ") +
             (a.kind == UpdateActionKind::kAdd ? "ADD" : "DELETE") + ", operand type: " + std::string(LongTypeName(t));
    }
  }
  std::string function_error;
  for (const auto& a : p.actions) {
    if (a.kind == UpdateActionKind::kSet) CheckUpdateFunction(r, a.value, function_error);
  }
  return function_error;
}

std::string CheckProjection(const Resolver& r, const ParsedExpression& p) {
  Errors names;
  for (const auto& path : p.projection) r.CheckPathNames(path, names);
  if (!names.attr.empty()) return names.attr;
  std::vector<DocumentPath> paths;
  paths.reserve(p.projection.size());
  for (const auto& path : p.projection) paths.push_back(*r.Resolve(path));
  return CheckPathOverlaps(paths);
}

bool ValidKey(std::string_view key, char sigil) {
  if (key.size() < 2 || key[0] != sigil) return false;
  return std::all_of(key.begin() + 1, key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

template <typename Map>
Status ValidateMapKeys(const Map* map, std::string_view label, char sigil) {
  if (map == nullptr) return Status::Ok();
  if (map->empty()) return Status::Validation(std::string(label) + " must not be empty");
  for (const auto& [key, value] : *map) {
    if (!ValidKey(key, sigil)) {
      return Status::Validation(std::string(label) + " contains invalid key: Syntax error; key: \"" + key + "\"");
    }
    if (key.size() > kMaxAttributeKeyBytes) {
      return Status::Validation(std::string(label) +
                                " contains invalid key: The expression attribute map contains a key that is too long; "
                                "size of key: " + std::to_string(key.size()));
    }
  }
  return Status::Ok();
}

}  // namespace

void UsageTracker::UseName(std::string_view ref) {
  if (!NameUsed(ref)) names_.emplace_back(ref);
}
void UsageTracker::UseValue(std::string_view ref) {
  if (!ValueUsed(ref)) values_.emplace_back(ref);
}
bool UsageTracker::NameUsed(std::string_view ref) const {
  return std::find(names_.begin(), names_.end(), ref) != names_.end();
}
bool UsageTracker::ValueUsed(std::string_view ref) const {
  return std::find(values_.begin(), values_.end(), ref) != values_.end();
}

Status UsageTracker::CheckAllUsed(const NameMap* names, const ValueMap* values) const {
  auto report = [](std::string_view label, const std::vector<std::string_view>& unused) {
    std::string m = "Value provided in ";
    m.append(label).append(" unused in expressions: keys: {");
    for (size_t i = 0; i < unused.size(); ++i) {
      if (i > 0) m.append(", ");
      m.append(unused[i]);
    }
    m.push_back('}');
    return Status::Validation(std::move(m));
  };
  std::vector<std::string_view> unused;
  if (names != nullptr) {
    for (const auto& [key, name] : *names) {
      if (!NameUsed(key)) unused.push_back(key);
    }
    if (!unused.empty()) return report("ExpressionAttributeNames", unused);
  }
  if (values != nullptr) {
    for (const auto& [key, value] : *values) {
      if (!ValueUsed(key)) unused.push_back(key);
    }
    if (!unused.empty()) return report("ExpressionAttributeValues", unused);
  }
  return Status::Ok();
}

std::string CheckPathOverlaps(const std::vector<DocumentPath>& paths) {
  std::string conflict;
  for (size_t i = 0; i < paths.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      const DocumentPath& one = paths[j];
      const DocumentPath& two = paths[i];
      const size_t n = std::min(one.size(), two.size());
      bool diverged = false;
      for (size_t k = 0; k < n && !diverged; ++k) {
        if (one[k].is_index != two[k].is_index) {
          if (conflict.empty()) {
            conflict = "Two document paths conflict with each other; must remove or rewrite one of these paths; "
                       "path one: " + FormatPath(one) + ", path two: " + FormatPath(two);
          }
          diverged = true;
        } else if (!(one[k] == two[k])) {
          diverged = true;
        }
      }
      if (!diverged) {
        return "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: " +
               FormatPath(one) + ", path two: " + FormatPath(two);
      }
    }
  }
  return conflict;
}

DocumentPath ResolvePath(const Path& path, const Bindings& bindings) {
  DocumentPath out;
  out.reserve(path.elements.size());
  for (const auto& el : path.elements) {
    PathStep step;
    switch (el.kind) {
      case PathElement::Kind::kIndex:
        step.is_index = true;
        step.index = el.slot;
        break;
      case PathElement::Kind::kName:
        step.name = el.text;
        break;
      case PathElement::Kind::kNameRef:
        step.name = bindings.names[el.slot];
        break;
    }
    out.push_back(std::move(step));
  }
  return out;
}

Result<Bindings> Bind(const ParsedExpression& parsed, const NameMap* names, const ValueMap* values,
                      UsageTracker* tracker) {
  auto invalid = [&](const std::string& detail) {
    std::string m = "Invalid ";
    m.append(ExpressionKindName(parsed.kind)).append(": ").append(detail);
    return Status::Validation(std::move(m));
  };
  if (!parsed.early_error.empty()) return invalid(parsed.early_error);
  Resolver resolver(parsed, names, values);
  std::string error;
  switch (parsed.kind) {
    case ExpressionKind::kUpdate:
      error = CheckUpdate(resolver, parsed);
      break;
    case ExpressionKind::kProjection:
      error = CheckProjection(resolver, parsed);
      break;
    default:
      if (parsed.condition) error = ConditionValidator(resolver).Check(*parsed.condition);
      break;
  }
  if (!error.empty()) return invalid(error);

  Bindings b;
  b.names.reserve(parsed.name_refs.size());
  b.values.reserve(parsed.value_refs.size());
  for (size_t i = 0; i < parsed.name_refs.size(); ++i) {
    b.names.push_back(*resolver.Name(static_cast<uint32_t>(i)));
    if (tracker != nullptr) tracker->UseName(parsed.name_refs[i]);
  }
  for (size_t i = 0; i < parsed.value_refs.size(); ++i) {
    b.values.push_back(*resolver.Value(static_cast<uint32_t>(i)));
    if (tracker != nullptr) tracker->UseValue(parsed.value_refs[i]);
  }
  return b;
}

Status ValidateAttributeName(std::string_view name) {
  if (name.empty()) return Status::Validation("One or more parameter values were invalid: Empty attribute name");
  if (name.size() < kMaxAttributeNameBytes) return Status::Ok();
  return Status::Validation("1 validation error detected: Attribute name is too large, must be less than " +
                            std::to_string(kMaxAttributeNameBytes) + " bytes");
}

Status ValidateAttributeMaps(const NameMap* names, const ValueMap* values) {
  if (names != nullptr) {
    for (const auto& [key, name] : *names) {
      // AWS's words for an empty name ("ExpressionAttributeNames contains invalid value: Empty
      // attribute name for key #DE", as applications report it from DynamoDB).
      if (name.empty()) {
        return Status::Validation("ExpressionAttributeNames contains invalid value: Empty attribute name for key " +
                                  key);
      }
      MT_RETURN_IF_ERROR(ValidateAttributeName(name));
    }
  }
  MT_RETURN_IF_ERROR(ValidateMapKeys(names, "ExpressionAttributeNames", '#'));
  return ValidateMapKeys(values, "ExpressionAttributeValues", ':');
}

}  // namespace monotable::expr
