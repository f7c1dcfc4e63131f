#include "expr/partiql/lower.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "expr/partiql/values.h"

namespace monotable::expr::partiql {
namespace {

constexpr const char* kNotBoolean = "WHERE clause must contain an expression that resolves to a boolean";
constexpr const char* kMissingCompare = "MISSING must be compared using IS operator";
constexpr const char* kBadIn =
    "IN operator must have a left hand argument of type Variable Reference and right hand argument of type Seq with "
    "at least one member";

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

Comparator ComparatorOf(CompareOp op) {
  switch (op) {
    case CompareOp::kEq:
      return Comparator::kEq;
    case CompareOp::kNe:
      return Comparator::kNe;
    case CompareOp::kLt:
      return Comparator::kLt;
    case CompareOp::kLe:
      return Comparator::kLe;
    case CompareOp::kGt:
      return Comparator::kGt;
    case CompareOp::kGe:
      return Comparator::kGe;
  }
  return Comparator::kEq;
}

expr::Path ToExprPath(const Path& path) {
  expr::Path out;
  for (const PathStep& s : path.steps) {
    PathElement e;
    if (s.kind == PathStep::Kind::kIndex) {
      e.kind = PathElement::Kind::kIndex;
      e.slot = s.index;
    } else {
      e.kind = PathElement::Kind::kName;
      e.text = s.name;
    }
    out.elements.push_back(std::move(e));
  }
  return out;
}

Condition Not(Condition c) {
  Condition out;
  out.kind = ConditionKind::kNot;
  out.children.push_back(std::move(c));
  return out;
}

// Builds expression-layer nodes, collecting constant values into one Bindings.
class Lowerer {
 public:
  explicit Lowerer(const std::vector<AttributeValue>& parameters) : parameters_(parameters) {}

  Bindings TakeBindings() { return std::move(bindings_); }

  Operand ValueOperand(AttributeValue v) {
    Operand op;
    op.kind = OperandKind::kValue;
    op.value_slot = static_cast<uint32_t>(bindings_.values.size());
    bindings_.values.push_back(std::move(v));
    return op;
  }

  static Operand PathOperand(const Path& path) {
    Operand op;
    op.kind = OperandKind::kPath;
    op.path = ToExprPath(path);
    return op;
  }

  Condition FunctionCondition(std::string name, std::vector<Operand> args) {
    Operand call;
    call.kind = OperandKind::kFunction;
    call.name = std::move(name);
    call.args = std::move(args);
    Condition c;
    c.kind = ConditionKind::kFunction;
    c.operands.push_back(std::move(call));
    return c;
  }

  // An operand of a comparison, BETWEEN, IN or function; `op` names the operator for messages and
  // `ordering` asks for the S/N/B check on constants.
  Result<Operand> ConditionOperand(const Expr& e, std::string_view op, bool ordering) {
    if (e.kind == ExprKind::kMissing) return Status::Validation(kMissingCompare);
    if (e.kind == ExprKind::kPath) return PathOperand(e.path);
    if (IsValueExpr(e)) {
      MT_ASSIGN_OR_RETURN(AttributeValue v, ToAttributeValue(e, parameters_));
      if (ordering && v.type() != AttrType::kS && v.type() != AttrType::kN && v.type() != AttrType::kB) {
        return Status::Validation("Incorrect operand type for operator or function; operator or function: " +
                                  std::string(op) + ", operand type: " + TypeNameOf(v));
      }
      return ValueOperand(std::move(v));
    }
    if (e.kind == ExprKind::kCall && Lower(e.text) == "size") {
      if (e.args.size() != 1 || e.args[0].kind != ExprKind::kPath) {
        return Status::Validation(
            "Incorrect number of operands for operator or function; operator or function: size, "
            "number of operands: " +
            std::to_string(e.args.size()));
      }
      Operand call;
      call.kind = OperandKind::kFunction;
      call.name = "size";
      call.args.push_back(PathOperand(e.args[0].path));
      return call;
    }
    if (e.kind == ExprKind::kCall) return Status::Validation("Unrecognized function: " + e.text);
    if (e.kind == ExprKind::kArith) {
      return Status::Validation(std::string("Unsupported operator in Condition Expression. Operator: ") +
                                ArithText(e.arith));
    }
    return Status::Validation(kNotBoolean);
  }

