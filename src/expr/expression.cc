#include "expr/expression.h"

#include <algorithm>

#include "expr/evaluator.h"
#include "expr/projection.h"

namespace monotable::expr {
namespace {

void AddHead(std::vector<std::string>& heads, const std::string& name) {
  if (std::find(heads.begin(), heads.end(), name) == heads.end()) heads.push_back(name);
}

void CollectHeads(const Path& path, const Bindings& b, bool nested_only, std::vector<std::string>& heads) {
  if (path.elements.empty() || (nested_only && path.elements.size() < 2)) return;
  const PathElement& first = path.elements[0];
  AddHead(heads, first.kind == PathElement::Kind::kNameRef ? b.names[first.slot] : first.text);
}

void CollectHeads(const Operand& op, const Bindings& b, bool nested_only, std::vector<std::string>& heads) {
  if (op.kind == OperandKind::kPath) CollectHeads(op.path, b, nested_only, heads);
  for (const auto& arg : op.args) CollectHeads(arg, b, nested_only, heads);
}

void CollectHeads(const Condition& c, const Bindings& b, bool nested_only, std::vector<std::string>& heads) {
  for (const auto& child : c.children) CollectHeads(child, b, nested_only, heads);
  for (const auto& op : c.operands) CollectHeads(op, b, nested_only, heads);
}

// Parse through the cache, then bind.
Result<std::pair<std::shared_ptr<const ParsedExpression>, Bindings>> ParseAndBind(ExpressionKind kind,
                                                                                  std::string_view text,
                                                                                  const ExpressionInputs& in) {
  ExpressionCache& cache = in.cache != nullptr ? *in.cache : DefaultExpressionCache();
  std::shared_ptr<const ParseOutcome> outcome = cache.GetOrParse(kind, text);
  if (!outcome->status.ok()) return outcome->status;
  std::shared_ptr<const ParsedExpression> parsed(outcome, &outcome->parsed);
  MT_ASSIGN_OR_RETURN(Bindings bindings, Bind(*parsed, in.names, in.values, in.tracker));
  return std::make_pair(std::move(parsed), std::move(bindings));
}

Result<ConditionExpression> ParseConditionKind(ExpressionKind kind, std::string_view text, const ExpressionInputs& in) {
  MT_ASSIGN_OR_RETURN(auto bound, ParseAndBind(kind, text, in));
  return ConditionExpression(std::move(bound.first), std::move(bound.second));
}

}  // namespace

bool ConditionExpression::Evaluate(const Item* item) const {
  if (empty()) return true;
  static const Item kEmpty;
  return EvaluateCondition(*parsed_->condition, item != nullptr ? *item : kEmpty, bindings_);
}

std::vector<std::string> ConditionExpression::PathHeads(bool nested_only) const {
  std::vector<std::string> heads;
  if (!empty()) CollectHeads(*parsed_->condition, bindings_, nested_only, heads);
  return heads;
}

Item ProjectionExpression::Apply(const Item& item) const { return ProjectPaths(paths_, item); }

std::vector<std::string> ProjectionExpression::PathHeads(bool nested_only) const {
  std::vector<std::string> heads;
  for (const auto& path : paths_) {
    if (!path.empty() && (!nested_only || path.size() > 1)) AddHead(heads, path[0].name);
  }
  return heads;
}

Result<UpdateOutcome> UpdateExpression::Apply(const Item* existing, const Item& key) const {
  if (!parsed_) return UpdateOutcome{existing != nullptr ? *existing : key, {}};
  return ApplyUpdateActions(*parsed_, bindings_, existing != nullptr ? *existing : key);
}

std::vector<DocumentPath> UpdateExpression::TargetPaths() const {
  std::vector<DocumentPath> out;
  if (!parsed_) return out;
  out.reserve(parsed_->actions.size());
  for (const auto& a : parsed_->actions) out.push_back(ResolvePath(a.path, bindings_));
  return out;
}

std::vector<std::string> UpdateExpression::PathHeads(bool nested_only) const {
  std::vector<std::string> heads;
  if (!parsed_) return heads;
  for (const auto& a : parsed_->actions) {
    CollectHeads(a.path, bindings_, nested_only, heads);
    if (a.kind == UpdateActionKind::kSet) CollectHeads(a.value, bindings_, nested_only, heads);
  }
  return heads;
}

Result<ConditionExpression> ParseConditionExpression(std::string_view text, const ExpressionInputs& in) {
  return ParseConditionKind(ExpressionKind::kCondition, text, in);
}

Result<ConditionExpression> ParseFilterExpression(std::string_view text, const ExpressionInputs& in) {
  return ParseConditionKind(ExpressionKind::kFilter, text, in);
}

Result<ConditionExpression> ParseKeyConditionExpression(std::string_view text, const ExpressionInputs& in) {
  return ParseConditionKind(ExpressionKind::kKeyCondition, text, in);
}

Result<ProjectionExpression> ParseProjectionExpression(std::string_view text, const ExpressionInputs& in) {
  MT_ASSIGN_OR_RETURN(auto bound, ParseAndBind(ExpressionKind::kProjection, text, in));
  std::vector<DocumentPath> paths;
  paths.reserve(bound.first->projection.size());
  for (const auto& path : bound.first->projection) paths.push_back(ResolvePath(path, bound.second));
  return ProjectionExpression(std::move(paths));
}

Result<UpdateExpression> ParseUpdateExpression(std::string_view text, const ExpressionInputs& in) {
  MT_ASSIGN_OR_RETURN(auto bound, ParseAndBind(ExpressionKind::kUpdate, text, in));
  return UpdateExpression(std::move(bound.first), std::move(bound.second));
}

Result<KeyConditionParts> ExtractKeyConditionParts(const ConditionExpression& key_condition) {
  if (key_condition.empty()) return Status::Validation("Conditions can be of length 1 or 2 only");
  return ExtractKeyConditionParts(*key_condition.parsed(), key_condition.bindings());
}

Result<KeyCondition> ParseKeyCondition(std::string_view text, const KeySchemaInfo& schema, const ExpressionInputs& in) {
  MT_ASSIGN_OR_RETURN(ConditionExpression bound, ParseKeyConditionExpression(text, in));
  MT_ASSIGN_OR_RETURN(KeyConditionParts parts, ExtractKeyConditionParts(bound));
  return ResolveKeyCondition(parts, schema);
}

Status CheckAllUsed(const ExpressionInputs& in) {
  if (in.tracker == nullptr) return UsageTracker().CheckAllUsed(in.names, in.values);
  return in.tracker->CheckAllUsed(in.names, in.values);
}

bool EvaluateCondition(const ConditionExpression& condition, const Item* item) { return condition.Evaluate(item); }

Item ApplyProjection(const ProjectionExpression& projection, const Item& item) { return projection.Apply(item); }

Result<UpdateOutcome> ApplyUpdate(const UpdateExpression& update, const Item* existing, const Item& key) {
  return update.Apply(existing, key);
}

Status CheckKeyAttributesNotUpdated(const UpdateExpression& update, const std::vector<std::string>& key_names) {
  const std::vector<DocumentPath> targets = update.TargetPaths();
  for (const auto& key : key_names) {
    for (const auto& path : targets) {
      if (!path.empty() && !path[0].is_index && path[0].name == key) {
        return Status::Validation("One or more parameter values were invalid: Cannot update attribute " + key +
                                  ". This attribute is part of the key");
      }
    }
  }
  return Status::Ok();
}

Status CheckKeyPathsScalar(const std::vector<std::string>& nested_heads, const std::vector<std::string>& key_names,
                           const std::vector<std::string>& index_key_names) {
  auto check = [&](const std::vector<std::string>& names, std::string_view label) -> Status {
    for (const auto& name : names) {
      if (std::find(nested_heads.begin(), nested_heads.end(), name) != nested_heads.end()) {
        return Status::Validation(
            "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: " +
            std::string(label) + ": " + name);
      }
    }
    return Status::Ok();
  };
  MT_RETURN_IF_ERROR(check(key_names, "Key"));
  return check(index_key_names, "IndexKey");
}

}  // namespace monotable::expr
