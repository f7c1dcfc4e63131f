#include "expr/update.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <string_view>

#include "expr/evaluator.h"

namespace monotable::expr {
namespace {

constexpr char kInvalidPath[] = "The document path provided in the update expression is invalid for update";
constexpr char kMissingOperand[] = "The provided expression refers to an attribute that does not exist in the item";
constexpr char kWrongType[] = "An operand in the update expression has an incorrect data type";
constexpr char kLegacyWrongType[] = "Type mismatch for attribute to update";
// Number's message for a result that needs more than 38 significant digits. An arithmetic result
// that cannot be stored exactly is an overflow to DynamoDB (1E+50 + 1 is refused as "Number
// overflow", not for its precision), so update arithmetic reports it as such.
constexpr std::string_view kTooPrecise = "Attempting to store more than 38 significant digits in a Number";
constexpr char kOverflow[] = "Number overflow. Attempting to store a number with magnitude larger than supported range";

// Number::Add / Subtract with DynamoDB's update-arithmetic errors.
Result<Number> Arithmetic(bool add, const Number& a, const Number& b) {
  Result<Number> n = add ? Number::Add(a, b) : Number::Subtract(a, b);
  if (!n.ok() && n.status().message() == kTooPrecise) return Status::Validation(kOverflow);
  return n;
}

Result<AttributeValue> EvalSetValue(const Operand& op, const Item& base, const Bindings& b) {
  switch (op.kind) {
    case OperandKind::kPath: {
      const AttributeValue* v = Lookup(base, op.path, b);
      if (v == nullptr) return Status::Validation(kMissingOperand);
      return *v;
    }
    case OperandKind::kValue:
      return b.values[op.value_slot];
    case OperandKind::kPlus:
    case OperandKind::kMinus: {
      MT_ASSIGN_OR_RETURN(AttributeValue left, EvalSetValue(op.args[0], base, b));
      if (left.type() != AttrType::kN) return Status::Validation(kWrongType);
      MT_ASSIGN_OR_RETURN(AttributeValue right, EvalSetValue(op.args[1], base, b));
      if (right.type() != AttrType::kN) return Status::Validation(kWrongType);
      Result<Number> n = Arithmetic(op.kind == OperandKind::kPlus, left.n(), right.n());
      if (!n.ok()) return n.status();
      return AttributeValue::N(std::move(n).value());
    }
    case OperandKind::kFunction: {
      if (op.name == "if_not_exists") {
        const AttributeValue* v = Lookup(base, op.args[0].path, b);
        if (v != nullptr) return *v;
        return EvalSetValue(op.args[1], base, b);
      }
      // list_append
      MT_ASSIGN_OR_RETURN(AttributeValue left, EvalSetValue(op.args[0], base, b));
      if (left.type() != AttrType::kL) return Status::Validation(kWrongType);
      MT_ASSIGN_OR_RETURN(AttributeValue right, EvalSetValue(op.args[1], base, b));
      if (right.type() != AttrType::kL) return Status::Validation(kWrongType);
      AttributeValue::List joined = std::move(left.l());
      joined.insert(joined.end(), std::make_move_iterator(right.l().begin()), std::make_move_iterator(right.l().end()));
      return AttributeValue::L(std::move(joined));
    }
  }
  return Status::Internal("unknown update operand");
}

// Where an action's last step lives: a map (the item or an M value) or a list.
struct Parent {
  Item* map = nullptr;
  AttributeValue::List* list = nullptr;
};

std::optional<Parent> FindParent(Item& item, const DocumentPath& path) {
  AttributeValue* current = nullptr;
  for (size_t i = 0; i + 1 < path.size(); ++i) {
    const PathStep& step = path[i];
    if (step.is_index) {
      if (current == nullptr || current->type() != AttrType::kL || step.index >= current->l().size()) {
        return std::nullopt;
      }
      current = &current->l()[step.index];
    } else {
      Item* map = current == nullptr ? &item : (current->type() == AttrType::kM ? &current->m() : nullptr);
      if (map == nullptr) return std::nullopt;
      auto it = map->find(step.name);
      if (it == map->end()) return std::nullopt;
      current = &it->second;
    }
  }
  Parent parent;
  if (path.back().is_index) {
    if (current == nullptr || current->type() != AttrType::kL) return std::nullopt;
    parent.list = &current->l();
  } else if (current == nullptr) {
    parent.map = &item;
  } else if (current->type() == AttrType::kM) {
    parent.map = &current->m();
  } else {
    return std::nullopt;
  }
  return parent;
}

// A list change that would shift indexes, applied after all in-place changes.
struct Pending {
  size_t depth = 0;  // length of the list's own path: deeper lists are changed first
  AttributeValue::List* list = nullptr;
  bool append = false;
  uint32_t index = 0;
  size_t order = 0;
  AttributeValue value;
};

template <typename T>
void Union(std::vector<T>& into, const std::vector<T>& add) {
  for (const auto& member : add) {
    if (std::find(into.begin(), into.end(), member) == into.end()) into.push_back(member);
  }
}

template <typename T>
void Difference(std::vector<T>& from, const std::vector<T>& remove) {
  from.erase(std::remove_if(from.begin(), from.end(),
                            [&](const T& m) { return std::find(remove.begin(), remove.end(), m) != remove.end(); }),
             from.end());
}

bool SetIsEmpty(const AttributeValue& v) {
  return v.type() == AttrType::kNS ? v.number_set().empty() : v.string_set().empty();
}

// ADD into an existing value; the types were checked to match.
Status AddInto(AttributeValue& existing, const AttributeValue& value) {
  switch (existing.type()) {
    case AttrType::kN: {
      Result<Number> sum = Arithmetic(true, existing.n(), value.n());
      if (!sum.ok()) return sum.status();
      existing = AttributeValue::N(std::move(sum).value());
      return Status::Ok();
    }
    case AttrType::kSS:
    case AttrType::kBS:
      Union(existing.string_set(), value.string_set());
      existing.Canonicalize();
      return Status::Ok();
    case AttrType::kNS:
      Union(existing.number_set(), value.number_set());
      existing.Canonicalize();
      return Status::Ok();
    case AttrType::kL:
      existing.l().insert(existing.l().end(), value.l().begin(), value.l().end());
      return Status::Ok();
    default:
      return Status::Internal("ADD on an unsupported type");
  }
}

}  // namespace

Result<UpdateOutcome> ApplyUpdateActions(const ParsedExpression& parsed, const Bindings& bindings, const Item& base) {
  const char* wrong_type = parsed.legacy_update ? kLegacyWrongType : kWrongType;
  const auto& actions = parsed.actions;

  // Every right-hand side reads the item as it was.
  std::vector<std::optional<AttributeValue>> set_values(actions.size());
  for (size_t i = 0; i < actions.size(); ++i) {
    if (actions[i].kind != UpdateActionKind::kSet) continue;
    MT_ASSIGN_OR_RETURN(set_values[i], EvalSetValue(actions[i].value, base, bindings));
  }

  UpdateOutcome out;
  out.item = base;
  out.updated_paths.reserve(actions.size());
  std::vector<Pending> pending;
  for (size_t i = 0; i < actions.size(); ++i) {
    const UpdateAction& action = actions[i];
    out.updated_paths.push_back(ResolvePath(action.path, bindings));
    const DocumentPath& path = out.updated_paths.back();
    std::optional<Parent> parent = FindParent(out.item, path);
    if (!parent) return Status::Validation(kInvalidPath);
    const PathStep& last = path.back();
    const size_t depth = path.size() - 1;

    AttributeValue* existing = nullptr;
    if (parent->list != nullptr) {
      if (last.index < parent->list->size()) existing = &(*parent->list)[last.index];
    } else {
      auto it = parent->map->find(last.name);
      if (it != parent->map->end()) existing = &it->second;
    }
    auto remove_existing = [&]() {
      if (parent->list != nullptr) {
        pending.push_back(Pending{depth, parent->list, false, last.index, i, AttributeValue()});
      } else {
        parent->map->erase(last.name);
      }
    };
    auto store_new = [&](AttributeValue value) {
      if (existing != nullptr) {
        *existing = std::move(value);
      } else if (parent->list != nullptr) {
        pending.push_back(Pending{depth, parent->list, true, last.index, i, std::move(value)});
      } else {
        parent->map->insert_or_assign(last.name, std::move(value));
      }
    };

    switch (action.kind) {
      case UpdateActionKind::kSet:
        store_new(std::move(*set_values[i]));
        break;
      case UpdateActionKind::kRemove:
        if (existing != nullptr) remove_existing();
        break;
      case UpdateActionKind::kAdd: {
        const AttributeValue& value = bindings.values[action.value.value_slot];
        if (existing == nullptr) {
          store_new(value);
        } else {
          if (existing->type() != value.type()) return Status::Validation(wrong_type);
          MT_RETURN_IF_ERROR(AddInto(*existing, value));
        }
        break;
      }
      case UpdateActionKind::kDelete: {
        const AttributeValue& value = bindings.values[action.value.value_slot];
        if (existing == nullptr) break;
        if (existing->type() != value.type() || !IsSetType(value.type())) return Status::Validation(wrong_type);
        if (value.type() == AttrType::kNS) {
          Difference(existing->number_set(), value.number_set());
        } else {
          Difference(existing->string_set(), value.string_set());
        }
        if (SetIsEmpty(*existing)) remove_existing();
        break;
      }
    }
  }

  // Index-shifting list changes: deepest lists first (so no pending pointer is invalidated), then
  // per list appends in index order and removals from the highest original index down.
  std::sort(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) {
    if (a.depth != b.depth) return a.depth > b.depth;
    if (a.list != b.list) return std::less<const void*>()(a.list, b.list);
    if (a.append != b.append) return a.append;
    if (a.index != b.index) return a.append ? a.index < b.index : a.index > b.index;
    return a.order < b.order;
  });
  for (auto& p : pending) {
    if (p.append) {
      p.list->push_back(std::move(p.value));
    } else if (p.index < p.list->size()) {
      p.list->erase(p.list->begin() + p.index);
    }
  }
  return out;
}

}  // namespace monotable::expr
