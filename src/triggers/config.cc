#include "triggers/config.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <fstream>
#include <set>
#include <sstream>

#include "model/json_writer.h"
#include "triggers/yaml_document.h"

namespace monotable::triggers {
namespace {

Status Bad(const std::string& trigger, const std::string& what) {
  return Status::Validation(trigger.empty() ? what : "trigger " + trigger + ": " + what);
}

Result<int> IntIn(const rapidjson::Value& v, const std::string& trigger, const char* name, int lo, int hi,
                  std::optional<int> also = std::nullopt) {
  if (!v.IsInt()) return Bad(trigger, std::string(name) + " must be an integer");
  int x = v.GetInt();
  if ((x < lo || x > hi) && !(also && x == *also)) {
    return Bad(trigger, std::string(name) + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                            (also ? " (or " + std::to_string(*also) + ")" : ""));
  }
  return x;
}

// http://127.0.0.1:PORT/PATH or http://localhost:PORT/PATH or http://[::1]:PORT/PATH.
bool LoopbackUrl(std::string_view url) {
  if (url.substr(0, 7) != "http://") return false;
  std::string_view rest = url.substr(7);
  for (std::string_view host : {"127.0.0.1", "localhost", "[::1]"}) {
    if (rest.substr(0, host.size()) == host &&
        (rest.size() == host.size() || rest[host.size()] == ':' || rest[host.size()] == '/')) {
      return true;
    }
  }
  return false;
}

Result<TriggerConfig> ParseOne(const rapidjson::Value& t, size_t index) {
  std::string label = "#" + std::to_string(index + 1);
  if (!t.IsObject()) return Bad(label, "must be an object");
  TriggerConfig c;
  if (!t.HasMember("Name") || !t["Name"].IsString() || t["Name"].GetStringLength() == 0) {
    return Bad(label, "Name (a non-empty string) is required");
  }
  c.name = t["Name"].GetString();
  for (char ch : c.name) {
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '_' && ch != '.') {
      return Bad(c.name, "Name may hold letters, digits, '-', '_' and '.' only");
    }
  }
  const std::string& n = c.name;
  static const std::set<std::string, std::less<>> kKnown = {"Name",
                                                            "Table",
                                                            "Command",
                                                            "Url",
                                                            "StartingPosition",
                                                            "BatchSize",
                                                            "MaximumBatchingWindowInSeconds",
                                                            "FilterCriteria",
                                                            "MaximumRetryAttempts",
                                                            "MaximumRecordAgeInSeconds",
                                                            "BisectBatchOnFunctionError",
                                                            "FunctionResponseTypes",
                                                            "DestinationConfig",
                                                            "TimeoutSeconds",
                                                            "Enabled"};
  for (const auto& m : t.GetObject()) {
    if (!kKnown.count(std::string_view(m.name.GetString(), m.name.GetStringLength()))) {
      return Bad(n, std::string("unknown member ") + m.name.GetString());
    }
  }
  if (!t.HasMember("Table") || !t["Table"].IsString() || t["Table"].GetStringLength() == 0) {
    return Bad(n, "Table (a table name) is required");
  }
  c.table = t["Table"].GetString();
  bool has_command = t.HasMember("Command");
  bool has_url = t.HasMember("Url");
  if (has_command == has_url) return Bad(n, "give exactly one of Command and Url");
  if (has_command) {
    const auto& cmd = t["Command"];
    if (cmd.IsString() && cmd.GetStringLength() > 0) {
      c.command = {"/bin/sh", "-c", cmd.GetString()};
    } else if (cmd.IsArray() && !cmd.Empty()) {
      for (const auto& a : cmd.GetArray()) {
        if (!a.IsString()) return Bad(n, "Command must be a string or an array of strings");
        c.command.emplace_back(a.GetString(), a.GetStringLength());
      }
    } else {
      return Bad(n, "Command must be a string or an array of strings");
    }
  } else {
    if (!t["Url"].IsString() || !LoopbackUrl(t["Url"].GetString())) {
      return Bad(n, "Url must be an http:// URL on loopback (127.0.0.1, localhost or [::1])");
    }
    c.url = t["Url"].GetString();
  }
  if (!t.HasMember("StartingPosition") || !t["StartingPosition"].IsString()) {
    return Bad(n, "StartingPosition (TRIM_HORIZON or LATEST) is required");
  }
  std::string_view pos = t["StartingPosition"].GetString();
  if (pos == "TRIM_HORIZON")
    c.starting_position = StartingPosition::kTrimHorizon;
  else if (pos == "LATEST")
    c.starting_position = StartingPosition::kLatest;
  else
    return Bad(n, "StartingPosition must be TRIM_HORIZON or LATEST");
  if (t.HasMember("BatchSize")) {
    auto v = IntIn(t["BatchSize"], n, "BatchSize", 1, 10000);
    if (!v.ok()) return v.status();
    c.batch_size = v.value();
  }
  if (t.HasMember("MaximumBatchingWindowInSeconds")) {
    auto v = IntIn(t["MaximumBatchingWindowInSeconds"], n, "MaximumBatchingWindowInSeconds", 0, 300);
    if (!v.ok()) return v.status();
    c.batching_window_s = v.value();
  }
  if (t.HasMember("MaximumRetryAttempts")) {
    auto v = IntIn(t["MaximumRetryAttempts"], n, "MaximumRetryAttempts", -1, 10000);
    if (!v.ok()) return v.status();
    c.max_retry_attempts = v.value();
  }
  if (t.HasMember("MaximumRecordAgeInSeconds")) {
    auto v = IntIn(t["MaximumRecordAgeInSeconds"], n, "MaximumRecordAgeInSeconds", 60, 604800, -1);
    if (!v.ok()) return v.status();
    c.max_record_age_s = v.value();
  }
  if (t.HasMember("TimeoutSeconds")) {
    auto v = IntIn(t["TimeoutSeconds"], n, "TimeoutSeconds", 1, 900);
    if (!v.ok()) return v.status();
    c.timeout_s = v.value();
  }
  if (t.HasMember("BisectBatchOnFunctionError")) {
    if (!t["BisectBatchOnFunctionError"].IsBool()) return Bad(n, "BisectBatchOnFunctionError must be true or false");
    c.bisect_on_error = t["BisectBatchOnFunctionError"].GetBool();
  }
  if (t.HasMember("Enabled") && !t["Enabled"].IsBool()) return Bad(n, "Enabled must be true or false");
  if (t.HasMember("FunctionResponseTypes")) {
    const auto& types = t["FunctionResponseTypes"];
    if (!types.IsArray()) return Bad(n, "FunctionResponseTypes must be an array");
    for (const auto& ty : types.GetArray()) {
      if (!ty.IsString() || std::string_view(ty.GetString()) != "ReportBatchItemFailures") {
        return Bad(n, "FunctionResponseTypes may only hold ReportBatchItemFailures");
      }
      c.report_batch_item_failures = true;
    }
  }
  if (t.HasMember("FilterCriteria")) {
    const auto& fc = t["FilterCriteria"];
    if (!fc.IsObject() || !fc.HasMember("Filters") || !fc["Filters"].IsArray() || fc.MemberCount() != 1) {
      return Bad(n, "FilterCriteria must be {\"Filters\": [{\"Pattern\": \"...\"}]}");
    }
    if (fc["Filters"].Size() > 5) return Bad(n, "FilterCriteria holds at most 5 filters");
    for (const auto& f : fc["Filters"].GetArray()) {
      if (!f.IsObject() || !f.HasMember("Pattern") || f.MemberCount() != 1 ||
          !(f["Pattern"].IsString() || f["Pattern"].IsObject())) {
        return Bad(n, "each filter must be {\"Pattern\": \"<JSON text>\"} (or the pattern as an object)");
      }
      std::string text;
      if (f["Pattern"].IsString()) {
        text.assign(f["Pattern"].GetString(), f["Pattern"].GetStringLength());
      } else {  // written out as a mapping (convenient in YAML)
        rapidjson::StringBuffer buf;
        model::JsonWriter w(buf);
        f["Pattern"].Accept(w);
        text.assign(buf.GetString(), buf.GetSize());
      }
      if (text.size() > 4096) return Bad(n, "a Pattern is at most 4096 characters");
      auto pattern = FilterPattern::Compile(text);
      if (!pattern.ok()) return Bad(n, pattern.status().message());
      c.filters.push_back(std::move(pattern).value());
      c.filter_texts.push_back(std::move(text));
    }
  }
  if (t.HasMember("DestinationConfig")) {
    const auto& dc = t["DestinationConfig"];
    if (!dc.IsObject() || !dc.HasMember("OnFailure") || !dc["OnFailure"].IsObject() ||
        !dc["OnFailure"].HasMember("Destination") || !dc["OnFailure"]["Destination"].IsString()) {
      return Bad(n, "DestinationConfig must be {\"OnFailure\": {\"Destination\": \"file:PATH\" or \"table:NAME\"}}");
    }
    std::string_view d = dc["OnFailure"]["Destination"].GetString();
    if (d.substr(0, 7) == "file://" && d.size() > 7) {
      c.on_failure = {Destination::Kind::kFile, std::string(d.substr(7))};
    } else if (d.substr(0, 5) == "file:" && d.size() > 5) {
      c.on_failure = {Destination::Kind::kFile, std::string(d.substr(5))};
    } else if (d.substr(0, 6) == "table:" && d.size() > 6) {
      c.on_failure = {Destination::Kind::kTable, std::string(d.substr(6))};
    } else {
      return Bad(n, "an OnFailure Destination is file:PATH or table:NAME");
    }
  }
  return c;
}

}  // namespace

