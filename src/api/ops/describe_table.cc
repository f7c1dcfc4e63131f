// DescribeTable: the complete TableDescription of one table.
#include "api/ops/operations.h"
#include "api/request_fields.h"
#include "api/table_json.h"

namespace monotable::api {
namespace {

constexpr const char* kShape = R"({
  "TableName": {"type": "String", "required": true, "tableName": true, "regex": "[a-zA-Z0-9_.-]+"}
})";

Status Run(OperationContext& ctx) {
  std::string name = TableNameOf(ctx.request);
  auto handle = ctx.db.catalog().Find(name);
  if (!handle) return Status::NotFound("Requested resource not found: Table: " + name + " not found");
  ctx.out.StartObject();
  ctx.out.Key("Table");
  WriteTableDescription(ctx.out, ctx.identity, *handle->description, handle->stats.get());
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kDescribeTable{"DescribeTable", kShape, nullptr, Run};

}  // namespace monotable::api
