#include "expr/legacy.h"

#include <algorithm>
#include <memory>

#include "expr/comparison.h"

namespace monotable::expr {
namespace {

constexpr char kInvalid[] = "One or more parameter values were invalid: ";

Status EnumError(std::string_view value, std::string_view member, std::string_view allowed) {
  return Status::Validation("1 validation error detected: Value '" + std::string(value) + "' at '" +
                            std::string(member) + "' failed to satisfy constraint: Member must satisfy enum value set: [" +
                            std::string(allowed) + "]");
}

Result<ComparisonOperator> ParseOperator(std::string_view name) {
  auto op = ParseComparisonOperator(name);
  if (!op) {
    return EnumError(name, "comparisonOperator",
                     "IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS");
  }
  return *op;
}

// Builds a synthetic ParsedExpression: literal attribute names (no reserved-word rules), values
// bound by slot directly.
class Builder {
 public:
  explicit Builder(ExpressionKind kind) : parsed_(std::make_shared<ParsedExpression>()) { parsed_->kind = kind; }

  Path PathFor(const std::string& attribute) const {
    Path p;
    PathElement e;
    e.text = attribute;
    p.elements.push_back(std::move(e));
    return p;
  }
  Operand PathOperand(const std::string& attribute) const {
    Operand op;
    op.kind = OperandKind::kPath;
    op.path = PathFor(attribute);
    return op;
  }
  Operand ValueOperand(const AttributeValue& v) {
    Operand op;
    op.kind = OperandKind::kValue;
    op.value_slot = static_cast<uint32_t>(bindings_.values.size());
    bindings_.values.push_back(v);
    return op;
  }
  static Operand Call(std::string name, std::vector<Operand> args) {
    Operand op;
    op.kind = OperandKind::kFunction;
    op.name = std::move(name);
    op.args = std::move(args);
    return op;
  }
  static Condition FunctionCondition(Operand call) {
    Condition c;
    c.kind = ConditionKind::kFunction;
    c.operands.push_back(std::move(call));
    return c;
  }

  Condition Leaf(const std::string& attribute, ComparisonOperator op, const std::vector<AttributeValue>& values) {
    Condition c;
    auto compare = [&](Comparator cmp) {
      c.kind = ConditionKind::kCompare;
      c.comparator = cmp;
      c.operands.push_back(PathOperand(attribute));
      c.operands.push_back(ValueOperand(values.at(0)));
    };
    switch (op) {
      case ComparisonOperator::kEq: compare(Comparator::kEq); break;
      case ComparisonOperator::kNe: compare(Comparator::kNe); break;
      case ComparisonOperator::kLe: compare(Comparator::kLe); break;
      case ComparisonOperator::kLt: compare(Comparator::kLt); break;
      case ComparisonOperator::kGe: compare(Comparator::kGe); break;
      case ComparisonOperator::kGt: compare(Comparator::kGt); break;
      case ComparisonOperator::kNotNull:
        return FunctionCondition(Call("attribute_exists", {PathOperand(attribute)}));
      case ComparisonOperator::kNull:
        return FunctionCondition(Call("attribute_not_exists", {PathOperand(attribute)}));
      case ComparisonOperator::kContains:
        return FunctionCondition(Call("contains", {PathOperand(attribute), ValueOperand(values.at(0))}));
      case ComparisonOperator::kNotContains: {
        // Absent attribute: false (unlike NOT contains(...), which would be true).
        Condition negated;
        negated.kind = ConditionKind::kNot;
        negated.children.push_back(FunctionCondition(Call("contains", {PathOperand(attribute), ValueOperand(values.at(0))})));
        c.kind = ConditionKind::kAnd;
        c.children.push_back(FunctionCondition(Call("attribute_exists", {PathOperand(attribute)})));
        c.children.push_back(std::move(negated));
        break;
      }
      case ComparisonOperator::kBeginsWith:
        return FunctionCondition(Call("begins_with", {PathOperand(attribute), ValueOperand(values.at(0))}));
      case ComparisonOperator::kIn:
        c.kind = ConditionKind::kIn;
        c.operands.push_back(PathOperand(attribute));
        for (const auto& v : values) c.operands.push_back(ValueOperand(v));
        break;
      case ComparisonOperator::kBetween:
        c.kind = ConditionKind::kBetween;
        c.operands.push_back(PathOperand(attribute));
        c.operands.push_back(ValueOperand(values.at(0)));
        c.operands.push_back(ValueOperand(values.at(1)));
        break;
    }
    return c;
  }

