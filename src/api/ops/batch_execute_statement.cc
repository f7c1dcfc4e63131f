// BatchExecuteStatement: up to 25 PartiQL statements, each a single-item read (SELECT with the
// whole key) or write, run independently; each gets its own result or Error in Responses.
#include "api/capacity.h"
#include "api/item_request.h"
#include "api/ops/operations.h"
#include "api/partiql/executor.h"
#include "api/partiql/request.h"
#include "api/request_fields.h"

namespace monotable::api {
namespace {

std::string ShapeText() {
  return std::string(R"({
  "Statements": {"type": "List", "notNull": true, "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 25,
    "children": {"type": "ValueStruct<BatchStatementRequest>", "children": {
      "Statement": )") +
         partiql::kStatementShape + R"(,
      "Parameters": )" +
         partiql::kParametersShape + R"(,
      "ConsistentRead": "Boolean",
      "ReturnValuesOnConditionCheckFailure": {"type": "String", "enum": ["ALL_OLD", "NONE"]}}}},
  "ReturnConsumedCapacity": )" +
         kReturnConsumedCapacityShape + "}";
}

struct Response {
  Status status;
  std::string table;  // empty until the statement's table was resolved
  std::optional<Item> item;
  std::optional<Item> error_item;
};

Response Failed(Status status) {
  Response r;
  r.status = std::move(status);
  return r;
}

Response RunOne(OperationContext& ctx, const rapidjson::Value& entry, CapacityByTable& capacity, bool& any_read) {
  Response r;
  auto parameters = partiql::DecodeParameters(entry);
  if (!parameters.ok()) return Failed(parameters.status());
  auto prepared = partiql::Parse(StringOr(entry, "Statement", ""), std::move(parameters).value());
  if (!prepared.ok()) return Failed(prepared.status());
  partiql::PreparedStatement& s = *prepared;
  if (s.ast.kind == partiql::pq::StatementKind::kExists) {
    return Failed(Status::Validation("EXISTS can only be used in ExecuteTransaction write requests."));
  }
  Status planned = partiql::Plan(ctx.db, s);
  if (s.table) r.table = s.table->description->name;
  if (!planned.ok()) {
    r.status = planned;
    return r;
  }
  if (s.IsRead() && !s.ReadsOneItem()) {
    r.status = Status::Validation(
        "Select statements within BatchExecuteStatement must specify the primary key in the where clause.");
    return r;
  }
  partiql::ExecOptions options;
  options.consistent = BoolMember(entry, "ConsistentRead").value_or(false);
  options.return_old_on_failure = StringOr(entry, "ReturnValuesOnConditionCheckFailure", "NONE") == "ALL_OLD";
  partiql::ExecResult result = partiql::Execute(ctx.db, s, options);
  if (!result.status.ok()) {
    r.status = result.status;
    r.error_item = std::move(result.failed_item);
    return r;
  }
  any_read = any_read || s.IsRead();
  capacity.Add(r.table, result.consumed);
  if (!result.items.empty()) r.item = std::move(result.items[0]);
  return r;
}

Status Run(OperationContext& ctx) {
  std::vector<Response> responses;
  CapacityByTable capacity;
  bool any_read = false;
  size_t succeeded = 0;
  for (const auto& entry : Member(ctx.request, "Statements")->GetArray()) {
    Response r = RunOne(ctx, entry, capacity, any_read);
    if (!r.status.ok() && partiql::IsServerError(r.status.code())) return r.status;
    if (r.status.ok()) ++succeeded;
    responses.push_back(std::move(r));
  }
  auto& out = ctx.out;
  out.StartObject();
  out.Key("Responses");
  out.StartArray();
  for (const Response& r : responses) {
    out.StartObject();
    if (!r.status.ok()) {
      out.Key("Error");
      out.StartObject();
      WriteString(out, "Code", partiql::BatchErrorCode(r.status.code()));
      WriteString(out, "Message", r.status.message());
      if (r.error_item) {
        out.Key("Item");
        WriteItem(out, *r.error_item);
      }
      out.EndObject();
    }
    if (!r.table.empty()) WriteString(out, "TableName", r.table);
    if (r.item) {
      out.Key("Item");
      WriteItem(out, *r.item);
    }
    out.EndObject();
  }
  out.EndArray();
  // Only the statements that succeeded are charged; none at all: no ConsumedCapacity.
  if (succeeded) capacity.Write(out, StringOr(ctx.request, "ReturnConsumedCapacity", "NONE"), any_read);
  out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kBatchExecuteStatement{"BatchExecuteStatement", ShapeText, nullptr, Run};

}  // namespace monotable::api
