// DescribeLimits: the account's capacity limits (AWS's defaults).
#include "api/ops/operations.h"

namespace monotable::api {
namespace {

Status RunLimits(OperationContext& ctx) {
  ctx.out.StartObject();
  ctx.out.Key("AccountMaxReadCapacityUnits");
  ctx.out.Int(80000);
  ctx.out.Key("AccountMaxWriteCapacityUnits");
  ctx.out.Int(80000);
  ctx.out.Key("TableMaxReadCapacityUnits");
  ctx.out.Int(40000);
  ctx.out.Key("TableMaxWriteCapacityUnits");
  ctx.out.Int(40000);
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kDescribeLimits{"DescribeLimits", "{}", nullptr, RunLimits};

}  // namespace monotable::api