  Result<Condition> Cond(const Expr& e) {
    switch (e.kind) {
      case ExprKind::kAnd:
      case ExprKind::kOr: {
        Condition c;
        c.kind = e.kind == ExprKind::kAnd ? ConditionKind::kAnd : ConditionKind::kOr;
        for (const Expr& arg : e.args) {
          MT_ASSIGN_OR_RETURN(Condition child, Cond(arg));
          c.children.push_back(std::move(child));
        }
        return c;
      }
      case ExprKind::kNot: {
        MT_ASSIGN_OR_RETURN(Condition child, Cond(e.args[0]));
        return Not(std::move(child));
      }
      case ExprKind::kCompare: {
        bool ordering = e.compare != CompareOp::kEq && e.compare != CompareOp::kNe;
        Condition c;
        c.kind = ConditionKind::kCompare;
        c.comparator = ComparatorOf(e.compare);
        for (const Expr& arg : e.args) {
          MT_ASSIGN_OR_RETURN(Operand op, ConditionOperand(arg, CompareText(e.compare), ordering));
          c.operands.push_back(std::move(op));
        }
        return c;
      }
      case ExprKind::kBetween: {
        Condition c;
        c.kind = ConditionKind::kBetween;
        for (const Expr& arg : e.args) {
          MT_ASSIGN_OR_RETURN(Operand op, ConditionOperand(arg, "BETWEEN", true));
          c.operands.push_back(std::move(op));
        }
        return e.flag ? Not(std::move(c)) : std::move(c);
      }
      case ExprKind::kIn:
        return In(e);
      case ExprKind::kIs:
        return Is(e);
      case ExprKind::kCall:
        return Call(e);
      case ExprKind::kLike:
        return Status::Validation("Unsupported operator in Condition Expression. Operator: LIKE");
      case ExprKind::kArith:
        return Status::Validation(std::string("Unsupported operator in Condition Expression. Operator: ") +
                                  ArithText(e.arith));
      case ExprKind::kMissing:
        return Status::Validation(kMissingCompare);
      default:
        return Status::Validation(kNotBoolean);
    }
  }

  Result<Condition> In(const Expr& e) {
    if (e.args.size() < 2 || e.args[0].kind != ExprKind::kPath) return Status::Validation(kBadIn);
    Condition c;
    c.kind = ConditionKind::kIn;
    c.operands.push_back(PathOperand(e.args[0].path));
    std::vector<AttributeValue> candidates;
    if (e.args.size() == 2 && e.args[1].kind == ExprKind::kParameter) {
      MT_ASSIGN_OR_RETURN(AttributeValue list, ToAttributeValue(e.args[1], parameters_));
      if (list.type() != AttrType::kL) return Status::Validation(kBadIn);
      candidates = list.l();
    } else {
      for (size_t i = 1; i < e.args.size(); ++i) {
        if (e.args[i].kind == ExprKind::kMissing) return Status::Validation(kMissingCompare);
        if (!IsValueExpr(e.args[i])) return Status::Validation(kBadIn);
        MT_ASSIGN_OR_RETURN(AttributeValue v, ToAttributeValue(e.args[i], parameters_));
        candidates.push_back(std::move(v));
      }
    }
    if (candidates.empty()) return Status::Validation(kBadIn);
    for (AttributeValue& v : candidates) c.operands.push_back(ValueOperand(std::move(v)));
    return e.flag ? Not(std::move(c)) : std::move(c);
  }

