// Provisioned-throughput simulation: burst credit banked from a table's creation up to
// burst_seconds, the per-partition ceiling burst cannot lift, and on-demand tables, on a fake clock.
#include <gtest/gtest.h>

#include "table/throughput.h"

namespace monotable::table {
namespace {

constexpr double kCreated = 1'700'000'000;  // epoch seconds

TableDescription Provisioned(int64_t rcu, int64_t wcu, double created = kCreated) {
  TableDescription t;
  t.name = "t";
  t.key_prefix = 7;
  t.creation_time = created;
  t.key_schema = {{"pk", KeyRole::kHash}};
  t.throughput.read_units = rcu;
  t.throughput.write_units = wcu;
  return t;
}

class ThroughputTest : public ::testing::Test {
 protected:
  Status Read(const TableDescription& t, double units, const AttributeValue* key) {
    return throughput_.Consume(t, nullptr, key, units, /*write=*/false);
  }
  Status Write(const TableDescription& t, double units) {
    return throughput_.Consume(t, nullptr, &key_, units, /*write=*/true);
  }

  double now_ = kCreated;
  Throughput throughput_{true, [this] { return now_; }};
  AttributeValue key_ = AttributeValue::S("HOT");
};

TEST_F(ThroughputTest, ANewTableHasOneSecondAndBanksWhatItLeavesUnused) {
  TableDescription t = Provisioned(1, 1);
  // A transactional read of a small item costs 2 units: more than a 1 RCU table has at creation...
  EXPECT_EQ(Read(t, 2, &key_).code(), ErrorCode::kProvisionedThroughputExceeded);
  // ...but one unused second later it has banked enough.
  now_ += 1;
  EXPECT_TRUE(Read(t, 2, &key_).ok());
  EXPECT_EQ(Read(t, 0.5, &key_).code(), ErrorCode::kProvisionedThroughputExceeded);
}

TEST_F(ThroughputTest, CreditSinceCreationCountsWhenFirstSeen) {
  TableDescription t = Provisioned(1, 1);
  now_ = kCreated + 9;  // first request ten seconds into the table's life
  EXPECT_TRUE(Read(t, 10, &key_).ok());
  EXPECT_EQ(Read(t, 0.5, &key_).code(), ErrorCode::kProvisionedThroughputExceeded);
}

TEST_F(ThroughputTest, BurstCreditStopsAtThreeHundredSeconds) {
  TableDescription t = Provisioned(5, 5, /*created=*/0);  // created long ago: full
  EXPECT_TRUE(Read(t, 1500, &key_).ok());
  EXPECT_EQ(Read(t, 1, &key_).code(), ErrorCode::kProvisionedThroughputExceeded);
  now_ += 1;
  EXPECT_TRUE(Read(t, 5, &key_).ok());
  EXPECT_EQ(Read(t, 1, &key_).code(), ErrorCode::kProvisionedThroughputExceeded);
  // A long idle period banks no more than 300 s of the rate.
  now_ += 3600;
  EXPECT_EQ(Read(t, 1501, &key_).code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_TRUE(Read(t, 1500, &key_).ok());
  // Reads and writes keep separate credit.
  EXPECT_TRUE(Write(t, 1000).ok());  // (at most 1,000 WCU a second in one partition)
}

TEST_F(ThroughputTest, BurstSecondsIsConfigurable) {
  throughput_.set_burst_seconds(1);
  TableDescription t = Provisioned(5, 5, /*created=*/0);
  EXPECT_EQ(Read(t, 6, &key_).code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_TRUE(Read(t, 5, &key_).ok());
  EXPECT_EQ(Read(t, 0.5, &key_).code(), ErrorCode::kProvisionedThroughputExceeded);
}

TEST_F(ThroughputTest, BurstCannotLiftThePartitionCeiling) {
  // 40,000 WCU: the table banks 12 M units, yet one partition writes at most 1,000 a second.
  TableDescription t = Provisioned(100, 40000, /*created=*/0);
  EXPECT_TRUE(Write(t, 1000).ok());
  EXPECT_EQ(Write(t, 1).code(), ErrorCode::kProvisionedThroughputExceeded);
  now_ += 0.5;
  EXPECT_TRUE(Write(t, 500).ok());
  EXPECT_EQ(Write(t, 1).code(), ErrorCode::kProvisionedThroughputExceeded);
  // A Scan (no partition key) draws on the table's credit only.
  EXPECT_TRUE(throughput_.Consume(t, nullptr, nullptr, 20000, /*write=*/true).ok());
}

TEST_F(ThroughputTest, ARefusedRequestConsumesNothing) {
  TableDescription t = Provisioned(10, 10);
  EXPECT_EQ(Read(t, 11, &key_).code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_TRUE(Read(t, 10, &key_).ok());
}

TEST_F(ThroughputTest, OnDemandTablesAreNeverThrottled) {
  TableDescription t = Provisioned(0, 0);
  t.billing_mode = BillingMode::kPayPerRequest;
  for (int i = 0; i < 100; ++i) EXPECT_TRUE(Write(t, 1000).ok());
}

TEST_F(ThroughputTest, GsiThrottlesWithItsOwnRateAndMessage) {
  TableDescription t = Provisioned(1000, 1000, /*created=*/0);
  IndexDescription gsi;
  gsi.name = "g";
  gsi.key_prefix = 8;
  gsi.throughput.read_units = 1;
  gsi.throughput.write_units = 1;
  t.global_indexes.push_back(gsi);
  const IndexDescription* index = &t.global_indexes[0];
  EXPECT_TRUE(throughput_.Consume(t, index, &key_, 300, /*write=*/true).ok());
  Status refused = throughput_.Consume(t, index, &key_, 1, /*write=*/true);
  EXPECT_EQ(refused.code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_NE(refused.message().find("global secondary indexes"), std::string::npos);
  EXPECT_TRUE(Write(t, 300).ok());  // the table's own credit is untouched
}

TEST_F(ThroughputTest, RefundGivesBackWhatAConsumeTookButNeverMoreThanABucketHolds) {
  TableDescription t = Provisioned(10, 10, kCreated - 3600);  // old: its buckets start full
  throughput_.set_burst_seconds(1);
  ASSERT_TRUE(Write(t, 10).ok());
  EXPECT_EQ(Write(t, 1).code(), ErrorCode::kProvisionedThroughputExceeded);
  throughput_.Refund(t, nullptr, &key_, 10, /*write=*/true);
  EXPECT_TRUE(Write(t, 10).ok());
  // A refund onto a bucket that refilled meanwhile does not lift it past its capacity.
  now_ += 5;
  throughput_.Refund(t, nullptr, &key_, 10, /*write=*/true);
  EXPECT_TRUE(Write(t, 10).ok());
  EXPECT_EQ(Write(t, 1).code(), ErrorCode::kProvisionedThroughputExceeded);
  // The heat map counts only what stayed consumed: one write of 10 units.
  std::string heat = throughput_.HeatJson(t);
  EXPECT_NE(heat.find("\"writes\":1,"), std::string::npos) << heat;
  EXPECT_NE(heat.find("\"writeUnits\":10.0"), std::string::npos) << heat;
}

}  // namespace
}  // namespace monotable::table

namespace monotable::table {
namespace {

TEST(ThroughputSpacesTest, ANewObjectNeverSeesAnotherObjectsBuckets) {
  TableDescription t = Provisioned(1, 1);
  double now = kCreated;
  AttributeValue key = AttributeValue::S("k");
  for (int round = 0; round < 3; ++round) {
    // Each object is built in the same place; the thread's cache of spaces must not carry the
    // spent bucket of the previous one over.
    std::optional<Throughput> throughput;
    throughput.emplace(true, [&] { return now; });
    EXPECT_TRUE(throughput->Consume(t, nullptr, &key, 1, /*write=*/true).ok()) << round;
    EXPECT_EQ(throughput->Consume(t, nullptr, &key, 1, /*write=*/true).code(), ErrorCode::kProvisionedThroughputExceeded)
        << round;
  }
}

}  // namespace
}  // namespace monotable::table
