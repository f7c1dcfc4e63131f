// Relationships: reverse edges of a many-to-many, edges written apart, unbounded embedded lists.
#include <gtest/gtest.h>

#include "test_util.h"

namespace monotable::workbench {
namespace {
using testing::CheckYaml;
using testing::Codes;
using testing::FindCode;

const std::string kBase = R"(
version: 1
tables:
  - name: T
    partitionKey: PK
    sortKey: SK
    globalSecondaryIndexes: [{name: Inverted, partitionKey: SK2, sortKey: PK2}]
entities:
  User: {keys: {PK: "USER#{userId}", SK: "PROFILE"}}
  Group: {keys: {PK: "GROUP#{groupId}", SK: "METADATA"}}
)";

TEST(Relationships, ManyToManyWithoutTheReverseEdge) {
  auto bad = CheckYaml(kBase + R"(
  Membership: {keys: {PK: "GROUP#{groupId}", SK: "USER#{userId}"}}
relationships:
  - {name: membership, type: many-to-many, between: [User, Group], edges: [Membership]}
)");
  const Finding* f = FindCode(bad, "relationship.missing-reverse-edge");
  ASSERT_NE(f, nullptr) << Codes(bad);
  EXPECT_NE(f->message.find("Groups of a User"), std::string::npos) << f->message;
  EXPECT_EQ(f->subject, "membership");
  // Either a second edge item in the user's partition, or an inverted index, serves the other side.
  auto with_edge = CheckYaml(kBase + R"(
  Membership: {keys: {PK: "GROUP#{groupId}", SK: "USER#{userId}"}}
  UserGroup: {keys: {PK: "USER#{userId}", SK: "GROUP#{groupId}"}}
relationships:
  - {name: membership, type: many-to-many, between: [User, Group], edges: [Membership, UserGroup]}
writes:
  - {name: join, transactional: true, items: [Membership, UserGroup]}
)");
  EXPECT_EQ(FindCode(with_edge, "relationship.missing-reverse-edge"), nullptr) << Codes(with_edge);
  EXPECT_EQ(FindCode(with_edge, "relationship.edges-written-apart"), nullptr) << Codes(with_edge);
  auto with_index = CheckYaml(kBase + R"(
  Membership: {keys: {PK: "GROUP#{groupId}", SK: "USER#{userId}", SK2: "USER#{userId}", PK2: "GROUP#{groupId}"}}
relationships:
  - {name: membership, type: many-to-many, between: [User, Group], edges: [Membership]}
)");
  EXPECT_EQ(FindCode(with_index, "relationship.missing-reverse-edge"), nullptr) << Codes(with_index);
}

TEST(Relationships, EdgesWrittenApart) {
  auto bad = CheckYaml(kBase + R"(
  Membership: {keys: {PK: "GROUP#{groupId}", SK: "USER#{userId}"}}
  UserGroup: {keys: {PK: "USER#{userId}", SK: "GROUP#{groupId}"}}
relationships:
  - {name: membership, type: many-to-many, between: [User, Group], edges: [Membership, UserGroup]}
writes:
  - {name: join, items: [Membership]}
)");
  ASSERT_NE(FindCode(bad, "relationship.edges-written-apart"), nullptr) << Codes(bad);
}

TEST(Relationships, UnboundedListEmbeddedInAnItem) {
  auto bad = CheckYaml(
      kBase + "  Team: {keys: {PK: \"TEAM#{teamId}\", SK: T}, attributes: {memberIds: {type: list, itemSize: 12}}}\n");
  const Finding* f = FindCode(bad, "relationship.unbounded-list");
  ASSERT_NE(f, nullptr) << Codes(bad);
  EXPECT_EQ(f->subject, "Team");
  auto good = CheckYaml(kBase +
                        "  Team: {keys: {PK: \"TEAM#{teamId}\", SK: T}, attributes: {adminIds: {type: list, maxItems: "
                        "5, itemSize: 12}}}\n");
  EXPECT_EQ(FindCode(good, "relationship.unbounded-list"), nullptr) << Codes(good);
}

}  // namespace
}  // namespace monotable::workbench
