// Binder: resolves a ParsedExpression's #name / :value slots against one request's
// ExpressionAttributeNames / ExpressionAttributeValues, and reports semantic errors in DynamoDB's
// order.
//
// Contract:
// - Bind() returns Bindings (one resolved name / value per slot) or a kValidation Status with the
//   full message ("Invalid <Kind>: <detail>"). Error priority, as DynamoDB reports it:
//     condition/filter/key: early_error (parentheses > unknown function > update function in a
//       condition > misused function > reserved word; see parser.h), then the first leaf
//       condition (in text order) with a problem:
//       undefined name/value > operand count (incl. IN > 100) > non-distinct operands >
//       operand types (function types, "requires a document path", BETWEEN bounds, ordering a
//       constant that is not S/N/B);
//     projection: reserved word > undefined name > overlapping paths > conflicting paths;
//     update: reserved word > unknown function > condition function > nested list_append >
//       repeated section > undefined name > undefined value
//       > overlapping paths > conflicting paths > ADD/DELETE operand type > function operand
//       count/type.
// - On success every reference of the expression is recorded in the UsageTracker (if given), so
//   CheckAllUsed() can report the request's unused names/values once all its expressions are bound.
// - Bindings copy the referenced values: they do not point into the request's maps.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "expr/ast.h"
#include "model/attribute_value.h"

namespace monotable::expr {

using NameMap = std::map<std::string, std::string, std::less<>>;
using ValueMap = std::map<std::string, AttributeValue, std::less<>>;

// Which ExpressionAttributeNames / ExpressionAttributeValues the expressions of one request used.
// Not thread-safe: one per request.
class UsageTracker {
 public:
  void UseName(std::string_view ref);
  void UseValue(std::string_view ref);
  bool NameUsed(std::string_view ref) const;
  bool ValueUsed(std::string_view ref) const;

  // "Value provided in ExpressionAttributeNames unused in expressions: keys: {#a, #b}", then the
  // same for ExpressionAttributeValues; OK when everything supplied was used. Keys are listed in
  // the maps' order.
  Status CheckAllUsed(const NameMap* names, const ValueMap* values) const;

 private:
  std::vector<std::string> names_;
  std::vector<std::string> values_;
};

struct Bindings {
  std::vector<std::string> names;      // by ParsedExpression::name_refs slot
  std::vector<AttributeValue> values;  // by ParsedExpression::value_refs slot
};

Result<Bindings> Bind(const ParsedExpression& parsed, const NameMap* names, const ValueMap* values,
                      UsageTracker* tracker);

// The path with #name references replaced by the bound names.
DocumentPath ResolvePath(const Path& path, const Bindings& bindings);

// Overlap / conflict check over paths in request order: "Two document paths overlap with each
// other; ..." (one is a prefix of the other) wins over "Two document paths conflict with each
// other; ..." (same prefix, then a name against an index). Empty when the paths are independent.
std::string CheckPathOverlaps(const std::vector<DocumentPath>& paths);

// Checks the maps themselves, before any expression: an ExpressionAttributeNames value that is too
// large (ValidateAttributeName), "ExpressionAttributeNames must not be empty",
// "ExpressionAttributeNames contains invalid key: Syntax error; key: \"x\"", key longer than 255
// bytes, and the same for ExpressionAttributeValues. (Value contents are the JSON layer's job.)
Status ValidateAttributeMaps(const NameMap* names, const ValueMap* values);

// "1 validation error detected: Attribute name is too large, must be less than 65536 bytes" for a
// name of kMaxAttributeNameBytes bytes or more, "One or more parameter values were invalid: Empty
// attribute name" for an empty one, else OK. DynamoDB applies it to every attribute
// name of a request (expression names, legacy parameters, item and key attribute names).
Status ValidateAttributeName(std::string_view name);

}  // namespace monotable::expr
