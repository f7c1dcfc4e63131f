// Legacy parameters: Expected, QueryFilter / ScanFilter, AttributesToGet, AttributeUpdates.
#include <gtest/gtest.h>

#include "expr/legacy.h"
#include "expr/projection.h"
#include "table_runner.h"

namespace monotable::expr::testing {
namespace {

const char* const kItem = R"({"a": "hello", "b": {"$NS": ["2", "4", "7"]}, "c": [2, 4, 7], "d": {"$B": "aGkgdGhlcmU="},
  "n": 3, "f": false, "s": {"$SS": ["x", "y"]}})";

std::string Eval(const Result<ConditionExpression>& r, const std::string& item = kItem) {
  if (!r.ok()) return Error(r.status());
  const Item it = It(item);
  return r->Evaluate(item.empty() ? nullptr : &it) ? "true" : "false";
}

std::string Filter(std::vector<FilterCondition> f, std::optional<std::string> op = std::nullopt,
                   const std::string& item = kItem) {
  return Eval(ConvertFilter(f, op), item);
}

std::string Expected(std::vector<ExpectedCondition> e, std::optional<std::string> op = std::nullopt,
                     const std::string& item = kItem) {
  return Eval(ConvertExpected(e, op), item);
}

ExpectedCondition Ex(std::string attr, std::optional<std::string> op, std::optional<std::vector<AttributeValue>> list,
                     std::optional<AttributeValue> value = std::nullopt, std::optional<bool> exists = std::nullopt) {
  return ExpectedCondition{std::move(attr), std::move(value), exists, std::move(op), std::move(list)};
}

TEST(LegacyFilter, ComparisonOperators) {
  EXPECT_EQ(Filter({{"a", "EQ", {Av("\"hello\"")}}}), "true");
  EXPECT_EQ(Filter({{"b", "EQ", {Av(R"({"$NS": ["7", "2", "4"]})")}}}), "true");
  EXPECT_EQ(Filter({{"a", "NE", {Av("\"x\"")}}}), "true");
  EXPECT_EQ(Filter({{"zz", "NE", {Av("\"x\"")}}}), "true");
  EXPECT_EQ(Filter({{"n", "LT", {Av("4")}}}), "true");
  EXPECT_EQ(Filter({{"n", "LE", {Av("3")}}}), "true");
  EXPECT_EQ(Filter({{"n", "GT", {Av("3")}}}), "false");
  EXPECT_EQ(Filter({{"n", "GE", {Av("3")}}}), "true");
  EXPECT_EQ(Filter({{"n", "GT", {Av("\"3\"")}}}), "false");
  EXPECT_EQ(Filter({{"a", "NOT_NULL", {}}}), "true");
  EXPECT_EQ(Filter({{"zz", "NULL", {}}}), "true");
  EXPECT_EQ(Filter({{"a", "NULL", {}}}), "false");
  EXPECT_EQ(Filter({{"a", "CONTAINS", {Av("\"ell\"")}}}), "true");
  EXPECT_EQ(Filter({{"b", "CONTAINS", {Av("4")}}}), "true");
  EXPECT_EQ(Filter({{"c", "CONTAINS", {Av("7")}}}), "true");
  EXPECT_EQ(Filter({{"d", "CONTAINS", {Av(R"({"$B": "dGhlcmU="})")}}}), "true");
  EXPECT_EQ(Filter({{"a", "NOT_CONTAINS", {Av("\"dog\"")}}}), "true");
  EXPECT_EQ(Filter({{"a", "NOT_CONTAINS", {Av("1")}}}), "true");
  EXPECT_EQ(Filter({{"b", "NOT_CONTAINS", {Av("4")}}}), "false");
  EXPECT_EQ(Filter({{"c", "NOT_CONTAINS", {Av("4")}}}), "false");
  EXPECT_EQ(Filter({{"q", "NOT_CONTAINS", {Av("1")}}}), "false");  // absent: false, unlike NE
  EXPECT_EQ(Filter({{"q", "CONTAINS", {Av("1")}}}), "false");
  EXPECT_EQ(Filter({{"a", "BEGINS_WITH", {Av("\"hell\"")}}}), "true");
  EXPECT_EQ(Filter({{"d", "BEGINS_WITH", {Av(R"({"$B": "aGk="})")}}}), "true");
  EXPECT_EQ(Filter({{"n", "BEGINS_WITH", {Av("\"3\"")}}}), "false");
  EXPECT_EQ(Filter({{"n", "IN", {Av("2"), Av("3"), Av("8")}}}), "true");
  EXPECT_EQ(Filter({{"b", "IN", {Av("2")}}}), "false");
  EXPECT_EQ(Filter({{"n", "BETWEEN", {Av("1"), Av("3")}}}), "true");
  EXPECT_EQ(Filter({{"a", "BETWEEN", {Av("\"aardvark\""), Av("\"dog\"")}}}), "false");
  EXPECT_EQ(Filter({{"q", "BETWEEN", {Av("0"), Av("100")}}}), "false");
  EXPECT_EQ(Filter({}), "true");
}

