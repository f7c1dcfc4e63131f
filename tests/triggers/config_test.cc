// The triggers file: defaults, ranges, handler kinds, destinations, and the errors for bad input.
#include "triggers/config.h"

#include <gtest/gtest.h>

namespace monotable::triggers {
namespace {

TEST(TriggersConfigTest, DefaultsAndAllSettings) {
  auto parsed = ParseTriggers(R"({"Triggers": [
    {"Name": "a", "Table": "T", "Command": "python3 h.py", "StartingPosition": "LATEST"},
    {"Name": "b", "Table": "T", "Url": "http://127.0.0.1:9000/hook", "StartingPosition": "TRIM_HORIZON",
     "BatchSize": 7, "MaximumBatchingWindowInSeconds": 2, "MaximumRetryAttempts": 3,
     "MaximumRecordAgeInSeconds": 60, "BisectBatchOnFunctionError": true,
     "FunctionResponseTypes": ["ReportBatchItemFailures"], "TimeoutSeconds": 5,
     "FilterCriteria": {"Filters": [{"Pattern": "{\"eventName\": [\"INSERT\"]}"}]},
     "DestinationConfig": {"OnFailure": {"Destination": "table:Failures"}}},
    {"Name": "c", "Table": "T", "Command": ["node", "h.js"], "StartingPosition": "LATEST", "Enabled": false},
    {"Name": "d", "Table": "T", "Command": ["x"], "StartingPosition": "LATEST",
     "DestinationConfig": {"OnFailure": {"Destination": "file:///tmp/f.jsonl"}}}
  ]})");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  const auto& t = parsed.value();
  ASSERT_EQ(t.size(), 3u);  // c is disabled
  EXPECT_EQ(t[0].command, (std::vector<std::string>{"/bin/sh", "-c", "python3 h.py"}));
  EXPECT_EQ(t[0].starting_position, StartingPosition::kLatest);
  EXPECT_EQ(t[0].batch_size, 100);
  EXPECT_EQ(t[0].max_retry_attempts, -1);
  EXPECT_EQ(t[0].max_record_age_s, -1);
  EXPECT_FALSE(t[0].bisect_on_error);
  EXPECT_FALSE(t[0].report_batch_item_failures);
  EXPECT_EQ(t[0].on_failure.kind, Destination::Kind::kNone);
  EXPECT_EQ(t[1].url, "http://127.0.0.1:9000/hook");
  EXPECT_EQ(t[1].batch_size, 7);
  EXPECT_EQ(t[1].batching_window_s, 2);
  EXPECT_EQ(t[1].max_retry_attempts, 3);
  EXPECT_EQ(t[1].max_record_age_s, 60);
  EXPECT_TRUE(t[1].bisect_on_error);
  EXPECT_TRUE(t[1].report_batch_item_failures);
  EXPECT_EQ(t[1].timeout_s, 5);
  EXPECT_EQ(t[1].filters.size(), 1u);
  EXPECT_EQ(t[1].on_failure.kind, Destination::Kind::kTable);
  EXPECT_EQ(t[1].on_failure.target, "Failures");
  EXPECT_EQ(t[2].name, "d");
  EXPECT_EQ(t[2].on_failure.kind, Destination::Kind::kFile);
  EXPECT_EQ(t[2].on_failure.target, "/tmp/f.jsonl");
  EXPECT_TRUE(t[0] == t[0]);
  EXPECT_FALSE(t[0] == t[1]);
}

