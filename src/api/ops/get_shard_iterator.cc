// GetShardIterator (DynamoDB Streams): an iterator at TRIM_HORIZON, LATEST, or at / after a
// sequence number of a stream's shard.
#include "api/ops/operations.h"
#include "api/request_fields.h"
#include "streams/stream_reader.h"

namespace monotable::api {
namespace {

constexpr const char* kShape = R"({
  "StreamArn": {"type": "String", "required": true, "lengthGreaterThanOrEqual": 37, "lengthLessThanOrEqual": 1024},
  "ShardId": {"type": "String", "required": true, "lengthGreaterThanOrEqual": 28, "lengthLessThanOrEqual": 65},
  "ShardIteratorType": {"type": "String", "required": true,
                        "enum": ["TRIM_HORIZON", "LATEST", "AT_SEQUENCE_NUMBER", "AFTER_SEQUENCE_NUMBER"]},
  "SequenceNumber": {"type": "String", "lengthGreaterThanOrEqual": 21, "lengthLessThanOrEqual": 40}
})";

Status Run(OperationContext& ctx) {
  auto type = streams::ParseIteratorType(StringOr(ctx.request, "ShardIteratorType", ""));
  if (!type) return Status::Validation("Invalid ShardIteratorType");
  MT_ASSIGN_OR_RETURN(std::string iterator,
                      streams::GetShardIterator(ctx.db.streams(), StringOr(ctx.request, "StreamArn", ""),
                                                StringOr(ctx.request, "ShardId", ""), *type,
                                                StringMember(ctx.request, "SequenceNumber"), ctx.db.streams().NowMs()));
  ctx.out.StartObject();
  WriteString(ctx.out, "ShardIterator", iterator);
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kGetShardIterator{"GetShardIterator", kShape, nullptr, Run};

}  // namespace monotable::api
