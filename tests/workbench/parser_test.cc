#include "workbench/parser.h"

#include <gtest/gtest.h>

namespace monotable::workbench {
namespace {

const char* kMinimal = R"(
version: 1
name: shop
tables:
  - name: Shop
    partitionKey: PK
    sortKey: {name: SK, type: S}
    globalSecondaryIndexes:
      - {name: GSI1, partitionKey: GSI1PK, sortKey: GSI1SK, projection: KEYS_ONLY}
      - {name: GSI2, partitionKey: GSI2PK, projection: [total, status]}
    localSecondaryIndexes:
      - {name: LSI1, sortKey: LSI1SK}
entities:
  Order:
    count: 5000
    keys: {PK: "CUSTOMER#{customerId}", SK: "ORDER#{orderId}", GSI1PK: "ORDER#{orderId}", GSI1SK: "ORDER"}
    attributes:
      orderId: {type: string, length: 10}
      status: {type: string, values: [OPEN, SHIPPED]}
      total: number
accessPatterns:
  - name: ordersOfCustomer
    operation: Query
    inputs: [customerId]
    keyCondition: {PK: "CUSTOMER#{customerId}", SK: {beginsWith: "ORDER#"}}
    entities: [Order]
    order: desc
    limit: 10
    rps: 5
writes:
  - name: placeOrder
    rps: 1
    transactional: true
    items: [{entity: Order, count: 1}]
relationships: []
)";

TEST(ModelParser, ReadsEveryPart) {
  auto m = ParseModel(kMinimal);
  ASSERT_TRUE(m.ok()) << m.status().message();
  ASSERT_EQ(m->tables.size(), 1u);
  const TableDef& t = m->tables[0];
  EXPECT_EQ(t.partition_key.name, "PK");
  ASSERT_TRUE(t.sort_key);
  ASSERT_EQ(t.indexes.size(), 3u);
  EXPECT_EQ(t.indexes[0].projection, ProjectionKind::kKeysOnly);
  EXPECT_EQ(t.indexes[1].projection, ProjectionKind::kInclude);
  EXPECT_EQ(t.indexes[1].include, (std::vector<std::string>{"total", "status"}));
  EXPECT_FALSE(t.indexes[2].global);
  EXPECT_EQ(t.indexes[2].partition_key.name, "PK");
  const EntityDef* order = m->FindEntity("Order");
  ASSERT_NE(order, nullptr);
  EXPECT_EQ(order->count, 5000);
  EXPECT_EQ(order->Key("SK")->Text(), "ORDER#{orderId}");
  EXPECT_EQ(order->FindAttribute("status")->values.size(), 2u);
  EXPECT_EQ(order->FindAttribute("total")->kind, AttrKind::kNumber);
  ASSERT_EQ(m->patterns.size(), 1u);
  EXPECT_EQ(m->patterns[0].key_condition->sort_op, SortOp::kBeginsWith);
  EXPECT_EQ(*m->patterns[0].limit, 10);
  EXPECT_TRUE(m->writes[0].transactional);
}

TEST(ModelParser, ReadsJsonToo) {
  auto m = ParseModel(R"({"version": 1, "tables": [{"name": "T", "partitionKey": "PK"}],
                          "entities": {"A": {"keys": {"PK": "A#{id}"}}}})");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->entities[0].Key("PK")->Text(), "A#{id}");
}

void ExpectError(const std::string& yaml, const std::string& fragment) {
  auto m = ParseModel(yaml);
  ASSERT_FALSE(m.ok()) << "accepted: " << yaml;
  EXPECT_NE(m.status().message().find(fragment), std::string::npos) << m.status().message();
}

TEST(ModelParser, NamesThePlaceOfEachError) {
  const std::string table = "version: 1\ntables: [{name: T, partitionKey: PK, sortKey: SK}]\n";
  ExpectError("tables: []\n", "version: missing");
  ExpectError("version: 2\ntables: []\n", "version 1 only");
  ExpectError(table + "entities: {A: {keys: {PK: \"A#{id}\"}}}\n", "entities[A].keys: needs a template for SK");
  ExpectError(table + "entities: {A: {keys: {PK: \"A\", SK: \"B\", XPK: \"C\"}}}\n",
              "entities[A].keys.XPK: not a key attribute of table T");
  ExpectError(table + "entities: {A: {kees: {}}}\n", "unknown field \"kees\"");
  ExpectError(table + "entities: {A: {keys: {PK: \"A#{id\", SK: \"B\"}}}\n", "entities[A].keys.PK: template");
  ExpectError(table +
                  "entities: {A: {keys: {PK: A, SK: B}}}\naccessPatterns: [{name: p, operation: Query, "
                  "index: GSI9, entities: [A]}]\n",
              "accessPatterns[p].index: table T has no index \"GSI9\"");
  ExpectError(table +
                  "entities: {A: {keys: {PK: A, SK: B}}}\naccessPatterns: [{name: p, operation: Query, "
                  "entities: [B]}]\n",
              "no entity named \"B\"");
  ExpectError(table + "entities: {A: {keys: {PK: A, SK: B}, attributes: {n: {type: integer}}}}\n",
              "unknown type \"integer\"");
  ExpectError("version: 1\ntables: [{name: T, partitionKey: PK\n", "YAML:");
}

}  // namespace
}  // namespace monotable::workbench