  Result<Condition> Is(const Expr& e) {
    const Expr& operand = e.args[0];
    static constexpr const char* kSupported =
        ". Supported data types are [MISSING, NULL, BOOLEAN, BLOB, STRING, NUMERIC, STRUCT, TUPLE, LIST]";
    const char* type = nullptr;
    switch (e.is_type) {
      case IsType::kMissing:
        break;
      case IsType::kNull:
        type = "NULL";
        break;
      case IsType::kBoolean:
        type = "BOOL";
        break;
      case IsType::kString:
        type = "S";
        break;
      case IsType::kNumeric:
        type = "N";
        break;
      case IsType::kBlob:
        type = "B";
        break;
      case IsType::kStruct:
        type = "M";
        break;
      case IsType::kList:
        type = "L";
        break;
      case IsType::kOther:
        return Status::Validation("Unsupported data type for IS operator: " + e.text + kSupported);
    }
    if (operand.kind != ExprKind::kPath) {
      if (!IsValueExpr(operand) && operand.kind != ExprKind::kMissing) {
        return Status::Validation("The left hand side argument to IS must be a Variable Reference, Literal, or Path");
      }
      // A constant: decide now, as an always-true / always-false comparison.
      bool holds = operand.kind == ExprKind::kMissing ? e.is_type == IsType::kMissing : false;
      if (operand.kind != ExprKind::kMissing && type) {
        MT_ASSIGN_OR_RETURN(AttributeValue v, ToAttributeValue(operand, parameters_));
        holds = AttrTypeName(v.type()) == type;
      }
      if (e.flag) holds = !holds;
      Condition c;
      c.kind = ConditionKind::kCompare;
      c.comparator = holds ? Comparator::kEq : Comparator::kNe;
      Operand v = ValueOperand(AttributeValue::Bool(true));
      c.operands = {v, v};
      return c;
    }
    if (!type) {
      return FunctionCondition(e.flag ? "attribute_exists" : "attribute_not_exists", {PathOperand(operand.path)});
    }
    Condition c =
        FunctionCondition("attribute_type", {PathOperand(operand.path), ValueOperand(AttributeValue::S(type))});
    return e.flag ? Not(std::move(c)) : std::move(c);
  }

  Result<Condition> Call(const Expr& e) {
    std::string name = Lower(e.text);
    auto arity = [&](size_t n) -> Status {
      if (e.args.size() == n) return Status::Ok();
      return Status::Validation("Incorrect number of operands for operator or function; operator or function: " + name +
                                ", number of operands: " + std::to_string(e.args.size()));
    };
    if (name == "attribute_exists" || name == "attribute_not_exists") {
      MT_RETURN_IF_ERROR(arity(1));
      if (e.args[0].kind != ExprKind::kPath) {
        return Status::Validation("Operator or function requires a document path; operator or function: " + name);
      }
      return FunctionCondition(name, {PathOperand(e.args[0].path)});
    }
    if (name == "begins_with" || name == "contains") {
      MT_RETURN_IF_ERROR(arity(2));
      std::vector<Operand> args;
      for (const Expr& arg : e.args) {
        MT_ASSIGN_OR_RETURN(Operand op, ConditionOperand(arg, name, false));
        args.push_back(std::move(op));
      }
      return FunctionCondition(name, std::move(args));
    }
    if (name == "attribute_type") {
      MT_RETURN_IF_ERROR(arity(2));
      if (e.args[0].kind != ExprKind::kPath) {
        return Status::Validation("Operator or function requires a document path; operator or function: " + name);
      }
      MT_ASSIGN_OR_RETURN(Operand type, ConditionOperand(e.args[1], name, false));
      if (type.kind == OperandKind::kValue) {
        static const std::set<std::string, std::less<>> kTypes = {"S",  "SS",   "N",    "NS", "B",
                                                                  "BS", "BOOL", "NULL", "L",  "M"};
        const AttributeValue& v = bindings_.values[type.value_slot];
        std::string shown = v.type() == AttrType::kS ? v.s() : TypeNameOf(v);
        if (v.type() != AttrType::kS || !kTypes.count(v.s())) {
          return Status::Validation("Invalid attribute type name found; type: " + shown +
                                    ", valid types: {N,BS,L,B,NULL,M,S,SS,NS,BOOL}");
        }
      }
      return FunctionCondition(name, {PathOperand(e.args[0].path), std::move(type)});
    }
    if (name == "size") return Status::Validation(kNotBoolean);
    return Status::Validation("Unrecognized function: " + e.text);
  }