TEST(TriggersConfigTest, RefusesBadInput) {
  auto error = [](const std::string& trigger) {
    auto parsed = ParseTriggers("{\"Triggers\": [" + trigger + "]}");
    return parsed.ok() ? std::string() : parsed.status().message();
  };
  const std::string base = R"("Name": "t", "Table": "T", "StartingPosition": "LATEST")";
  EXPECT_EQ(error("{" + base + R"(, "Command": "x"})"), "");
  EXPECT_NE(error("{" + base + "}"), "");                                                   // no handler
  EXPECT_NE(error("{" + base + R"(, "Command": "x", "Url": "http://127.0.0.1:1/"})"), "");  // both
  EXPECT_NE(error("{" + base + R"(, "Url": "http://example.com/"})"), "");                  // not loopback
  EXPECT_NE(error("{" + base + R"(, "Url": "https://127.0.0.1/"})"), "");                   // not http
  EXPECT_NE(error("{" + base + R"(, "Command": []})"), "");
  EXPECT_NE(error("{" + base + R"(, "Command": "x", "BatchSize": 0})"), "");
  EXPECT_NE(error("{" + base + R"(, "Command": "x", "BatchSize": 10001})"), "");
  EXPECT_NE(error("{" + base + R"(, "Command": "x", "MaximumBatchingWindowInSeconds": 301})"), "");
  EXPECT_NE(error("{" + base + R"(, "Command": "x", "MaximumRetryAttempts": -2})"), "");
  EXPECT_NE(error("{" + base + R"(, "Command": "x", "MaximumRecordAgeInSeconds": 59})"), "");
  EXPECT_EQ(error("{" + base + R"(, "Command": "x", "MaximumRecordAgeInSeconds": -1})"), "");
  EXPECT_NE(error("{" + base + R"(, "Command": "x", "FunctionResponseTypes": ["Other"]})"), "");
  EXPECT_NE(error("{" + base + R"(, "Command": "x", "Bogus": 1})"), "");
  EXPECT_NE(error("{" + base + R"(, "Command": "x", "DestinationConfig": {"OnFailure": {"Destination": "sqs:x"}}})"),
            "");
  EXPECT_NE(error("{" + base + R"(, "Command": "x", "FilterCriteria": {"Filters": [{"Pattern": "nope"}]}})"), "");
  EXPECT_NE(error(R"({"Name": "t", "Table": "T", "Command": "x"})"), "");  // StartingPosition required
  EXPECT_NE(error(R"({"Name": "t", "Table": "T", "Command": "x", "StartingPosition": "AT_TIMESTAMP"})"), "");
  EXPECT_NE(error(R"({"Name": "a b", "Table": "T", "Command": "x", "StartingPosition": "LATEST"})"), "");
  EXPECT_NE(error("{" + base + R"(, "Command": "x"}, {)" + base + R"(, "Command": "y"})"), "");  // duplicate name
  EXPECT_EQ(error("{" + base + R"(, "Command": "x", "BatchSize": 0})"),
            "trigger t: BatchSize must be between 1 and 10000");
  EXPECT_FALSE(ParseTriggers("not json").ok());
  EXPECT_FALSE(ParseTriggers("[]").ok());
  EXPECT_TRUE(ParseTriggers(R"({"Triggers": []})").ok());
}

}  // namespace
}  // namespace monotable::triggers

namespace monotable::triggers {
namespace {

TEST(TriggersYamlTest, SameSettingsAsJson) {
  auto parsed = ParseTriggersYaml(R"yaml(
Triggers:
  - Name: fanout
    Table: Library
    Command: [python3, "-c", "print(1)", "100"]
    StartingPosition: TRIM_HORIZON
    BatchSize: 25
    BisectBatchOnFunctionError: true
    MaximumRetryAttempts: -1
    FunctionResponseTypes: [ReportBatchItemFailures]
    FilterCriteria:
      Filters:
        - Pattern: '{"eventName": ["MODIFY"]}'
        - Pattern:
            dynamodb:
              Keys:
                pk:
                  S: [{prefix: "AUTHOR#"}]
    DestinationConfig:
      OnFailure:
        Destination: "file:/tmp/failed.jsonl"
)yaml");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  const auto& c = parsed.value().at(0);
  EXPECT_EQ(c.name, "fanout");
  EXPECT_EQ(c.command, (std::vector<std::string>{"python3", "-c", "print(1)", "100"}));  // quoted: a string
  EXPECT_EQ(c.batch_size, 25);
  EXPECT_TRUE(c.bisect_on_error);
  EXPECT_EQ(c.max_retry_attempts, -1);
  EXPECT_TRUE(c.report_batch_item_failures);
  ASSERT_EQ(c.filter_texts.size(), 2u);
  EXPECT_EQ(c.filter_texts[1], R"({"dynamodb":{"Keys":{"pk":{"S":[{"prefix":"AUTHOR#"}]}}}})");
  EXPECT_EQ(c.on_failure.target, "/tmp/failed.jsonl");
  // Typed like JSON: a quoted number is a string, so BatchSize refuses it.
  auto quoted =
      ParseTriggersYaml("Triggers:\n  - {Name: t, Table: T, Command: x, StartingPosition: LATEST, BatchSize: '5'}\n");
  ASSERT_FALSE(quoted.ok());
  EXPECT_EQ(quoted.status().message(), "trigger t: BatchSize must be an integer");
  EXPECT_FALSE(ParseTriggersYaml("Triggers: [").ok());
  EXPECT_FALSE(ParseTriggersYaml("a: 1\n---\nb: 2\n").ok());
  EXPECT_FALSE(ParseTriggersYaml("- 1").ok());
}

}  // namespace
}  // namespace monotable::triggers
