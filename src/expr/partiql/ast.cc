#include "expr/partiql/ast.h"

namespace monotable::expr::partiql {

const char* CompareText(CompareOp op) {
  switch (op) {
    case CompareOp::kEq:
      return "=";
    case CompareOp::kNe:
      return "<>";
    case CompareOp::kLt:
      return "<";
    case CompareOp::kLe:
      return "<=";
    case CompareOp::kGt:
      return ">";
    case CompareOp::kGe:
      return ">=";
  }
  return "?";
}

const char* ArithText(ArithOp op) {
  switch (op) {
    case ArithOp::kAdd:
      return "+";
    case ArithOp::kSub:
      return "-";
    case ArithOp::kMul:
      return "*";
    case ArithOp::kDiv:
      return "/";
    case ArithOp::kMod:
      return "%";
    case ArithOp::kConcat:
      return "||";
  }
  return "?";
}

namespace {

const char* IsTypeText(IsType t) {
  switch (t) {
    case IsType::kMissing:
      return "MISSING";
    case IsType::kNull:
      return "NULL";
    case IsType::kBoolean:
      return "BOOLEAN";
    case IsType::kString:
      return "STRING";
    case IsType::kNumeric:
      return "NUMERIC";
    case IsType::kBlob:
      return "BLOB";
    case IsType::kStruct:
      return "STRUCT";
    case IsType::kList:
      return "LIST";
    case IsType::kOther:
      return "OTHER";
  }
  return "?";
}

std::string Args(const Expr& e, size_t from = 0) {
  std::string out;
  for (size_t i = from; i < e.args.size(); ++i) out += " " + Dump(e.args[i]);
  return out;
}

}  // namespace

std::string Returning::Text() const {
  return std::string("RETURNING ") + (all ? "ALL" : "MODIFIED") + (new_image ? " NEW *" : " OLD *");
}

std::string Dump(const Path& path) {
  std::string out;
  for (size_t i = 0; i < path.steps.size(); ++i) {
    const PathStep& s = path.steps[i];
    if (s.kind == PathStep::Kind::kIndex) {
      out += "[" + std::to_string(s.index) + "]";
    } else {
      out += (i ? "." : "") + s.name;
    }
  }
  return out;
}

std::string Dump(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kPath:
      return Dump(e.path);
    case ExprKind::kString:
      return "'" + e.text + "'";
    case ExprKind::kNumber:
      return e.text;
    case ExprKind::kBool:
      return e.flag ? "true" : "false";
    case ExprKind::kNull:
      return "null";
    case ExprKind::kMissing:
      return "missing";
    case ExprKind::kParameter:
      return "?" + std::to_string(e.param);
    case ExprKind::kList:
      return "(list" + Args(e) + ")";
    case ExprKind::kBag:
      return "(bag" + Args(e) + ")";
    case ExprKind::kTuple: {
      std::string out = "(tuple";
      for (size_t i = 0; i + 1 < e.args.size(); i += 2) out += " " + Dump(e.args[i]) + ":" + Dump(e.args[i + 1]);
      return out + ")";
    }
    case ExprKind::kCompare:
      return std::string("(") + CompareText(e.compare) + Args(e) + ")";
    case ExprKind::kBetween:
      return std::string(e.flag ? "(not_between" : "(between") + Args(e) + ")";
    case ExprKind::kIn:
      return std::string(e.flag ? "(not_in" : "(in") + Args(e) + ")";
    case ExprKind::kLike:
      return std::string(e.flag ? "(not_like" : "(like") + Args(e) + ")";
    case ExprKind::kIs:
      return std::string(e.flag ? "(is_not " : "(is ") +
             (e.is_type == IsType::kOther ? e.text : IsTypeText(e.is_type)) + Args(e) + ")";
    case ExprKind::kCall:
      return "(call " + e.text + Args(e) + ")";
    case ExprKind::kArith:
      return std::string("(") + ArithText(e.arith) + Args(e) + ")";
    case ExprKind::kAnd:
      return "(and" + Args(e) + ")";
    case ExprKind::kOr:
      return "(or" + Args(e) + ")";
    case ExprKind::kNot:
      return "(not" + Args(e) + ")";
  }
  return "?";
}

std::string Dump(const Statement& s) {
  std::string out;
  std::string source = "\"" + s.table + "\"" + (s.index ? ".\"" + *s.index + "\"" : "");
  auto where = [&]() { return s.where ? " where " + Dump(*s.where) : std::string(); };
  switch (s.kind) {
    case StatementKind::kSelect:
    case StatementKind::kExists: {
      out = s.kind == StatementKind::kExists ? "exists(select " : "select ";
      if (s.select_star) {
        out += "*";
      } else {
        for (size_t i = 0; i < s.projection.size(); ++i) out += (i ? ", " : "") + Dump(s.projection[i]);
      }
      out += " from " + source + where();
      for (size_t i = 0; i < s.order_by.size(); ++i) {
        out += (i ? ", " : " order by ") + Dump(s.order_by[i].path) + (s.order_by[i].descending ? " desc" : " asc");
      }
      if (s.kind == StatementKind::kExists) out += ")";
      break;
    }
    case StatementKind::kInsert:
      out = "insert into " + source + " value " + (s.value ? Dump(*s.value) : "?");
      break;
    case StatementKind::kUpdate:
      out = "update " + source;
      for (const auto& u : s.updates) {
        out += u.remove ? " remove " + Dump(u.target) : " set " + Dump(u.target) + " = " + Dump(u.value);
      }
      out += where();
      break;
    case StatementKind::kDelete:
      out = "delete from " + source + where();
      break;
  }
  if (s.returning) out += " " + s.returning->Text();
  if (s.parameter_count) out += " params=" + std::to_string(s.parameter_count);
  return out;
}

}  // namespace monotable::expr::partiql
