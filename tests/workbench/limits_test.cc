// Definition limits: 20 GSIs, 5 LSIs, 100 projected attributes, 100 items per transaction.
#include <gtest/gtest.h>

#include "test_util.h"

namespace monotable::workbench {
namespace {
using testing::CheckYaml;
using testing::Codes;
using testing::FindCode;

std::string Table(int gsis, int lsis, int include) {
  std::string y = "version: 1\ntables:\n  - name: T\n    partitionKey: PK\n    sortKey: SK\n";
  if (gsis) {
    y += "    globalSecondaryIndexes:\n";
    for (int i = 0; i < gsis; ++i) {
      y += "      - {name: G" + std::to_string(i) + ", partitionKey: G" + std::to_string(i) + "PK";
      if (i == 0 && include) {
        y += ", projection: [";
        for (int a = 0; a < include; ++a) y += (a ? ", a" : "a") + std::to_string(a);
        y += "]";
      }
      y += "}\n";
    }
  }
  if (lsis) {
    y += "    localSecondaryIndexes:\n";
    for (int i = 0; i < lsis; ++i)
      y += "      - {name: L" + std::to_string(i) + ", sortKey: L" + std::to_string(i) + "SK}\n";
  }
  return y + "entities:\n  A: {keys: {PK: \"A#{id}\", SK: \"A\"}}\n";
}

TEST(Limits, GlobalIndexes) {
  ASSERT_NE(FindCode(CheckYaml(Table(21, 0, 0)), "limit.gsi-count"), nullptr);
  EXPECT_EQ(FindCode(CheckYaml(Table(20, 0, 0)), "limit.gsi-count"), nullptr);
}

TEST(Limits, LocalIndexes) {
  ASSERT_NE(FindCode(CheckYaml(Table(0, 6, 0)), "limit.lsi-count"), nullptr);
  EXPECT_EQ(FindCode(CheckYaml(Table(0, 5, 0)), "limit.lsi-count"), nullptr);
}

TEST(Limits, ProjectedAttributes) {
  ASSERT_NE(FindCode(CheckYaml(Table(1, 0, 101)), "limit.projected-attributes"), nullptr);
  auto r = CheckYaml(Table(1, 0, 100));
  EXPECT_EQ(FindCode(r, "limit.projected-attributes"), nullptr) << Codes(r);
}

TEST(Limits, TransactionItems) {
  const std::string writes = "writes: [{name: bulk, transactional: true, items: [{entity: A, count: N}]}]\n";
  std::string bad = Table(0, 0, 0) + writes;
  bad.replace(bad.find("count: N"), 8, "count: 101");
  ASSERT_NE(FindCode(CheckYaml(bad), "limit.transaction-items"), nullptr);
  std::string good = Table(0, 0, 0) + writes;
  good.replace(good.find("count: N"), 8, "count: 100");
  EXPECT_EQ(FindCode(CheckYaml(good), "limit.transaction-items"), nullptr);
}

TEST(Limits, LocalIndexNeedsASortKey) {
  const std::string bad =
      "version: 1\ntables: [{name: T, partitionKey: PK, localSecondaryIndexes: [{name: L, sortKey: LSK}]}]\n"
      "entities: {A: {keys: {PK: \"A#{id}\"}}}\n";
  ASSERT_NE(FindCode(CheckYaml(bad), "limit.lsi-without-sort-key"), nullptr);
  EXPECT_EQ(FindCode(CheckYaml(Table(0, 1, 0)), "limit.lsi-without-sort-key"), nullptr);
}

}  // namespace
}  // namespace monotable::workbench
