#include "triggers/invoker.h"

#include <rapidjson/document.h>

#include <algorithm>

#include "streams/stream_reader.h"
#include "triggers/command_runner.h"
#include "triggers/http_poster.h"

namespace monotable::triggers {

Outcome ReadBatchResponse(std::string_view body, const std::vector<uint64_t>& sequences) {
  Outcome out;
  auto blank =
      std::all_of(body.begin(), body.end(), [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; });
  if (blank) {
    out.ok = true;
    return out;
  }
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError()) {
    out.error = "the handler's response is not JSON";
    return out;
  }
  if (doc.IsNull() || (doc.IsObject() && !doc.HasMember("batchItemFailures"))) {
    out.ok = true;
    return out;
  }
  if (!doc.IsObject()) {
    out.error = "the handler's response is not a JSON object";
    return out;
  }
  const auto& list = doc["batchItemFailures"];
  if (list.IsNull() || (list.IsArray() && list.Empty())) {
    out.ok = true;
    return out;
  }
  if (!list.IsArray()) {
    out.error = "batchItemFailures is not a list";
    return out;
  }
  std::optional<uint64_t> first;
  for (const auto& f : list.GetArray()) {
    if (!f.IsObject() || !f.HasMember("itemIdentifier") || !f["itemIdentifier"].IsString() ||
        f["itemIdentifier"].GetStringLength() == 0) {
      out.error = "a batchItemFailures entry has no itemIdentifier";
      return out;
    }
    auto seq = streams::ParseSequenceNumber(f["itemIdentifier"].GetString());
    if (!seq || !std::binary_search(sequences.begin(), sequences.end(), *seq)) {
      out.error = std::string("itemIdentifier ") + f["itemIdentifier"].GetString() + " is not in the batch";
      return out;
    }
    if (!first || *seq < *first) first = seq;
  }
  out.error = "the handler reported " + std::to_string(list.Size()) + " failed record(s)";
  out.first_failed = first;
  return out;
}

// ": <the last non-empty line of the handler's stderr>" (at most 300 bytes), "" when it wrote none:
// for a Python or Node handler that raised, the exception's message (Lambda's errorMessage).
static std::string LastLine(const std::string& text) {
  size_t end = text.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return "";
  size_t start = text.rfind('\n', end);
  start = start == std::string::npos ? 0 : start + 1;
  std::string line = text.substr(start, end - start + 1);
  if (line.size() > 300) line = line.substr(0, 297) + "...";
  return ": " + line;
}

Outcome Invoke(const TriggerConfig& config, const std::string& event, const std::vector<uint64_t>& sequences,
               const std::vector<std::string>& env, std::stop_token stop) {
  Outcome out;
  int timeout_ms = config.timeout_s * 1000;
  std::string body;
  if (!config.command.empty()) {
    CommandResult r = RunCommand(config.command, env, event, timeout_ms, stop);
    if (!r.started) {
      out.error = r.error;
      return out;
    }
    if (r.timed_out) {
      out.error = "the handler timed out after " + std::to_string(config.timeout_s) + " s";
      return out;
    }
    if (r.output_too_large) {
      out.error = "the handler's response is larger than 6 MB";
      return out;
    }
    if (r.signal != 0) {
      out.error = "the handler was killed by signal " + std::to_string(r.signal) + LastLine(r.error_output);
      return out;
    }
    if (r.exit_code != 0) {
      out.error = "the handler exited with status " + std::to_string(r.exit_code) + LastLine(r.error_output);
      return out;
    }
    body = std::move(r.output);
  } else {
    HttpResult r = PostJson(config.url, event, timeout_ms, stop);
    out.status_code = r.status;
    if (r.status == 0) {
      out.error = r.error;
      return out;
    }
    if (r.status < 200 || r.status > 299) {
      out.error = "the handler answered HTTP " + std::to_string(r.status);
      return out;
    }
    body = std::move(r.body);
  }
  if (!config.report_batch_item_failures) {
    out.ok = true;
    return out;
  }
  Outcome read = ReadBatchResponse(body, sequences);
  read.status_code = out.status_code;
  return read;
}

}  // namespace monotable::triggers
