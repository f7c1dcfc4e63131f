// ListTables: table names in byte order, paged by ExclusiveStartTableName / Limit.
#include "api/ops/operations.h"
#include "api/request_fields.h"

namespace monotable::api {
namespace {

constexpr const char* kShape = R"({
  "Limit": {"type": "Integer", "greaterThanOrEqual": 1, "lessThanOrEqual": 100},
  "ExclusiveStartTableName": {"type": "String", "regex": "[a-zA-Z0-9_.-]+",
                              "lengthGreaterThanOrEqual": 3, "lengthLessThanOrEqual": 255}
})";

Status Run(OperationContext& ctx) {
  int64_t limit = IntMember(ctx.request, "Limit").value_or(100);
  std::string start = TableNameOf(ctx.request, "ExclusiveStartTableName");
  std::vector<std::string> names = ctx.db.catalog().Names();
  auto first = start.empty() ? names.begin() : std::upper_bound(names.begin(), names.end(), start);
  ctx.out.StartObject();
  ctx.out.Key("TableNames");
  ctx.out.StartArray();
  int64_t written = 0;
  auto it = first;
  for (; it != names.end() && written < limit; ++it, ++written) ctx.out.String(it->data(), it->size());
  ctx.out.EndArray();
  if (it != names.end() && written > 0) WriteString(ctx.out, "LastEvaluatedTableName", *(it - 1));
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kListTables{"ListTables", kShape, nullptr, Run};

}  // namespace monotable::api
