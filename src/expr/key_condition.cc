#include "expr/key_condition.h"

#include <algorithm>

namespace monotable::expr {
namespace {

Status Invalid(std::string message) { return Status::Validation(std::move(message)); }

Status InvalidOperator(std::string_view op) {
  return Invalid("Invalid operator used in KeyConditionExpression: " + std::string(op));
}

Status CheckExpr(const Condition& c, const Bindings& b, KeyConditionParts& parts) {
  switch (c.kind) {
    case ConditionKind::kOr: return InvalidOperator("OR");
    case ConditionKind::kNot: return InvalidOperator("NOT");
    case ConditionKind::kIn: return InvalidOperator("IN");
    case ConditionKind::kAnd:
      for (const auto& child : c.children) MT_RETURN_IF_ERROR(CheckExpr(child, b, parts));
      return Status::Ok();
    default:
      break;
  }
  if (c.kind == ConditionKind::kCompare && c.comparator == Comparator::kNe) return InvalidOperator("<>");
  const std::vector<Operand>* args = &c.operands;
  ComparisonOperator op = ComparisonOperator::kEq;
  if (c.kind == ConditionKind::kFunction) {
    const Operand& f = c.operands[0];
    if (f.name == "size") return Invalid("KeyConditionExpressions cannot contain nested operations");
    if (f.name != "begins_with") return InvalidOperator(f.name);
    if (f.args[0].kind != OperandKind::kPath) {
      return Invalid("Invalid condition in KeyConditionExpression: begins_with operator must have the key attribute "
                     "as its first operand");
    }
    args = &f.args;
    op = ComparisonOperator::kBeginsWith;
  } else if (c.kind == ConditionKind::kBetween) {
    if (c.operands[0].kind != OperandKind::kPath) {
      return Invalid("Invalid condition in KeyConditionExpression: BETWEEN operator must have the key attribute as "
                     "its first operand");
    }
    op = ComparisonOperator::kBetween;
  }

  const Operand* key = nullptr;
  size_t key_index = 0;
  for (size_t i = 0; i < args->size(); ++i) {
    const Operand& arg = (*args)[i];
    if (arg.kind == OperandKind::kPath) {
      if (key != nullptr) return Invalid("Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition");
      if (arg.path.elements.size() > 1) return Invalid("KeyConditionExpressions cannot have conditions on nested attributes");
      key = &arg;
      key_index = i;
    } else if (arg.kind == OperandKind::kFunction) {
      return Invalid("KeyConditionExpressions cannot contain nested operations");
    }
  }
  if (key == nullptr) return Invalid("Invalid condition in KeyConditionExpression: No key attribute specified");
  const std::string name = ResolvePath(key->path, b)[0].name;
  if (std::any_of(parts.begin(), parts.end(), [&](const KeyConditionPart& p) { return p.attribute == name; })) {
    return Invalid("KeyConditionExpressions must only contain one condition per key");
  }
  if (c.kind == ConditionKind::kCompare) {
    // ":v < k" reads as "k > :v".
    const bool flip = key_index != 0;
    switch (c.comparator) {
      case Comparator::kLt: op = flip ? ComparisonOperator::kGt : ComparisonOperator::kLt; break;
      case Comparator::kLe: op = flip ? ComparisonOperator::kGe : ComparisonOperator::kLe; break;
      case Comparator::kGt: op = flip ? ComparisonOperator::kLt : ComparisonOperator::kGt; break;
      case Comparator::kGe: op = flip ? ComparisonOperator::kLe : ComparisonOperator::kGe; break;
      default: op = ComparisonOperator::kEq; break;
    }
  }
  KeyConditionPart part;
  part.attribute = name;
  part.op = op;
  for (size_t i = 0; i < args->size(); ++i) {
    if (i != key_index) part.values.push_back(b.values[(*args)[i].value_slot]);
  }
  parts.push_back(std::move(part));
  return Status::Ok();
}

bool IsIndexable(ComparisonOperator op) {
  switch (op) {
    case ComparisonOperator::kNull:
    case ComparisonOperator::kNotNull:
    case ComparisonOperator::kNe:
    case ComparisonOperator::kContains:
    case ComparisonOperator::kNotContains:
    case ComparisonOperator::kIn:
      return false;
    default:
      return true;
  }
}

}  // namespace

bool SortKeyCondition::Matches(const AttributeValue& sort_value) const {
  return ApplyComparison(op, &sort_value, values);
}

Result<KeyConditionParts> ExtractKeyConditionParts(const ParsedExpression& parsed, const Bindings& bindings) {
  KeyConditionParts parts;
  if (parsed.condition) MT_RETURN_IF_ERROR(CheckExpr(*parsed.condition, bindings, parts));
  for (const auto& part : parts) {
    std::string error = ValidateComparisonArguments(part.op, part.values);
    if (!error.empty()) return Invalid(std::move(error));
  }
  if (parts.size() != 1 && parts.size() != 2) return Invalid("Conditions can be of length 1 or 2 only");
  return parts;
}

Result<KeyCondition> ResolveKeyCondition(const KeyConditionParts& parts, const KeySchemaInfo& schema) {
  KeyCondition out;
  out.partition_key = schema.partition_key;
  struct KeyAttr {
    const std::string* name;
    std::optional<AttrType> type;
    bool is_hash;
  };
  std::vector<KeyAttr> keys = {{&schema.partition_key, schema.partition_type, true}};
  if (schema.sort_key) keys.push_back({&*schema.sort_key, schema.sort_type, false});
  for (const KeyAttr& key : keys) {
    if (key.is_hash && !schema.sort_key && parts.size() > 1) return Invalid("Query key condition not supported");
    auto it = std::find_if(parts.begin(), parts.end(), [&](const KeyConditionPart& p) { return p.attribute == *key.name; });
    if (it == parts.end()) {
      if (key.is_hash || parts.size() > 1) return Invalid("Query condition missed key schema element: " + *key.name);
      continue;
    }
    if (!IsIndexable(it->op)) return Invalid("Attempted conditional constraint is not an indexable operation");
    if (key.type && std::any_of(it->values.begin(), it->values.end(),
                                [&](const AttributeValue& v) { return v.type() != *key.type; })) {
      return Invalid("One or more parameter values were invalid: Condition parameter type does not match schema type");
    }
    if (key.is_hash) {
      if (it->op != ComparisonOperator::kEq) return Invalid("Query key condition not supported");
      out.partition_value = it->values.at(0);
    } else {
      out.sort = SortKeyCondition{it->attribute, it->op, it->values};
    }
  }
  return out;
}

}  // namespace monotable::expr
