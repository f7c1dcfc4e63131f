// PartiQL parser, value binding and lowering: declarative tables of statement -> AST dump or
// exact error, then conditions and updates evaluated through the expression layer.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "expr/partiql/keywords.h"
#include "expr/partiql/lexer.h"
#include "expr/partiql/lower.h"
#include "expr/partiql/parser.h"
#include "expr/partiql/values.h"
#include "expr_test_util.h"

namespace monotable::expr::partiql {
namespace {

using expr::testing::Av;
using expr::testing::Doc;
using expr::testing::It;

constexpr const char* kBad = "ERR:Statement wasn't well formed, can't be processed: ";

std::string Parsed(const std::string& text) {
  auto s = ParseStatement(text);
  if (!s.ok()) return "ERR:" + s.status().message();
  return Dump(*s);
}

struct ParseCase {
  std::string statement;
  std::string expect;  // Dump() of the statement, or "ERR:<exact message>"
};

std::ostream& operator<<(std::ostream& os, const ParseCase& c) { return os << c.statement; }

class ParseTable : public ::testing::TestWithParam<ParseCase> {};

TEST_P(ParseTable, Statement) { EXPECT_EQ(Parsed(GetParam().statement), GetParam().expect); }

const std::string B = kBad;

INSTANTIATE_TEST_SUITE_P(
    Accepted, ParseTable,
    ::testing::Values(
        ParseCase{"SELECT * FROM \"t\"", "select * from \"t\""},
        ParseCase{"select * from Music", "select * from \"Music\""},
        ParseCase{"SELECT a, b.c, d[2], \"e f\".g['h'] FROM \"t\".\"idx\"",
                  "select a, b.c, d[2], e f.g.h from \"t\".\"idx\""},
        ParseCase{"SELECT * FROM t WHERE pk = 'a' AND sk >= 3", "select * from \"t\" where (and (= pk 'a') (>= sk 3))"},
        ParseCase{"SELECT * FROM t WHERE pk = 'a' OR pk = 'b' AND NOT x <> 1",
                  "select * from \"t\" where (or (= pk 'a') (and (= pk 'b') (not (<> x 1))))"},
        ParseCase{"SELECT * FROM t WHERE a != 1", "select * from \"t\" where (<> a 1)"},
        ParseCase{"SELECT * FROM t WHERE a BETWEEN 1 AND 5 AND b NOT BETWEEN 'a' AND 'b'",
                  "select * from \"t\" where (and (between a 1 5) (not_between b 'a' 'b'))"},
        ParseCase{"SELECT * FROM t WHERE pk IN ['a', 'b'] AND x IN (1, 2) AND y NOT IN [?]",
                  "select * from \"t\" where (and (in pk 'a' 'b') (in x 1 2) (not_in y ?0)) params=1"},
        ParseCase{"SELECT * FROM t WHERE a IS MISSING AND b IS NOT MISSING AND c IS NULL AND d IS NOT BOOLEAN",
                  "select * from \"t\" where (and (is MISSING a) (is_not MISSING b) (is NULL c) (is_not BOOLEAN d))"},
        ParseCase{"SELECT * FROM t WHERE x IS DOUBLE PRECISION", "select * from \"t\" where (is DOUBLE PRECISION x)"},
        ParseCase{"SELECT * FROM t WHERE begins_with(a, 'x') AND size(l) > 2 AND contains(\"s\", ?)",
                  "select * from \"t\" where (and (call begins_with a 'x') (> (call size l) 2) (call contains s ?0)) "
                  "params=1"},
        ParseCase{"SELECT * FROM t WHERE pk = ? AND sk = ? ORDER BY sk DESC, pk",
                  "select * from \"t\" where (and (= pk ?0) (= sk ?1)) order by sk desc, pk asc params=2"},
        ParseCase{"SELECT * FROM t WHERE ((a = 1))", "select * from \"t\" where (= a 1)"},
        ParseCase{"SELECT * FROM t WHERE a = -1.5e3 AND b = 'it''s'",
                  "select * from \"t\" where (and (= a -1.5e3) (= b 'it's'))"},
        ParseCase{"SELECT * FROM t WHERE a = true AND b = NULL AND c = MISSING",
                  "select * from \"t\" where (and (= a true) (= b null) (= c missing))"},
        ParseCase{"SELECT * FROM t -- comment\n WHERE /* block */ a = 1;", "select * from \"t\" where (= a 1)"},
        ParseCase{"INSERT INTO \"t\" VALUE {'pk': 'a', 'n': 1, 'l': [1, 'x'], 'm': {'k': NULL}, 's': <<'a', 'b'>>}",
                  "insert into \"t\" value (tuple 'pk':'a' 'n':1 'l':(list 1 'x') 'm':(tuple 'k':null) "
                  "'s':(bag 'a' 'b'))"},
        ParseCase{"insert into t value ?", "insert into \"t\" value ?0 params=1"},
        ParseCase{"UPDATE \"t\" SET a = 1, b.c[0] = a + 2 REMOVE x SET y = list_append(y, [1]) WHERE pk = 'k'",
                  "update \"t\" set a = 1 set b.c[0] = (+ a 2) remove x set y = (call list_append y (list 1)) "
                  "where (= pk 'k')"},
        ParseCase{"UPDATE t REMOVE a, b WHERE pk = 'k' RETURNING MODIFIED NEW *",
                  "update \"t\" remove a remove b where (= pk 'k') RETURNING MODIFIED NEW *"},
        ParseCase{"DELETE FROM t WHERE pk = 'k' AND sk = 1 RETURNING ALL OLD *",
                  "delete from \"t\" where (and (= pk 'k') (= sk 1)) RETURNING ALL OLD *"},
        ParseCase{"EXISTS(SELECT * FROM t WHERE pk = 'k' AND a IS MISSING)",
                  "exists(select * from \"t\" where (and (= pk 'k') (is MISSING a)))"},
        ParseCase{"SELECT \"value\", \"count\" FROM t", "select value, count from \"t\""}));

INSTANTIATE_TEST_SUITE_P(
    Refused, ParseTable,
    ::testing::Values(
        ParseCase{"SLECT * FROM t", B + "Expected data manipulation"},
        ParseCase{"SELECT a, size(x) FROM t", "ERR:Unsupported operation: function call size in the select clause"},
        ParseCase{"SELECT size FROM t", B + "Unexpected keyword"}, ParseCase{"", B + "Expected data manipulation"},
        ParseCase{"SELECT * FROM t WHERE", B + "Unexpected term"},
        ParseCase{"SELECT * FROM t WHERE;", B + "Unexpected term"},
        ParseCase{"SELECT * FROM t WHERE NOT", B + "Unexpected term"},
        ParseCase{"SELECT * FROM t WHERE (", B + "Unexpected term"}, ParseCase{"SELECT * FROM", B + "Unexpected term"},
        ParseCase{"SELECT * FROM t WHERE pk = 'a' AND", B + "Missing right-hand side expression of infix operator"},
        ParseCase{"SELECT * FROM t WHERE pk = 'a' OR", B + "Missing right-hand side expression of infix operator"},
        ParseCase{"SELECT * FROM t WHERE ORDER BY pk", B + "Unexpected keyword"},
        ParseCase{"SELECT * FROM t WHERE IS NULL", B + "Unexpected operator"},
        ParseCase{"SELECT * FROM t WHERE pk = LIKE", B + "Unexpected operator"},
        ParseCase{"SELECT * FROM t WHERE pk = 1 foo", B + "Unexpected token after expression"},
        ParseCase{"SELECT * FROM t WHERE pk = 1 e5", B + "Unexpected token after expression"},
        ParseCase{"SELECT * FROM t WHERE pk = 1)", B + "Unexpected token after expression"},
        ParseCase{"SELECT * FROM t ORDER BY pk WHERE pk = 1", B + "Unexpected token after expression"},
        ParseCase{"DELETE FROM t WHERE pk = 1 ORDER BY pk", B + "Unexpected token after expression"},
        ParseCase{"SELECT * FROM t WHERE pk = 1e2147483648", B},
        ParseCase{"SELECT * FROM t WHERE pk = 1.5e-2147483647", B}, ParseCase{"SELECT * FROM t WHERE pk = 1 # note", B},
        ParseCase{"SELECT * FROM t WHERE pk = 1 /* note", B}, ParseCase{"SELECT * FROM \"t", B},
        ParseCase{"SELECT * FROM t WHERE pad = 'none'", B + "Unexpected keyword"},
        ParseCase{"SELECT * FROM t WHERE pk = 'a' AND x IS FOO", B + "Expected type name"},
        ParseCase{"DELETE FROM", B + "Expected identifier for simple path"},
        ParseCase{"DELETE FROM;", B + "Expected identifier for simple path"},
        ParseCase{"DELETE FROM WHERE pk = 'a'", B + "Expected identifier for simple path"},
        ParseCase{"SELECT * FROM t x WHERE pk = 'x'", "ERR:Aliasing is not supported"},
        ParseCase{"SELECT * FROM t AS x WHERE pk = 'x'", "ERR:Aliasing is not supported"},
        ParseCase{"UPDATE t x SET a = 3 WHERE pk = 'x'", "ERR:Aliasing is not supported"},
        ParseCase{"DELETE FROM t x WHERE pk = 'x'", "ERR:Aliasing is not supported"},
        ParseCase{"INSERT INTO t x VALUE {'pk': 'x'}", B + "Unexpected token after expression"},
        ParseCase{"INSERT INTO \"t\".\"i\" VALUE {'pk': 'x'}", "ERR:FROM clause may only contain a single table name"},
        ParseCase{"SELECT * FROM \"\" WHERE pk = 'p'", "ERR:Path component cannot be an empty string"},
        ParseCase{"SELECT * FROM \"t\".\"\" WHERE pk = 'p'", "ERR:Path component cannot be an empty string"},
        ParseCase{"SELECT * FROM \"t\".\"i\".\"x\"", "ERR:A path may contain at most 2 components in the FROM clause"},
        ParseCase{"SELECT *, a FROM t",
                  "ERR:Other attributes should not be present in the projection when '*' is used."},
        ParseCase{"SELECT VALUE a FROM t", "ERR:Select projection doesn't support value or pivot keywords"},
        ParseCase{"SELECT * FROM t WHERE pk = 'a' LIMIT 1", "ERR:Unsupported clause: LIMIT"},
        ParseCase{"SELECT * FROM t WHERE a[*].b = 1", "ERR:Wildcard path component like a[*].b are not supported"},
        ParseCase{"DELETE FROM t WHERE pk = 'x' RETURNING ALL OLD",
                  "ERR:Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause"},
        ParseCase{"INSERT INTO t VALUE {'pk': 'x'} RETURNING ALL OLD *", "ERR:RETURNING is not supported in INSERT"},
        ParseCase{"INSERT INTO t VALUES ('x')",
                  "ERR:Unsupported operation: Inserting multiple items in a single statement is not supported, use "
                  "\"INSERT INTO tableName VALUE item\" instead"},
        ParseCase{"UPDATE t ADD a 1 WHERE pk = 'x'",
                  "ERR:Only SET and REMOVE are supported in update expressions at this time"},
        ParseCase{"SELECT * FROM t WHERE pk = 'a'; SELECT * FROM t", B + "Unexpected token after expression"}));

TEST(PartiqlParser, DepthIsBounded) {
  std::string deep = "SELECT * FROM t WHERE ";
  for (int i = 0; i < 100000; ++i) deep += "(";
  EXPECT_EQ(Parsed(deep), B + "Expression nesting is too deep");
  std::string nots = "SELECT * FROM t WHERE ";
  for (int i = 0; i < 100000; ++i) nots += "NOT ";
  EXPECT_EQ(Parsed(nots + "a = 1"), B + "Expression nesting is too deep");
  std::string lists = "INSERT INTO t VALUE ";
  for (int i = 0; i < 100000; ++i) lists += "[";
  EXPECT_EQ(Parsed(lists), B + "Expression nesting is too deep");
  std::string sums = "UPDATE t SET a = 1";
  for (int i = 0; i < 3000; ++i) sums += " + 1";
  EXPECT_EQ(Parsed(sums + " WHERE pk = 'a'"), B + "Expression nesting is too deep");
  std::string ok = "SELECT * FROM t WHERE ";
  for (int i = 0; i < 30; ++i) ok += "(";
  ok += "a = 1";
  for (int i = 0; i < 30; ++i) ok += ")";
  EXPECT_EQ(Parsed(ok), "select * from \"t\" where (= a 1)");
}

TEST(PartiqlParser, KeywordsAndTokens) {
  EXPECT_TRUE(IsReservedWord("VALUE"));
  EXPECT_TRUE(IsReservedWord("pad"));
  EXPECT_TRUE(IsReservedWord("Missing"));
  EXPECT_FALSE(IsReservedWord("name"));
  EXPECT_FALSE(IsReservedWord("data"));
  auto tokens = Tokenize("a <> b != <<1>> 'x''y' \"q\"\"r\"");
  ASSERT_TRUE(tokens.ok());
  std::vector<std::string> texts;
  for (const auto& t : *tokens) texts.push_back(t.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"a", "<>", "b", "!=", "<<", "1", ">>", "x'y", "q\"r", ""}));
}

