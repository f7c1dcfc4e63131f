// ListTagsOfResource: a table's tags, in the order they were first added.
#include "api/ops/operations.h"
#include "api/request_fields.h"

namespace monotable::api {
namespace {

constexpr const char* kShape = R"({
  "ResourceArn": {"type": "String"},
  "NextToken": {"type": "String"}
})";

Status Validate(OperationContext& ctx) {
  MT_RETURN_IF_ERROR(CheckResourceArn(ctx, "ListTagsOfResource"));
  return TableOfResourceArn(ctx).status();
}

Status Run(OperationContext& ctx) {
  MT_ASSIGN_OR_RETURN(std::string name, TableOfResourceArn(ctx));
  auto handle = ctx.db.catalog().Find(name);
  if (!handle) {
    return Status::NotFound("Requested resource not found: ResourcArn: " +
                            std::string(StringOr(ctx.request, "ResourceArn", "")) + " not found");
  }
  ctx.out.StartObject();
  ctx.out.Key("Tags");
  ctx.out.StartArray();
  for (const auto& [key, value] : handle->description->tags) {
    ctx.out.StartObject();
    WriteString(ctx.out, "Key", key);
    WriteString(ctx.out, "Value", value);
    ctx.out.EndObject();
  }
  ctx.out.EndArray();
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kListTagsOfResource{"ListTagsOfResource", kShape, Validate, Run};

}  // namespace monotable::api
