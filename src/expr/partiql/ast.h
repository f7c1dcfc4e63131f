// PartiQL AST: the parsed (not yet bound) form of one DynamoDB PartiQL statement.
//
// Contract:
// - A Statement depends only on the statement text. Literals keep their written form (numbers as
//   text) and `?` parameters keep their 0-based position: conversion to AttributeValues, with
//   DynamoDB's messages, happens when the statement is bound (values.h, lower.h).
// - Nesting is bounded by kMaxNestingDepth at parse time, so every recursive walk over an AST
//   (lowering, dumping, destruction) is bounded too.
// - `pos` / `end` are byte offsets into the statement text.
// - Dump() renders a statement as a compact S-expression, for tests and debugging.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace monotable::expr::partiql {

// Parentheses, NOT chains, collection literals and calls deeper than this are refused.
inline constexpr int kMaxNestingDepth = 64;

struct PathStep {
  enum class Kind : uint8_t { kName, kIndex };
  Kind kind = Kind::kName;
  std::string name;    // kName
  uint32_t index = 0;  // kIndex
};

// A document path: steps[0] is always a name (a top-level attribute).
struct Path {
  std::vector<PathStep> steps;
  uint32_t pos = 0;
  uint32_t end = 0;
};

enum class ExprKind : uint8_t {
  kPath,
  kString,  // text: the value
  kNumber,  // text: as written, with a leading '-' when negated
  kBool,    // flag: the value
  kNull,
  kMissing,
  kParameter,  // param: 0-based position
  kList,       // args: the elements
  kTuple,      // args: key, value, key, value, ...
  kBag,        // args: the elements
  kCompare,    // compare; args: left, right
  kBetween,    // flag: NOT BETWEEN; args: value, low, high
  kIn,         // flag: NOT IN; args: value, then the candidates (or one kParameter / kList)
  kIs,         // flag: IS NOT; is_type; args: the operand
  kLike,       // flag: NOT LIKE; args: value, pattern
  kCall,       // text: the function name as written; args: the arguments
  kArith,      // arith; args: left, right
  kAnd,        // args: two or more
  kOr,         // args: two or more
  kNot,        // args: one
};

enum class CompareOp : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };
enum class ArithOp : uint8_t { kAdd, kSub, kMul, kDiv, kMod, kConcat };
// The type names IS accepts; kOther for a type name PartiQL knows but DynamoDB does not support.
enum class IsType : uint8_t { kMissing, kNull, kBoolean, kString, kNumeric, kBlob, kStruct, kList, kOther };

struct Expr {
  ExprKind kind = ExprKind::kNull;
  uint32_t pos = 0;
  uint32_t end = 0;
  Path path;                           // kPath
  std::string text;                    // kString, kNumber, kCall; kIs with kOther: the type name
  bool flag = false;                   // see ExprKind
  uint32_t param = 0;                  // kParameter
  CompareOp compare = CompareOp::kEq;  // kCompare
  ArithOp arith = ArithOp::kAdd;       // kArith
  IsType is_type = IsType::kNull;      // kIs
  std::vector<Expr> args;
};

enum class StatementKind : uint8_t { kSelect, kInsert, kUpdate, kDelete, kExists };

struct OrderItem {
  Path path;
  bool descending = false;
};

// RETURNING (ALL | MODIFIED) (OLD | NEW) *
struct Returning {
  bool all = true;
  bool new_image = false;
  std::string Text() const;  // "RETURNING ALL OLD *"
};

struct UpdateClause {
  bool remove = false;  // REMOVE path, else SET path = value
  Path target;
  Expr value;
};

struct Statement {
  StatementKind kind = StatementKind::kSelect;
  std::string table;                 // FROM / INTO / UPDATE target
  std::optional<std::string> index;  // "table"."index"
  // SELECT (and the SELECT inside EXISTS).
  bool select_star = false;
  std::vector<Path> projection;
  std::optional<Expr> where;
  std::vector<OrderItem> order_by;
  // INSERT
  std::optional<Expr> value;
  // UPDATE
  std::vector<UpdateClause> updates;
  // UPDATE / DELETE
  std::optional<Returning> returning;
  uint32_t parameter_count = 0;  // number of `?` in the text
};

std::string Dump(const Path& path);
std::string Dump(const Expr& expr);
std::string Dump(const Statement& statement);

// Operator spellings as PartiQL writes them ("<>", "||", ...), for dumps and messages.
const char* CompareText(CompareOp op);
const char* ArithText(ArithOp op);

}  // namespace monotable::expr::partiql
