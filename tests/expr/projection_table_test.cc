// ProjectionExpression: result shape and validation messages, as a table.
#include <gtest/gtest.h>

#include "expr/projection.h"
#include "table_runner.h"

namespace monotable::expr::testing {
namespace {

constexpr ExpressionKind P = ExpressionKind::kProjection;

const char* const kItem = R"({"a": {"b": 1, "c": 2}, "letters": ["x", "y", "z"], "alt": "o", "pk": "p",
  "deep": {"l": [{"v": 1, "w": 2}, {"v": 3}]}, "s": {"$SS": ["q"]}})";

std::vector<Case> Cases() {
  const std::string I = kItem;
  return {
      {P, "a.c, letters[2], letters[0], #o", R"({"#o": "alt"})", "", I, R"({"a":{"c":2},"alt":"o","letters":["x","z"]})"},
      {P, "pk", "", "", I, R"({"pk":"p"})"},
      {P, "absent, pk", "", "", I, R"({"pk":"p"})"},
      {P, "a.x", "", "", I, "{}"},
      {P, "a.b.c", "", "", I, "{}"},
      {P, "letters[5]", "", "", I, "{}"},
      {P, "letters.x, pk", "", "", I, R"({"pk":"p"})"},
      {P, "deep.l[1].v, deep.l[0].w", "", "", I, R"({"deep":{"l":[{"w":2},{"v":3}]}})"},
      {P, "deep.l[1], deep.l[0].v", "", "", I, R"({"deep":{"l":[{"v":1},{"v":3}]}})"},
      {P, "letters[1], a", "", "", I, R"({"a":{"b":1,"c":2},"letters":["y"]})"},
      {P, "s, a.b", "", "", I, R"({"a":{"b":1},"s":{"$SS":["q"]}})"},
      {P, "#a.#b", R"({"#a": "a", "#b": "b"})", "", I, R"({"a":{"b":1}})"},
      {P, " pk , alt ", "", "", I, R"({"alt":"o","pk":"p"})"},
      {P, "pk", "", "", "", "{}"},
      // Errors.
      {P, "", "", "", I, "ERR:Invalid ProjectionExpression: The expression can not be empty;"},
      {P, "a,", "", "", I, R"(ERR:Invalid ProjectionExpression: Syntax error; token: "<EOF>", near: ",")"},
      {P, "a b", "", "", I, R"(ERR:Invalid ProjectionExpression: Syntax error; token: "b", near: "a b")"},
      {P, "(a)", "", "", I, R"(ERR:Invalid ProjectionExpression: Syntax error; token: "(", near: "(a")"},
      {P, "a = b", "", "", I, R"(ERR:Invalid ProjectionExpression: Syntax error; token: "=", near: "a = b")"},
      {P, "size", "", "", I, "ERR:Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: size"},
      {P, "#x, Status", "", "", I, "ERR:Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: Status"},
      {P, "a, #x", "", "", I,
       "ERR:Invalid ProjectionExpression: An expression attribute name used in the document path is not defined; attribute name: #x"},
      {P, "a, a", "", "", I,
       "ERR:Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]"},
      {P, "a.b, #a", R"({"#a": "a"})", "", I,
       "ERR:Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a, b], path two: [a]"},
      {P, "a[0], a.b", "", "", I,
       "ERR:Invalid ProjectionExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, [0]], path two: [a, b]"},
      {P, "a[0], a.b, c, c", "", "", I,
       "ERR:Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [c], path two: [c]"},
      {P, "pk", R"({"#a": "a"})", "", I, "ERR:Value provided in ExpressionAttributeNames unused in expressions: keys: {#a}"},
      // Document paths of at most 32 levels.
      {P, "a" + Rep(".b", 31), "", "", I, "{}"},
      {P, "a" + Rep("[0]", 31), "", "", I, "{}"},
      {P, "a" + Rep(".b", 32), "", "", I,
       "ERR:Invalid ProjectionExpression: The document path has too many nesting levels; nesting levels: 33"},
      {P, "a" + Rep("[0]", 32), "", "", I,
       "ERR:Invalid ProjectionExpression: The document path has too many nesting levels; nesting levels: 33"},
      {P, "pk, #d" + Rep(".#d", 33) + ", a" + Rep(".b", 40), R"({"#d": "deep"})", "", I,
       "ERR:Invalid ProjectionExpression: The document path has too many nesting levels; nesting levels: 34"},
      {P, "#a", R"({"#a": ")" + Rep("n", 65536) + R"("})", "", I,
       "ERR:1 validation error detected: Attribute name is too large, must be less than 65536 bytes"},
  };
}

class ProjectionTable : public ::testing::TestWithParam<Case> {};

TEST_P(ProjectionTable, Projects) { EXPECT_EQ(RunCase(GetParam()), GetParam().expect) << GetParam(); }

INSTANTIATE_TEST_SUITE_P(Cases, ProjectionTable, ::testing::ValuesIn(Cases()));

TEST(Projection, HeadsAndDirectPaths) {
  ExpressionInputs in;
  auto p = ParseProjectionExpression("a.b, c, d[1]", in);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->PathHeads(), (std::vector<std::string>{"a", "c", "d"}));
  EXPECT_EQ(p->PathHeads(true), (std::vector<std::string>{"a", "d"}));
  EXPECT_EQ(FormatPath(p->paths()[2]), "[d, [1]]");
  EXPECT_EQ(Doc(ProjectPaths({}, It(kItem))), "{}");
}

}  // namespace
}  // namespace monotable::expr::testing
