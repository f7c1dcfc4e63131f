// UntagResource: removes tags from a table by key (keys it does not have are ignored).
#include <algorithm>

#include "api/ops/operations.h"
#include "api/request_fields.h"

namespace monotable::api {
namespace {

constexpr const char* kShape = R"({
  "ResourceArn": {"type": "String"},
  "TagKeys": {"type": "List", "children": {"type": "String", "lengthGreaterThanOrEqual": 1,
                                           "lengthLessThanOrEqual": 128}}
})";

Status Validate(OperationContext& ctx) {
  MT_RETURN_IF_ERROR(CheckResourceArn(ctx, "UntagResource"));
  const rapidjson::Value* keys = Member(ctx.request, "TagKeys");
  if (!keys) {
    return Status::Validation(
        "1 validation error detected: Value null at 'tagKeys' failed to satisfy constraint: Member must not be null");
  }
  MT_RETURN_IF_ERROR(TableOfResourceArn(ctx).status());
  if (keys->Empty()) return Status::Validation("Atleast one Tag Key needs to be provided as Input.");
  // A key outside the characters a tag may hold (ack-api-quirks' DynamoDB error catalogue lists
  // UntagResource among the operations answering so).
  for (const auto& key : keys->GetArray()) {
    std::string_view k(key.GetString(), key.GetStringLength());
    if (!ValidTagText(k)) return Status::Validation("The Tag Key provided is invalid, Key: " + std::string(k));
  }
  return Status::Ok();
}

Status Run(OperationContext& ctx) {
  MT_ASSIGN_OR_RETURN(std::string name, TableOfResourceArn(ctx));
  auto result = ctx.db.catalog().Modify(name, [&](TableDescription& table) -> Status {
    for (const auto& key : Member(ctx.request, "TagKeys")->GetArray()) {
      std::string_view k(key.GetString(), key.GetStringLength());
      std::erase_if(table.tags, [&](const auto& t) { return t.first == k; });
    }
    return Status::Ok();
  });
  if (!result.ok() && result.status().code() == ErrorCode::kResourceNotFound) {
    return Status::NotFound("Requested resource not found");
  }
  return result.status();  // an empty response body, as DynamoDB answers
}

}  // namespace

const Operation kUntagResource{"UntagResource", kShape, Validate, Run};

}  // namespace monotable::api
