#include "expr/ast.h"

namespace monotable::expr {

std::string_view ExpressionKindName(ExpressionKind kind) {
  switch (kind) {
    case ExpressionKind::kCondition: return "ConditionExpression";
    case ExpressionKind::kFilter: return "FilterExpression";
    case ExpressionKind::kKeyCondition: return "KeyConditionExpression";
    case ExpressionKind::kProjection: return "ProjectionExpression";
    case ExpressionKind::kUpdate: return "UpdateExpression";
  }
  return "Expression";
}

std::string_view ComparatorText(Comparator c) {
  switch (c) {
    case Comparator::kEq: return "=";
    case Comparator::kNe: return "<>";
    case Comparator::kLt: return "<";
    case Comparator::kLe: return "<=";
    case Comparator::kGt: return ">";
    case Comparator::kGe: return ">=";
  }
  return "?";
}

std::string FormatPath(const DocumentPath& path) {
  std::string out = "[";
  for (size_t i = 0; i < path.size(); ++i) {
    if (i > 0) out.append(", ");
    if (path[i].is_index) {
      out.push_back('[');
      out.append(std::to_string(path[i].index));
      out.push_back(']');
    } else {
      out.append(path[i].name);
    }
  }
  out.push_back(']');
  return out;
}

}  // namespace monotable::expr
