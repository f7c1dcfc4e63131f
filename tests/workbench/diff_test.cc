// Model diff: indexes, key rewrites and backfills, patterns that break or change.
#include "workbench/diff.h"

#include <gtest/gtest.h>

#include "workbench/parser.h"

namespace monotable::workbench {
namespace {

const DiffEntry* Find(const ModelDiff& d, const std::string& subject, const std::string& change) {
  for (const auto& e : d.entries) if (e.subject == subject && e.change == change) return &e;
  return nullptr;
}

std::string All(const ModelDiff& d) {
  std::string s;
  for (const auto& e : d.entries) s += e.kind + " " + e.subject + " " + e.change + ": " + e.detail + "\n";
  return s;
}

TEST(ModelDiff, TheSaasRegression) {
  auto before = LoadModelFile(MONOTABLE_SOURCE_DIR "/examples/models/saas.yaml");
  auto after = LoadModelFile(MONOTABLE_SOURCE_DIR "/tests/workbench/diff/saas-v2.yaml");
  ASSERT_TRUE(before.ok()) << before.status().message();
  ASSERT_TRUE(after.ok()) << after.status().message();
  ModelDiff d = DiffModels(*before, *after);
  EXPECT_TRUE(d.Breaking()) << All(d);
  const DiffEntry* breaks = Find(d, "organisationWithUsers", "breaks");
  ASSERT_NE(breaks, nullptr) << All(d);
  EXPECT_NE(breaks->detail.find("pattern.filter-needed"), std::string::npos);
  ASSERT_NE(Find(d, "HelpDesk/GSI3", "added"), nullptr) << All(d);
  const DiffEntry* rewrite = Find(d, "Ticket", "rewrite");
  ASSERT_NE(rewrite, nullptr) << All(d);
  EXPECT_EQ(rewrite->items, 30000000);
  ASSERT_NE(Find(d, "Ticket", "backfill"), nullptr) << All(d);
  ASSERT_NE(Find(d, "getTicket", "changed"), nullptr) << All(d);
  EXPECT_EQ(Find(d, "userWithRecentTickets", "breaks"), nullptr) << All(d);
}

TEST(ModelDiff, SameModelHasNoChange) {
  auto m = LoadModelFile(MONOTABLE_SOURCE_DIR "/examples/models/ecommerce.yaml");
  ASSERT_TRUE(m.ok());
  ModelDiff d = DiffModels(*m, *m);
  EXPECT_TRUE(d.entries.empty()) << All(d);
  EXPECT_FALSE(d.Breaking());
}

TEST(ModelDiff, IndexesRemovedRebuiltAndStaleKeys) {
  auto before = ParseModel(R"(
version: 1
tables:
  - name: T
    partitionKey: PK
    sortKey: SK
    globalSecondaryIndexes:
      - {name: G1, partitionKey: G1PK}
      - {name: G2, partitionKey: G2PK, projection: ALL}
entities:
  A: {count: 500, keys: {PK: "A#{id}", SK: "A", G1PK: "X#{x}", G2PK: "Y#{y}"}}
accessPatterns:
  - {name: byX, operation: Query, index: G1, inputs: [x], entities: [A]}
)");
  auto after = ParseModel(R"(
version: 1
tables:
  - name: T
    partitionKey: PK
    sortKey: SK
    globalSecondaryIndexes:
      - {name: G2, partitionKey: G2PK, projection: KEYS_ONLY}
entities:
  A: {count: 500, keys: {PK: "A#{id}", SK: "A", G2PK: "Y#{y}"}}
accessPatterns:
  - {name: byX, operation: Scan, inputs: [x], entities: [A]}
)");
  ASSERT_TRUE(before.ok() && after.ok());
  ModelDiff d = DiffModels(*before, *after);
  ASSERT_NE(Find(d, "T/G1", "removed"), nullptr) << All(d);
  ASSERT_NE(Find(d, "T/G2", "rebuild"), nullptr) << All(d);
  const DiffEntry* stale = Find(d, "A", "stale");
  ASSERT_NE(stale, nullptr) << All(d);
  EXPECT_EQ(stale->items, 500);
  ASSERT_NE(Find(d, "byX", "breaks"), nullptr) << All(d);  // it now scans
}

}  // namespace
}  // namespace monotable::workbench
