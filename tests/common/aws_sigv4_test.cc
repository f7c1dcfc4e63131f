// SigV4 signing of S3 requests (common/aws_sigv4.h) against the example values AWS publishes in
// "Signature Calculations for the Authorization Header: Transferring Payload in a Single Chunk"
// (Amazon S3 API reference): bucket examplebucket, 2013-05-24T00:00:00Z, us-east-1, the
// documentation's example key pair.
#include "common/aws_sigv4.h"

#include <gtest/gtest.h>

namespace monotable::sigv4 {
namespace {

const Credentials kKey{"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", ""};
const auto kWhen = std::chrono::system_clock::time_point(std::chrono::seconds(1369353600));  // 20130524T000000Z
const std::string kEmptyHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

std::string SignatureOf(const Signed& s) { return s.authorization.substr(s.authorization.find("Signature=") + 10); }

TEST(AwsSigV4Test, GetObjectExample) {
  CanonicalInput in;
  in.method = "GET";
  in.canonical_uri = "/test.txt";
  in.host = "examplebucket.s3.amazonaws.com";
  in.headers = {{"Range", "bytes=0-9"}, {"x-amz-content-sha256", kEmptyHash}};
  in.payload_hash = kEmptyHash;
  Signed s = Sign(kKey, "us-east-1", "s3", in, kWhen);
  EXPECT_EQ(s.amz_date, "20130524T000000Z");
  EXPECT_EQ(s.canonical_request,
            "GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\nrange:bytes=0-9\nx-amz-content-sha256:" +
                kEmptyHash + "\nx-amz-date:20130524T000000Z\n\nhost;range;x-amz-content-sha256;x-amz-date\n" +
                kEmptyHash);
  EXPECT_EQ(s.authorization,
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
            "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST(AwsSigV4Test, PutObjectExample) {
  const std::string body = "Welcome to Amazon S3.";
  CanonicalInput in;
  in.method = "PUT";
  const std::string uri = "/" + UriEncode("test$file.text", false);
  EXPECT_EQ(uri, "/test%24file.text");
  in.canonical_uri = uri;
  in.host = "examplebucket.s3.amazonaws.com";
  in.payload_hash = Sha256Hex(body);
  EXPECT_EQ(in.payload_hash, "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
  in.headers = {{"Date", "Fri, 24 May 2013 00:00:00 GMT"},
                {"x-amz-storage-class", "REDUCED_REDUNDANCY"},
                {"x-amz-content-sha256", in.payload_hash}};
  EXPECT_EQ(SignatureOf(Sign(kKey, "us-east-1", "s3", in, kWhen)),
            "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
}

TEST(AwsSigV4Test, ListObjectsExampleSortsAndEncodesTheQuery) {
  CanonicalInput in;
  in.method = "GET";
  in.canonical_uri = "/";
  in.host = "examplebucket.s3.amazonaws.com";
  in.query = {{"prefix", "J"}, {"max-keys", "2"}};
  in.headers = {{"x-amz-content-sha256", kEmptyHash}};
  in.payload_hash = kEmptyHash;
  Signed s = Sign(kKey, "us-east-1", "s3", in, kWhen);
  EXPECT_NE(s.canonical_request.find("\n/\nmax-keys=2&prefix=J\n"), std::string::npos);
  EXPECT_EQ(SignatureOf(s), "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
}

TEST(AwsSigV4Test, UriEncodeKeepsSlashesOnlyWhenAsked) {
  EXPECT_EQ(UriEncode("a b/c~d", true), "a%20b%2Fc~d");
  EXPECT_EQ(UriEncode("a b/c~d", false), "a%20b/c~d");
  EXPECT_EQ(TrimValue("  a   b  "), "a b");
}

}  // namespace
}  // namespace monotable::sigv4
