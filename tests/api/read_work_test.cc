// Service::Handle reports what a Query or Scan read (HttpResponse::read_work), the measure the
// server places queries by (api/query_placement.h).
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "api/service.h"
#include "table/database.h"

namespace monotable::api {
namespace {

class ReadWorkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::make_unique<table::Database>(engine::NewMemoryEngine());
    ASSERT_TRUE(db_->catalog().Load().ok());
    service_ = std::make_unique<Service>(*db_, ServerIdentity{});
    ASSERT_EQ(Call("CreateTable", R"({"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",
        "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],
        "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]})")
                  .status,
              200);
    const std::string payload(100, 'x');
    for (int i = 0; i < kItems; ++i) {
      ASSERT_EQ(Call("PutItem", R"({"TableName":"tbl","Item":{"pk":{"S":"p"},"sk":{"N":")" + std::to_string(i) +
                                    R"("},"payload":{"S":")" + payload + R"("}}})")
                    .status,
                200);
    }
  }

  HttpResponse Call(const std::string& op, std::string body) {
    HttpRequestView request;
    request.method = "POST";
    target_ = "DynamoDB_20120810." + op;
    request.target = target_;  // a view: target_ outlives the call
    request.content_type = "application/x-amz-json-1.0";
    request.body = std::move(body);
    return service_->Handle(request);
  }

  static constexpr int kItems = 40;
  std::unique_ptr<table::Database> db_;
  std::unique_ptr<Service> service_;
  std::string target_;
};

TEST_F(ReadWorkTest, QueryCountsEveryItemReadAndItsBytes) {
  HttpResponse all = Call("Query", R"({"TableName":"tbl","KeyConditionExpression":"pk = :p",
      "ExpressionAttributeValues":{":p":{"S":"p"}}})");
  ASSERT_EQ(all.status, 200) << all.body;
  EXPECT_EQ(all.read_work.items, 40u);
  // Each item: "pk" "p", "sk" and a one- or two-digit number, "payload" and 100 characters.
  EXPECT_GT(all.read_work.bytes, 40u * 110);
  EXPECT_LT(all.read_work.bytes, 40u * 120);

  // A filter that keeps nothing does not make the read smaller.
  HttpResponse filtered = Call("Query", R"({"TableName":"tbl","KeyConditionExpression":"pk = :p",
      "FilterExpression":"payload = :other","ExpressionAttributeValues":{":p":{"S":"p"},":other":{"S":"y"}}})");
  ASSERT_EQ(filtered.status, 200) << filtered.body;
  EXPECT_NE(filtered.body.find(R"("Count":0)"), std::string::npos) << filtered.body;
  EXPECT_EQ(filtered.read_work.items, all.read_work.items);
  EXPECT_EQ(filtered.read_work.bytes, all.read_work.bytes);

  HttpResponse page = Call("Query", R"({"TableName":"tbl","KeyConditionExpression":"pk = :p","Limit":5,
      "ExpressionAttributeValues":{":p":{"S":"p"}}})");
  ASSERT_EQ(page.status, 200) << page.body;
  EXPECT_EQ(page.read_work.items, 5u);
  EXPECT_LT(page.read_work.bytes, all.read_work.bytes / 7);
}

TEST_F(ReadWorkTest, ScanReportsItsPage) {
  HttpResponse scan = Call("Scan", R"({"TableName":"tbl","Limit":12})");
  ASSERT_EQ(scan.status, 200) << scan.body;
  EXPECT_EQ(scan.read_work.items, 12u);
  EXPECT_GT(scan.read_work.bytes, 12u * 110);
}

TEST_F(ReadWorkTest, OtherRequestsAndErrorsReportNothing) {
  HttpResponse get = Call("GetItem", R"({"TableName":"tbl","Key":{"pk":{"S":"p"},"sk":{"N":"1"}}})");
  ASSERT_EQ(get.status, 200) << get.body;
  EXPECT_EQ(get.read_work.items, 0u);
  EXPECT_EQ(get.read_work.bytes, 0u);
  HttpResponse missing = Call("Query", R"({"TableName":"absent","KeyConditionExpression":"pk = :p",
      "ExpressionAttributeValues":{":p":{"S":"p"}}})");
  EXPECT_EQ(missing.status, 400);
  EXPECT_EQ(missing.read_work.items, 0u);
}

}  // namespace
}  // namespace monotable::api
