// Expression layer entry points for the API layer: parse + bind each expression kind, then
// evaluate conditions, apply projections and updates, and build key conditions.
//
// Contract:
// - One request: validate its maps with ValidateAttributeMaps(), parse/bind each expression it
//   carries with one shared ExpressionInputs (same maps, same UsageTracker), in DynamoDB's order
//   (UpdateExpression, ConditionExpression, KeyConditionExpression, FilterExpression,
//   ProjectionExpression), then call CheckAllUsed(). Every error is a kValidation Status whose
//   message is DynamoDB's, e.g. "Invalid ConditionExpression: Syntax error; token: \"x\", near:
//   \"a x b\"" or "Value provided in ExpressionAttributeValues unused in expressions: keys: {:v}".
// - Parsing goes through an ExpressionCache (ExpressionInputs::cache, else the process-wide one);
//   binding is per request and cheap (one lookup per distinct #name / :value).
// - The bound expression objects are immutable values, safe to share between threads (a
//   FilterExpression evaluated by parallel scan segments) and independent of the request's maps.
// - Evaluation never fails (DynamoDB's type rules make mismatches false); ApplyUpdate fails with
//   DynamoDB's runtime messages (see update.h) and has no side effects.
// - Legacy parameters (Expected, QueryFilter/ScanFilter, AttributesToGet, AttributeUpdates,
//   KeyConditions) convert into these same types: see legacy.h.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "expr/ast.h"
#include "expr/binder.h"
#include "expr/cache.h"
#include "expr/key_condition.h"
#include "expr/update.h"
#include "model/attribute_value.h"

namespace monotable::expr {

// The request-wide inputs every expression of a request is bound with.
struct ExpressionInputs {
  const NameMap* names = nullptr;    // ExpressionAttributeNames, nullptr when absent
  const ValueMap* values = nullptr;  // ExpressionAttributeValues, nullptr when absent
  UsageTracker* tracker = nullptr;   // records used names/values; may be nullptr
  ExpressionCache* cache = nullptr;  // nullptr = DefaultExpressionCache()
};

// A bound ConditionExpression / FilterExpression / KeyConditionExpression (or converted Expected,
// QueryFilter, ScanFilter). A default-constructed one has no condition and is always true.
class ConditionExpression {
 public:
  ConditionExpression() = default;
  ConditionExpression(std::shared_ptr<const ParsedExpression> parsed, Bindings bindings)
      : parsed_(std::move(parsed)), bindings_(std::move(bindings)) {}

  bool empty() const { return !parsed_ || !parsed_->condition; }
  // item == nullptr means the item does not exist (evaluated as an empty item).
  bool Evaluate(const Item* item) const;
  // Distinct top-level attribute names the condition reads (all paths, or only paths with more
  // than one step), for "... can only contain non-primary key attributes" / key-scalar checks.
  std::vector<std::string> PathHeads(bool nested_only = false) const;

  const ParsedExpression* parsed() const { return parsed_.get(); }
  const Bindings& bindings() const { return bindings_; }

 private:
  std::shared_ptr<const ParsedExpression> parsed_;
  Bindings bindings_;
};

// A bound ProjectionExpression (or converted AttributesToGet): its resolved paths.
class ProjectionExpression {
 public:
  ProjectionExpression() = default;
  explicit ProjectionExpression(std::vector<DocumentPath> paths) : paths_(std::move(paths)) {}

  const std::vector<DocumentPath>& paths() const { return paths_; }
  Item Apply(const Item& item) const;
  std::vector<std::string> PathHeads(bool nested_only = false) const;

 private:
  std::vector<DocumentPath> paths_;
};

// A bound UpdateExpression (or converted AttributeUpdates).
class UpdateExpression {
 public:
  UpdateExpression() = default;
  UpdateExpression(std::shared_ptr<const ParsedExpression> parsed, Bindings bindings)
      : parsed_(std::move(parsed)), bindings_(std::move(bindings)) {}

  // existing == nullptr: the item does not exist and the update starts from `key`.
  Result<UpdateOutcome> Apply(const Item* existing, const Item& key) const;
  // Every action's target path, in action order (what UPDATED_OLD / UPDATED_NEW project).
  std::vector<DocumentPath> TargetPaths() const;
  // Distinct top-level names of every path (targets and operands; nested paths only if asked).
  std::vector<std::string> PathHeads(bool nested_only = false) const;

  const ParsedExpression* parsed() const { return parsed_.get(); }
  const Bindings& bindings() const { return bindings_; }

 private:
  std::shared_ptr<const ParsedExpression> parsed_;
  Bindings bindings_;
};

Result<ConditionExpression> ParseConditionExpression(std::string_view text, const ExpressionInputs& in);
Result<ConditionExpression> ParseFilterExpression(std::string_view text, const ExpressionInputs& in);
// Parses and binds only; ExtractKeyConditionParts / ResolveKeyCondition (key_condition.h) finish
// the job in DynamoDB's order, or use ParseKeyCondition below for all steps at once.
Result<ConditionExpression> ParseKeyConditionExpression(std::string_view text, const ExpressionInputs& in);
Result<ProjectionExpression> ParseProjectionExpression(std::string_view text, const ExpressionInputs& in);
Result<UpdateExpression> ParseUpdateExpression(std::string_view text, const ExpressionInputs& in);

// Parse + bind + structural checks + key schema checks. (It reports key-condition structure errors
// before the request's unused-names check would; use the steps for DynamoDB's exact order.)
Result<KeyCondition> ParseKeyCondition(std::string_view text, const KeySchemaInfo& schema, const ExpressionInputs& in);
Result<KeyConditionParts> ExtractKeyConditionParts(const ConditionExpression& key_condition);

// The request's unused ExpressionAttributeNames / Values (call after binding all expressions).
Status CheckAllUsed(const ExpressionInputs& in);

bool EvaluateCondition(const ConditionExpression& condition, const Item* item);
Item ApplyProjection(const ProjectionExpression& projection, const Item& item);
Result<UpdateOutcome> ApplyUpdate(const UpdateExpression& update, const Item* existing, const Item& key);

// "One or more parameter values were invalid: Cannot update attribute <name>. This attribute is
// part of the key" when an action targets (any path starting with) a key attribute; key_names in
// key-schema order (partition key first).
Status CheckKeyAttributesNotUpdated(const UpdateExpression& update, const std::vector<std::string>& key_names);

// "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed:
// Key: <name>" (then "IndexKey: <name>" for index key attributes) when a nested path starts at one.
Status CheckKeyPathsScalar(const std::vector<std::string>& nested_heads, const std::vector<std::string>& key_names,
                           const std::vector<std::string>& index_key_names);

}  // namespace monotable::expr
