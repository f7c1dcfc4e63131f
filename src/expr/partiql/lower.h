// PartiQL lowering: WHERE conditions, SET/REMOVE clauses and SELECT lists -> the expression
// layer's bound forms (ConditionExpression, UpdateExpression, DocumentPath), so PartiQL shares
// DynamoDB's evaluation and update semantics with the expression API instead of re-implementing
// them.
//
// Contract:
// - Conjuncts(where) lists the operands of a top-level AND (or the whole condition); planners
//   take key conditions from it and lower the rest.
// - LowerCondition(conjuncts, parameters, must_exist) builds one condition that is the AND of the
//   conjuncts (and of attribute_exists(must_exist) when given); no conjuncts and no must_exist
//   give the empty, always-true condition. Mapping: = <> < <= > >= BETWEEN IN AND OR NOT keep
//   their meaning; IS [NOT] MISSING -> attribute_not_exists / attribute_exists; IS [NOT] NULL /
//   BOOLEAN / STRING / NUMERIC / BLOB / STRUCT / TUPLE / LIST -> [NOT] attribute_type(p, 'NULL'
//   / 'BOOL' / 'S' / 'N' / 'B' / 'M' / 'M' / 'L'); begins_with, contains, attribute_type,
//   attribute_exists, attribute_not_exists and size() as in expressions (names case-insensitive).
//   Errors, with DynamoDB's messages: MISSING outside IS ("MISSING must be compared using IS
//   operator"), an ordering comparison on a non S/N/B constant ("Incorrect operand type for
//   operator or function; operator or function: <, operand type: BOOL"), a bad attribute_type
//   name, LIKE and arithmetic ("Unsupported operator in Condition Expression. Operator: LIKE"),
//   a non-boolean condition ("WHERE clause must contain an expression that resolves to a
//   boolean"), unknown functions ("Unrecognized function: f"), malformed IN.
// - LowerUpdate(clauses, text, parameters) builds the UpdateExpression: SET p = v (values, paths,
//   + and -, list_append, if_not_exists), SET p = set_add(p, <<..>>) -> ADD, set_delete -> DELETE,
//   SET p = MISSING and REMOVE p -> REMOVE; `text` is the statement, for positions in messages
//   ("The first argument to SET_ADD must equal the assignment value at 1:24:7").
// - LowerProjection(statement) resolves the SELECT list: each path and the name its value is
//   returned under (the last name step with the index steps after it: a.b[1] -> "b[1]"), refusing
//   "Duplicate identifiers in select clause: b".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "expr/expression.h"
#include "expr/partiql/ast.h"

namespace monotable::expr::partiql {

std::vector<const Expr*> Conjuncts(const Expr& where);

Result<ConditionExpression> LowerCondition(const std::vector<const Expr*>& conjuncts,
                                           const std::vector<AttributeValue>& parameters,
                                           std::string_view must_exist = {});

Result<UpdateExpression> LowerUpdate(const std::vector<UpdateClause>& clauses, std::string_view text,
                                     const std::vector<AttributeValue>& parameters);

DocumentPath ToDocumentPath(const Path& path);

struct ProjectedPath {
  DocumentPath path;
  std::string output_name;
};
Result<std::vector<ProjectedPath>> LowerProjection(const Statement& statement);

}  // namespace monotable::expr::partiql
