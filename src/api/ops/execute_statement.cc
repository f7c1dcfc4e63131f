// ExecuteStatement: one PartiQL statement (SELECT / INSERT / UPDATE / DELETE), with `?`
// Parameters, NextToken paging and Limit for SELECT. Planning and execution: src/api/partiql/.
#include "api/capacity.h"
#include "api/item_request.h"
#include "api/ops/operations.h"
#include "api/partiql/executor.h"
#include "api/partiql/request.h"
#include "api/request_fields.h"

namespace monotable::api {
namespace {

std::string ShapeText() {
  return std::string(R"({"Statement": )") + partiql::kStatementShape + R"(,
  "Parameters": )" +
         partiql::kParametersShape + R"(,
  "ConsistentRead": "Boolean",
  "NextToken": {"type": "String", "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 32768},
  "ReturnConsumedCapacity": )" +
         kReturnConsumedCapacityShape + R"(,
  "Limit": {"type": "Integer", "greaterThanOrEqual": 1},
  "ReturnValuesOnConditionCheckFailure": {"type": "String", "enum": ["ALL_OLD", "NONE"]}})";
}

Status Run(OperationContext& ctx) {
  const auto& req = ctx.request;
  MT_ASSIGN_OR_RETURN(std::vector<AttributeValue> parameters, partiql::DecodeParameters(req));
  MT_ASSIGN_OR_RETURN(partiql::PreparedStatement s,
                      partiql::Parse(StringOr(req, "Statement", ""), std::move(parameters)));
  if (s.ast.kind == partiql::pq::StatementKind::kExists) {
    return Status::Validation("EXISTS can only be used in ExecuteTransaction write requests.");
  }
  MT_RETURN_IF_ERROR(partiql::Plan(ctx.db, s));

  partiql::ExecOptions options;
  options.consistent = BoolMember(req, "ConsistentRead").value_or(false);
  options.limit = IntMember(req, "Limit");
  options.next_token = std::string(StringOr(req, "NextToken", ""));
  options.return_old_on_failure = StringOr(req, "ReturnValuesOnConditionCheckFailure", "NONE") == "ALL_OLD";
  partiql::ExecResult result = partiql::Execute(ctx.db, s, options);
  if (!result.status.ok()) {
    if (result.failed_item) {
      ctx.error_details = [item = std::move(*result.failed_item)](JsonWriter& w) {
        w.Key("Item");
        WriteItem(w, item);
      };
    }
    return result.status;
  }

  auto& out = ctx.out;
  out.StartObject();
  out.Key("Items");
  out.StartArray();
  for (const Item& item : result.items) WriteItem(out, item);
  out.EndArray();
  if (result.next_token) WriteString(out, "NextToken", *result.next_token);
  if (result.last_evaluated_key) {
    out.Key("LastEvaluatedKey");
    WriteItem(out, *result.last_evaluated_key);
  }
  WriteConsumedCapacity(out, StringOr(req, "ReturnConsumedCapacity", "NONE"), s.table->description->name,
                        result.consumed, s.IsRead());
  out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kExecuteStatement{"ExecuteStatement", ShapeText, nullptr, Run};

}  // namespace monotable::api
