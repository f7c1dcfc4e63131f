// PartiQL parser: DynamoDB's PartiQL statement grammar, hand-written recursive descent.
//
// Grammar (keywords case-insensitive):
//   statement := (select | insert | update | delete | EXISTS '(' select ')') [';']
//   select    := SELECT ('*' | path {',' path}) FROM source [WHERE expr]
//                [ORDER BY path [ASC|DESC] {',' path [ASC|DESC]}]
//   insert    := INSERT INTO source VALUE expr
//   update    := UPDATE source (SET path '=' expr {',' path '=' expr} | REMOVE path {',' path})+
//                [WHERE expr] [returning]
//   delete    := DELETE FROM source [WHERE expr] [returning]
//   returning := RETURNING (ALL | MODIFIED) (OLD | NEW) '*'
//   source    := name ['.' name]                      (a table, or "table"."index")
//   expr      := OR / AND / NOT / comparisons (= <> != < <= > >=), [NOT] BETWEEN .. AND ..,
//                [NOT] IN (list | '(' ... ')' | ?), IS [NOT] type, [NOT] LIKE, + - * / % ||,
//                calls f(args), paths a.b[1]."c"['d'], literals 'str' 1.5 true false NULL MISSING,
//                [list], {'k': v} tuples, <<bag>>, and ? parameters (numbered in text order).
//
// Contract:
// - ParseStatement() returns the Statement or a kValidation Status with DynamoDB's message:
//   syntax errors are "Statement wasn't well formed, can't be processed: <detail>" where detail is
//   PartiQL's ("Unexpected term", "Unexpected keyword", "Unexpected operator", "Unexpected token
//   after expression", "Missing right-hand side expression of infix operator", "Expected data
//   manipulation", "Expected identifier for simple path", "Expected type name", or empty for lexer
//   errors); a few constructs DynamoDB refuses have messages of their own ("Aliasing is not
//   supported", "Path component cannot be an empty string", "A path may contain at most 2
//   components in the FROM clause", "Unsupported clause: LIMIT", ...).
// - Reserved words (keywords.h) are refused as bare names; quoted names ("value") are fine.
//   Function names may be reserved words (size(x), exists(...)).
// - Recursion is bounded by kMaxNestingDepth (ast.h); deeper input is a syntax error, never a crash.
// - Semantic checks that need the table or the parameters (key conditions, value conversion,
//   function arguments) are not done here: see lower.h and the API layer's planner.
#pragma once

#include <string_view>

#include "common/status.h"
#include "expr/partiql/ast.h"

namespace monotable::expr::partiql {

Result<Statement> ParseStatement(std::string_view text);

}  // namespace monotable::expr::partiql
