// Update application: applies a bound UpdateExpression (or converted AttributeUpdates) to an item.
//
// Contract:
// - ApplyUpdateActions(parsed, bindings, base) starts from `base` (the existing item, or only the
//   key attributes when the item does not exist) and has no side effects, so a read-modify-write
//   retry can simply call it again.
// - Every SET right-hand side is computed from `base` before anything changes (DynamoDB reads all
//   operands from the item as it was). if_not_exists(p, v) is p when present, else v;
//   list_append(a, b) concatenates lists; + and - (and ADD on numbers) are exact Number arithmetic
//   whose range errors are returned as-is; a result that needs more than 38 significant digits is
//   "Number overflow. Attempting to store a number with magnitude larger than supported range", as
//   DynamoDB reports it (1E+50 + 1), not Number's precision message.
// - Errors (kValidation), as DynamoDB words them:
//     an operand path that is absent  -> "The provided expression refers to an attribute that does
//                                         not exist in the item"
//     + - list_append / ADD / DELETE on the wrong type
//                                     -> "An operand in the update expression has an incorrect data type"
//     a target whose parent is absent or is not a map (name step) / list (index step)
//                                     -> "The document path provided in the update expression is
//                                         invalid for update"
//   Legacy AttributeUpdates use "Type mismatch for attribute to update" instead of the operand
//   message, and their ADD also appends to lists.
// - List semantics: SET / ADD at an index past the end append (in ascending index order); REMOVE
//   of list elements uses the indexes of the list as it was (removed highest index first); an index
//   past the end is a no-op for REMOVE and DELETE. ADD on an absent number starts from 0 and on an
//   absent set creates it; sets are unions; DELETE removes members and drops an emptied set.
// - updated_paths lists every action's target path in action order, for ReturnValues
//   UPDATED_OLD / UPDATED_NEW (project them from the old / new item with ProjectPaths).
#pragma once

#include <vector>

#include "common/status.h"
#include "expr/ast.h"
#include "expr/binder.h"
#include "model/attribute_value.h"

namespace monotable::expr {

struct UpdateOutcome {
  Item item;
  std::vector<DocumentPath> updated_paths;
};

Result<UpdateOutcome> ApplyUpdateActions(const ParsedExpression& parsed, const Bindings& bindings, const Item& base);

}  // namespace monotable::expr
