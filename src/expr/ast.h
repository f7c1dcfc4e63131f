// AST: the parsed (not yet bound) form of the five expression kinds, plus resolved document paths.
//
// Contract:
// - A ParsedExpression depends only on (kind, text): it is immutable once built and shared by the
//   parse cache between requests and threads. It refers to ExpressionAttributeNames ("#n") and
//   ExpressionAttributeValues (":v") by slot: name_refs[slot] / value_refs[slot] hold the distinct
//   references in order of first appearance; binding (binder.h) supplies one value per slot.
// - Nesting of conditions, parentheses and function calls is bounded at parse time (kMaxNestingDepth,
//   which the 4 KB text limit keeps out of reach), so every recursive walk over an AST (validation,
//   evaluation, destruction) is bounded too: at most ~1400 levels (function calls nested in the
//   largest expression), each walk frame small. See parser.h for the stack budget.
// - `pos` fields are byte offsets into the text; they order nodes as the user wrote them.
// - early_error holds the highest-priority error that depends on the text alone (redundant
//   parentheses, unknown or misused function, reserved word, repeated update section). It is not a
//   syntax error: DynamoDB reports it only after the whole expression parsed, and the binder reports
//   it before any error that depends on names/values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace monotable::expr {

// An expression string is at most this many bytes.
inline constexpr size_t kMaxExpressionBytes = 4096;
// Parentheses, NOT and function calls nest at most this deep (deeper is a syntax error at the token
// that went too deep). Every level consumes at least one token, so no expression within the 4 KB
// limit can reach it: nesting is bounded by the text, not by a cap DynamoDB does not have (it
// accepts e.g. 149 nested "(a<b OR ...)" and reports 2000 redundant parentheses as such). The
// parser is written so that this worst case fits a small thread stack (parser.h).
inline constexpr int kMaxNestingDepth = static_cast<int>(kMaxExpressionBytes);
// More than this many operators (comparators, AND, OR, NOT, BETWEEN, IN, and + / - in updates;
// function calls are not operators) is "The expression contains too many operators; operator
// count: 301" (DynamoDB stops counting at the first operator over the limit).
inline constexpr int kMaxOperators = 300;
// A document path has at most this many elements (names and indexes).
inline constexpr size_t kMaxPathDepth = 32;
// IN accepts at most this many right-hand operands.
inline constexpr size_t kMaxInOperands = 100;
// An attribute name (bare or from ExpressionAttributeNames) must be shorter than this many bytes.
inline constexpr size_t kMaxAttributeNameBytes = 65536;

enum class ExpressionKind : uint8_t { kCondition, kFilter, kKeyCondition, kProjection, kUpdate };

// "ConditionExpression", "FilterExpression", ... as used in "Invalid <name>: ..." messages.
std::string_view ExpressionKindName(ExpressionKind kind);

// One step of a parsed document path.
struct PathElement {
  enum class Kind : uint8_t { kName, kNameRef, kIndex };
  Kind kind = Kind::kName;
  std::string text;   // kName: the attribute name; kNameRef: the reference as written ("#n")
  uint32_t slot = 0;  // kNameRef: index into ParsedExpression::name_refs; kIndex: the list index
  uint32_t pos = 0;
};

struct Path {
  std::vector<PathElement> elements;  // never empty; elements[0] is not an index
};

enum class OperandKind : uint8_t {
  kPath,
  kValue,     // ":v"
  kFunction,  // name(args...)
  kPlus,      // args[0] + args[1]   (UpdateExpression SET only)
  kMinus,     // args[0] - args[1]   (UpdateExpression SET only)
};

struct Operand {
  OperandKind kind = OperandKind::kPath;
  Path path;                  // kPath
  uint32_t value_slot = 0;    // kValue: index into ParsedExpression::value_refs
  std::string name;           // kFunction: function name as written; kValue: the reference (":v")
  std::vector<Operand> args;  // kFunction, kPlus, kMinus
  uint32_t pos = 0;
  uint8_t parens = 0;         // parentheses directly around this operand
};

enum class Comparator : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };
std::string_view ComparatorText(Comparator c);  // "=", "<>", "<", ...

enum class ConditionKind : uint8_t { kAnd, kOr, kNot, kCompare, kBetween, kIn, kFunction };

struct Condition {
  ConditionKind kind = ConditionKind::kCompare;
  Comparator comparator = Comparator::kEq;  // kCompare
  std::vector<Condition> children;          // kAnd / kOr: two or more; kNot: one
  std::vector<Operand> operands;            // kCompare: 2; kBetween: 3; kIn: 1 + n; kFunction: 1 call
  uint32_t pos = 0;
  uint8_t parens = 0;

  bool IsLeaf() const { return kind != ConditionKind::kAnd && kind != ConditionKind::kOr && kind != ConditionKind::kNot; }
};

enum class UpdateActionKind : uint8_t { kSet, kRemove, kAdd, kDelete };

struct UpdateAction {
  UpdateActionKind kind = UpdateActionKind::kSet;
  Path path;      // the target
  Operand value;  // kSet: the right-hand side; kAdd / kDelete: a kValue operand; kRemove: unused
};

struct ParsedExpression {
  ExpressionKind kind = ExpressionKind::kCondition;
  std::string text;
  std::optional<Condition> condition;  // condition, filter and key-condition kinds (empty = TRUE)
  std::vector<Path> projection;        // projection kind
  std::vector<UpdateAction> actions;   // update kind, in textual order
  // Legacy AttributeUpdates: ADD also accepts lists, errors use the legacy wording.
  bool legacy_update = false;
  std::vector<std::string> name_refs;   // distinct "#n" references, by slot
  std::vector<std::string> value_refs;  // distinct ":v" references, by slot
  std::string early_error;              // detail without the "Invalid <kind>: " prefix; empty = none
};

// A document path with names resolved: what evaluation, projection and update work on.
struct PathStep {
  std::string name;     // when !is_index
  uint32_t index = 0;   // when is_index
  bool is_index = false;

  bool operator==(const PathStep& o) const {
    return is_index == o.is_index && (is_index ? index == o.index : name == o.name);
  }
};
using DocumentPath = std::vector<PathStep>;

// DynamoDB's rendering in messages: "[a, b, [2], c]".
std::string FormatPath(const DocumentPath& path);

}  // namespace monotable::expr
