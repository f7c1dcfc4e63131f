#include "triggers/failure_destination.h"

#include <fcntl.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <ctime>

#include "model/json_writer.h"
#include "streams/stream_reader.h"

namespace monotable::triggers {
namespace {

using Writer = model::JsonWriter;

void Field(Writer& w, const char* key, std::string_view value) {
  w.Key(key);
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()), true);
}

std::string IsoTime(int64_t ms, bool millis) {
  time_t secs = static_cast<time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  std::string out = buf;
  if (millis) {
    char frac[8];
    std::snprintf(frac, sizeof frac, ".%03d", static_cast<int>(ms % 1000));
    out += frac;
  }
  return out + "Z";
}

std::string RequestId(const FailureInfo& info) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : info.trigger + "/" + info.shard_id) h = (h ^ c) * 1099511628211ULL;
  h ^= info.first_seq * 0x9E3779B97F4A7C15ULL ^ static_cast<uint64_t>(info.now_ms);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%08" PRIx32 "-%04" PRIx32 "-%04" PRIx32 "-%04" PRIx32 "-%012" PRIx64,
                static_cast<uint32_t>(h >> 32), static_cast<uint32_t>((h >> 16) & 0xffff),
                static_cast<uint32_t>(h & 0xffff), static_cast<uint32_t>(info.first_seq & 0xffff),
                static_cast<uint64_t>(info.last_seq & 0xffffffffffffULL));
  return buf;
}

Status AppendLine(const std::string& path, const std::string& line) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return Status::Io("cannot open " + path + ": " + std::strerror(errno));
  std::string data = line + "\n";
  ssize_t w = write(fd, data.data(), data.size());
  Status st = w == static_cast<ssize_t>(data.size()) ? Status::Ok() : Status::Io("cannot append to " + path);
  if (st.ok()) fsync(fd);
  close(fd);
  return st;
}

}  // namespace

std::string FailureRecordJson(const FailureInfo& info, bool with_payload) {
  rapidjson::StringBuffer buf;
  Writer w(buf);
  w.StartObject();
  w.Key("requestContext");
  w.StartObject();
  Field(w, "requestId", RequestId(info));
  Field(w, "functionArn", info.function_arn);
  Field(w, "condition", info.condition);
  w.Key("approximateInvokeCount");
  w.Int(info.invoke_count);
  w.EndObject();
  w.Key("responseContext");
  w.StartObject();
  w.Key("statusCode");
  w.Int(info.status_code);
  Field(w, "executedVersion", "$LATEST");
  if (!info.function_error.empty()) Field(w, "functionError", info.function_error);
  w.EndObject();
  Field(w, "version", "1.0");
  Field(w, "timestamp", IsoTime(info.now_ms, true));
  w.Key("DDBStreamBatchInfo");
  w.StartObject();
  Field(w, "shardId", info.shard_id);
  Field(w, "startSequenceNumber", streams::FormatSequenceNumber(info.first_seq));
  Field(w, "endSequenceNumber", streams::FormatSequenceNumber(info.last_seq));
  Field(w, "approximateArrivalOfFirstRecord", IsoTime(info.first_created_ms, false));
  Field(w, "approximateArrivalOfLastRecord", IsoTime(info.last_created_ms, false));
  w.Key("batchSize");
  w.Uint64(info.batch_size);
  Field(w, "streamArn", info.stream_arn);
  w.EndObject();
  if (with_payload && !info.payload.empty()) {
    w.Key("payload");
    w.RawValue(info.payload.data(), info.payload.size(), rapidjson::kObjectType);
  }
  w.EndObject();
  return std::string(buf.GetString(), buf.GetSize());
}

Status SendToDestination(table::Database& db, const Destination& destination, const FailureInfo& info) {
  if (destination.kind == Destination::Kind::kNone) return Status::Ok();
  if (destination.kind == Destination::Kind::kFile) return AppendLine(destination.target, FailureRecordJson(info));
  MT_ASSIGN_OR_RETURN(auto handle, db.Table(destination.target));
  const TableDescription& t = *handle->description;
  std::string start = streams::FormatSequenceNumber(info.first_seq);
  Item item;
  if (t.AttributeType(t.hash_key()) != AttrType::kS) {
    return Status::Validation("on-failure table " + t.name + " needs a String partition key");
  }
  if (const std::string* range = t.range_key()) {
    item[t.hash_key()] = AttributeValue::S(info.trigger);
    auto type = t.AttributeType(*range);
    if (type == AttrType::kS) {
      item[*range] = AttributeValue::S(start);
    } else if (type == AttrType::kN) {
      item[*range] = AttributeValue::N(Number::Parse(std::to_string(info.first_seq)).value());
    } else {
      return Status::Validation("on-failure table " + t.name + " needs a String or Number sort key");
    }
  } else {
    item[t.hash_key()] = AttributeValue::S(info.trigger + "#" + start);
  }
  Item key = item;
  item["condition"] = AttributeValue::S(info.condition);
  item["shardId"] = AttributeValue::S(info.shard_id);
  item["startSequenceNumber"] = AttributeValue::S(start);
  item["endSequenceNumber"] = AttributeValue::S(streams::FormatSequenceNumber(info.last_seq));
  item["batchSize"] = AttributeValue::N(Number::FromInt(static_cast<int64_t>(info.batch_size)));
  item["timestamp"] = AttributeValue::S(IsoTime(info.now_ms, true));
  item["record"] = AttributeValue::S(FailureRecordJson(info));
  if (ItemSize(item) > 400 * 1024) item["record"] = AttributeValue::S(FailureRecordJson(info, false));
  auto written =
      db.Write(*handle, key, [&](const Item*) -> Result<std::optional<Item>> { return std::optional<Item>(item); });
  return written.ok() ? Status::Ok() : written.status();
}

}  // namespace monotable::triggers
