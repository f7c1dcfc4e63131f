// Prefix bleed (another entity, another hierarchy level, another id) and key collisions.
#include <gtest/gtest.h>

#include "test_util.h"

namespace monotable::workbench {
namespace {
using testing::CheckYaml;
using testing::Codes;
using testing::FindCode;

std::string Shop(const std::string& item_sk, const std::string& pattern) {
  return R"(
version: 1
tables: [{name: Shop, partitionKey: PK, sortKey: SK}]
entities:
  Order:
    keys: {PK: "CUSTOMER#{customerId}", SK: "ORDER#{orderId}"}
  OrderItem:
    keys: {PK: "CUSTOMER#{customerId}", SK: ")" +
         item_sk + R"("}
accessPatterns:
)" + pattern;
}

TEST(PrefixBleed, APrefixWithoutDelimiterMatchesAnotherEntity) {
  const std::string pattern = R"(  - name: orders
    operation: Query
    inputs: [customerId]
    keyCondition: {PK: "CUSTOMER#{customerId}", SK: {beginsWith: "ORDER"}}
    entities: [Order]
)";
  auto bad = CheckYaml(Shop("ORDERITEM#{orderId}#{itemId}", pattern));
  const Finding* f = FindCode(bad, "key.prefix-bleed");
  ASSERT_NE(f, nullptr) << Codes(bad);
  EXPECT_NE(f->message.find("OrderItem"), std::string::npos) << f->message;
  const std::string fixed = R"(  - name: orders
    operation: Query
    inputs: [customerId]
    keyCondition: {PK: "CUSTOMER#{customerId}", SK: {beginsWith: "ORDER#"}}
    entities: [Order]
)";
  auto good = CheckYaml(Shop("ORDERITEM#{orderId}#{itemId}", fixed));
  EXPECT_EQ(FindCode(good, "key.prefix-bleed"), nullptr) << Codes(good);
  EXPECT_FALSE(good.Failed()) << Codes(good);
}

TEST(PrefixBleed, AParentPrefixMatchesTheChildLevel) {
  const std::string pattern = "  - {name: orders, operation: Query, inputs: [customerId], entities: [Order]}\n";
  auto bad = CheckYaml(Shop("ORDER#{orderId}#ITEM#{itemId}", pattern));  // ORDER# is the start of both levels
  ASSERT_NE(FindCode(bad, "key.prefix-bleed"), nullptr) << Codes(bad);
  auto good = CheckYaml(Shop("ITEM#{orderId}#{itemId}", pattern));
  EXPECT_EQ(FindCode(good, "key.prefix-bleed"), nullptr) << Codes(good);
}

TEST(PrefixBleed, APrefixEndingInAnIdMatchesLongerIds) {
  // "order and its items": ORDER#{orderId} for orderId=1 also reads ORDER#10...
  const std::string pattern =
      "  - {name: orderWithItems, operation: Query, inputs: [customerId, orderId], entities: [Order, OrderItem]}\n";
  auto bad = CheckYaml(Shop("ORDER#{orderId}#ITEM#{itemId}", pattern));
  const Finding* f = FindCode(bad, "key.prefix-bleed");
  ASSERT_NE(f, nullptr) << Codes(bad);
  EXPECT_NE(f->message.find("orderId=10"), std::string::npos) << f->message;
  // A fixed-width id cannot be the start of another id.
  std::string padded = Shop("ORDER#{orderId:pad10}#ITEM#{itemId}", pattern);
  size_t at = padded.find("SK: \"ORDER#{orderId}\"");
  padded.replace(at, std::string("SK: \"ORDER#{orderId}\"").size(), "SK: \"ORDER#{orderId:pad10}\"");
  auto good = CheckYaml(padded);
  EXPECT_EQ(FindCode(good, "key.prefix-bleed"), nullptr) << Codes(good);
}

TEST(KeyCollision, TwoEntitiesThatCanBuildOneKey) {
  auto bad = CheckYaml(R"(
version: 1
tables: [{name: T, partitionKey: PK, sortKey: SK}]
entities:
  User: {keys: {PK: "USER#{userId}", SK: "{userId}"}}
  Session: {keys: {PK: "USER#{userId}", SK: "{sessionId}"}}
)");
  const Finding* f = FindCode(bad, "key.collision");
  ASSERT_NE(f, nullptr) << Codes(bad);
  EXPECT_EQ(f->severity, Severity::kError);
  auto good = CheckYaml(R"(
version: 1
tables: [{name: T, partitionKey: PK, sortKey: SK}]
entities:
  User: {keys: {PK: "USER#{userId}", SK: "PROFILE"}}
  Session: {keys: {PK: "USER#{userId}", SK: "SESSION#{sessionId}"}}
)");
  EXPECT_EQ(FindCode(good, "key.collision"), nullptr) << Codes(good);
}

}  // namespace
}  // namespace monotable::workbench