  // SET right-hand sides.
  Result<Operand> SetOperand(const Expr& e) {
    if (e.kind == ExprKind::kPath) return PathOperand(e.path);
    if (IsValueExpr(e)) {
      MT_ASSIGN_OR_RETURN(AttributeValue v, ToAttributeValue(e, parameters_));
      return ValueOperand(std::move(v));
    }
    switch (e.kind) {
      case ExprKind::kArith: {
        if (e.arith != ArithOp::kAdd && e.arith != ArithOp::kSub) {
          return Status::Validation(std::string("Unsupported operator in Update Expression. Operator: ") +
                                    ArithText(e.arith));
        }
        Operand op;
        op.kind = e.arith == ArithOp::kAdd ? OperandKind::kPlus : OperandKind::kMinus;
        for (const Expr& arg : e.args) {
          MT_ASSIGN_OR_RETURN(Operand a, SetOperand(arg));
          op.args.push_back(std::move(a));
        }
        return op;
      }
      case ExprKind::kCall: {
        std::string name = Lower(e.text);
        if (name != "list_append" && name != "if_not_exists")
          return Status::Validation("Unrecognized function: " + e.text);
        if (e.args.size() != 2) {
          return Status::Validation("Incorrect number of operands for operator or function; operator or function: " +
                                    name + ", number of operands: " + std::to_string(e.args.size()));
        }
        if (name == "if_not_exists" && e.args[0].kind != ExprKind::kPath) {
          return Status::Validation("Operator or function requires a document path; operator or function: " + name);
        }
        Operand op;
        op.kind = OperandKind::kFunction;
        op.name = name;
        for (const Expr& arg : e.args) {
          MT_ASSIGN_OR_RETURN(Operand a, SetOperand(arg));
          op.args.push_back(std::move(a));
        }
        return op;
      }
      case ExprKind::kIs:
        return Status::Validation("IS operator is not supported in update expressions");
      case ExprKind::kCompare:
        return Status::Validation(std::string("Unsupported operator in Update Expression. Operator: ") +
                                  CompareText(e.compare));
      default:
        return Status::Validation("Unsupported operator in Update Expression. Operator: " + Dump(e));
    }
  }