// Value binding: statement VALUE -> item document, or the exact error.
std::string InsertValue(const std::string& value, const std::vector<AttributeValue>& params = {}) {
  auto s = ParseStatement("INSERT INTO t VALUE " + value);
  if (!s.ok()) return "ERR:" + s.status().message();
  auto v = ToAttributeValue(*s->value, params);
  if (!v.ok()) return "ERR:" + v.status().message();
  return Doc(v.value());
}

TEST(PartiqlValues, Literals) {
  EXPECT_EQ(InsertValue("{'a': 1E3, 'b': -1.5e-3, 'c': 2.50, 'd': -0, 'q': 'it''s'}"),
            Doc(Av(R"({"a": 1000, "b": -0.0015, "c": 2.5, "d": 0, "q": "it's"})")));
  EXPECT_EQ(InsertValue("{'l': [1, 'x', true, null], 'm': {}, 'gone': MISSING}"),
            Doc(Av(R"({"l": [1, "x", true, null], "m": {}})")));
  EXPECT_EQ(InsertValue("{'ns': <<1, 34, 4.5>>, 'ss': <<'a', 'b'>>}"),
            Doc(Av(R"({"ns": {"$NS": ["1", "34", "4.5"]}, "ss": {"$SS": ["a", "b"]}})")));
  EXPECT_EQ(InsertValue("{'p': ?, 'k': [?]}", {AttributeValue::S("x"), AttributeValue::Bool(false)}),
            Doc(Av(R"({"p": "x", "k": [false]})")));
}

TEST(PartiqlValues, Errors) {
  EXPECT_EQ(InsertValue("{'s': <<>>}"), "ERR:Empty bags are not supported");
  EXPECT_EQ(InsertValue("{'s': <<1, 'a'>>}"),
            "ERR:Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags");
  EXPECT_EQ(InsertValue("{'s': <<'a', 'a'>>}"),
            "ERR:One or more parameter values were invalid: Input collection [a, a] contains duplicates.");
  EXPECT_EQ(
      InsertValue("{'pk': 1e126}"),
      "ERR:Number overflow. Attempting to store a number with magnitude larger than supported range under root.pk");
  EXPECT_EQ(InsertValue("{'m': {'x': 1e-131}}"),
            "ERR:Number underflow. Attempting to store a number with magnitude smaller than supported range under "
            "root.m.x");
  EXPECT_EQ(InsertValue("{'l': [1, 123456789012345678901234567890123456789]}"),
            "ERR:Attempting to store more than 38 significant digits in a Number under root.l[1]");
  EXPECT_EQ(InsertValue("{'a': 1, 'a': 2}"), "ERR:Duplicate keys in tuple. Key: a under root");
  EXPECT_EQ(InsertValue("{1: 2}"), "ERR:Tuple keys must be of type String. Actual type: N under root");
  auto s = ParseStatement("SELECT * FROM t WHERE a = ? AND b = ?");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(CheckParameterCount(*s, 1).message(), "Number of parameters in request and statement don't match.");
  EXPECT_TRUE(CheckParameterCount(*s, 2).ok());
}

// WHERE lowering: condition evaluated against an item ("" = absent), or the exact error.
struct WhereCase {
  std::string where;
  std::string item;
  std::string expect;  // "true", "false" or "ERR:<message>"
};

std::ostream& operator<<(std::ostream& os, const WhereCase& c) { return os << c.where << " on " << c.item; }

class WhereTable : public ::testing::TestWithParam<WhereCase> {};

TEST_P(WhereTable, Evaluate) {
  const WhereCase& c = GetParam();
  auto s = ParseStatement("SELECT * FROM t WHERE " + c.where);
  ASSERT_TRUE(s.ok()) << s.status().message();
  std::vector<AttributeValue> params = {AttributeValue::S("p"), AttributeValue::L({AttributeValue::S("a")})};
  params.resize(s->parameter_count);
  auto cond = LowerCondition(Conjuncts(*s->where), params);
  std::string got;
  if (!cond.ok()) {
    got = "ERR:" + cond.status().message();
  } else {
    Item item = It(c.item.empty() ? "{}" : c.item);
    got = cond->Evaluate(c.item.empty() ? nullptr : &item) ? "true" : "false";
  }
  EXPECT_EQ(got, c.expect);
}

const char* kItem =
    R"({"pk": "a", "n": 5, "s": "hello", "l": [1, 2], "m": {"k": "v"}, "nul": null, "ss": {"$SS": ["x"]}})";

INSTANTIATE_TEST_SUITE_P(
    Conditions, WhereTable,
    ::testing::Values(
        WhereCase{"pk = 'a' AND n > 4", kItem, "true"}, WhereCase{"n >= 6 OR s = 'hello'", kItem, "true"},
        WhereCase{"NOT n = 5", kItem, "false"}, WhereCase{"n BETWEEN 1 AND 5", kItem, "true"},
        WhereCase{"n NOT BETWEEN 1 AND 5", kItem, "false"}, WhereCase{"pk IN ['b', 'a']", kItem, "true"},
        WhereCase{"pk NOT IN ('a')", kItem, "false"}, WhereCase{"m.k = 'v' AND l[1] = 2", kItem, "true"},
        WhereCase{"m['k'] = 'v'", kItem, "true"}, WhereCase{"absent IS MISSING", kItem, "true"},
        WhereCase{"s IS NOT MISSING", kItem, "true"}, WhereCase{"nul IS NULL", kItem, "true"},
        WhereCase{"absent IS NULL", kItem, "false"}, WhereCase{"absent IS NOT NULL", kItem, "true"},
        WhereCase{"s IS STRING AND n IS NUMERIC AND m IS STRUCT AND l IS LIST", kItem, "true"},
        WhereCase{"begins_with(s, 'he') AND contains(ss, 'x') AND size(l) = 2", kItem, "true"},
        WhereCase{"attribute_type(n, 'N') AND attribute_exists(m.k) AND attribute_not_exists(q)", kItem, "true"},
        WhereCase{"BEGINS_WITH(s, 'x')", kItem, "false"}, WhereCase{"pk = ?", kItem, "false"},
        WhereCase{"pk = ? OR pk IN ?", kItem, "true"}, WhereCase{"n <> 4", "", "true"},
        WhereCase{"'a' IS STRING", "", "true"},
        WhereCase{"n < true", kItem,
                  "ERR:Incorrect operand type for operator or function; operator or function: <, operand type: BOOL"},
        WhereCase{
            "n BETWEEN [1] AND 2", kItem,
            "ERR:Incorrect operand type for operator or function; operator or function: BETWEEN, operand type: L"},
        WhereCase{"n = MISSING", kItem, "ERR:MISSING must be compared using IS operator"},
        WhereCase{"x IS INT4", kItem,
                  "ERR:Unsupported data type for IS operator: INT4. Supported data types are [MISSING, NULL, BOOLEAN, "
                  "BLOB, STRING, NUMERIC, STRUCT, TUPLE, LIST]"},
        WhereCase{"attribute_type(n, 'X')", kItem,
                  "ERR:Invalid attribute type name found; type: X, valid types: {N,BS,L,B,NULL,M,S,SS,NS,BOOL}"},
        WhereCase{"s LIKE 'h%'", kItem, "ERR:Unsupported operator in Condition Expression. Operator: LIKE"},
        WhereCase{"n + 1 = 6", kItem, "ERR:Unsupported operator in Condition Expression. Operator: +"},
        WhereCase{"n", kItem, "ERR:WHERE clause must contain an expression that resolves to a boolean"},
        WhereCase{"nosuch(n)", kItem, "ERR:Unrecognized function: nosuch"},
        WhereCase{"n IN (m)", kItem,
                  "ERR:IN operator must have a left hand argument of type Variable Reference and right hand argument "
                  "of type Seq with at least one member"}));

// UPDATE lowering: SET/REMOVE applied to an item, or the exact error.
std::string Updated(const std::string& clauses, const std::string& item) {
  std::string text = "UPDATE t " + clauses + " WHERE pk = 'a'";
  auto s = ParseStatement(text);
  if (!s.ok()) return "ERR:" + s.status().message();
  auto update = LowerUpdate(s->updates, text, {});
  if (!update.ok()) return "ERR:" + update.status().message();
  Item base = It(item);
  auto applied = update->Apply(&base, Item{});
  if (!applied.ok()) return "ERR:" + applied.status().message();
  return Doc(applied->item);
}

TEST(PartiqlUpdate, Clauses) {
  EXPECT_EQ(Updated("SET n = n + 100, m.new = [2020, 'x'] REMOVE l[0]", R"({"n": 1, "m": {}, "l": [1, 2]})"),
            Doc(It(R"({"n": 101, "m": {"new": [2020, "x"]}, "l": [2]})")));
  EXPECT_EQ(Updated("SET l = list_append(l, [3]) SET c = if_not_exists(c, 0) - 1", R"({"l": [1]})"),
            Doc(It(R"({"l": [1, 3], "c": -1})")));
  EXPECT_EQ(Updated("SET ss = set_add(ss, <<'b'>>) SET ns = SET_DELETE(ns, <<1>>)",
                    R"({"ss": {"$SS": ["a"]}, "ns": {"$NS": ["1"]}})"),
            Doc(It(R"({"ss": {"$SS": ["a", "b"]}})")));
  EXPECT_EQ(Updated("SET gone = MISSING", R"({"gone": 1, "k": 2})"), Doc(It(R"({"k": 2})")));
  EXPECT_EQ(Updated("SET Other = set_add(ss, <<'x'>>)", "{}"),
            "ERR:The first argument to SET_ADD must equal the assignment value at 1:22:7");
  EXPECT_EQ(Updated("SET ss = set_add(ss, 'x')", "{}"),
            "ERR:The second argument to SET_ADD must be a value with type SET");
  EXPECT_EQ(Updated("SET ss = set_add(ss)", "{}"), "ERR:SET_ADD must have exactly two arguments");
  EXPECT_EQ(Updated("SET a = b IS NULL", "{}"), "ERR:IS operator is not supported in update expressions");
  EXPECT_EQ(Updated("SET a = b * 2", "{}"), "ERR:Unsupported operator in Update Expression. Operator: *");
  EXPECT_EQ(Updated("SET l = list_append(nolist, [1])", "{}"),
            "ERR:The provided expression refers to an attribute that does not exist in the item");
}

TEST(PartiqlProjection, LeafNames) {
  auto s = ParseStatement("SELECT a, m.k[1], l[0][2], \"x.y\" FROM t");
  ASSERT_TRUE(s.ok());
  auto p = LowerProjection(*s);
  ASSERT_TRUE(p.ok());
  std::vector<std::string> names;
  for (const auto& e : *p) names.push_back(e.output_name);
  EXPECT_EQ(names, (std::vector<std::string>{"a", "k[1]", "l[0][2]", "x.y"}));
  auto dup = ParseStatement("SELECT a.z, b.z FROM t");
  ASSERT_TRUE(dup.ok());
  EXPECT_EQ(LowerProjection(*dup).status().message(), "Duplicate identifiers in select clause: z");
}

}  // namespace
}  // namespace monotable::expr::partiql
