// Sort-key order hazards where a pattern relies on order.
#include <gtest/gtest.h>

#include "test_util.h"

namespace monotable::workbench {
namespace {
using testing::CheckYaml;
using testing::Codes;
using testing::FindCode;

std::string Board(const std::string& sk, const std::string& attrs,
                  const std::string& extra = "order: desc, limit: 10") {
  return R"(
version: 1
tables: [{name: T, partitionKey: PK, sortKey: SK}]
entities:
  Score:
    keys: {PK: "GAME#{gameId}", SK: ")" +
         sk + R"("}
    attributes: {)" +
         attrs + R"(}
accessPatterns:
  - {name: top, operation: Query, inputs: [gameId], entities: [Score], )" +
         extra + "}\n";
}

TEST(SortOrder, NumbersMustBeZeroPadded) {
  auto bad = CheckYaml(Board("SCORE#{score}#{playerId}", "score: {type: number}"));
  const Finding* f = FindCode(bad, "order.number-not-padded");
  ASSERT_NE(f, nullptr) << Codes(bad);
  EXPECT_EQ(f->subject, "top");
  auto good = CheckYaml(Board("SCORE#{score:pad10}#{playerId}", "score: {type: number}"));
  EXPECT_EQ(FindCode(good, "order.number-not-padded"), nullptr) << Codes(good);
  // Without order, limit or range the order does not matter.
  auto unordered = CheckYaml(Board("SCORE#{score}#{playerId}", "score: {type: number}", "rps: 1"));
  EXPECT_EQ(FindCode(unordered, "order.number-not-padded"), nullptr) << Codes(unordered);
}

TEST(SortOrder, TimesMustBeUtc) {
  auto bad = CheckYaml(Board("AT#{playedAt}", "playedAt: {type: timestamp, format: iso8601-offset}"));
  ASSERT_NE(FindCode(bad, "order.time-not-utc"), nullptr) << Codes(bad);
  auto unknown = CheckYaml(Board("AT#{playedAt}", "playedAt: {type: timestamp}"));
  ASSERT_NE(FindCode(unknown, "order.time-not-utc"), nullptr) << Codes(unknown);
  auto good = CheckYaml(Board("AT#{playedAt:iso8601}", "playedAt: {type: timestamp, format: iso8601-offset}"));
  EXPECT_EQ(FindCode(good, "order.time-not-utc"), nullptr) << Codes(good);
}

TEST(SortOrder, MixedCaseTextWhereOrderMatters) {
  auto bad = CheckYaml(Board("NAME#{name}", "name: {type: string, case: mixed}"));
  const Finding* f = FindCode(bad, "order.mixed-case");
  ASSERT_NE(f, nullptr) << Codes(bad);
  EXPECT_EQ(f->severity, Severity::kWarning);
  auto good = CheckYaml(Board("NAME#{name:lower}", "name: {type: string, case: mixed}"));
  EXPECT_EQ(FindCode(good, "order.mixed-case"), nullptr) << Codes(good);
}

}  // namespace
}  // namespace monotable::workbench
