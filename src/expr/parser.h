// Parser: hand-written recursive descent from expression text to a ParsedExpression (ast.h).
//
// Contract:
// - ParseExpression(kind, text) returns the AST, or a kValidation Status whose message is complete
//   and DynamoDB-exact, in this order: the 4 KB size limit, "The expression can not be empty;", the
//   syntax error ("Invalid UpdateExpression: Syntax error; token: \"x\", near: \"a x b\""), then,
//   once the whole text parsed, "The expression contains too many operators; operator count: 301"
//   (more than kMaxOperators of =, <>, <, <=, >, >=, AND, OR, NOT, BETWEEN, IN, +, -; function calls
//   are not counted) and "The document path has too many nesting levels; nesting levels: N" (the
//   first path, in text order, of more than kMaxPathDepth elements).
// - A successful parse may still carry ParsedExpression::early_error (text-only semantic errors,
//   reported later by the binder in DynamoDB's priority order); the errors above win over them.
//   Conditions: redundant parentheses > unknown function > if_not_exists / list_append ("The
//   function is not allowed in a condition expression; function: f") > misused function > reserved
//   word. Updates: reserved word > unknown function > condition function ("The function is not
//   allowed in an update expression; function: f") > list_append directly inside list_append ("The
//   function is not allowed to be used this way in an expression; function: list_append") >
//   repeated section.
// - Grammar (keywords case-insensitive, function names case-sensitive):
//     condition  := or ; or := and (OR and)* ; and := not (AND not)* ; not := NOT not | simple
//     simple     := '(' condition ')' | operand comparator operand | operand BETWEEN operand AND operand
//                 | operand IN '(' operand (',' operand)* ')' | function
//     operand    := '(' operand ')' [path-tail] | function | :value | path
//     update     := (SET set (',' set)* | REMOVE path (',' path)* | ADD path :v (',' ...)*
//                   | DELETE path :v (',' ...)*)+
//     set        := path '=' ( value | '(' value ')' ) ; value := opnd [('+'|'-') opnd]
//     opnd       := '(' name-operand ')' | name-operand (a function, :value or path)
//     projection := path (',' path)*
//     path       := (name | #ref) ('.' (name | #ref) | '[' digits ']')*
// - Stack: DynamoDB has no nesting cap below what 4 KB holds (2046 redundant parentheses are
//   reported as redundant, 1355 nested f( as an unknown function), so neither does the parser:
//   kMaxNestingDepth is out of reach. Instead a nesting level costs little stack (nodes are built in
//   place, not in locals): the worst 4 KB inputs need ~270 KB optimized, ~660 KB at -O0, ~1 MB with
//   ASan, the later walks (validation, evaluation, destruction) less; server threads have 8 MiB.
//   tests/expr checks the deepest shapes on a 1 MiB thread. Does not throw.
#pragma once

#include <string_view>

#include "common/status.h"
#include "expr/ast.h"

namespace monotable::expr {

Result<ParsedExpression> ParseExpression(ExpressionKind kind, std::string_view text);

}  // namespace monotable::expr
