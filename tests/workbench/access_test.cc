// Access-pattern checks: scan, filter needed, key not buildable, sparse index, request printing.
#include <gtest/gtest.h>

#include "test_util.h"

namespace monotable::workbench {
namespace {
using testing::CheckYaml;
using testing::Codes;
using testing::FindCode;
using testing::FindPlan;

const std::string kTable = R"(
version: 1
tables:
  - name: Shop
    partitionKey: PK
    sortKey: SK
    globalSecondaryIndexes:
      - {name: GSI1, partitionKey: GSI1PK, sortKey: GSI1SK}
entities:
  Customer:
    count: 1000
    keys: {PK: "CUSTOMER#{customerId}", SK: "PROFILE", GSI1PK: "EMAIL#{email}", GSI1SK: "PROFILE"}
  Order:
    count: 10000
    keys: {PK: "CUSTOMER#{customerId}", SK: "ORDER#{orderId}"}
)";

TEST(AccessPatterns, DerivesTheRequestOfEachPattern) {
  auto r = CheckYaml(kTable + R"(
accessPatterns:
  - {name: getCustomer, operation: GetItem, inputs: [customerId], entities: [Customer]}
  - {name: ordersOfCustomer, operation: Query, inputs: [customerId], entities: [Order], order: desc, limit: 5}
  - {name: byEmail, operation: Query, index: GSI1, inputs: [email], entities: [Customer]}
)");
  EXPECT_FALSE(r.Failed()) << Codes(r);
  const PatternPlan* get = FindPlan(r, "getCustomer");
  ASSERT_TRUE(get && get->served);
  EXPECT_EQ(get->key_condition, "PK = :pk, SK = :sk");
  EXPECT_EQ(get->values[0].second, "CUSTOMER#{customerId}");
  EXPECT_EQ(get->values[1].second, "PROFILE");
  const PatternPlan* orders = FindPlan(r, "ordersOfCustomer");
  EXPECT_EQ(orders->key_condition, "PK = :pk AND begins_with(SK, :sk)");
  EXPECT_EQ(orders->values[1].second, "ORDER#");
  EXPECT_EQ(orders->options, (std::vector<std::string>{"ScanIndexForward=false", "Limit=5"}));
  const PatternPlan* email = FindPlan(r, "byEmail");
  EXPECT_EQ(email->index, "GSI1");
  EXPECT_EQ(email->key_condition, "GSI1PK = :pk AND GSI1SK = :sk");
}

TEST(AccessPatterns, ScanIsAnError) {
  auto bad = CheckYaml(kTable + "accessPatterns: [{name: allOrders, operation: Scan, entities: [Order]}]\n");
  const Finding* f = FindCode(bad, "pattern.scan");
  ASSERT_NE(f, nullptr) << Codes(bad);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_EQ(f->subject, "allOrders");
  EXPECT_TRUE(bad.Failed());
  auto accepted = CheckYaml(
      kTable + "accessPatterns: [{name: allOrders, operation: Scan, entities: [Order], accept: [pattern.scan]}]\n");
  EXPECT_FALSE(accepted.Failed()) << Codes(accepted);
  EXPECT_TRUE(FindCode(accepted, "pattern.scan")->accepted);
}

TEST(AccessPatterns, FilterNeededWhenThePartitionHoldsOtherEntities) {
  // Orders and the profile share the partition; with no sort-key prefix the Query reads both.
  auto bad = CheckYaml(kTable + R"(
accessPatterns:
  - name: ordersOfCustomer
    operation: Query
    inputs: [customerId]
    keyCondition: {PK: "CUSTOMER#{customerId}"}
    entities: [Order]
)");
  const Finding* f = FindCode(bad, "pattern.filter-needed");
  ASSERT_NE(f, nullptr) << Codes(bad);
  EXPECT_NE(f->message.find("Customer"), std::string::npos);
  auto good = CheckYaml(kTable + R"(
accessPatterns:
  - {name: ordersOfCustomer, operation: Query, inputs: [customerId], entities: [Order]}
  - {name: customerAndOrders, operation: Query, inputs: [customerId], entities: [Customer, Order]}
)");
  EXPECT_EQ(FindCode(good, "pattern.filter-needed"), nullptr) << Codes(good);
  EXPECT_FALSE(good.Failed()) << Codes(good);
}

TEST(AccessPatterns, KeyNotBuildableFromInputs) {
  auto bad = CheckYaml(kTable + R"(
accessPatterns:
  - {name: ordersByEmail, operation: Query, inputs: [email], entities: [Order]}
  - {name: getOrder, operation: GetItem, inputs: [customerId], entities: [Order]}
)");
  int count = 0;
  for (const auto& f : bad.findings) count += f.code == "pattern.key-not-buildable";
  EXPECT_EQ(count, 2) << Codes(bad);
  EXPECT_FALSE(FindPlan(bad, "ordersByEmail")->served);
  EXPECT_NE(FindCode(bad, "pattern.key-not-buildable")->message.find("customerId"), std::string::npos);
  auto good = CheckYaml(kTable + R"(
accessPatterns:
  - {name: getOrder, operation: GetItem, inputs: [customerId, orderId], entities: [Order]}
)");
  EXPECT_FALSE(good.Failed()) << Codes(good);
}

TEST(AccessPatterns, SparseIndexMissesEntitiesWithoutItsKeys) {
  auto bad = CheckYaml(
      kTable + "accessPatterns: [{name: p, operation: Query, index: GSI1, inputs: [email], entities: [Order]}]\n");
  ASSERT_NE(FindCode(bad, "pattern.entity-not-in-index"), nullptr) << Codes(bad);
  auto get_on_index = CheckYaml(
      kTable + "accessPatterns: [{name: p, operation: GetItem, index: GSI1, inputs: [email], entities: [Customer]}]\n");
  ASSERT_NE(FindCode(get_on_index, "pattern.get-on-index"), nullptr) << Codes(get_on_index);
}

TEST(AccessPatterns, EntitiesInDifferentPartitionsCannotShareAQuery) {
  auto bad = CheckYaml(R"(
version: 1
tables: [{name: T, partitionKey: PK, sortKey: SK}]
entities:
  A: {keys: {PK: "A#{id}", SK: "A"}}
  B: {keys: {PK: "B#{id}", SK: "B"}}
accessPatterns: [{name: both, operation: Query, inputs: [id], entities: [A, B]}]
)");
  ASSERT_NE(FindCode(bad, "pattern.mixed-partitions"), nullptr) << Codes(bad);
}

TEST(AccessPatterns, ConsistentReadOnAGlobalIndex) {
  auto bad = CheckYaml(kTable +
                       "accessPatterns: [{name: p, operation: Query, index: GSI1, inputs: [email], "
                       "entities: [Customer], consistentRead: true}]\n");
  ASSERT_NE(FindCode(bad, "pattern.consistent-read-on-gsi"), nullptr) << Codes(bad);
}

TEST(AccessPatterns, ExplicitConditionThatCannotReturnAnExpectedEntity) {
  auto bad = CheckYaml(kTable + R"(
accessPatterns:
  - name: orders
    operation: Query
    inputs: [customerId]
    keyCondition: {PK: "CUSTOMER#{customerId}", SK: {beginsWith: "INVOICE#"}}
    entities: [Order]
)");
  const Finding* f = FindCode(bad, "pattern.entity-not-matched");
  ASSERT_NE(f, nullptr) << Codes(bad);
  EXPECT_NE(f->message.find("Order"), std::string::npos);
  auto good = CheckYaml(kTable + R"(
accessPatterns:
  - name: orders
    operation: Query
    inputs: [customerId]
    keyCondition: {PK: "CUSTOMER#{customerId}", SK: {beginsWith: "ORDER#"}}
    entities: [Order]
)");
  EXPECT_EQ(FindCode(good, "pattern.entity-not-matched"), nullptr) << Codes(good);
}

TEST(AccessPatterns, GetItemReturnsOneEntity) {
  auto bad = CheckYaml(kTable +
                       "accessPatterns: [{name: p, operation: GetItem, inputs: [customerId, orderId], "
                       "entities: [Customer, Order]}]\n");
  ASSERT_NE(FindCode(bad, "pattern.get-several-entities"), nullptr) << Codes(bad);
  auto good = CheckYaml(kTable +
                        "accessPatterns: [{name: p, operation: GetItem, inputs: [customerId, orderId], "
                        "entities: [Order]}]\n");
  EXPECT_EQ(FindCode(good, "pattern.get-several-entities"), nullptr) << Codes(good);
}

}  // namespace
}  // namespace monotable::workbench