bool TriggerConfig::operator==(const TriggerConfig& o) const {
  return name == o.name && table == o.table && command == o.command && url == o.url &&
         starting_position == o.starting_position && batch_size == o.batch_size &&
         batching_window_s == o.batching_window_s && filter_texts == o.filter_texts &&
         max_retry_attempts == o.max_retry_attempts && max_record_age_s == o.max_record_age_s &&
         bisect_on_error == o.bisect_on_error && report_batch_item_failures == o.report_batch_item_failures &&
         on_failure.kind == o.on_failure.kind && on_failure.target == o.on_failure.target && timeout_s == o.timeout_s;
}

namespace {

Result<std::vector<TriggerConfig>> ParseDocument(const rapidjson::Document& doc) {
  if (!doc.IsObject() || !doc.HasMember("Triggers") || !doc["Triggers"].IsArray() || doc.MemberCount() != 1) {
    return Status::Validation("triggers file must be {\"Triggers\": [...]}");
  }
  std::vector<TriggerConfig> out;
  std::set<std::string> names;
  size_t i = 0;
  for (const auto& t : doc["Triggers"].GetArray()) {
    auto c = ParseOne(t, i++);
    if (!c.ok()) return c.status();
    if (t.HasMember("Enabled") && !t["Enabled"].GetBool()) continue;
    if (!names.insert(c.value().name).second) return Bad(c.value().name, "Name is used twice");
    out.push_back(std::move(c).value());
  }
  return out;
}

bool IsYamlPath(std::string_view path) {
  auto ends = [&](std::string_view suffix) {
    return path.size() >= suffix.size() && path.substr(path.size() - suffix.size()) == suffix;
  };
  return ends(".yaml") || ends(".yml");
}

}  // namespace

Result<std::vector<TriggerConfig>> ParseTriggers(std::string_view text) {
  rapidjson::Document doc;
  doc.Parse(text.data(), text.size());
  if (doc.HasParseError()) {
    return Status::Validation(std::string("triggers file is not JSON: ") +
                              rapidjson::GetParseError_En(doc.GetParseError()) + " at offset " +
                              std::to_string(doc.GetErrorOffset()));
  }
  return ParseDocument(doc);
}

Result<std::vector<TriggerConfig>> ParseTriggersYaml(std::string_view text) {
  rapidjson::Document doc;
  if (Status st = YamlToJson(text, doc); !st.ok()) return st;
  return ParseDocument(doc);
}

Result<std::vector<TriggerConfig>> LoadTriggersFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Io("cannot read triggers file " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  auto parsed = IsYamlPath(path) ? ParseTriggersYaml(ss.str()) : ParseTriggers(ss.str());
  if (!parsed.ok()) return Status(parsed.status().code(), path + ": " + parsed.status().message());
  return parsed;
}

}  // namespace monotable::triggers