TEST(LegacyFilter, ConditionalOperator) {
  const FilterCondition yes{"n", "EQ", {Av("3")}};
  const FilterCondition no{"n", "EQ", {Av("4")}};
  EXPECT_EQ(Filter({yes, no}), "false");
  EXPECT_EQ(Filter({yes, no}, "AND"), "false");
  EXPECT_EQ(Filter({yes, no}, "OR"), "true");
  EXPECT_EQ(Filter({no, no}, "OR"), "false");
  EXPECT_EQ(Filter({yes, yes}, "XOR"),
            "ERR:1 validation error detected: Value 'XOR' at 'conditionalOperator' failed to satisfy constraint: Member "
            "must satisfy enum value set: [AND, OR]");
}

TEST(LegacyFilter, ArgumentValidation) {
  const std::string bad = "ERR:One or more parameter values were invalid: ";
  for (const char* op : {"EQ", "NE", "LE", "LT", "GE", "GT", "CONTAINS", "NOT_CONTAINS", "BEGINS_WITH", "IN", "BETWEEN"}) {
    EXPECT_EQ(Filter({{"a", op, {}}}), bad + "Invalid number of argument(s) for the " + op + " ComparisonOperator");
  }
  for (const char* op : {"NULL", "NOT_NULL"}) {
    EXPECT_EQ(Filter({{"a", op, {Av("\"a\"")}}}), bad + "Invalid number of argument(s) for the " + op + " ComparisonOperator");
  }
  EXPECT_EQ(Filter({{"a", "EQ", {Av("\"a\""), Av("\"a\"")}}}), bad + "Invalid number of argument(s) for the EQ ComparisonOperator");
  EXPECT_EQ(Filter({{"a", "BETWEEN", {Av("1"), Av("2"), Av("3")}}}),
            bad + "Invalid number of argument(s) for the BETWEEN ComparisonOperator");
  for (const char* op : {"LT", "LE", "GT", "GE", "IN"}) {
    for (const char* v : {"true", "null", R"({"$SS": ["a"]})", R"({"$NS": ["1"]})", "{}", "[]"}) {
      const AttributeValue value = Av(v);
      EXPECT_EQ(Filter({{"a", op, {value}}}), bad + "ComparisonOperator " + op + " is not valid for " +
                                                  std::string(AttrTypeName(value.type())) + " AttributeValue type");
    }
  }
  EXPECT_EQ(Filter({{"a", "CONTAINS", {Av(R"({"$SS": ["a"]})")}}}),
            bad + "ComparisonOperator CONTAINS is not valid for SS AttributeValue type");
  EXPECT_EQ(Filter({{"a", "BEGINS_WITH", {Av("1")}}}), bad + "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type");
  EXPECT_EQ(Filter({{"a", "BETWEEN", {Av("true"), Av("true")}}}),
            bad + "ComparisonOperator BETWEEN is not valid for BOOL AttributeValue type");
  EXPECT_EQ(Filter({{"a", "IN", {Av("\"b\""), Av("1")}}}), bad + "AttributeValues inside AttributeValueList must be of same type");
  EXPECT_EQ(Filter({{"a", "BETWEEN", {Av("\"b\""), Av("\"a\"")}}}),
            "ERR:The BETWEEN condition was provided a range where the lower bound is greater than the upper bound");
  EXPECT_EQ(Filter({{"a", "EQ", {Av("[1]")}}}), "false");  // EQ / NE take any type
  EXPECT_EQ(Filter({{"a", "LIKE", {Av("1")}}}).rfind("ERR:1 validation error detected: Value 'LIKE' at 'comparisonOperator'", 0), 0u);
}

