// DescribeTimeToLive: whether a table expires items, and by which attribute.
#include "api/ops/operations.h"
#include "api/request_fields.h"

namespace monotable::api {
namespace {

constexpr const char* kShape = R"({
  "TableName": {"type": "String", "required": true, "tableName": true, "regex": "[a-zA-Z0-9_.-]+"}
})";

Status Run(OperationContext& ctx) {
  std::string name = TableNameOf(ctx.request);
  auto handle = ctx.db.catalog().Find(name);
  if (!handle) return Status::NotFound("Requested resource not found: Table: " + name + " not found");
  const TimeToLiveSettings& ttl = handle->description->ttl;
  ctx.out.StartObject();
  ctx.out.Key("TimeToLiveDescription");
  ctx.out.StartObject();
  WriteString(ctx.out, "TimeToLiveStatus", ttl.enabled ? "ENABLED" : "DISABLED");
  if (ttl.enabled) WriteString(ctx.out, "AttributeName", ttl.attribute);
  ctx.out.EndObject();
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kDescribeTimeToLive{"DescribeTimeToLive", kShape, nullptr, Run};

}  // namespace monotable::api
