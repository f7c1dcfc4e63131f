// The S3 client's pure parts (backup/s3_client.h): endpoints, object paths, ListObjectsV2 answers
// and S3's error documents mapped to the statuses exports and imports report.
#include "backup/s3_client.h"

#include <gtest/gtest.h>

namespace monotable::backup {
namespace {

TEST(S3ClientTest, EndpointsArePlainHttpHostAndPort) {
  EXPECT_TRUE(S3Client::Create({"http://127.0.0.1:7480", "k", "s", "us-east-1"}).ok());
  EXPECT_TRUE(S3Client::Create({"http://localhost/", "k", "s", ""}).ok());
  EXPECT_FALSE(S3Client::Create({"https://s3.amazonaws.com", "k", "s", ""}).ok());
  EXPECT_FALSE(S3Client::Create({"http://host:port", "k", "s", ""}).ok());
  EXPECT_FALSE(S3Client::Create({"http://host/path", "k", "s", ""}).ok());
}

TEST(S3ClientTest, ObjectPathsKeepSlashesAndEncodeTheRest) {
  EXPECT_EQ(S3Client::ObjectPath("bkt", "AWSDynamoDB/0170-ab/data/x.json.gz"), "/bkt/AWSDynamoDB/0170-ab/data/x.json.gz");
  EXPECT_EQ(S3Client::ObjectPath("bkt", "a b+c$"), "/bkt/a%20b%2Bc%24");
}

TEST(S3ClientTest, ParsesListingsWithContinuationTokens) {
  const char* page =
      R"(<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">)"
      R"(<Name>bkt</Name><Prefix>p/</Prefix><KeyCount>2</KeyCount><MaxKeys>2</MaxKeys><IsTruncated>true</IsTruncated>)"
      R"(<NextContinuationToken>tok&amp;1</NextContinuationToken>)"
      R"(<Contents><Key>p/a&amp;b</Key><Size>3</Size></Contents><Contents><Key>p/&#233;</Key></Contents>)"
      R"(</ListBucketResult>)";
  auto r = S3Client::ParseListing(page);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->keys, (std::vector<std::string>{"p/a&b", "p/\xc3\xa9"}));
  EXPECT_EQ(r->next_token, "tok&1");
  auto last = S3Client::ParseListing("<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>");
  ASSERT_TRUE(last.ok());
  EXPECT_TRUE(last->keys.empty());
  EXPECT_TRUE(last->next_token.empty());
  EXPECT_FALSE(S3Client::ParseListing("<html/>").ok());
}

TEST(S3ClientTest, MapsS3ErrorsToStatuses) {
  Status missing = S3Client::ErrorFrom(
      404, "<Error><Code>NoSuchBucket</Code><Message>The specified bucket does not exist</Message></Error>", true);
  EXPECT_EQ(missing.code(), ErrorCode::kResourceNotFound);
  EXPECT_EQ(missing.message(), "The specified bucket does not exist");
  EXPECT_EQ(S3Client::ErrorFrom(404, "", true).code(), ErrorCode::kResourceNotFound);  // HeadBucket has no body
  EXPECT_EQ(S3Client::ErrorFrom(404, "", false).code(), ErrorCode::kIo);               // a missing key
  EXPECT_EQ(S3Client::ErrorFrom(403, "<Error><Code>SignatureDoesNotMatch</Code></Error>", true).code(),
            ErrorCode::kAccessDenied);
  EXPECT_EQ(S3Client::ErrorFrom(403, "<Error><Code>InvalidAccessKeyId</Code></Error>", true).code(),
            ErrorCode::kAccessDenied);
  Status denied = S3Client::ErrorFrom(403, "", true);
  EXPECT_EQ(denied.code(), ErrorCode::kAccessDenied);
  EXPECT_EQ(denied.message(), "Access Denied");
  EXPECT_EQ(S3Client::ErrorFrom(500, "<Error><Code>InternalError</Code></Error>", false).code(), ErrorCode::kIo);
}

}  // namespace
}  // namespace monotable::backup
