// The Lambda event for DynamoDB stream records: field names, types and TTL deletions.
#include "triggers/event_builder.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

namespace monotable::triggers {
namespace {

TEST(EventBuilderTest, RecordAsLambdaDeliversIt) {
  table::StreamInfo info;
  info.table_name = "Books";
  info.table_id = "id1";
  info.label = "2024-01-01T00:00:00.000";
  info.view_type = "NEW_AND_OLD_IMAGES";
  table::Change change;
  change.seq = 1234;
  change.record.kind = table::ChangeKind::kRemove;
  change.record.by_service = true;
  change.record.created_ms = 1'700'000'000'999;
  change.record.keys = {{"pk", AttributeValue::S("a")}};
  change.record.old_image = Item{{"pk", AttributeValue::S("a")},
                                 {"n", AttributeValue::N(Number::Parse("1.50").value())},
                                 {"b", AttributeValue::B("\x01\x02")},
                                 {"ns", AttributeValue::NS({Number::FromInt(3)})},
                                 {"l", AttributeValue::L({AttributeValue::Null(), AttributeValue::Bool(false)})}};
  std::string arn = StreamArn("eu-west-1", "000000000000", info);
  EXPECT_EQ(arn, "arn:aws:dynamodb:eu-west-1:000000000000:table/Books/stream/2024-01-01T00:00:00.000");
  std::string json = RecordJson(info, arn, "eu-west-1", change);
  std::string event = EventJson({&json, &json});
  rapidjson::Document doc;
  doc.Parse(event.c_str());
  ASSERT_FALSE(doc.HasParseError()) << event;
  ASSERT_EQ(doc["Records"].Size(), 2u);
  const auto& r = doc["Records"][0];
  EXPECT_EQ(std::string(r["eventID"].GetString()), EventId(info, 1234));
  EXPECT_STREQ(r["eventName"].GetString(), "REMOVE");
  EXPECT_STREQ(r["eventVersion"].GetString(), "1.1");
  EXPECT_STREQ(r["eventSource"].GetString(), "aws:dynamodb");
  EXPECT_STREQ(r["awsRegion"].GetString(), "eu-west-1");
  EXPECT_STREQ(r["eventSourceARN"].GetString(), arn.c_str());
  EXPECT_STREQ(r["userIdentity"]["type"].GetString(), "Service");
  EXPECT_STREQ(r["userIdentity"]["principalId"].GetString(), "dynamodb.amazonaws.com");
  const auto& d = r["dynamodb"];
  ASSERT_TRUE(d["ApproximateCreationDateTime"].IsNumber());
  EXPECT_EQ(d["ApproximateCreationDateTime"].GetInt64(), 1'700'000'000);
  EXPECT_STREQ(d["Keys"]["pk"]["S"].GetString(), "a");
  EXPECT_FALSE(d.HasMember("NewImage"));
  EXPECT_STREQ(d["OldImage"]["n"]["N"].GetString(), "1.5");
  EXPECT_STREQ(d["OldImage"]["b"]["B"].GetString(), "AQI=");
  EXPECT_STREQ(d["OldImage"]["ns"]["NS"][0].GetString(), "3");
  EXPECT_TRUE(d["OldImage"]["l"]["L"][0]["NULL"].GetBool());
  EXPECT_STREQ(d["SequenceNumber"].GetString(), "000000000000000001234");
  EXPECT_TRUE(d["SizeBytes"].IsUint64());
  EXPECT_STREQ(d["StreamViewType"].GetString(), "NEW_AND_OLD_IMAGES");
  change.record.by_service = false;
  doc.Parse(RecordJson(info, arn, "eu-west-1", change).c_str());
  EXPECT_FALSE(doc.HasMember("userIdentity"));
}

}  // namespace
}  // namespace monotable::triggers
