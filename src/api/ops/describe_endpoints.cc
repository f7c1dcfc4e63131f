// DescribeEndpoints: the regional endpoint SDKs with endpoint discovery ask for.
#include "api/ops/operations.h"
#include "api/request_fields.h"

namespace monotable::api {
namespace {

Status RunEndpoints(OperationContext& ctx) {
  ctx.out.StartObject();
  ctx.out.Key("Endpoints");
  ctx.out.StartArray();
  ctx.out.StartObject();
  WriteString(ctx.out, "Address", "dynamodb." + ctx.identity.region + ".amazonaws.com");
  ctx.out.Key("CachePeriodInMinutes");
  ctx.out.Int(1440);
  ctx.out.EndObject();
  ctx.out.EndArray();
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kDescribeEndpoints{"DescribeEndpoints", "{}", nullptr, RunEndpoints};

}  // namespace monotable::api
