// UpdateTimeToLive: enables or disables expiry of a table's items by a Number attribute.
#include "api/ops/operations.h"
#include "api/request_fields.h"

namespace monotable::api {
namespace {

constexpr const char* kShape = R"({
  "TableName": {"type": "String", "required": true, "tableName": true, "regex": "[a-zA-Z0-9_.-]+"},
  "TimeToLiveSpecification": {"type": "FieldStruct<TimeToLiveSpecification>", "notNull": true, "children": {
    "Enabled": {"type": "Boolean", "notNull": true},
    "AttributeName": {"type": "String", "notNull": true, "lengthGreaterThanOrEqual": 1,
                      "lengthLessThanOrEqual": 255}}}
})";

Status Run(OperationContext& ctx) {
  const rapidjson::Value& spec = *Member(ctx.request, "TimeToLiveSpecification");
  bool enabled = BoolMember(spec, "Enabled").value_or(false);
  std::string attribute(StringOr(spec, "AttributeName", ""));
  std::string table = TableNameOf(ctx.request);
  int64_t interval = ctx.db.options().ttl_change_interval_ms;
  MT_RETURN_IF_ERROR(enabled ? ctx.db.ttl().Enable(table, attribute, interval)
                             : ctx.db.ttl().Disable(table, attribute, interval));
  ctx.out.StartObject();
  ctx.out.Key("TimeToLiveSpecification");
  ctx.out.StartObject();
  WriteString(ctx.out, "AttributeName", attribute);
  ctx.out.Key("Enabled");
  ctx.out.Bool(enabled);
  ctx.out.EndObject();
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kUpdateTimeToLive{"UpdateTimeToLive", kShape, nullptr, Run};

}  // namespace monotable::api
