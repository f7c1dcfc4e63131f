// Cost per pattern and write, item size and item-collection limits. The expected figures are
// worked by hand from DynamoDB's rules (the item below is 1,055 bytes: PK 2+12, SK 2+9, GPK 3+6,
// id 2+10, n 1+4, data 4+1000).
#include <gtest/gtest.h>

#include "test_util.h"

namespace monotable::workbench {
namespace {
using testing::CheckYaml;
using testing::Codes;
using testing::FindCode;
using testing::FindPlan;

std::string Model(const std::string& count, const std::string& data_size, const std::string& rest,
                  const std::string& lsi = "") {
  return R"(
version: 1
tables:
  - name: T
    partitionKey: PK
    sortKey: SK
    globalSecondaryIndexes: [{name: G, partitionKey: GPK, projection: KEYS_ONLY}]
)" + lsi +
         R"(
entities:
  A:
    count: )" +
         count + R"(
    keys: {PK: "A#{id}", SK: "ITEM#{n}", GPK: "G#{n}"}
    attributes:
      id: {type: string, length: 10, cardinality: 10}
      n: {type: string, length: 4}
      data: {type: string, size: )" +
         data_size + R"(}
)" + rest;
}

TEST(Cost, ReadUnitsPerPattern) {
  auto r = CheckYaml(Model("1000", "1000", R"(
accessPatterns:
  - {name: get, operation: GetItem, inputs: [id, n], entities: [A], rps: 10}
  - {name: getStrong, operation: GetItem, inputs: [id, n], entities: [A], consistentRead: true}
  - {name: all, operation: Query, inputs: [id], entities: [A]}
  - {name: ten, operation: Query, inputs: [id], entities: [A], limit: 10}
)"));
  EXPECT_DOUBLE_EQ(FindPlan(r, "get")->rcu_per_call, 0.5);
  EXPECT_DOUBLE_EQ(FindPlan(r, "get")->rcu_per_second, 5);
  EXPECT_DOUBLE_EQ(FindPlan(r, "getStrong")->rcu_per_call, 1);
  // 100 items per partition (1000 items over 10 ids) x 1,055 bytes = 105,500 -> 26 x 4 KB, halved.
  EXPECT_DOUBLE_EQ(FindPlan(r, "all")->items_read, 100);
  EXPECT_DOUBLE_EQ(FindPlan(r, "all")->rcu_per_call, 13);
  // Limit 10: 10,550 bytes -> 3 x 4 KB, halved (summed before rounding, not 10 x 0.5).
  EXPECT_DOUBLE_EQ(FindPlan(r, "ten")->rcu_per_call, 1.5);
}

TEST(Cost, WriteUnitsIncludeEachIndexArmByProjection) {
  auto r = CheckYaml(Model("1000", "1000", R"(
writes:
  - {name: put, rps: 10, items: [A]}
  - {name: putTx, transactional: true, items: [A]}
  - {name: touchData, items: [{entity: A, action: update, changes: [data]}]}
  - {name: moveKey, items: [{entity: A, action: update, changes: [n]}]}
  - {name: remove, items: [{entity: A, action: delete}]}
)"));
  ASSERT_EQ(r.writes.size(), 5u);
  EXPECT_DOUBLE_EQ(r.writes[0].wcu_per_call, 3);  // table 2 (1,055 B) + KEYS_ONLY entry 1
  EXPECT_DOUBLE_EQ(r.writes[0].wcu_per_second, 30);
  EXPECT_DOUBLE_EQ(r.writes[1].wcu_per_call, 5);  // the table arm doubles in a transaction, the index arm does not
  EXPECT_DOUBLE_EQ(r.writes[2].wcu_per_call, 2);  // data is not projected: the index entry is unchanged
  EXPECT_DOUBLE_EQ(r.writes[3].wcu_per_call, 4);  // GPK changes: old entry out, new entry in
  EXPECT_DOUBLE_EQ(r.writes[4].wcu_per_call, 3);
}

TEST(Cost, PaginatedQuery) {
  auto bad = CheckYaml(
      Model("1000000", "1000", "accessPatterns: [{name: all, operation: Query, inputs: [id], entities: [A]}]\n"));
  ASSERT_NE(FindCode(bad, "cost.paginated"), nullptr) << Codes(bad);
  EXPECT_GT(FindPlan(bad, "all")->pages, 100);
  auto good = CheckYaml(Model(
      "1000000", "1000", "accessPatterns: [{name: all, operation: Query, inputs: [id], entities: [A], limit: 50}]\n"));
  EXPECT_EQ(FindCode(good, "cost.paginated"), nullptr) << Codes(good);
}

TEST(Cost, ItemOver400KB) {
  auto bad = CheckYaml(Model("10", "500000", ""));
  const Finding* f = FindCode(bad, "cost.item-too-large");
  ASSERT_NE(f, nullptr) << Codes(bad);
  EXPECT_NE(f->fix.find("data"), std::string::npos);
  auto good = CheckYaml(Model("10", "300000", ""));
  EXPECT_EQ(FindCode(good, "cost.item-too-large"), nullptr) << Codes(good);
}

TEST(Cost, ItemCollectionOver10GBWithALocalIndex) {
  const std::string lsi = "    localSecondaryIndexes: [{name: L, sortKey: LSK}]\n";
  // 20M items over 10 ids: 2M x ~1 KB = ~2 GB per id... make them 1 id to pass 10 GB.
  std::string big = Model("20000000", "1000", "", lsi);
  big.replace(big.find("cardinality: 10"), 15, "cardinality: 1");
  big.replace(big.find("GPK: \"G#{n}\""), 12, "GPK: \"G#{n}\", LSK: \"{n}\"");
  auto bad = CheckYaml(big);
  ASSERT_NE(FindCode(bad, "cost.item-collection-too-large"), nullptr) << Codes(bad);
  std::string no_lsi = Model("20000000", "1000", "");
  no_lsi.replace(no_lsi.find("cardinality: 10"), 15, "cardinality: 1");
  auto good = CheckYaml(no_lsi);
  EXPECT_EQ(FindCode(good, "cost.item-collection-too-large"), nullptr) << Codes(good);
}

}  // namespace
}  // namespace monotable::workbench
