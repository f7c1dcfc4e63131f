#include "common/base64.h"

#include <gtest/gtest.h>

namespace monotable {
namespace {

TEST(Base64, RoundTripsAllLengths) {
  std::string bytes;
  for (int n = 0; n < 70; ++n) {
    std::string encoded = Base64Encode(bytes);
    EXPECT_TRUE(IsCanonicalBase64(encoded)) << encoded;
    EXPECT_EQ(Base64Decode(encoded), bytes);
    bytes.push_back(static_cast<char>(n * 37));
  }
}

TEST(Base64, KnownVectors) {
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  EXPECT_EQ(Base64Encode(std::string("\0\1", 2)), "AAE=");
}

TEST(Base64, RejectsNonCanonicalText) {
  EXPECT_FALSE(IsCanonicalBase64("Zg="));    // length not a multiple of 4
  EXPECT_FALSE(IsCanonicalBase64("Zh=="));   // unused bits set
  EXPECT_FALSE(IsCanonicalBase64("Zm9=v"));
  EXPECT_FALSE(IsCanonicalBase64("Z!9v"));
  EXPECT_TRUE(IsCanonicalBase64(""));
}

}  // namespace
}  // namespace monotable