 private:
  const std::vector<AttributeValue>& parameters_;
  Bindings bindings_;
};

std::string Position(std::string_view text, uint32_t pos, size_t length) {
  size_t line = 1, line_start = 0;
  for (size_t i = 0; i < pos && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return std::to_string(line) + ":" + std::to_string(pos - line_start + 1) + ":" + std::to_string(length);
}

}  // namespace

std::vector<const Expr*> Conjuncts(const Expr& where) {
  std::vector<const Expr*> out;
  if (where.kind == ExprKind::kAnd) {
    for (const Expr& arg : where.args) out.push_back(&arg);
  } else {
    out.push_back(&where);
  }
  return out;
}

Result<ConditionExpression> LowerCondition(const std::vector<const Expr*>& conjuncts,
                                           const std::vector<AttributeValue>& parameters, std::string_view must_exist) {
  if (conjuncts.empty() && must_exist.empty()) return ConditionExpression();
  Lowerer lowerer(parameters);
  Condition all;
  all.kind = ConditionKind::kAnd;
  if (!must_exist.empty()) {
    Path path;
    path.steps.push_back({PathStep::Kind::kName, std::string(must_exist), 0});
    all.children.push_back(lowerer.FunctionCondition("attribute_exists", {Lowerer::PathOperand(path)}));
  }
  for (const Expr* e : conjuncts) {
    MT_ASSIGN_OR_RETURN(Condition c, lowerer.Cond(*e));
    all.children.push_back(std::move(c));
  }
  auto parsed = std::make_shared<ParsedExpression>();
  parsed->kind = ExpressionKind::kCondition;
  parsed->condition = all.children.size() == 1 ? std::move(all.children[0]) : std::move(all);
  return ConditionExpression(std::move(parsed), lowerer.TakeBindings());
}

Result<UpdateExpression> LowerUpdate(const std::vector<UpdateClause>& clauses, std::string_view text,
                                     const std::vector<AttributeValue>& parameters) {
  Lowerer lowerer(parameters);
  auto parsed = std::make_shared<ParsedExpression>();
  parsed->kind = ExpressionKind::kUpdate;
  for (const UpdateClause& clause : clauses) {
    UpdateAction action;
    action.path = ToExprPath(clause.target);
    const Expr& v = clause.value;
    if (clause.remove || v.kind == ExprKind::kMissing) {
      action.kind = UpdateActionKind::kRemove;
    } else if (v.kind == ExprKind::kCall && (Lower(v.text) == "set_add" || Lower(v.text) == "set_delete")) {
      std::string fn = Upper(v.text);
      if (v.args.size() != 2) return Status::Validation(fn + " must have exactly two arguments");
      if (v.args[0].kind != ExprKind::kPath || Dump(v.args[0].path) != Dump(clause.target)) {
        return Status::Validation("The first argument to " + fn + " must equal the assignment value at " +
                                  Position(text, v.pos, v.text.size()));
      }
      if (!IsValueExpr(v.args[1]))
        return Status::Validation("The second argument to " + fn + " must be a value with type SET");
      MT_ASSIGN_OR_RETURN(AttributeValue set, ToAttributeValue(v.args[1], parameters));
      if (!IsSetType(set.type()))
        return Status::Validation("The second argument to " + fn + " must be a value with type SET");
      action.kind = fn == "SET_ADD" ? UpdateActionKind::kAdd : UpdateActionKind::kDelete;
      action.value = lowerer.ValueOperand(std::move(set));
    } else {
      action.kind = UpdateActionKind::kSet;
      MT_ASSIGN_OR_RETURN(action.value, lowerer.SetOperand(v));
    }
    parsed->actions.push_back(std::move(action));
  }
  return UpdateExpression(std::move(parsed), lowerer.TakeBindings());
}

DocumentPath ToDocumentPath(const Path& path) {
  DocumentPath out;
  for (const PathStep& s : path.steps) {
    PathStep::Kind kind = s.kind;
    out.push_back(kind == PathStep::Kind::kIndex ? expr::PathStep{"", s.index, true}
                                                 : expr::PathStep{s.name, 0, false});
  }
  return out;
}

Result<std::vector<ProjectedPath>> LowerProjection(const Statement& statement) {
  std::vector<ProjectedPath> out;
  std::set<std::string> names;
  for (const Path& path : statement.projection) {
    ProjectedPath p;
    p.path = ToDocumentPath(path);
    size_t last_name = 0;
    for (size_t i = 0; i < path.steps.size(); ++i) {
      if (path.steps[i].kind == PathStep::Kind::kName) last_name = i;
    }
    p.output_name = path.steps[last_name].name;
    for (size_t i = last_name + 1; i < path.steps.size(); ++i) {
      p.output_name += "[" + std::to_string(path.steps[i].index) + "]";
    }
    if (!names.insert(p.output_name).second) {
      return Status::Validation("Duplicate identifiers in select clause: " + p.output_name);
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace monotable::expr::partiql