TEST(LegacyExpected, ValueExistsAndOperators) {
  EXPECT_EQ(Expected({Ex("n", std::nullopt, std::nullopt, Av("3"))}), "true");
  EXPECT_EQ(Expected({Ex("n", std::nullopt, std::nullopt, Av("4"))}), "false");
  EXPECT_EQ(Expected({Ex("zz", std::nullopt, std::nullopt, Av("1"))}), "false");
  EXPECT_EQ(Expected({Ex("f", std::nullopt, std::nullopt, Av("false"), true)}), "true");
  EXPECT_EQ(Expected({Ex("zz", std::nullopt, std::nullopt, std::nullopt, false)}), "true");
  EXPECT_EQ(Expected({Ex("n", std::nullopt, std::nullopt, std::nullopt, false)}), "false");
  EXPECT_EQ(Expected({Ex("n", "GT", std::vector<AttributeValue>{Av("1")})}), "true");
  EXPECT_EQ(Expected({Ex("n", "LT", std::nullopt, Av("1"))}), "false");  // Value as the single argument
  EXPECT_EQ(Expected({Ex("n", "NOT_NULL", std::nullopt)}), "true");
  EXPECT_EQ(Expected({Ex("a", "NOT_NULL", std::nullopt)}, std::nullopt, ""), "false");  // item absent
  EXPECT_EQ(Expected({Ex("a", "NULL", std::nullopt)}, std::nullopt, ""), "true");
  EXPECT_EQ(Expected({Ex("n", "EQ", std::vector<AttributeValue>{Av("4")}), Ex("a", "NOT_NULL", std::nullopt)}, "OR"), "true");
  EXPECT_EQ(Expected({Ex("n", "EQ", std::vector<AttributeValue>{Av("4")}), Ex("a", "NOT_NULL", std::nullopt)}), "false");
}

TEST(LegacyExpected, Messages) {
  const std::string bad = "ERR:One or more parameter values were invalid: ";
  const std::vector<AttributeValue> one = {Av("\"a\"")};
  EXPECT_EQ(Expected({Ex("a", std::nullopt, std::nullopt)}), bad + "Value must be provided when Exists is null for Attribute: a");
  EXPECT_EQ(Expected({Ex("a", std::nullopt, std::nullopt, std::nullopt, true)}),
            bad + "Value must be provided when Exists is true for Attribute: a");
  EXPECT_EQ(Expected({Ex("a", std::nullopt, std::nullopt, Av("\"a\""), false)}),
            bad + "Value cannot be used when Exists is false for Attribute: a");
  EXPECT_EQ(Expected({Ex("a", "EQ", one, Av("\"a\""))}), bad + "Value and AttributeValueList cannot be used together for Attribute: a");
  EXPECT_EQ(Expected({Ex("a", "EQ", one, std::nullopt, true)}),
            bad + "Exists and ComparisonOperator cannot be used together for Attribute: a");
  EXPECT_EQ(Expected({Ex("a", "EQ", std::nullopt)}),
            bad + "Value or AttributeValueList must be used with ComparisonOperator: EQ for Attribute: a");
  EXPECT_EQ(Expected({Ex("a", std::nullopt, one)}),
            bad + "AttributeValueList can only be used with a ComparisonOperator for Attribute: a");
  EXPECT_EQ(Expected({Ex("a", "NOT_CONTAINS", std::vector<AttributeValue>{Av("2"), Av("3")})}),
            bad + "Invalid number of argument(s) for the NOT_CONTAINS ComparisonOperator");
  EXPECT_EQ(Expected({Ex("a", "IN", std::vector<AttributeValue>{})}), bad + "Invalid number of argument(s) for the IN ComparisonOperator");
  EXPECT_EQ(Expected({Ex("a", "BEGINS_WITH", std::vector<AttributeValue>{Av("3")})}),
            bad + "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type");
  EXPECT_EQ(Expected({Ex("a", "BETWEEN", std::vector<AttributeValue>{Av("4"), Av("3")})}),
            "ERR:The BETWEEN condition was provided a range where the lower bound is greater than the upper bound");
  EXPECT_EQ(Expected({Ex("a", "EQ", one)}, "NOPE").rfind("ERR:1 validation error detected: Value 'NOPE'", 0), 0u);
}

TEST(LegacyAttributesToGet, ProjectsTopLevelNamesAndRefusesDuplicates) {
  auto p = ConvertAttributesToGet({"n", "zz", "a"});
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(Doc(p->Apply(It(kItem))), R"({"a":"hello","n":3})");
  // Legacy names are literal: reserved words and dots are fine.
  p = ConvertAttributesToGet({"size", "x.y"});
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(Doc(p->Apply(It(R"({"size": 1, "x.y": 2, "x": {"y": 3}})"))), R"({"size":1,"x.y":2})");
  EXPECT_EQ(Error(ConvertAttributesToGet({"a", "b", "a"}).status()),
            "ERR:One or more parameter values were invalid: Duplicate value in attribute name: a");
}

std::string Update(std::vector<AttributeUpdate> updates, const std::string& item = kItem) {
  auto u = ConvertAttributeUpdates(updates);
  if (!u.ok()) return Error(u.status());
  const Item it = It(item);
  auto out = u->Apply(item.empty() ? nullptr : &it, It(R"({"k": "key"})"));
  if (!out.ok()) return Error(out.status());
  return Doc(out->item);
}

