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

TEST(CommandRunnerTest, KeepsTheTailOfStderrAndTheFailureNamesItsLastLine) {
  auto r = RunCommand({"/bin/sh", "-c", "echo starting >&2; echo '{}'; printf 'Traceback\\nRuntimeError: poison record\\n\\n' >&2; exit 1"},
                      {}, "", 5000);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.output, "{}\n");
  EXPECT_EQ(r.error_output, "starting\nTraceback\nRuntimeError: poison record\n\n");
  // Only the last 4 KB are kept.
  r = RunCommand({"/bin/sh", "-c", "head -c 10000 /dev/zero | tr '\\0' x >&2; echo END >&2"}, {}, "", 5000);
  EXPECT_EQ(r.error_output.size(), 4096u);
  EXPECT_EQ(r.error_output.substr(r.error_output.size() - 4), "END\n");
  // The invocation's error quotes the handler's last stderr line (Lambda's errorMessage).
  TriggerConfig c;
  c.command = {"/bin/sh", "-c", "cat >/dev/null; echo 'Traceback (most recent call last):' >&2; "
                                "echo 'RuntimeError: poison record' >&2; exit 1"};
  Outcome out = Invoke(c, "{}", {1}, {}, {});
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.error, "the handler exited with status 1: RuntimeError: poison record");
  c.command = {"/bin/sh", "-c", "cat >/dev/null; exit 2"};
  EXPECT_EQ(Invoke(c, "{}", {1}, {}, {}).error, "the handler exited with status 2");
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
