#include "api/read_expressions.h"

#include "api/request_fields.h"

namespace monotable::api {

Status ParseReadExpressions(OperationContext& ctx, ReadPlan& plan) {
  for (const char* member : {"FilterExpression", "ProjectionExpression", "QueryFilter", "ScanFilter",
                             "AttributesToGet"}) {
    if (Member(ctx.request, member)) {
      return Status::Validation(std::string(member) + " is not supported by this server yet");
    }
  }
  return Status::Ok();
}

}  // namespace monotable::api
