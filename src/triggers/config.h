// Triggers file: which stream handlers run for which tables, with Lambda's event source mapping
// settings (the parameter names of CreateEventSourceMapping).
//
// Format (JSON; or the same document in YAML, where a filter's Pattern may also be a mapping):
//   {"Triggers": [{
//      "Name": "bio-fanout",                      // unique; names the checkpoints and metrics
//      "Table": "Library",                        // the table whose stream feeds the handler
//      "Command": ["python3", "handler.py"],      // run per batch: event on stdin (or a string: sh -c)
//      "Url": "http://127.0.0.1:9000/",           // or: POST the event to a loopback endpoint
//      "StartingPosition": "TRIM_HORIZON",        // or LATEST (required, as for DynamoDB on AWS)
//      "BatchSize": 100,                          // 1..10000 (default 100)
//      "MaximumBatchingWindowInSeconds": 0,       // 0..300
//      "FilterCriteria": {"Filters": [{"Pattern": "{...}"}]},  // at most 5, ORed
//      "MaximumRetryAttempts": -1,                // -1 (until the record expires) or 0..10000
//      "MaximumRecordAgeInSeconds": -1,           // -1 or 60..604800
//      "BisectBatchOnFunctionError": false,
//      "FunctionResponseTypes": ["ReportBatchItemFailures"],
//      "DestinationConfig": {"OnFailure": {"Destination": "file:///tmp/failed.jsonl" | "table:Failures"}},
//      "TimeoutSeconds": 60                       // one invocation's limit (Lambda's function timeout)
//   }]}
// Contract: ParseTriggers() validates everything up front (unknown members, ranges, exactly one of
// Command/Url, Url on loopback over http, patterns compile) and names the offending trigger and
// member in a kValidation Status; it never throws or crashes on bad input.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "triggers/filter_pattern.h"

namespace monotable::triggers {

enum class StartingPosition { kTrimHorizon, kLatest };

struct Destination {
  enum class Kind { kNone, kFile, kTable } kind = Kind::kNone;
  std::string target;  // file path or table name
};

struct TriggerConfig {
  std::string name;
  std::string table;
  std::vector<std::string> command;  // argv; a string command becomes {"/bin/sh", "-c", text}
  std::string url;                   // http://127.0.0.1:PORT/PATH
  StartingPosition starting_position = StartingPosition::kTrimHorizon;
  int batch_size = 100;
  int batching_window_s = 0;
  std::vector<std::shared_ptr<const FilterPattern>> filters;  // none: every record
  std::vector<std::string> filter_texts;                      // as given (for change detection)
  int max_retry_attempts = -1;
  int max_record_age_s = -1;
  bool bisect_on_error = false;
  bool report_batch_item_failures = false;
  Destination on_failure;
  int timeout_s = 60;

  // Same settings (a reload keeps an unchanged trigger running).
  bool operator==(const TriggerConfig& other) const;
};

Result<std::vector<TriggerConfig>> ParseTriggers(std::string_view text);
// The same document written in YAML (see yaml_document.h for how scalars are typed).
Result<std::vector<TriggerConfig>> ParseTriggersYaml(std::string_view text);
// JSON, or YAML when the name ends in .yaml or .yml.
Result<std::vector<TriggerConfig>> LoadTriggersFile(const std::string& path);

}  // namespace monotable::triggers
