// Projection: builds the item DynamoDB returns for a list of document paths.
//
// Contract:
// - Only paths that resolve in the item contribute; absent ones are skipped silently.
// - Nested maps keep only the requested members. Requested list elements come back as a compacted
//   list in ascending original-index order, whatever order the paths were given in
//   ("l[2], l[0]" on [x, y, z] gives [x, z]), which is what DynamoDB returns.
// - Used for ProjectionExpression, AttributesToGet and ReturnValues UPDATED_OLD / UPDATED_NEW.
// - Paths are expected not to overlap (the binder refuses overlapping projection paths); if they
//   do, the first path that claims a position wins.
#pragma once

#include <vector>

#include "expr/ast.h"
#include "model/attribute_value.h"

namespace monotable::expr {

Item ProjectPaths(const std::vector<DocumentPath>& paths, const Item& item);

}  // namespace monotable::expr
