#include "expr/evaluator.h"

#include <optional>

#include "expr/comparison.h"

namespace monotable::expr {
namespace {

const AttributeValue* Step(const Item& item, const AttributeValue* current, bool is_index, uint32_t index,
                           std::string_view name) {
  if (is_index) {
    if (current == nullptr || current->type() != AttrType::kL || index >= current->l().size()) return nullptr;
    return &current->l()[index];
  }
  const Item* map = nullptr;
  if (current == nullptr) {
    map = &item;
  } else if (current->type() == AttrType::kM) {
    map = &current->m();
  } else {
    return nullptr;
  }
  auto it = map->find(name);
  return it == map->end() ? nullptr : &it->second;
}

// An operand's value during evaluation: a pointer into the item / bindings, or a computed size.
struct Value {
  const AttributeValue* ptr = nullptr;
  std::optional<AttributeValue> computed;

  const AttributeValue* get() const { return computed ? &*computed : ptr; }
};

class Evaluator {
 public:
  Evaluator(const Item& item, const Bindings& b) : item_(item), b_(b) {}

  bool Eval(const Condition& c) const {
    switch (c.kind) {
      case ConditionKind::kAnd:
        for (const auto& child : c.children) {
          if (!Eval(child)) return false;
        }
        return true;
      case ConditionKind::kOr:
        for (const auto& child : c.children) {
          if (Eval(child)) return true;
        }
        return false;
      case ConditionKind::kNot:
        return !Eval(c.children[0]);
      case ConditionKind::kCompare:
        return Compare(c);
      case ConditionKind::kBetween: {
        Value v = Resolve(c.operands[0]);
        Value lo = Resolve(c.operands[1]);
        Value hi = Resolve(c.operands[2]);
        if (!v.get() || !lo.get() || !hi.get()) return false;
        auto a = CompareOrdered(*v.get(), *lo.get());
        auto z = CompareOrdered(*v.get(), *hi.get());
        return a && z && *a >= 0 && *z <= 0;
      }
      case ConditionKind::kIn: {
        Value v = Resolve(c.operands[0]);
        if (!v.get()) return false;
        for (size_t i = 1; i < c.operands.size(); ++i) {
          Value candidate = Resolve(c.operands[i]);
          if (candidate.get() && *candidate.get() == *v.get()) return true;
        }
        return false;
      }
      case ConditionKind::kFunction:
        return Function(c.operands[0]);
    }
    return false;
  }

 private:
  bool Compare(const Condition& c) const {
    Value l = Resolve(c.operands[0]);
    Value r = Resolve(c.operands[1]);
    const AttributeValue* a = l.get();
    const AttributeValue* b = r.get();
    if (c.comparator == Comparator::kEq) return a && b && *a == *b;
    if (c.comparator == Comparator::kNe) return !(a && b && *a == *b);
    if (!a || !b) return false;
    auto cmp = CompareOrdered(*a, *b);
    if (!cmp) return false;
    switch (c.comparator) {
      case Comparator::kLt: return *cmp < 0;
      case Comparator::kLe: return *cmp <= 0;
      case Comparator::kGt: return *cmp > 0;
      case Comparator::kGe: return *cmp >= 0;
      default: return false;
    }
  }

  bool Function(const Operand& f) const {
    if (f.name == "attribute_exists") return Lookup(item_, f.args[0].path, b_) != nullptr;
    if (f.name == "attribute_not_exists") return Lookup(item_, f.args[0].path, b_) == nullptr;
    Value a = Resolve(f.args[0]);
    Value b = f.args.size() > 1 ? Resolve(f.args[1]) : Value{};
    if (!a.get() || !b.get()) return false;
    if (f.name == "attribute_type") {
      return b.get()->type() == AttrType::kS && AttrTypeName(a.get()->type()) == b.get()->s();
    }
    if (f.name == "begins_with") return BeginsWith(*a.get(), *b.get());
    if (f.name == "contains") return Contains(*a.get(), *b.get());
    return false;
  }

  Value Resolve(const Operand& op) const {
    Value v;
    switch (op.kind) {
      case OperandKind::kPath:
        v.ptr = Lookup(item_, op.path, b_);
        break;
      case OperandKind::kValue:
        v.ptr = &b_.values[op.value_slot];
        break;
      case OperandKind::kFunction:
        if (op.name == "size") {
          Value inner = Resolve(op.args[0]);
          if (inner.get()) {
            if (auto n = SizeOf(*inner.get())) v.computed = AttributeValue::N(Number::FromInt(static_cast<int64_t>(*n)));
          }
        }
        break;
      default:
        break;
    }
    return v;
  }

  const Item& item_;
  const Bindings& b_;
};

}  // namespace

const AttributeValue* Lookup(const Item& item, const DocumentPath& path) {
  const AttributeValue* current = nullptr;
  for (size_t i = 0; i < path.size(); ++i) {
    current = Step(item, current, path[i].is_index, path[i].index, path[i].name);
    if (current == nullptr) return nullptr;
  }
  return current;
}

const AttributeValue* Lookup(const Item& item, const Path& path, const Bindings& bindings) {
  const AttributeValue* current = nullptr;
  for (const auto& el : path.elements) {
    switch (el.kind) {
      case PathElement::Kind::kIndex:
        current = Step(item, current, true, el.slot, {});
        break;
      case PathElement::Kind::kName:
        current = Step(item, current, false, 0, el.text);
        break;
      case PathElement::Kind::kNameRef:
        current = Step(item, current, false, 0, bindings.names[el.slot]);
        break;
    }
    if (current == nullptr) return nullptr;
  }
  return current;
}

bool EvaluateCondition(const Condition& condition, const Item& item, const Bindings& bindings) {
  return Evaluator(item, bindings).Eval(condition);
}

}  // namespace monotable::expr
