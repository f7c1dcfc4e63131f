#include "api/write_condition.h"

#include "api/request_fields.h"

namespace monotable::api {

Result<WriteCondition> ParseWriteCondition(OperationContext& ctx) {
  if (Member(ctx.request, "ConditionExpression") || Member(ctx.request, "Expected")) {
    return Status::Validation("Conditional writes are not supported by this server yet");
  }
  return WriteCondition();
}

}  // namespace monotable::api