TEST(LegacyAttributeUpdates, Actions) {
  const std::string base = R"({"k": "key", "n": 1, "s": {"$SS": ["a", "b"]}, "l": [1], "x": "y"})";
  EXPECT_EQ(Update({{"x", std::nullopt, Av("\"z\"")}}, base), R"({"k":"key","l":[1],"n":1,"s":{"$SS":["a","b"]},"x":"z"})");
  EXPECT_EQ(Update({{"x", "PUT", Av("1")}, {"n", "ADD", Av("3")}}, base),
            R"({"k":"key","l":[1],"n":4,"s":{"$SS":["a","b"]},"x":1})");
  EXPECT_EQ(Update({{"s", "ADD", Av(R"({"$SS": ["b", "c"]})")}, {"l", "ADD", Av("[2, 1]")}}, base),
            R"({"k":"key","l":[1,2,1],"n":1,"s":{"$SS":["a","b","c"]},"x":"y"})");
  EXPECT_EQ(Update({{"s", "DELETE", Av(R"({"$SS": ["a", "b"]})")}, {"x", "DELETE", std::nullopt}}, base),
            R"({"k":"key","l":[1],"n":1})");
  EXPECT_EQ(Update({{"m", "ADD", Av("5")}, {"t", "ADD", Av(R"({"$NS": ["1"]})")}, {"u", "DELETE", Av(R"({"$SS": ["a"]})")},
                    {"v", "ADD", Av("[1]")}},
                   ""),
            R"({"k":"key","m":5,"t":{"$NS":["1"]},"v":[1]})");
  EXPECT_EQ(Update({{"x", "ADD", Av("1")}}, base), "ERR:Type mismatch for attribute to update");
  EXPECT_EQ(Update({{"s", "ADD", Av(R"({"$NS": ["1"]})")}}, base), "ERR:Type mismatch for attribute to update");
  EXPECT_EQ(Update({{"n", "DELETE", Av(R"({"$NS": ["1"]})")}}, base), "ERR:Type mismatch for attribute to update");
}

TEST(LegacyAttributeUpdates, Messages) {
  const std::string bad = "ERR:One or more parameter values were invalid: ";
  EXPECT_EQ(Update({{"a", "PUT", std::nullopt}}), bad + "Only DELETE action is allowed when no attribute value is specified");
  EXPECT_EQ(Update({{"a", std::nullopt, std::nullopt}}), bad + "Only DELETE action is allowed when no attribute value is specified");
  for (const char* v : {"\"1\"", "1", R"({"$B": "Yg=="})", "null", "true", "{}", "[]"}) {
    const AttributeValue value = Av(v);
    EXPECT_EQ(Update({{"a", "DELETE", value}}),
              bad + "DELETE action with value is not supported for the type " + std::string(AttrTypeName(value.type())));
  }
  for (const char* v : {"\"1\"", R"({"$B": "Yg=="})", "null", "true", "{}"}) {
    const AttributeValue value = Av(v);
    EXPECT_EQ(Update({{"a", "ADD", value}}),
              bad + "ADD action is not supported for the type " + std::string(AttrTypeName(value.type())));
  }
  EXPECT_EQ(Update({{"a", "REPLACE", Av("1")}}).rfind("ERR:1 validation error detected: Value 'REPLACE' at 'action'", 0), 0u);
  auto u = ConvertAttributeUpdates({{"k", "PUT", Av("\"new\"")}, {"b", "PUT", Av("1")}});
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(CheckKeyAttributesNotUpdated(*u, {"k"}).message(),
            "One or more parameter values were invalid: Cannot update attribute k. This attribute is part of the key");
  std::vector<std::string> paths;
  for (const auto& p : u->TargetPaths()) paths.push_back(FormatPath(p));
  EXPECT_EQ(paths, (std::vector<std::string>{"[k]", "[b]"}));
}

TEST(LegacyNames, AttributeNamesAreShorterThan64KiB) {
  const std::string too_large = "ERR:1 validation error detected: Attribute name is too large, must be less than 65536 bytes";
  const std::string longest(65535, 'n');
  const std::string name(65536, 'n');
  EXPECT_TRUE(ConvertAttributesToGet({longest}).ok());
  EXPECT_EQ(Error(ConvertAttributesToGet({"a", name, "a"}).status()), too_large);
  EXPECT_EQ(Update({{name, "PUT", Av("1")}}), too_large);
  EXPECT_EQ(Filter({{name, "EQ", {Av("1")}}}), too_large);
  EXPECT_EQ(Expected({Ex(name, std::nullopt, std::nullopt, Av("1"))}), too_large);
  EXPECT_EQ(Error(ConvertKeyConditions({{"k", "EQ", {Av("1")}}, {name, "EQ", {Av("1")}}}).status()), too_large);
}

}  // namespace
}  // namespace monotable::expr::testing
