// Parser: hand-written recursive descent from expression text to a ParsedExpression (ast.h).
//
// Contract:
// - ParseExpression(kind, text) returns the AST, or a kValidation Status whose message is complete
//   and DynamoDB-exact ("Invalid UpdateExpression: Syntax error; token: \"x\", near: \"a x b\"",
//   "Invalid FilterExpression: The expression can not be empty;", size limit, nesting limit).
// - A successful parse may still carry ParsedExpression::early_error (text-only semantic errors,
//   reported later by the binder in DynamoDB's priority order); syntax errors always win over them.
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
// - Never recurses deeper than kMaxNestingDepth levels; does not throw.
#pragma once

#include <string_view>

#include "common/status.h"
#include "expr/ast.h"

namespace monotable::expr {

Result<ParsedExpression> ParseExpression(ExpressionKind kind, std::string_view text);

}  // namespace monotable::expr
