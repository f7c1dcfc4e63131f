// Evaluator: decides a bound condition against an item, with DynamoDB's type rules.
//
// Contract:
// - Evaluation never fails: a missing attribute, a type mismatch or an unsupported size() simply
//   makes the comparison false (<> is true when either side is missing or the types differ).
//   Errors that DynamoDB raises for constants were already raised by the binder.
// - Operators: = <> (deep equality, sets as sets); < <= > >= and BETWEEN on same-typed S/N/B only;
//   IN (equality with any listed value); attribute_exists / attribute_not_exists; attribute_type
//   (the item value's type name equals the S argument); begins_with, contains and size as in
//   comparison.h. AND / OR short-circuit, NOT negates.
// - Lookup helpers walk document paths: a name step needs a map (or the item at the top), an index
//   step needs a list and an index inside it; anything else is "absent" (nullptr).
#pragma once

#include "expr/ast.h"
#include "expr/binder.h"
#include "model/attribute_value.h"

namespace monotable::expr {

const AttributeValue* Lookup(const Item& item, const DocumentPath& path);
const AttributeValue* Lookup(const Item& item, const Path& path, const Bindings& bindings);

bool EvaluateCondition(const Condition& condition, const Item& item, const Bindings& bindings);

}  // namespace monotable::expr
