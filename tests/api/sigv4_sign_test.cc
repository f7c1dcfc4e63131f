// The client side of SigV4 (api/sigv4.h SignRequest): the signature botocore computes for the
// same request, and a round trip through the server's Verify.
#include <gtest/gtest.h>

#include <chrono>

#include "api/sigv4.h"

namespace monotable::api {
namespace {

using Headers = std::vector<std::pair<std::string, std::string>>;

// 2024-01-02T03:04:05Z
const auto kWhen = std::chrono::system_clock::time_point(std::chrono::seconds(1704164645));
const Headers kHeaders = {{"Content-Type", "application/x-amz-json-1.0"},
                          {"X-Amz-Target", "DynamoDB_20120810.DescribeTable"}};
const std::string kBody = R"({"TableName":"Books"})";
const SigningKey kKey{"AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", ""};

std::string Find(const Headers& h, const std::string& name) {
  for (const auto& [k, v] : h) {
    if (k == name) return v;
  }
  return "";
}

// Expected values: botocore.auth.SigV4Auth(Credentials(...), "dynamodb", "eu-west-1").add_auth() on
// an AWSRequest POST http://127.0.0.1:8000/ with the same headers and body, its clock at kWhen.
TEST(SignRequestTest, SameSignatureAsBotocore) {
  Headers out = SignRequest(kKey, "eu-west-1", "dynamodb", "POST", "/", "127.0.0.1:8000", kHeaders, kBody, kWhen);
  EXPECT_EQ(Find(out, "X-Amz-Date"), "20240102T030405Z");
  EXPECT_EQ(Find(out, "X-Amz-Security-Token"), "");
  EXPECT_EQ(Find(out, "Authorization"),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20240102/eu-west-1/dynamodb/aws4_request, "
            "SignedHeaders=content-type;host;x-amz-date;x-amz-target, "
            "Signature=bd4cc2387fd18cac97975ff5f8acaf25ca2ffc285d98e91cde3677a4c31bc014");
}

TEST(SignRequestTest, SessionTokenIsSentAndSignedAsBotocoreDoes) {
  SigningKey key = kKey;
  key.session_token = "FQoGZXIvYXdzEXAMPLETOKEN";
  Headers out = SignRequest(key, "eu-west-1", "dynamodb", "POST", "/", "127.0.0.1:8000", kHeaders, kBody, kWhen);
  EXPECT_EQ(Find(out, "X-Amz-Security-Token"), "FQoGZXIvYXdzEXAMPLETOKEN");
  EXPECT_EQ(Find(out, "Authorization"),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20240102/eu-west-1/dynamodb/aws4_request, "
            "SignedHeaders=content-type;host;x-amz-date;x-amz-security-token;x-amz-target, "
            "Signature=bb6039933e6230530ffdc623b78ddf0ff85dfadb98040a1a9b240c8a31be753b");
}

Result<std::string> RoundTrip(const SigningKey& key, const std::string& sent_body) {
  Authenticator auth;
  auth.AddKey("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY");
  Headers all = kHeaders;
  all.emplace_back("Host", "localhost:8000");
  for (auto& h : SignRequest(key, "us-east-1", "dynamodb", "POST", "/", "localhost:8000", kHeaders, kBody, kWhen)) {
    all.push_back(h);
  }
  SignedRequest request{"POST", "/", {}, sent_body};
  for (const auto& [k, v] : all) request.headers.emplace_back(k, v);
  return auth.Verify(request, kWhen + std::chrono::seconds(30));
}

TEST(SignRequestTest, TheServerAcceptsItAndRefusesAWrongSecretOrAnAlteredBody) {
  auto ok = RoundTrip(kKey, kBody);
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_EQ(*ok, "AKIDEXAMPLE");
  SigningKey wrong = kKey;
  wrong.secret = "not-the-secret";
  auto refused = RoundTrip(wrong, kBody);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("signature we calculated does not match"), std::string::npos);
  EXPECT_FALSE(RoundTrip(kKey, R"({"TableName":"Other"})").ok());
}

}  // namespace
}  // namespace monotable::api
