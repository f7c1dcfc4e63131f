// Bridges Query/Scan requests to the expression layer: FilterExpression / QueryFilter /
// ScanFilter become ReadPlan::filter, ProjectionExpression / AttributesToGet ReadPlan::project.
#pragma once

#include "api/read_request.h"

namespace monotable::api {

Status ParseReadExpressions(OperationContext& ctx, ReadPlan& plan);

}  // namespace monotable::api
