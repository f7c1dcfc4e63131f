// GetRecords (DynamoDB Streams): the stream records at a shard iterator, and the iterator that
// continues after them (absent once a closed shard has been read to its end).
#include <cinttypes>
#include <cstdio>

#include "api/ops/operations.h"
#include "api/request_fields.h"
#include "streams/stream_reader.h"

namespace monotable::api {
namespace {

constexpr const char* kShape = R"({
  "ShardIterator": {"type": "String", "required": true, "lengthGreaterThanOrEqual": 1,
                    "lengthLessThanOrEqual": 2048},
  "Limit": {"type": "Integer", "greaterThanOrEqual": 1, "lessThanOrEqual": 1000}
})";

const char* EventName(table::ChangeKind kind) {
  switch (kind) {
    case table::ChangeKind::kInsert: return "INSERT";
    case table::ChangeKind::kModify: return "MODIFY";
    case table::ChangeKind::kRemove: return "REMOVE";
  }
  return "MODIFY";
}

std::string EventId(const table::StreamInfo& stream, uint64_t seq) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : stream.table_id + "/" + stream.label) h = (h ^ c) * 1099511628211ULL;
  char buf[40];
  std::snprintf(buf, sizeof buf, "%016" PRIx64 "%016" PRIx64, h, seq);
  return buf;
}

void WriteRecord(JsonWriter& w, const ServerIdentity& identity, const table::StreamInfo& stream,
                 const table::Change& change) {
  const table::ChangeRecord& r = change.record;
  w.StartObject();
  WriteString(w, "eventID", EventId(stream, change.seq));
  WriteString(w, "eventName", EventName(r.kind));
  WriteString(w, "eventVersion", "1.1");
  WriteString(w, "eventSource", "aws:dynamodb");
  WriteString(w, "awsRegion", identity.region);
  w.Key("dynamodb");
  w.StartObject();
  w.Key("ApproximateCreationDateTime");
  w.Double(static_cast<double>(r.created_ms / 1000));
  w.Key("Keys");
  WriteItem(w, r.keys);
  if (r.new_image) {
    w.Key("NewImage");
    WriteItem(w, *r.new_image);
  }
  if (r.old_image) {
    w.Key("OldImage");
    WriteItem(w, *r.old_image);
  }
  WriteString(w, "SequenceNumber", streams::FormatSequenceNumber(change.seq));
  w.Key("SizeBytes");
  w.Uint64(r.SizeBytes());
  WriteString(w, "StreamViewType", stream.view_type);
  w.EndObject();
  if (r.by_service) {
    w.Key("userIdentity");
    w.StartObject();
    WriteString(w, "PrincipalId", "dynamodb.amazonaws.com");
    WriteString(w, "Type", "Service");
    w.EndObject();
  }
  w.EndObject();
}

Status Run(OperationContext& ctx) {
  auto limit = static_cast<size_t>(IntMember(ctx.request, "Limit").value_or(1000));
  MT_ASSIGN_OR_RETURN(streams::RecordsPage page,
                      streams::GetRecords(ctx.db.streams(), StringOr(ctx.request, "ShardIterator", ""), limit,
                                          ctx.db.streams().NowMs()));
  ctx.out.StartObject();
  ctx.out.Key("Records");
  ctx.out.StartArray();
  for (const auto& change : page.changes) WriteRecord(ctx.out, ctx.identity, page.stream, change);
  ctx.out.EndArray();
  if (page.next_iterator) WriteString(ctx.out, "NextShardIterator", *page.next_iterator);
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kGetRecords{"GetRecords", kShape, nullptr, Run};

}  // namespace monotable::api
