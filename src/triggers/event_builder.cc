#include "triggers/event_builder.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cinttypes>
#include <cstdio>

#include "model/json_writer.h"
#include "streams/stream_reader.h"

namespace monotable::triggers {
namespace {

using Writer = model::JsonWriter;

void Str(Writer& w, std::string_view s) { w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()), true); }
void Field(Writer& w, std::string_view key, std::string_view value) {
  Str(w, key);
  Str(w, value);
}

const char* EventName(table::ChangeKind kind) {
  switch (kind) {
    case table::ChangeKind::kInsert:
      return "INSERT";
    case table::ChangeKind::kModify:
      return "MODIFY";
    case table::ChangeKind::kRemove:
      return "REMOVE";
  }
  return "MODIFY";
}

}  // namespace

std::string StreamArn(std::string_view region, std::string_view account, const table::StreamInfo& info) {
  return "arn:aws:dynamodb:" + std::string(region) + ":" + std::string(account) + ":table/" + info.table_name +
         "/stream/" + info.label;
}

// The same id GetRecords gives the record (src/api/ops/get_records.cc).
std::string EventId(const table::StreamInfo& info, uint64_t seq) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : info.table_id + "/" + info.label) h = (h ^ c) * 1099511628211ULL;
  char buf[40];
  std::snprintf(buf, sizeof buf, "%016" PRIx64 "%016" PRIx64, h, seq);
  return buf;
}

std::string RecordJson(const table::StreamInfo& info, std::string_view arn, std::string_view region,
                       const table::Change& change) {
  const table::ChangeRecord& r = change.record;
  rapidjson::StringBuffer buf;
  Writer w(buf);
  w.StartObject();
  Field(w, "eventID", EventId(info, change.seq));
  Field(w, "eventName", EventName(r.kind));
  Field(w, "eventVersion", "1.1");
  Field(w, "eventSource", "aws:dynamodb");
  Field(w, "awsRegion", region);
  Str(w, "dynamodb");
  w.StartObject();
  Str(w, "ApproximateCreationDateTime");
  w.Int64(r.created_ms / 1000);
  Str(w, "Keys");
  model::WriteItem(w, r.keys);
  if (r.new_image) {
    Str(w, "NewImage");
    model::WriteItem(w, *r.new_image);
  }
  if (r.old_image) {
    Str(w, "OldImage");
    model::WriteItem(w, *r.old_image);
  }
  Field(w, "SequenceNumber", streams::FormatSequenceNumber(change.seq));
  Str(w, "SizeBytes");
  w.Uint64(r.SizeBytes());
  Field(w, "StreamViewType", info.view_type);
  w.EndObject();
  if (r.by_service) {
    Str(w, "userIdentity");
    w.StartObject();
    Field(w, "type", "Service");
    Field(w, "principalId", "dynamodb.amazonaws.com");
    w.EndObject();
  }
  Field(w, "eventSourceARN", arn);
  w.EndObject();
  return std::string(buf.GetString(), buf.GetSize());
}

std::string EventJson(const std::vector<const std::string*>& records) {
  std::string out = "{\"Records\":[";
  for (size_t i = 0; i < records.size(); ++i) {
    if (i) out += ',';
    out += *records[i];
  }
  out += "]}";
  return out;
}

}  // namespace monotable::triggers
