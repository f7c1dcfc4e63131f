// Handler invocation: commands (stdin, stdout, exit status, timeout) and the partial batch
// response rules Lambda applies to a stream function's answer.
#include "triggers/invoker.h"

#include <gtest/gtest.h>

#include <chrono>

#include "triggers/command_runner.h"

namespace monotable::triggers {
namespace {

TEST(CommandRunnerTest, PassesStdinAndEnvironmentCollectsStdout) {
  auto r = RunCommand({"/bin/sh", "-c", "cat; printf \" $GREETING\""}, {"GREETING=hello"}, "{\"Records\":[]}", 5000);
  ASSERT_TRUE(r.started);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.output, "{\"Records\":[]} hello");
  auto big = std::string(1 << 20, 'x');  // larger than a pipe buffer, read back while writing
  r = RunCommand({"cat"}, {}, big, 5000);
  EXPECT_EQ(r.output.size(), big.size());
}

TEST(CommandRunnerTest, ExitStatusTimeoutAndMissingCommand) {
  auto r = RunCommand({"/bin/sh", "-c", "exit 3"}, {}, "x", 5000);
  EXPECT_EQ(r.exit_code, 3);
  auto start = std::chrono::steady_clock::now();
  r = RunCommand({"/bin/sh", "-c", "sleep 30 & sleep 30"}, {}, "", 300);
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  r = RunCommand({"/nonexistent/handler"}, {}, "", 1000);
  EXPECT_FALSE(r.started);
  EXPECT_FALSE(r.error.empty());
  r = RunCommand({"/bin/sh", "-c", "exec true"}, {}, std::string(1 << 20, 'x'), 5000);  // does not read stdin
  EXPECT_EQ(r.exit_code, 0);
}

TEST(BatchResponseTest, CompleteSuccess) {
  std::vector<uint64_t> seqs = {10, 11, 12};
  for (const char* ok : {"", "  \n", "null", "{}", R"({"batchItemFailures": []})", R"({"batchItemFailures": null})",
                         R"({"other": 1})"}) {
    auto o = ReadBatchResponse(ok, seqs);
    EXPECT_TRUE(o.ok) << ok;
    EXPECT_FALSE(o.first_failed) << ok;
  }
}

TEST(BatchResponseTest, PartialFailureStartsAtTheLowestReported) {
  std::vector<uint64_t> seqs = {10, 11, 12};
  auto o = ReadBatchResponse(
      R"({"batchItemFailures": [{"itemIdentifier": "000000000000000000012"}, {"itemIdentifier": "11"}]})", seqs);
  EXPECT_FALSE(o.ok);
  ASSERT_TRUE(o.first_failed);
  EXPECT_EQ(*o.first_failed, 11u);
}

TEST(BatchResponseTest, InvalidAnswersFailTheWholeBatch) {
  std::vector<uint64_t> seqs = {10, 11, 12};
  for (const char* bad :
       {"not json", "[1]", "\"x\"", R"({"batchItemFailures": {}})",
        R"({"batchItemFailures": [{"itemIdentifier": ""}]})", R"({"batchItemFailures": [{"itemIdentifier": null}]})",
        R"({"batchItemFailures": [{"id": "10"}]})", R"({"batchItemFailures": [{"itemIdentifier": "99"}]})"}) {
    auto o = ReadBatchResponse(bad, seqs);
    EXPECT_FALSE(o.ok) << bad;
    EXPECT_FALSE(o.first_failed) << bad;
  }
}

TEST(InvokeTest, ResponseIgnoredWithoutReportBatchItemFailures) {
  TriggerConfig c;
  c.command = {"/bin/sh", "-c", "echo '{\"batchItemFailures\": [{\"itemIdentifier\": \"10\"}]}'"};
  EXPECT_TRUE(Invoke(c, "{}", {10}, {}, {}).ok);
  c.report_batch_item_failures = true;
  auto o = Invoke(c, "{}", {10}, {}, {});
  EXPECT_FALSE(o.ok);
  EXPECT_EQ(o.first_failed, 10u);
  c.command = {"/bin/sh", "-c", "exit 1"};
  EXPECT_FALSE(Invoke(c, "{}", {10}, {}, {}).ok);
  c.command.clear();
  c.url = "http://127.0.0.1:1/";  // nothing listens on port 1
  c.timeout_s = 2;
  o = Invoke(c, "{}", {10}, {}, {});
  EXPECT_FALSE(o.ok);
  EXPECT_FALSE(o.error.empty());
}

}  // namespace
}  // namespace monotable::triggers
