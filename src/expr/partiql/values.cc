#include "expr/partiql/values.h"

#include <set>

namespace monotable::expr::partiql {
namespace {

constexpr int kMaxNesting = 32;
constexpr const char* kNestingMessage =
    "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit";

std::string KindName(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kMissing:
      return "MISSING";
    case ExprKind::kPath:
      return "path";
    case ExprKind::kCall:
      return "function call " + e.text;
    default:
      return "expression";
  }
}

std::string TupleKeyType(const Expr& e, const std::vector<AttributeValue>& parameters) {
  switch (e.kind) {
    case ExprKind::kNumber:
      return "N";
    case ExprKind::kBool:
      return "BOOL";
    case ExprKind::kNull:
      return "NULL";
    case ExprKind::kList:
      return "L";
    case ExprKind::kTuple:
      return "M";
    case ExprKind::kBag:
      return "BAG";
    case ExprKind::kParameter:
      return e.param < parameters.size() ? TypeNameOf(parameters[e.param]) : "UNKNOWN";
    default:
      return KindName(e);
  }
}

Result<AttributeValue> Bag(const Expr& e, const std::vector<AttributeValue>& parameters, const std::string& where) {
  if (e.args.empty()) return Status::Validation("Empty bags are not supported");
  const Status unsupported =
      Status::Validation("Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags");
  bool strings = e.args[0].kind == ExprKind::kString;
  std::vector<std::string> texts;
  std::vector<Number> numbers;
  std::set<std::string> seen_strings;
  std::vector<std::string> shown;  // members as written in the duplicates message
  bool duplicate = false;
  for (size_t i = 0; i < e.args.size(); ++i) {
    const Expr& m = e.args[i];
    if (strings && m.kind == ExprKind::kString) {
      duplicate |= !seen_strings.insert(m.text).second;
      texts.push_back(m.text);
      shown.push_back(m.text);
    } else if (!strings && m.kind == ExprKind::kNumber) {
      auto n = Number::Parse(m.text);
      if (!n.ok()) return Status::Validation(n.status().message() + " under " + where + "[" + std::to_string(i) + "]");
      for (const Number& existing : numbers) duplicate |= existing == *n;
      shown.push_back(n->ToString());
      numbers.push_back(std::move(n).value());
    } else {
      return unsupported;
    }
  }
  if (duplicate) {
    std::string list = "[";
    for (size_t i = 0; i < shown.size(); ++i) list += (i ? ", " : "") + shown[i];
    return Status::Validation("One or more parameter values were invalid: Input collection " + list +
                              "] contains duplicates.");
  }
  return strings ? AttributeValue::SS(std::move(texts)) : AttributeValue::NS(std::move(numbers));
}

Result<AttributeValue> Convert(const Expr& e, const std::vector<AttributeValue>& parameters, const std::string& where) {
  switch (e.kind) {
    case ExprKind::kString:
      return AttributeValue::S(e.text);
    case ExprKind::kNumber: {
      auto n = Number::Parse(e.text);
      if (!n.ok()) return Status::Validation(n.status().message() + " under " + where);
      return AttributeValue::N(std::move(n).value());
    }
    case ExprKind::kBool:
      return AttributeValue::Bool(e.flag);
    case ExprKind::kNull:
      return AttributeValue::Null();
    case ExprKind::kParameter:
      if (e.param >= parameters.size()) {
        return Status::Validation("Number of parameters in request and statement don't match.");
      }
      return parameters[e.param];
    case ExprKind::kList: {
      AttributeValue::List list;
      for (size_t i = 0; i < e.args.size(); ++i) {
        MT_ASSIGN_OR_RETURN(AttributeValue v, Convert(e.args[i], parameters, where + "[" + std::to_string(i) + "]"));
        list.push_back(std::move(v));
      }
      return AttributeValue::L(std::move(list));
    }
    case ExprKind::kTuple: {
      AttributeValue::Map map;
      for (size_t i = 0; i + 1 < e.args.size(); i += 2) {
        const Expr& key = e.args[i];
        std::string name;
        if (key.kind == ExprKind::kString) {
          name = key.text;
        } else if (key.kind == ExprKind::kParameter && key.param < parameters.size() &&
                   parameters[key.param].type() == AttrType::kS) {
          name = parameters[key.param].s();
        } else {
          return Status::Validation("Tuple keys must be of type String. Actual type: " + TupleKeyType(key, parameters) +
                                    " under " + where);
        }
        if (map.count(name)) return Status::Validation("Duplicate keys in tuple. Key: " + name + " under " + where);
        if (e.args[i + 1].kind == ExprKind::kMissing) continue;
        MT_ASSIGN_OR_RETURN(AttributeValue v, Convert(e.args[i + 1], parameters, where + "." + name));
        map.emplace(std::move(name), std::move(v));
      }
      return AttributeValue::M(std::move(map));
    }
    case ExprKind::kBag:
      return Bag(e, parameters, where);
    default:
      return Status::Validation("Unsupported data type: " + KindName(e) + " under key " + where);
  }
}

}  // namespace

bool IsValueExpr(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kString:
    case ExprKind::kNumber:
    case ExprKind::kBool:
    case ExprKind::kNull:
    case ExprKind::kParameter:
    case ExprKind::kList:
    case ExprKind::kTuple:
    case ExprKind::kBag:
      return true;
    default:
      return false;
  }
}

Result<AttributeValue> ToAttributeValue(const Expr& e, const std::vector<AttributeValue>& parameters,
                                        const std::string& where) {
  MT_ASSIGN_OR_RETURN(AttributeValue v, Convert(e, parameters, where));
  if (NestingDepth(v) > kMaxNesting) return Status::Validation(kNestingMessage);
  return v;
}

Status CheckParameterCount(const Statement& statement, size_t supplied) {
  if (statement.parameter_count != supplied) {
    return Status::Validation("Number of parameters in request and statement don't match.");
  }
  return Status::Ok();
}

std::string TypeNameOf(const AttributeValue& value) { return std::string(AttrTypeName(value.type())); }

}  // namespace monotable::expr::partiql
