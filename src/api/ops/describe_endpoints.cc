// DescribeEndpoints: the endpoint SDKs with endpoint discovery ask for. AWS answers with the
// address the client used (dynamodb.<region>.amazonaws.com); so does this server, from the
// request's Host header, so a client that follows the answer keeps talking to this server.
#include "api/ops/operations.h"
#include "api/request_fields.h"

namespace monotable::api {
namespace {

Status RunEndpoints(OperationContext& ctx) {
  ctx.out.StartObject();
  ctx.out.Key("Endpoints");
  ctx.out.StartArray();
  ctx.out.StartObject();
  WriteString(ctx.out, "Address",
              ctx.host.empty() ? "dynamodb." + ctx.identity.region + ".amazonaws.com" : std::string(ctx.host));
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
