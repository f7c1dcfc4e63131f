// PartiQL value binding: literal expressions and `?` parameters -> AttributeValues.
//
// Contract:
// - IsValueExpr(e) is true for the expressions that denote a value: literals ('s', 1.5, true,
//   NULL), parameters, and [list] / {'k': v} tuple / <<bag>> literals (whatever they contain).
// - ToAttributeValue(e, parameters) converts one, with DynamoDB's PartiQL messages, naming where
//   the problem is ("under root", "under root.k", "under root[1]"):
//     number out of range / too precise -> "<Number message> under root.k"
//     tuple key not a string            -> "Tuple keys must be of type String. Actual type: N under root"
//     the same key twice                -> "Duplicate keys in tuple. Key: k under root"
//     <<>>                              -> "Empty bags are not supported"
//     a bag of anything but all strings or all numbers
//                                       -> "Unsupported data type in Bag. DynamoDB only supports
//                                           either numbers or strings in bags"
//     a bag member twice                -> "One or more parameter values were invalid: Input
//                                           collection [a, a] contains duplicates."
//     MISSING, a path or an operator    -> "Unsupported data type: <what> under key root"
//     nesting deeper than 32            -> DynamoDB's nesting message
//   A tuple member whose value is MISSING is left out (PartiQL drops it).
// - Parameters are taken by position; the caller has checked their count (CheckParameterCount).
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "expr/partiql/ast.h"
#include "model/attribute_value.h"

namespace monotable::expr::partiql {

bool IsValueExpr(const Expr& e);

Result<AttributeValue> ToAttributeValue(const Expr& e, const std::vector<AttributeValue>& parameters,
                                        const std::string& where = "root");

// "Number of parameters in request and statement don't match." unless they do.
Status CheckParameterCount(const Statement& statement, size_t supplied);

// DynamoDB's type name of a value ("S", "N", "BOOL", ...), for messages.
std::string TypeNameOf(const AttributeValue& value);

}  // namespace monotable::expr::partiql
