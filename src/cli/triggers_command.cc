#include "cli/triggers_command.h"

#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "cli/dynamo_client.h"
#include "triggers/checkpoint_store.h"
#include "triggers/http_poster.h"

namespace monotable::cli {
namespace {

int Usage(const char* message) {
  if (message) std::fprintf(stderr, "monotable triggers: %s\n", message);
  std::fprintf(stderr,
               "usage: monotable triggers --endpoint URL   (a running server, e.g. http://127.0.0.1:8000; signed with\n"
               "                                           the AWS CLI's key when there is one)\n"
               "       monotable triggers --data DIR       (the checkpoints saved in a data directory)\n");
  return 2;
}

// `name{labels} value` -> the value of label `key`.
std::string Label(std::string_view line, std::string_view key) {
  std::string needle = std::string(key) + "=\"";
  auto at = line.find(needle);
  if (at == std::string_view::npos) return "";
  auto start = at + needle.size();
  auto end = line.find('"', start);
  return std::string(line.substr(start, end - start));
}

using Rows = std::map<std::string, std::map<std::string, std::string>>;  // trigger -> column -> value

void PrintTable(Rows& rows) {
  std::printf("%-24s %-20s %-18s %8s %9s %11s %6s %8s %9s %8s %6s\n", "TRIGGER", "TABLE", "STATE", "LAG", "OLDEST_S",
              "INVOCATIONS", "ERRORS", "BATCHES", "DELIVERED", "FILTERED", "FAILED");
  for (auto& [trigger, row] : rows) {
    std::printf("%-24s %-20s %-18s %8s %9s %11s %6s %8s %9s %8s %6s\n", trigger.c_str(), row["table"].c_str(),
                row["state"].c_str(), row["lag"].c_str(), row["oldest_s"].c_str(), row["invocations"].c_str(),
                row["errors"].c_str(), row["batches"].c_str(), row["delivered"].c_str(), row["filtered"].c_str(),
                row["failed"].c_str());
  }
}

std::string Number(const rapidjson::Value& t, const char* field) {
  if (!t.HasMember(field)) return "";
  const auto& v = t[field];
  if (v.IsUint64()) return std::to_string(v.GetUint64());
  if (v.IsInt64()) return std::to_string(v.GetInt64());
  if (v.IsNumber()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v.GetDouble());
    return buf;
  }
  return "";
}

std::string Text(const rapidjson::Value& t, const char* field) {
  return t.HasMember(field) && t[field].IsString() ? t[field].GetString() : "";
}

// GET /monotable/triggers (signed with the AWS CLI's key when there is one): the table, then
// per trigger where delivery stands in each shard and its last error. 1: answered but not
// usable (refused, not JSON); -1: no such endpoint (an older server: use /metrics).
int FromStatusJson(const std::string& url) {
  auto settings = ResolveAwsSettings("", "");
  if (!settings.ok()) {
    std::fprintf(stderr, "monotable triggers: %s\n", settings.status().message().c_str());
    return 1;
  }
  auto client = DynamoClient::Create(url, std::move(settings).value());
  if (!client.ok()) {
    std::fprintf(stderr, "monotable triggers: %s\n", client.status().message().c_str());
    return 1;
  }
  auto answer = client->Get("/monotable/triggers");
  if (!answer.ok() || answer->status == 404) return -1;
  rapidjson::Document doc;
  doc.Parse(answer->body.c_str());
  if (answer->status != 200 || doc.HasParseError() || !doc.IsObject() || !doc.HasMember("triggers") ||
      !doc["triggers"].IsArray()) {
    std::string why = answer->body;
    if (!doc.HasParseError() && doc.IsObject() && doc.HasMember("__type") && doc["__type"].IsString()) {
      std::string type = doc["__type"].GetString();
      why = type.substr(type.rfind('#') + 1) + ": " + Text(doc, "message");
    }
    std::fprintf(stderr, "monotable triggers: %s/monotable/triggers answered HTTP %d: %s\n", url.c_str(),
                 answer->status, why.c_str());
    if (answer->status == 403) {
      std::fprintf(stderr, "(the server checks signatures: give a key as for the AWS CLI, e.g. AWS_ACCESS_KEY_ID and "
                           "AWS_SECRET_ACCESS_KEY)\n");
    }
    return 1;
  }
  const auto& list = doc["triggers"];
  if (list.Empty()) {
    std::printf("no triggers configured\n");
    return 0;
  }
  Rows rows;
  for (const auto& t : list.GetArray()) {
    auto& row = rows[Text(t, "name")];
    row["table"] = Text(t, "table");
    row["state"] = Text(t, "state");
    row["lag"] = Number(t, "lagRecords");
    row["oldest_s"] = Number(t, "oldestUnacknowledgedAgeSeconds");
    row["invocations"] = Number(t, "invocations");
    row["errors"] = Number(t, "invocationErrors");
    row["batches"] = Number(t, "batchesDelivered");
    row["delivered"] = Number(t, "recordsDelivered");
    row["filtered"] = Number(t, "recordsFiltered");
    row["failed"] = Number(t, "recordsFailed");
  }
  PrintTable(rows);
  std::printf("\n");
  for (const auto& t : list.GetArray()) {
    std::string name = Text(t, "name");
    if (t.HasMember("shards") && t["shards"].IsArray()) {
      for (const auto& shard : t["shards"].GetArray()) {
        bool current = shard.HasMember("current") && shard["current"].IsBool() && shard["current"].GetBool();
        bool closed = shard.HasMember("closed") && shard["closed"].IsBool() && shard["closed"].GetBool();
        std::string next = Text(shard, "nextSequenceNumber");
        std::string last = Text(shard, "lastSequenceNumber");
        std::printf("%-24s shard %s %s%s next %s last %s lag %s\n", name.c_str(), Text(shard, "shardId").c_str(),
                    closed ? "closed" : "open", current ? ", reading," : "", next.empty() ? "-" : next.c_str(),
                    last.empty() ? "-" : last.c_str(), Number(shard, "lagRecords").c_str());
      }
    }
    if (std::string error = Text(t, "lastError"); !error.empty()) {
      std::printf("%-24s last error: %s\n", name.c_str(), error.c_str());
    }
  }
  return 0;
}

int FromEndpoint(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  if (int rc = FromStatusJson(url); rc >= 0) return rc;
  auto r = triggers::GetText(url + "/metrics", 10000);
  if (r.status != 200) {
    std::fprintf(stderr, "monotable triggers: cannot read %s/metrics: %s\n", url.c_str(),
                 r.error.empty() ? ("HTTP " + std::to_string(r.status)).c_str() : r.error.c_str());
    return 1;
  }
  Rows rows;
  const std::vector<std::pair<std::string, std::string>> columns = {
      {"monotable_trigger_lag_records", "lag"},
      {"monotable_trigger_oldest_unacknowledged_age_seconds", "oldest_s"},
      {"monotable_trigger_invocations_total", "invocations"},
      {"monotable_trigger_invocation_errors_total", "errors"},
      {"monotable_trigger_batches_delivered_total", "batches"},
      {"monotable_trigger_records_delivered_total", "delivered"},
      {"monotable_trigger_records_filtered_total", "filtered"},
      {"monotable_trigger_records_failed_total", "failed"}};
  std::string_view text = r.body;
  while (!text.empty()) {
    auto eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
    if (line.substr(0, 18) != "monotable_trigger_") continue;
    std::string name(line.substr(0, line.find('{')));
    std::string trigger = Label(line, "trigger");
    auto& row = rows[trigger];
    row["table"] = Label(line, "table");
    std::string value(line.substr(line.rfind(' ') + 1));
    if (name == "monotable_trigger_state") row["state"] = Label(line, "state");
    for (const auto& [metric, column] : columns) {
      if (name == metric) row[column] = value;
    }
  }
  if (rows.empty()) {
    std::printf("no triggers configured\n");
    return 0;
  }
  PrintTable(rows);
  return 0;
}

int FromData(const std::string& dir) {
  auto map = triggers::ReadCheckpointFile(triggers::CheckpointPath(dir));
  if (!map.ok()) {
    std::fprintf(stderr, "monotable triggers: %s\n", map.status().message().c_str());
    return 1;
  }
  if (map.value().empty()) {
    std::printf("no trigger checkpoints in %s\n", dir.c_str());
    return 0;
  }
  std::printf("%-24s %-40s %s\n", "TRIGGER", "SHARD", "NEXT_SEQUENCE_NUMBER");
  for (const auto& [key, next] : map.value()) {
    auto slash = key.find('/');
    char seq[32];
    std::snprintf(seq, sizeof seq, "%021llu", static_cast<unsigned long long>(next));
    std::printf("%-24s %-40s %s\n", key.substr(0, slash).c_str(), key.substr(slash + 1).c_str(), seq);
  }
  return 0;
}

}  // namespace

int RunTriggersCommand(int argc, char** argv) {
  if (argc != 2) return Usage(argc == 0 ? "give --endpoint URL or --data DIR" : "give one of --endpoint, --data");
  std::string_view flag = argv[0];
  if (flag == "--endpoint") return FromEndpoint(argv[1]);
  if (flag == "--data") return FromData(argv[1]);
  return Usage(("unknown option " + std::string(flag)).c_str());
}

}  // namespace monotable::cli
