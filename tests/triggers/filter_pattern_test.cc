// Lambda filter patterns against DynamoDB stream records (DynamoDB JSON, as Lambda matches them).
#include "triggers/filter_pattern.h"

#include <gtest/gtest.h>

namespace monotable::triggers {
namespace {

constexpr const char* kRecord = R"({
  "eventID": "1", "eventName": "MODIFY", "eventVersion": "1.1", "eventSource": "aws:dynamodb",
  "dynamodb": {
    "ApproximateCreationDateTime": 1700000000,
    "Keys": {"pk": {"S": "AUTHOR#ann"}, "sk": {"S": "PROFILE"}},
    "NewImage": {"pk": {"S": "AUTHOR#ann"}, "sk": {"S": "PROFILE"}, "type": {"S": "author"},
                 "bio": {"S": "Writes books."}, "age": {"N": "42"}, "tags": {"SS": ["a", "b"]},
                 "active": {"BOOL": true}, "nothing": {"NULL": true}, "empty": {"S": ""}},
    "OldImage": {"pk": {"S": "AUTHOR#ann"}, "type": {"S": "author"}},
    "SequenceNumber": "000000000000000000111", "SizeBytes": 26, "StreamViewType": "NEW_AND_OLD_IMAGES"
  }
})";

bool Match(const char* pattern) {
  auto p = FilterPattern::Compile(pattern);
  EXPECT_TRUE(p.ok()) << pattern << ": " << p.status().message();
  if (!p.ok()) return false;
  rapidjson::Document doc;
  doc.Parse(kRecord);
  return p.value()->Matches(doc);
}

Status CompileStatus(const char* pattern) {
  auto p = FilterPattern::Compile(pattern);
  return p.ok() ? Status::Ok() : p.status();
}

TEST(FilterPatternTest, ExactValuesOnTypedImages) {
  EXPECT_TRUE(Match(R"({"dynamodb": {"NewImage": {"type": {"S": ["author"]}}}})"));
  EXPECT_FALSE(Match(R"({"dynamodb": {"NewImage": {"type": {"S": ["book"]}}}})"));
  EXPECT_TRUE(Match(R"({"dynamodb": {"NewImage": {"type": {"S": ["book", "author"]}}}})"));              // OR
  EXPECT_TRUE(Match(R"({"eventName": ["MODIFY"], "dynamodb": {"Keys": {"sk": {"S": ["PROFILE"]}}}})"));  // AND
  EXPECT_FALSE(Match(R"({"eventName": ["INSERT"], "dynamodb": {"Keys": {"sk": {"S": ["PROFILE"]}}}})"));
  // The type key is part of the path: a pattern without it never sees the value.
  EXPECT_FALSE(Match(R"({"dynamodb": {"NewImage": {"type": ["author"]}}})"));
  EXPECT_TRUE(Match(R"({"dynamodb": {"NewImage": {"active": {"BOOL": [true]}}}})"));
  EXPECT_FALSE(Match(R"({"dynamodb": {"NewImage": {"active": {"BOOL": [false]}}}})"));
  EXPECT_TRUE(Match(R"({"dynamodb": {"NewImage": {"empty": {"S": [""]}}}})"));
  EXPECT_TRUE(Match(R"({"dynamodb": {"NewImage": {"tags": {"SS": ["b"]}}}})"));  // any array element
  EXPECT_TRUE(Match(R"({"dynamodb": {"SizeBytes": [26]}})"));
}

