#include "triggers/status_json.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>

#include "model/json_writer.h"
#include "streams/stream_reader.h"

namespace monotable::triggers {
namespace {

using Writer = model::JsonWriter;

void Str(Writer& w, std::string_view s) { w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()), true); }
void Key(Writer& w, std::string_view k) { Str(w, k); }
void Seq(Writer& w, const std::optional<uint64_t>& seq) {
  if (seq) {
    Str(w, streams::FormatSequenceNumber(*seq));
  } else {
    w.Null();
  }
}

void Handler(Writer& w, const TriggerConfig& c) {
  w.StartObject();
  Key(w, "kind");
  if (!c.url.empty()) {
    Str(w, "url");
    Key(w, "url");
    Str(w, c.url);
  } else {
    Str(w, "command");
    Key(w, "command");
    w.StartArray();
    for (const auto& arg : c.command) Str(w, arg);
    w.EndArray();
  }
  w.EndObject();
}

void Trigger(Writer& w, const TriggerStatus& t, int64_t now_ms) {
  const TriggerConfig& c = t.config;
  const TriggerStats& s = *t.stats;
  w.StartObject();
  Key(w, "name");
  Str(w, c.name);
  Key(w, "table");
  Str(w, c.table);
  Key(w, "handler");
  Handler(w, c);
  Key(w, "startingPosition");
  Str(w, c.starting_position == StartingPosition::kLatest ? "LATEST" : "TRIM_HORIZON");
  Key(w, "batchSize");
  w.Int(c.batch_size);
  Key(w, "batchingWindowSeconds");
  w.Int(c.batching_window_s);
  Key(w, "maximumRetryAttempts");
  w.Int(c.max_retry_attempts);
  Key(w, "maximumRecordAgeSeconds");
  w.Int(c.max_record_age_s);
  Key(w, "bisectBatchOnFunctionError");
  w.Bool(c.bisect_on_error);
  Key(w, "reportBatchItemFailures");
  w.Bool(c.report_batch_item_failures);
  Key(w, "filters");
  w.Uint64(c.filters.size());
  Key(w, "onFailure");
  switch (c.on_failure.kind) {
    case Destination::Kind::kNone:
      w.Null();
      break;
    case Destination::Kind::kFile:
      Str(w, "file:" + c.on_failure.target);
      break;
    case Destination::Kind::kTable:
      Str(w, "table:" + c.on_failure.target);
      break;
  }
  Key(w, "timeoutSeconds");
  w.Int(c.timeout_s);

  Key(w, "state");
  Str(w, s.state());
  Key(w, "lastError");
  if (std::string e = s.last_error(); e.empty()) {
    w.Null();
  } else {
    Str(w, e);
  }
  const std::pair<const char*, uint64_t> counters[] = {
      {"invocations", s.invocations.load()},         {"invocationErrors", s.invocation_errors.load()},
      {"batchesDelivered", s.batches_delivered.load()}, {"recordsDelivered", s.records_delivered.load()},
      {"recordsFiltered", s.records_filtered.load()}, {"recordsFailed", s.records_failed.load()},
      {"batchesBisected", s.batches_bisected.load()}};
  for (const auto& [name, value] : counters) {
    Key(w, name);
    w.Uint64(value);
  }
  int64_t lag = 0;
  for (const auto& shard : t.shards) lag += shard.lag;
  Key(w, "lagRecords");
  w.Int64(lag);
  Key(w, "oldestUnacknowledgedAgeSeconds");
  int64_t oldest = s.oldest_unacked_ms.load();
  w.Double(oldest == 0 ? 0.0 : static_cast<double>(std::max<int64_t>(0, now_ms - oldest)) / 1000.0);
  Key(w, "shards");
  w.StartArray();
  for (const auto& shard : t.shards) {
    w.StartObject();
    Key(w, "shardId");
    Str(w, shard.shard_id);
    Key(w, "current");
    w.Bool(shard.current);
    Key(w, "closed");
    w.Bool(shard.closed);
    Key(w, "nextSequenceNumber");
    Seq(w, shard.next);
    Key(w, "lastSequenceNumber");
    Seq(w, shard.last);
    Key(w, "lagRecords");
    w.Int64(shard.lag);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

}  // namespace

std::string TriggersStatusJson(const std::vector<TriggerStatus>& triggers, int64_t now_ms) {
  rapidjson::StringBuffer buf;
  Writer w(buf);
  w.StartObject();
  Key(w, "configured");
  w.Bool(true);
  Key(w, "now");
  w.Int64(now_ms);
  Key(w, "triggers");
  w.StartArray();
  for (const auto& t : triggers) Trigger(w, t, now_ms);
  w.EndArray();
  w.EndObject();
  return buf.GetString();
}

}  // namespace monotable::triggers
