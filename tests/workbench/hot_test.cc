// Hot partitions from declared rates and cardinalities.
#include <gtest/gtest.h>

#include "test_util.h"

namespace monotable::workbench {
namespace {
using testing::CheckYaml;
using testing::Codes;
using testing::FindCode;

std::string Orders(const std::string& gsi_pk, const std::string& rps) {
  return R"(
version: 1
tables:
  - name: T
    partitionKey: PK
    sortKey: SK
    globalSecondaryIndexes: [{name: ByStatus, partitionKey: GSI1PK, sortKey: GSI1SK}]
entities:
  Order:
    count: 100000000
    keys: {PK: "ORDER#{orderId}", SK: "ORDER", GSI1PK: ")" +
         gsi_pk + R"(", GSI1SK: "{createdAt:iso8601}"}
    attributes:
      shard: {type: number, shards: 4}
writes:
  - {name: placeOrder, rps: )" +
         rps + ", items: [Order]}\n";
}

TEST(HotPartitions, StaticGsiKeyOverTheWriteCeiling) {
  auto bad = CheckYaml(Orders("STATUS#PENDING", "2000"));
  const Finding* f = FindCode(bad, "hot.write-partition");
  ASSERT_NE(f, nullptr) << Codes(bad);
  EXPECT_NE(f->message.find("2,000 WCU"), std::string::npos) << f->message;
  EXPECT_NE(f->fix.find("shards: 3"), std::string::npos) << f->fix;  // 2,000 / (80% of 1,000)
  // The table's own partitions (one per order) are fine.
  EXPECT_EQ(f->message.find("T (\"ORDER#"), std::string::npos);
  auto sharded = CheckYaml(Orders("STATUS#PENDING#{shard}", "2000"));
  EXPECT_EQ(FindCode(sharded, "hot.write-partition"), nullptr) << Codes(sharded);
}

TEST(HotPartitions, StaticGsiKeyWarnsBeforeItBurns) {
  auto warn = CheckYaml(Orders("STATUS#PENDING", "200"));
  const Finding* f = FindCode(warn, "hot.static-gsi-key");
  ASSERT_NE(f, nullptr) << Codes(warn);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_FALSE(warn.Failed());
  auto quiet = CheckYaml(Orders("STATUS#PENDING", "5"));
  EXPECT_EQ(FindCode(quiet, "hot.static-gsi-key"), nullptr) << Codes(quiet);
}

TEST(HotPartitions, ReadsOnOnePartitionOverTheReadCeiling) {
  const std::string model = R"(
version: 1
tables: [{name: T, partitionKey: PK, sortKey: SK}]
entities:
  Config: {count: 1, keys: {PK: "CONFIG", SK: "CURRENT"}}
accessPatterns:
  - {name: readConfig, operation: GetItem, entities: [Config], rps: RPS}
)";
  std::string hot = model;
  hot.replace(hot.find("RPS"), 3, "7000");  // 7,000 x 0.5 RCU = 3,500 on one partition
  auto bad = CheckYaml(hot);
  ASSERT_NE(FindCode(bad, "hot.read-partition"), nullptr) << Codes(bad);
  std::string ok = model;
  ok.replace(ok.find("RPS"), 3, "5000");
  auto good = CheckYaml(ok);
  EXPECT_EQ(FindCode(good, "hot.read-partition"), nullptr) << Codes(good);
}

}  // namespace
}  // namespace monotable::workbench