TEST(FilterPatternTest, PrefixSuffixIgnoreCase) {
  EXPECT_TRUE(Match(R"({"dynamodb": {"Keys": {"pk": {"S": [{"prefix": "AUTHOR#"}]}}}})"));
  EXPECT_FALSE(Match(R"({"dynamodb": {"Keys": {"pk": {"S": [{"prefix": "BOOK#"}]}}}})"));
  EXPECT_TRUE(Match(R"({"dynamodb": {"Keys": {"pk": {"S": [{"suffix": "#ann"}]}}}})"));
  EXPECT_TRUE(Match(R"({"dynamodb": {"Keys": {"pk": {"S": [{"prefix": {"equals-ignore-case": "author#"}}]}}}})"));
  EXPECT_TRUE(Match(R"({"eventName": [{"equals-ignore-case": "modify"}]})"));
}

TEST(FilterPatternTest, AnythingBut) {
  EXPECT_TRUE(Match(R"({"eventName": [{"anything-but": ["INSERT", "REMOVE"]}]})"));
  EXPECT_FALSE(Match(R"({"eventName": [{"anything-but": "MODIFY"}]})"));
  EXPECT_FALSE(Match(R"({"dynamodb": {"Keys": {"pk": {"S": [{"anything-but": {"prefix": "AUTHOR#"}}]}}}})"));
  EXPECT_TRUE(Match(R"({"dynamodb": {"Keys": {"pk": {"S": [{"anything-but": {"prefix": "BOOK#"}}]}}}})"));
  // A missing field matches no anything-but.
  EXPECT_FALSE(Match(R"({"dynamodb": {"NewImage": {"missing": {"S": [{"anything-but": "x"}]}}}})"));
}

TEST(FilterPatternTest, NumericMatchesJsonNumbersOnly) {
  EXPECT_TRUE(Match(R"({"dynamodb": {"SizeBytes": [{"numeric": [">", 20, "<=", 26]}]}})"));
  EXPECT_FALSE(Match(R"({"dynamodb": {"SizeBytes": [{"numeric": [">", 26]}]}})"));
  EXPECT_TRUE(Match(R"({"dynamodb": {"SizeBytes": [{"numeric": ["=", 26]}]}})"));
  // DynamoDB numbers are strings in the record: a numeric rule does not match them (as on AWS).
  EXPECT_FALSE(Match(R"({"dynamodb": {"NewImage": {"age": {"N": [{"numeric": [">", 1]}]}}}})"));
  EXPECT_TRUE(Match(R"({"dynamodb": {"NewImage": {"age": {"N": ["42"]}}}})"));
}

TEST(FilterPatternTest, ExistsOnLeaves) {
  EXPECT_TRUE(Match(R"({"dynamodb": {"NewImage": {"bio": {"S": [{"exists": true}]}}}})"));
  EXPECT_FALSE(Match(R"({"dynamodb": {"NewImage": {"bio": {"S": [{"exists": false}]}}}})"));
  EXPECT_TRUE(Match(R"({"dynamodb": {"OldImage": {"bio": {"S": [{"exists": false}]}}}})"));
  EXPECT_FALSE(Match(R"({"dynamodb": {"OldImage": {"bio": {"S": [{"exists": true}]}}}})"));
  // exists works on leaf nodes: an attribute's map is not a leaf.
  EXPECT_FALSE(Match(R"({"dynamodb": {"NewImage": {"bio": [{"exists": true}]}}})"));
  EXPECT_TRUE(Match(R"({"dynamodb": {"NewImage": {"nothing": {"NULL": [true]}}}})"));
}

TEST(FilterPatternTest, NullLiteral) { EXPECT_FALSE(Match(R"({"eventName": [null]})")); }

TEST(FilterPatternTest, RefusesBadPatterns) {
  for (const char* bad :
       {"", "[]", "{\"a\": 1}", "{\"a\": []}", "{\"a\": [{\"regex\": \"x\"}]}", "{\"a\": [{\"numeric\": [\">\"]}]}",
        "{\"a\": [{\"numeric\": [\"<\", 5, \">\", 1]}]}", "{\"a\": [{\"numeric\": [\">\", 5, \"<\", 1]}]}",
        "{\"a\": [{\"exists\": 1}]}", "{\"a\": [{\"prefix\": 1}]}", "{\"a\": [{\"prefix\": \"x\", \"suffix\": \"y\"}]}",
        "{\"a\": [{\"anything-but\": []}]}", "{\"a\": [[\"x\"]]}", "{\"a\": {}}"}) {
    EXPECT_EQ(CompileStatus(bad).code(), ErrorCode::kValidation) << bad;
  }
  std::string deep = "{\"a\": ";
  for (int i = 0; i < 40; ++i) deep += "{\"a\": ";
  deep += "[1]";
  for (int i = 0; i < 41; ++i) deep += "}";
  EXPECT_EQ(CompileStatus(deep.c_str()).code(), ErrorCode::kValidation);
}

}  // namespace
}  // namespace monotable::triggers
