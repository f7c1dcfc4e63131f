// KeyConditionExpression (and legacy KeyConditions): structure, schema checks, messages.
#include <gtest/gtest.h>

#include "expr/legacy.h"
#include "table_runner.h"

namespace monotable::expr::testing {
namespace {

struct KeyCase {
  std::string expression;
  std::string values;
  std::string names;
  bool hash_only = false;
  std::string expect;  // "pk=<doc>[ sk OP <doc>...]" or "ERR:..."
};

std::ostream& operator<<(std::ostream& os, const KeyCase& c) { return os << c.expression << " " << c.values; }

std::string Render(const KeyCondition& k) {
  std::string out = k.partition_key + "=" + Doc(k.partition_value);
  if (k.sort) {
    out += " " + k.sort->attribute + " " + std::string(ComparisonOperatorName(k.sort->op));
    for (const auto& v : k.sort->values) out += " " + Doc(v);
  }
  return out;
}

KeySchemaInfo Schema(bool hash_only) {
  KeySchemaInfo s;
  s.partition_key = "pk";
  s.partition_type = AttrType::kS;
  if (!hash_only) {
    s.sort_key = "sk";
    s.sort_type = AttrType::kN;
  }
  return s;
}

std::string RunKey(const KeyCase& c) {
  const NameMap names = Names(c.names);
  const ValueMap values = Values(c.values);
  UsageTracker tracker;
  ExpressionInputs in{c.names.empty() ? nullptr : &names, c.values.empty() ? nullptr : &values, &tracker, nullptr};
  // DynamoDB's order: bind, unused-keys check, structure, then the table's key schema.
  auto bound = ParseKeyConditionExpression(c.expression, in);
  if (!bound.ok()) return Error(bound.status());
  Status unused = CheckAllUsed(in);
  if (!unused.ok()) return Error(unused);
  auto parts = ExtractKeyConditionParts(*bound);
  if (!parts.ok()) return Error(parts.status());
  auto key = ResolveKeyCondition(*parts, Schema(c.hash_only));
  if (!key.ok()) return Error(key.status());
  // The one-call form agrees.
  UsageTracker t2;
  ExpressionInputs in2{in.names, in.values, &t2, nullptr};
  auto direct = ParseKeyCondition(c.expression, Schema(c.hash_only), in2);
  EXPECT_TRUE(direct.ok());
  if (direct.ok()) {
    EXPECT_EQ(Render(*direct), Render(*key));
  }
  return Render(*key);
}

std::vector<KeyCase> Cases() {
  return {
      {"pk = :p", R"({":p": "a"})", "", false, R"(pk="a")"},
      {"pk = :p", R"({":p": "a"})", "", true, R"(pk="a")"},
      {"pk = :p AND sk > :s", R"({":p": "a", ":s": 1})", "", false, R"(pk="a" sk GT 1)"},
      {":s < sk AND :p = pk", R"({":p": "a", ":s": 1})", "", false, R"(pk="a" sk GT 1)"},
      {":s >= sk and pk = :p", R"({":p": "a", ":s": 1})", "", false, R"(pk="a" sk LE 1)"},
      {"#k = :p AND #s <= :s", R"({":p": "a", ":s": 1})", R"({"#k": "pk", "#s": "sk"})", false, R"(pk="a" sk LE 1)"},
      {"(pk = :p) AND (sk BETWEEN :a AND :b)", R"({":p": "a", ":a": 1, ":b": 5})", "", false, R"(pk="a" sk BETWEEN 1 5)"},
      {"pk = :p AND sk = :s", R"({":p": "a", ":s": 2})", "", false, R"(pk="a" sk EQ 2)"},
      {"sk < :s AND pk = :p", R"({":p": "a", ":s": 2})", "", false, R"(pk="a" sk LT 2)"},
      // Structure.
      {"pk = :p OR sk = :s", R"({":p": "a", ":s": 1})", "", false, "ERR:Invalid operator used in KeyConditionExpression: OR"},
      {"a > b and size(b) > c or a > c", "", "", false, "ERR:Invalid operator used in KeyConditionExpression: OR"},
      {"NOT pk = :p", R"({":p": "a"})", "", false, "ERR:Invalid operator used in KeyConditionExpression: NOT"},
      {"a in (b, size(c), d)", "", "", false, "ERR:Invalid operator used in KeyConditionExpression: IN"},
      {"pk <> :p", R"({":p": "a"})", "", false, "ERR:Invalid operator used in KeyConditionExpression: <>"},
      {"attribute_exists(a)", "", "", false, "ERR:Invalid operator used in KeyConditionExpression: attribute_exists"},
      {"attribute_not_exists(a)", "", "", false, "ERR:Invalid operator used in KeyConditionExpression: attribute_not_exists"},
      {"contains(a.d, b)", "", "", false, "ERR:Invalid operator used in KeyConditionExpression: contains"},
      {"attribute_type(a, :a)", R"({":a": "S"})", "", false, "ERR:Invalid operator used in KeyConditionExpression: attribute_type"},
      {":a between size(b) and size(a) and b > :b", R"({":a": "1", ":b": "1"})", "", false,
       "ERR:Invalid condition in KeyConditionExpression: BETWEEN operator must have the key attribute as its first operand"},
      {"begins_with(:a, b) and a > :b", R"({":a": "1", ":b": "1"})", "", false,
       "ERR:Invalid condition in KeyConditionExpression: begins_with operator must have the key attribute as its first operand"},
      {"size(b) > a AND a.b > b AND b > c", "", "", false, "ERR:KeyConditionExpressions cannot contain nested operations"},
      {"a > size(b.d)", "", "", false, "ERR:KeyConditionExpressions cannot contain nested operations"},
      {"a between size(b) and size(a)", "", "", false, "ERR:KeyConditionExpressions cannot contain nested operations"},
      {"b > a.b", "", "", false, "ERR:Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition"},
      {"b between c[1] and d", "", "", false,
       "ERR:Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition"},
      {"begins_with(a, b)", "", "", false, "ERR:Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition"},
      {"b.d > a AND c.d > e.f", "", "", false, "ERR:KeyConditionExpressions cannot have conditions on nested attributes"},
      {"b[0] > a", "", "", false, "ERR:KeyConditionExpressions cannot have conditions on nested attributes"},
      {":b > :a AND a < :b", R"({":a": 1, ":b": 1})", "", false,
       "ERR:Invalid condition in KeyConditionExpression: No key attribute specified"},
      {"b > :a AND b < :a and c = :a and d = :a", R"({":a": 1})", "", false,
       "ERR:KeyConditionExpressions must only contain one condition per key"},
      {"(a > :a and b > :a) and (b > :a and c > :a)", R"({":a": 1})", "", false,
       "ERR:KeyConditionExpressions must only contain one condition per key"},
      {":a = a and b = :a and :a = c", R"({":a": "a"})", "", false, "ERR:Conditions can be of length 1 or 2 only"},
      {"attribute_type(a, :a)", R"({":a": 1})", "", false,
       "ERR:Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: attribute_type, operand type: N"},
      {"pk = :p AND sk between :b and :a", R"({":p": "x", ":a": 1, ":b": 2})", "", false,
       "ERR:Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:2}, upper bound operand: AttributeValue: {N:1}"},
      {"pk = :p", R"({":p": "a", ":x": 1})", "", false,
       "ERR:Value provided in ExpressionAttributeValues unused in expressions: keys: {:x}"},
      {"", "", "", false, "ERR:Invalid KeyConditionExpression: The expression can not be empty;"},
      // Key schema.
      {"sk = :s", R"({":s": 1})", "", false, "ERR:Query condition missed key schema element: pk"},
      {"z between :a and :b", R"({":a": 1, ":b": 1})", "", false, "ERR:Query condition missed key schema element: pk"},
      {"pk = :p AND z = :z", R"({":p": "a", ":z": 1})", "", false, "ERR:Query condition missed key schema element: sk"},
      {"pk > :p", R"({":p": "a"})", "", false, "ERR:Query key condition not supported"},
      {"begins_with(pk, :p)", R"({":p": "a"})", "", false, "ERR:Query key condition not supported"},
      {"pk = :p AND sk = :s", R"({":p": "a", ":s": 1})", "", true, "ERR:Query key condition not supported"},
      {"pk = :p", R"({":p": 1})", "", false,
       "ERR:One or more parameter values were invalid: Condition parameter type does not match schema type"},
      {"pk = :p AND begins_with(sk, :s)", R"({":p": "a", ":s": "x"})", "", false,
       "ERR:One or more parameter values were invalid: Condition parameter type does not match schema type"},
      {"pk = :p AND sk = :s", R"({":p": "a", ":s": true})", "", false,
       "ERR:One or more parameter values were invalid: Condition parameter type does not match schema type"},
  };
}

class KeyConditionTable : public ::testing::TestWithParam<KeyCase> {};

TEST_P(KeyConditionTable, Resolves) { EXPECT_EQ(RunKey(GetParam()), GetParam().expect) << GetParam(); }

INSTANTIATE_TEST_SUITE_P(Cases, KeyConditionTable, ::testing::ValuesIn(Cases()));

TEST(SortKeyCondition, Matches) {
  auto cond = [](ComparisonOperator op, std::vector<AttributeValue> v) { return SortKeyCondition{"sk", op, std::move(v)}; };
  const AttributeValue five = Av("5");
  EXPECT_TRUE(cond(ComparisonOperator::kEq, {Av("5.0")}).Matches(five));
  EXPECT_TRUE(cond(ComparisonOperator::kLt, {Av("10")}).Matches(five));
  EXPECT_FALSE(cond(ComparisonOperator::kGt, {Av("10")}).Matches(five));
  EXPECT_TRUE(cond(ComparisonOperator::kGe, {Av("5")}).Matches(five));
  EXPECT_TRUE(cond(ComparisonOperator::kLe, {Av("5")}).Matches(five));
  EXPECT_TRUE(cond(ComparisonOperator::kBetween, {Av("1"), Av("5")}).Matches(five));
  EXPECT_FALSE(cond(ComparisonOperator::kBetween, {Av("6"), Av("9")}).Matches(five));
  EXPECT_TRUE(cond(ComparisonOperator::kBeginsWith, {Av("\"ab\"")}).Matches(Av("\"abc\"")));
  EXPECT_FALSE(cond(ComparisonOperator::kBeginsWith, {Av("\"b\"")}).Matches(Av("\"abc\"")));
  EXPECT_TRUE(cond(ComparisonOperator::kBeginsWith, {Av(R"({"$B": "AQ=="})")}).Matches(Av(R"({"$B": "AQI="})")));
}

TEST(LegacyKeyConditions, ConvertAndResolve) {
  auto run = [](std::vector<FilterCondition> conds, bool hash_only = false) -> std::string {
    auto parts = ConvertKeyConditions(conds);
    if (!parts.ok()) return Error(parts.status());
    auto key = ResolveKeyCondition(*parts, Schema(hash_only));
    if (!key.ok()) return Error(key.status());
    return Render(*key);
  };
  EXPECT_EQ(run({{"pk", "EQ", {Av("\"a\"")}}, {"sk", "BETWEEN", {Av("1"), Av("3")}}}), R"(pk="a" sk BETWEEN 1 3)");
  EXPECT_EQ(run({{"sk", "GE", {Av("1")}}, {"pk", "EQ", {Av("\"a\"")}}}), R"(pk="a" sk GE 1)");
  EXPECT_EQ(run({}), "ERR:Conditions can be of length 1 or 2 only");
  EXPECT_EQ(run({{"pk", "NULL", {}}, {"b", "NULL", {}}, {"c", "NULL", {}}}), "ERR:Conditions can be of length 1 or 2 only");
  EXPECT_EQ(run({{"pk", "NULL", {}}}), "ERR:Attempted conditional constraint is not an indexable operation");
  EXPECT_EQ(run({{"pk", "EQ", {Av("\"a\"")}}, {"sk", "IN", {Av("1")}}}),
            "ERR:Attempted conditional constraint is not an indexable operation");
  EXPECT_EQ(run({{"pk", "EQ", {}}}),
            "ERR:One or more parameter values were invalid: Invalid number of argument(s) for the EQ ComparisonOperator");
  EXPECT_EQ(run({{"pk", "BEGINS_WITH", {Av("1")}}}),
            "ERR:One or more parameter values were invalid: ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type");
  EXPECT_EQ(run({{"pk", "IN", {Av("\"b\""), Av("1")}}}),
            "ERR:One or more parameter values were invalid: AttributeValues inside AttributeValueList must be of same type");
  EXPECT_EQ(run({{"pk", "BETWEEN", {Av("\"b\""), Av("\"a\"")}}}),
            "ERR:The BETWEEN condition was provided a range where the lower bound is greater than the upper bound");
  EXPECT_EQ(run({{"pk", "GT", {Av("\"a\"")}}}), "ERR:Query key condition not supported");
  EXPECT_EQ(run({{"pk", "EQ", {Av("\"a\"")}}, {"x", "EQ", {Av("1")}}}, true), "ERR:Query key condition not supported");
}

}  // namespace
}  // namespace monotable::expr::testing
