// ListStreams (DynamoDB Streams): every readable stream, optionally of one table, paged by
// ExclusiveStartStreamArn / Limit.
#include <algorithm>

#include "api/ops/operations.h"
#include "api/request_fields.h"
#include "streams/stream_reader.h"

namespace monotable::api {
namespace {

constexpr const char* kShape = R"({
  "TableName": {"type": "String", "regex": "[a-zA-Z0-9_.-]+", "lengthGreaterThanOrEqual": 3,
                "lengthLessThanOrEqual": 255},
  "Limit": {"type": "Integer", "greaterThanOrEqual": 1, "lessThanOrEqual": 100},
  "ExclusiveStartStreamArn": {"type": "String", "lengthGreaterThanOrEqual": 37, "lengthLessThanOrEqual": 1024}
})";

std::string ArnOf(const ServerIdentity& identity, const table::StreamInfo& info) {
  return TableArn(identity, info.table_name) + "/stream/" + info.label;
}

Status Run(OperationContext& ctx) {
  int64_t limit = IntMember(ctx.request, "Limit").value_or(100);
  std::optional<streams::StreamName> start;
  if (auto arn = StringMember(ctx.request, "ExclusiveStartStreamArn")) {
    start = streams::ParseStreamArn(*arn);
    if (!start) return Status::Validation("Invalid ExclusiveStartStreamArn: " + std::string(*arn));
  }
  std::string table = Member(ctx.request, "TableName") ? TableNameOf(ctx.request) : std::string();
  std::vector<table::StreamInfo> infos;
  for (const auto& log : ctx.db.streams().List()) {
    table::StreamInfo info = log->info();
    if (!table.empty() && info.table_name != table) continue;
    infos.push_back(std::move(info));
  }
  if (!table.empty() && infos.empty() && !ctx.db.catalog().Find(table)) {
    return Status::NotFound("Requested resource not found: Table: " + table + " not found");
  }
  auto order = [](const table::StreamInfo& a, const table::StreamInfo& b) {
    return std::tie(a.table_name, a.label, a.created_ms) < std::tie(b.table_name, b.label, b.created_ms);
  };
  std::stable_sort(infos.begin(), infos.end(), order);
  auto first = infos.begin();
  if (start) {
    first = std::find_if(infos.begin(), infos.end(), [&](const table::StreamInfo& s) {
      return std::tie(s.table_name, s.label) > std::tie(start->table_name, start->label);
    });
  }
  ctx.out.StartObject();
  ctx.out.Key("Streams");
  ctx.out.StartArray();
  int64_t written = 0;
  auto it = first;
  for (; it != infos.end() && written < limit; ++it, ++written) {
    ctx.out.StartObject();
    WriteString(ctx.out, "StreamArn", ArnOf(ctx.identity, *it));
    WriteString(ctx.out, "TableName", it->table_name);
    WriteString(ctx.out, "StreamLabel", it->label);
    ctx.out.EndObject();
  }
  ctx.out.EndArray();
  if (it != infos.end() && written > 0) WriteString(ctx.out, "LastEvaluatedStreamArn", ArnOf(ctx.identity, *(it - 1)));
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kListStreams{"ListStreams", kShape, nullptr, Run};

}  // namespace monotable::api
