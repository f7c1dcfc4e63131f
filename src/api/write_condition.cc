#include "api/write_condition.h"

#include "api/request_fields.h"

namespace monotable::api {

Result<WriteExpressions> ParseWriteExpressions(const rapidjson::Value& params, const TableDescription& table,
                                               bool with_update) {
  for (const char* m : {"ConditionExpression", "Expected", "UpdateExpression", "AttributeUpdates"}) {
    if (Member(params, m)) return Status::Validation(std::string(m) + " is not supported by this server yet");
  }
  return WriteExpressions();
}

Result<ProjectFn> ParseProjection(const rapidjson::Value& params) {
  for (const char* m : {"ProjectionExpression", "AttributesToGet"}) {
    if (Member(params, m)) return Status::Validation(std::string(m) + " is not supported by this server yet");
  }
  return ProjectFn();
}

}  // namespace monotable::api
