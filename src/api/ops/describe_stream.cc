// DescribeStream (DynamoDB Streams): a stream's status, view type, key schema and its shards (one
// on the embedded engines, several on logged stores: streams/stream_reader.h), in shard id order,
// at most Limit of them (then LastEvaluatedShardId). ShardFilter {Type: CHILD_SHARDS, ShardId}
// lists the children of that shard instead: shards here never split, so a known shard has none;
// an unknown shard id is a
// ResourceNotFoundException (as GetShardIterator answers), a CHILD_SHARDS filter without a
// ShardId a ValidationException, any other Type the shape's enum error.
#include "api/ops/operations.h"
#include "api/request_fields.h"
#include "streams/stream_reader.h"

namespace monotable::api {
namespace {

constexpr const char* kShape = R"({
  "StreamArn": {"type": "String", "required": true, "lengthGreaterThanOrEqual": 37, "lengthLessThanOrEqual": 1024},
  "Limit": {"type": "Integer", "greaterThanOrEqual": 1, "lessThanOrEqual": 100},
  "ExclusiveStartShardId": {"type": "String", "lengthGreaterThanOrEqual": 28, "lengthLessThanOrEqual": 65},
  "ShardFilter": {"type": "FieldStruct<ShardFilter>", "children": {
    "Type": {"type": "String", "enum": ["CHILD_SHARDS"]},
    "ShardId": {"type": "String", "lengthGreaterThanOrEqual": 28, "lengthLessThanOrEqual": 65}}}
})";

Status Run(OperationContext& ctx) {
  std::string_view arn = StringOr(ctx.request, "StreamArn", "");
  MT_ASSIGN_OR_RETURN(auto log, streams::FindStream(ctx.db.streams(), arn));
  table::StreamInfo info = log->info();
  auto exclusive_start = StringMember(ctx.request, "ExclusiveStartShardId");
  const auto limit = static_cast<size_t>(IntMember(ctx.request, "Limit").value_or(100));
  bool children_only = false;
  if (const auto* filter = Member(ctx.request, "ShardFilter")) {
    auto parent = StringMember(*filter, "ShardId");
    if (!parent) {
      return Status::Validation("ShardFilter.ShardId must be specified when ShardFilter.Type is CHILD_SHARDS");
    }
    if (!streams::FindShard(*log, *parent)) {
      return Status::NotFound("Requested resource not found: Shard does not exist");
    }
    children_only = true;
  }
  // The shards to list, with their ranges (read before answering: a store read may fail).
  std::vector<std::pair<std::string, streams::ShardRange>> shards;
  bool more = false;
  for (uint32_t shard = 0; !children_only && shard < log->shard_count(); ++shard) {
    std::string shard_id = streams::ShardId(info, shard);
    if (exclusive_start && shard_id <= *exclusive_start) continue;
    if (shards.size() >= limit) {
      more = true;
      break;
    }
    MT_ASSIGN_OR_RETURN(streams::ShardRange range, streams::RangeOf(ctx.db.streams(), *log, shard));
    shards.emplace_back(std::move(shard_id), range);
  }
  JsonWriter& w = ctx.out;
  w.StartObject();
  w.Key("StreamDescription");
  w.StartObject();
  WriteString(w, "StreamArn", arn);
  WriteString(w, "StreamLabel", info.label);
  WriteString(w, "StreamStatus", info.disabled_ms != 0 ? "DISABLED" : "ENABLED");
  WriteString(w, "StreamViewType", info.view_type);
  w.Key("CreationRequestDateTime");
  w.Double(static_cast<double>(info.created_ms) / 1000.0);
  WriteString(w, "TableName", info.table_name);
  w.Key("KeySchema");
  w.StartArray();
  for (const auto& k : info.key_schema) {
    w.StartObject();
    WriteString(w, "AttributeName", k.name);
    WriteString(w, "KeyType", k.role == KeyRole::kHash ? "HASH" : "RANGE");
    w.EndObject();
  }
  w.EndArray();
  w.Key("Shards");
  w.StartArray();
  for (const auto& [shard_id, range] : shards) {
    w.StartObject();
    WriteString(w, "ShardId", shard_id);
    w.Key("SequenceNumberRange");
    w.StartObject();
    WriteString(w, "StartingSequenceNumber", streams::FormatSequenceNumber(range.starting));
    if (range.ending) WriteString(w, "EndingSequenceNumber", streams::FormatSequenceNumber(*range.ending));
    w.EndObject();
    w.EndObject();
  }
  w.EndArray();
  if (more) WriteString(w, "LastEvaluatedShardId", shards.back().first);
  w.EndObject();
  w.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kDescribeStream{"DescribeStream", kShape, nullptr, Run};

}  // namespace monotable::api