  ConditionExpression Finish(std::vector<Condition> leaves, bool use_or) {
    if (leaves.size() == 1) {
      parsed_->condition = std::move(leaves[0]);
    } else if (!leaves.empty()) {
      Condition root;
      root.kind = use_or ? ConditionKind::kOr : ConditionKind::kAnd;
      root.children = std::move(leaves);
      parsed_->condition = std::move(root);
    }
    return ConditionExpression(std::move(parsed_), std::move(bindings_));
  }

  std::shared_ptr<ParsedExpression>& parsed() { return parsed_; }
  Bindings& bindings() { return bindings_; }

 private:
  std::shared_ptr<ParsedExpression> parsed_;
  Bindings bindings_;
};

Result<bool> UseOr(const std::optional<std::string>& conditional_operator) {
  if (!conditional_operator) return false;
  if (*conditional_operator == "AND") return false;
  if (*conditional_operator == "OR") return true;
  return EnumError(*conditional_operator, "conditionalOperator", "AND, OR");
}

// Attribute names too large for DynamoDB, before any other check of the parameter.
template <typename Entries, typename NameOf>
Status CheckNames(const Entries& entries, NameOf name_of) {
  for (const auto& entry : entries) MT_RETURN_IF_ERROR(ValidateAttributeName(name_of(entry)));
  return Status::Ok();
}

Status CheckArguments(ComparisonOperator op, const std::vector<AttributeValue>& values) {
  std::string error = ValidateComparisonArguments(op, values);
  if (!error.empty()) return Status::Validation(std::move(error));
  return Status::Ok();
}

}  // namespace

Result<ConditionExpression> ConvertExpected(const std::vector<ExpectedCondition>& expected,
                                            const std::optional<std::string>& conditional_operator) {
  MT_RETURN_IF_ERROR(CheckNames(expected, [](const ExpectedCondition& e) -> const std::string& { return e.attribute; }));
  MT_ASSIGN_OR_RETURN(bool use_or, UseOr(conditional_operator));
  Builder builder(ExpressionKind::kCondition);
  std::vector<Condition> leaves;
  for (const auto& e : expected) {
    const std::string for_attribute = " for Attribute: " + e.attribute;
    if (e.attribute_value_list && e.value) {
      return Status::Validation(kInvalid + ("Value and AttributeValueList cannot be used together" + for_attribute));
    }
    if (e.comparison_operator) {
      if (e.exists) {
        return Status::Validation(kInvalid + ("Exists and ComparisonOperator cannot be used together" + for_attribute));
      }
      MT_ASSIGN_OR_RETURN(ComparisonOperator op, ParseOperator(*e.comparison_operator));
      if (op != ComparisonOperator::kNull && op != ComparisonOperator::kNotNull && !e.attribute_value_list && !e.value) {
        return Status::Validation(kInvalid + ("Value or AttributeValueList must be used with ComparisonOperator: " +
                                              *e.comparison_operator + for_attribute));
      }
      std::vector<AttributeValue> values =
          e.attribute_value_list ? *e.attribute_value_list : (e.value ? std::vector<AttributeValue>{*e.value}
                                                                      : std::vector<AttributeValue>{});
      MT_RETURN_IF_ERROR(CheckArguments(op, values));
      leaves.push_back(builder.Leaf(e.attribute, op, values));
      continue;
    }
    if (e.attribute_value_list) {
      return Status::Validation(kInvalid +
                                ("AttributeValueList can only be used with a ComparisonOperator" + for_attribute));
    }
    const bool exists = !e.exists.has_value() || *e.exists;
    if (exists && !e.value) {
      return Status::Validation(kInvalid + (std::string("Value must be provided when Exists is ") +
                                            (e.exists ? "true" : "null") + for_attribute));
    }
    if (!exists && e.value) {
      return Status::Validation(kInvalid + ("Value cannot be used when Exists is false" + for_attribute));
    }
    if (exists) {
      leaves.push_back(builder.Leaf(e.attribute, ComparisonOperator::kEq, {*e.value}));
    } else {
      leaves.push_back(builder.Leaf(e.attribute, ComparisonOperator::kNull, {}));
    }
  }
  return builder.Finish(std::move(leaves), use_or);
}

Result<ConditionExpression> ConvertFilter(const std::vector<FilterCondition>& filter,
                                          const std::optional<std::string>& conditional_operator) {
  MT_RETURN_IF_ERROR(CheckNames(filter, [](const FilterCondition& f) -> const std::string& { return f.attribute; }));
  MT_ASSIGN_OR_RETURN(bool use_or, UseOr(conditional_operator));
  Builder builder(ExpressionKind::kFilter);
  std::vector<Condition> leaves;
  for (const auto& f : filter) {
    MT_ASSIGN_OR_RETURN(ComparisonOperator op, ParseOperator(f.comparison_operator));
    MT_RETURN_IF_ERROR(CheckArguments(op, f.attribute_value_list));
    leaves.push_back(builder.Leaf(f.attribute, op, f.attribute_value_list));
  }
  return builder.Finish(std::move(leaves), use_or);
}

Result<ProjectionExpression> ConvertAttributesToGet(const std::vector<std::string>& attributes) {
  MT_RETURN_IF_ERROR(CheckNames(attributes, [](const std::string& a) -> const std::string& { return a; }));
  std::vector<DocumentPath> paths;
  paths.reserve(attributes.size());
  for (size_t i = 0; i < attributes.size(); ++i) {
    if (std::find(attributes.begin(), attributes.begin() + static_cast<std::ptrdiff_t>(i), attributes[i]) !=
        attributes.begin() + static_cast<std::ptrdiff_t>(i)) {
      return Status::Validation(kInvalid + ("Duplicate value in attribute name: " + attributes[i]));
    }
    PathStep step;
    step.name = attributes[i];
    paths.push_back(DocumentPath{std::move(step)});
  }
  return ProjectionExpression(std::move(paths));
}

Result<UpdateExpression> ConvertAttributeUpdates(const std::vector<AttributeUpdate>& updates) {
  MT_RETURN_IF_ERROR(CheckNames(updates, [](const AttributeUpdate& u) -> const std::string& { return u.attribute; }));
  Builder builder(ExpressionKind::kUpdate);
  builder.parsed()->legacy_update = true;
  for (const auto& u : updates) {
    const std::string action = u.action.value_or("PUT");
    if (action != "PUT" && action != "ADD" && action != "DELETE") return EnumError(action, "action", "ADD, PUT, DELETE");
    if (!u.value && action != "DELETE") {
      return Status::Validation(kInvalid + std::string("Only DELETE action is allowed when no attribute value is specified"));
    }
    if (u.value && action == "DELETE" && !IsSetType(u.value->type())) {
      return Status::Validation(kInvalid + ("DELETE action with value is not supported for the type " +
                                            std::string(AttrTypeName(u.value->type()))));
    }
    if (u.value && action == "ADD" && !IsSetType(u.value->type()) && u.value->type() != AttrType::kN &&
        u.value->type() != AttrType::kL) {
      return Status::Validation(kInvalid + ("ADD action is not supported for the type " +
                                            std::string(AttrTypeName(u.value->type()))));
    }
    UpdateAction a;
    a.path = builder.PathFor(u.attribute);
    if (action == "PUT") {
      a.kind = UpdateActionKind::kSet;
    } else if (action == "ADD") {
      a.kind = UpdateActionKind::kAdd;
    } else {
      a.kind = u.value ? UpdateActionKind::kDelete : UpdateActionKind::kRemove;
    }
    if (u.value) a.value = builder.ValueOperand(*u.value);
    builder.parsed()->actions.push_back(std::move(a));
  }
  return UpdateExpression(std::move(builder.parsed()), std::move(builder.bindings()));
}

Result<KeyConditionParts> ConvertKeyConditions(const std::vector<FilterCondition>& conditions) {
  MT_RETURN_IF_ERROR(CheckNames(conditions, [](const FilterCondition& c) -> const std::string& { return c.attribute; }));
  KeyConditionParts parts;
  for (const auto& c : conditions) {
    MT_ASSIGN_OR_RETURN(ComparisonOperator op, ParseOperator(c.comparison_operator));
    MT_RETURN_IF_ERROR(CheckArguments(op, c.attribute_value_list));
    parts.push_back(KeyConditionPart{c.attribute, op, c.attribute_value_list});
  }
  if (parts.size() != 1 && parts.size() != 2) return Status::Validation("Conditions can be of length 1 or 2 only");
  return parts;
}

}  // namespace monotable::expr
