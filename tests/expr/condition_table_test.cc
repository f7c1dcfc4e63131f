// ConditionExpression / FilterExpression: evaluation rules and every validation message, as a table.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "table_runner.h"

namespace monotable::expr::testing {
namespace {

constexpr ExpressionKind C = ExpressionKind::kCondition;
constexpr ExpressionKind F = ExpressionKind::kFilter;

const char* const kItem = R"({
  "s": "banana", "n": 10, "n10": 10, "b": {"$B": "AQID"}, "t": true, "z": null, "e": "",
  "ss": {"$SS": ["red", "green"]}, "ns": {"$NS": ["1", "5"]}, "bs": {"$BS": ["AQ==", "Ag=="]},
  "l": ["a", "b", 3, {"x": 1}], "u": "é",
  "m": {"nested": {"deep": "x"}, "arr": [{"v": 1}, {"v": 2}]},
  "dotted.name": "yes"
})";

std::vector<Case> EvaluationCases() {
  const std::string I = kItem;
  return {
      // = and <>: deep equality, types must match, absent is never equal.
      {C, "s = :v", "", R"({":v": "banana"})", I, "true"},
      {C, "s = :v", "", R"({":v": "Banana"})", I, "false"},
      {C, "n = :v", "", R"({":v": 10.0})", I, "true"},
      {C, "n = :v", "", R"({":v": "10"})", I, "false"},
      {C, "n = n10", "", "", I, "true"},
      {C, "s <> :v", "", R"({":v": "x"})", I, "true"},
      {C, "s <> :v", "", R"({":v": "banana"})", I, "false"},
      {C, "n <> :v", "", R"({":v": "10"})", I, "true"},
      {C, "absent = :v", "", R"({":v": 1})", I, "false"},
      {C, "absent <> :v", "", R"({":v": 1})", I, "true"},
      {C, "q = z2", "", "", I, "false"},
      {C, "q <> z2", "", "", I, "true"},
      {C, "ss = :v", "", R"({":v": {"$SS": ["green", "red"]}})", I, "true"},
      {C, "ss = :v", "", R"({":v": {"$SS": ["green"]}})", I, "false"},
      {C, "m = :v", "", R"({":v": {"nested": {"deep": "x"}, "arr": [{"v": 1}, {"v": 2}]}})", I, "true"},
      {C, "l = :v", "", R"({":v": ["a", "b", 3, {"x": 1}]})", I, "true"},
      {C, "l = :v", "", R"({":v": ["b", "a", 3, {"x": 1}]})", I, "false"},
      {C, "z = :v", "", R"({":v": null})", I, "true"},
      {C, "t = :v", "", R"({":v": true})", I, "true"},
      {C, "b = :v", "", R"({":v": {"$B": "AQID"}})", I, "true"},
      // Ordering: S by bytes, N numerically, B by bytes; anything else (or absent) is false.
      {C, "n > :v", "", R"({":v": 9})", I, "true"},
      {C, "n < :v", "", R"({":v": 100})", I, "true"},
      {C, "n <= :v", "", R"({":v": 10})", I, "true"},
      {C, "n >= :v", "", R"({":v": 10})", I, "true"},
      {C, "n > :v", "", R"({":v": 10})", I, "false"},
      {C, "s > :v", "", R"({":v": "apple"})", I, "true"},
      {C, "s < :v", "", R"({":v": "banana_"})", I, "true"},
      {C, "u > :v", "", R"({":v": "z"})", I, "true"},
      {C, "b < :v", "", R"({":v": {"$B": "AQIE"}})", I, "true"},
      {C, "b > :v", "", R"({":v": {"$B": "AQI="}})", I, "true"},
      {C, "n < :v", "", R"({":v": "17"})", I, "false"},
      {C, "absent < :v", "", R"({":v": 1})", I, "false"},
      {C, ":v < absent", "", R"({":v": 1})", I, "false"},
      {C, "l < :v", "", R"({":v": 1})", I, "false"},
      {C, "q < z2", "", "", I, "false"},
      {C, "size(s) > :v", "", R"({":v": 5})", I, "true"},
      // BETWEEN and IN.
      {C, "n BETWEEN :lo AND :hi", "", R"({":lo": 10, ":hi": 20})", I, "true"},
      {C, "n BETWEEN :lo AND :hi", "", R"({":lo": 11, ":hi": 20})", I, "false"},
      {C, "s between :lo and :hi", "", R"({":lo": "a", ":hi": "c"})", I, "true"},
      {C, "n between :lo and :hi", "", R"({":lo": "a", ":hi": "c"})", I, "false"},
      {C, "absent between :lo and :hi", "", R"({":lo": 1, ":hi": 2})", I, "false"},
      {C, "q between z2 and x", "", "", I, "false"},
      {C, "s IN (:a, :b)", "", R"({":a": "apple", ":b": "banana"})", I, "true"},
      {C, "s in (:a)", "", R"({":a": "apple"})", I, "false"},
      {C, "n IN (:a, :b)", "", R"({":a": "10", ":b": 10})", I, "true"},
      {C, "absent IN (:a)", "", R"({":a": 1})", I, "false"},
      {C, "ss IN (:a)", "", R"({":a": {"$SS": ["green", "red"]}})", I, "true"},
      {C, "n IN (n10, s)", "", "", I, "true"},
      // AND / OR / NOT precedence and parentheses.
      {C, "n = :yes OR n = :yes AND n = :no", "", R"({":yes": 10, ":no": 11})", I, "true"},
      {C, "(n = :yes OR n = :yes) AND n = :no", "", R"({":yes": 10, ":no": 11})", I, "false"},
      {C, "NOT n = :no AND n = :yes", "", R"({":yes": 10, ":no": 11})", I, "true"},
      {C, "not (n = :yes)", "", R"({":yes": 10})", I, "false"},
      {C, "NOT NOT n = :yes", "", R"({":yes": 10})", I, "true"},
      {C, "n = :no OR NOT n = :no", "", R"({":no": 11})", I, "true"},
      {C, "((n = :yes) AND (s = :s))", "", R"({":yes": 10, ":s": "banana"})", I, "true"},
      {C, "(n) = :yes", "", R"({":yes": 10})", I, "true"},
      {C, "(m.nested).deep = :x", "", R"({":x": "x"})", I, "true"},
      {C, "(attribute_exists(n)) AND (size(s)) = :six", "", R"({":six": 6})", I, "true"},
      {C, "n between :lo and :hi Or s in (:a)", "", R"({":lo": 1, ":hi": 20, ":a": "x"})", I, "true"},
      {C, "n\n=\t:v", "", R"({":v": 10})", I, "true"},
      // Functions.
      {C, "attribute_exists(n)", "", "", I, "true"},
      {C, "attribute_exists(absent)", "", "", I, "false"},
      {C, "attribute_not_exists(absent)", "", "", I, "true"},
      {C, "attribute_exists(z)", "", "", I, "true"},
      {C, "attribute_exists(m.nested.deep)", "", "", I, "true"},
      {C, "attribute_exists(l[3].x)", "", "", I, "true"},
      {C, "attribute_exists(l[9])", "", "", I, "false"},
      {C, "attribute_not_exists(l[9])", "", "", I, "true"},
      {C, "attribute_exists(s.x)", "", "", I, "false"},
      {C, "attribute_exists(m[0])", "", "", I, "false"},
      {C, "attribute_type(ss, :t)", "", R"({":t": "SS"})", I, "true"},
      {C, "attribute_type(z, :t)", "", R"({":t": "NULL"})", I, "true"},
      {C, "attribute_type(n, :t)", "", R"({":t": "S"})", I, "false"},
      {C, "attribute_type(absent, :t)", "", R"({":t": "S"})", I, "false"},
      {C, "attribute_type(t, :bool) AND attribute_type(l, :l) AND attribute_type(m, :m) AND attribute_type(b, :b)",
       "", R"({":bool": "BOOL", ":l": "L", ":m": "M", ":b": "B"})", I, "true"},
      {C, "attribute_type(ns, :ns) AND attribute_type(bs, :bs) AND attribute_type(s, :s) AND attribute_type(n, :n)",
       "", R"({":ns": "NS", ":bs": "BS", ":s": "S", ":n": "N"})", I, "true"},
      {C, "begins_with(s, :p)", "", R"({":p": "ban"})", I, "true"},
      {C, "begins_with(s, :p)", "", R"({":p": "nan"})", I, "false"},
      {C, "begins_with(s, :p)", "", R"({":p": "banana!"})", I, "false"},
      {C, "begins_with(b, :p)", "", R"({":p": {"$B": "AQI="}})", I, "true"},
      {C, "begins_with(n, :p)", "", R"({":p": "1"})", I, "false"},
      {C, "begins_with(s, :p)", "", R"({":p": {"$B": "AQI="}})", I, "false"},
      {C, "begins_with(absent, :p)", "", R"({":p": "a"})", I, "false"},
      {C, "contains(s, :v)", "", R"({":v": "nan"})", I, "true"},
      {C, "contains(s, :v)", "", R"({":v": "x"})", I, "false"},
      {C, "contains(ss, :v)", "", R"({":v": "red"})", I, "true"},
      {C, "contains(ss, :v)", "", R"({":v": "blue"})", I, "false"},
      {C, "contains(ns, :v)", "", R"({":v": 5})", I, "true"},
      {C, "contains(ns, :v)", "", R"({":v": "5"})", I, "false"},
      {C, "contains(bs, :v)", "", R"({":v": {"$B": "AQ=="}})", I, "true"},
      {C, "contains(b, :v)", "", R"({":v": {"$B": "AgM="}})", I, "true"},
      {C, "contains(l, :v)", "", R"({":v": 3})", I, "true"},
      {C, "contains(l, :v)", "", R"({":v": "a"})", I, "true"},
      {C, "contains(l, :v)", "", R"({":v": {"x": 1}})", I, "true"},
      {C, "contains(l, :v)", "", R"({":v": "c"})", I, "false"},
      {C, "contains(n, :v)", "", R"({":v": 1})", I, "false"},
      {C, "contains(absent, :v)", "", R"({":v": 1})", I, "false"},
      {C, "contains(m, :v)", "", R"({":v": "nested"})", I, "false"},
      {C, "size(s) = :v", "", R"({":v": 6})", I, "true"},
      // Strings count UTF-16 code units, as DynamoDB does: "é" is 1, "𝄞" (outside the BMP) is 2.
      {C, "size(u) = :v", "", R"({":v": 1})", I, "true"},
      {C, "size(u) = :v", "", R"({":v": 3})", R"({"u": "é𝄞"})", "true"},
      {C, "size(u) = :v", "", R"({":v": 6})", R"({"u": "é𝄞"})", "false"},
      {C, "size(u) = :v", "", R"({":v": 5})", R"({"u": "a€𝄞b"})", "true"},
      {C, "size(b) = :v", "", R"({":v": 3})", I, "true"},
      {C, "size(ss) = :v AND size(ns) = :v AND size(bs) = :v AND size(m) = :v", "", R"({":v": 2})", I, "true"},
      {C, "size(l) = :v", "", R"({":v": 4})", I, "true"},
      {C, "size(e) = :v", "", R"({":v": 0})", I, "true"},
      {C, "size(n) = :v", "", R"({":v": 2})", I, "false"},
      {C, "size(n) <> :v", "", R"({":v": 2})", I, "true"},
      {C, "size(absent) = :v", "", R"({":v": 0})", I, "false"},
      {C, "size(l[3]) = :v", "", R"({":v": 1})", I, "true"},
      {C, "size(ss) BETWEEN :a AND :b", "", R"({":a": 1, ":b": 3})", I, "true"},
      {C, "size(s) = size(s)", "", "", I, "true"},
      // Document paths, names and case-insensitive keywords.
      {C, "m.nested.deep = :x", "", R"({":x": "x"})", I, "true"},
      {C, "m.arr[1].v = :two", "", R"({":two": 2})", I, "true"},
      {C, "m.arr [ 1 ] . v = :two", "", R"({":two": 2})", I, "true"},
      {C, "l[0] = :a", "", R"({":a": "a"})", I, "true"},
      {C, "#d = :y", R"({"#d": "dotted.name"})", R"({":y": "yes"})", I, "true"},
      {C, "#m.#n.deep = :x", R"({"#m": "m", "#n": "nested"})", R"({":x": "x"})", I, "true"},
      {C, "#s = :v AND #s <> :w", R"({"#s": "s"})", R"({":v": "banana", ":w": "x"})", I, "true"},
      {C, "s_1 = :v", "", R"({":v": 1})", I, "false"},
      // The item does not exist.
      {C, "attribute_not_exists(s)", "", "", "", "true"},
      {C, "attribute_exists(s)", "", "", "", "false"},
      {C, "s <> :v", "", R"({":v": 1})", "", "true"},
      {F, "s = :v", "", R"({":v": "banana"})", I, "true"},
  };
}

std::vector<Case> ErrorCases() {
  const std::string I = kItem;
  return {
      // Empty, size, syntax.
      {C, "", "", "", I, "ERR:Invalid ConditionExpression: The expression can not be empty;"},
      {C, "  \n ", "", "", I, "ERR:Invalid ConditionExpression: The expression can not be empty;"},
      {F, "", "", "", I, "ERR:Invalid FilterExpression: The expression can not be empty;"},
      {C, "a = = :v", "", R"({":v": 1})", I, R"(ERR:Invalid ConditionExpression: Syntax error; token: "=", near: "= = :v")"},
      {C, "attribute_not_exists(", "", "", I, R"(ERR:Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "(")"},
      {C, "attribute_exists(pk", "", "", I, R"(ERR:Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "pk")"},
      {C, "a =", "", "", I, R"(ERR:Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "=")"},
      {C, "a = :v AND", "", "", I, R"(ERR:Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "AND")"},
      {C, "a BETWEEN :v", "", "", I, R"(ERR:Invalid ConditionExpression: Syntax error; token: "<EOF>", near: ":v")"},
      {C, "(a = :v", "", "", I, R"(ERR:Invalid ConditionExpression: Syntax error; token: "<EOF>", near: ":v")"},
      {C, "a.", "", "", I, R"(ERR:Invalid ConditionExpression: Syntax error; token: "<EOF>", near: ".")"},
      {C, "a[", "", "", I, R"(ERR:Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "[")"},
      {C, "attribute_exists(pk) x", "", "", I, R"(ERR:Invalid ConditionExpression: Syntax error; token: "x", near: ") x")"},
      {C, "attribute_exists(pk) x y", "", "", I, R"(ERR:Invalid ConditionExpression: Syntax error; token: "x", near: ") x y")"},
      {C, "things are not gonna be ok", "", "", I,
       R"(ERR:Invalid ConditionExpression: Syntax error; token: "are", near: "things are not")"},
      {F, "a > 4", "", "", I, R"(ERR:Invalid FilterExpression: Syntax error; token: "4", near: "> 4")"},
      {F, "_type = :v", "", "", I, R"(ERR:Invalid FilterExpression: Syntax error; token: "_", near: "_type")"},
      {F, "a in b", "", "", I, R"(ERR:Invalid FilterExpression: Syntax error; token: "b", near: "in b")"},
      {F, "a in (b,c,)", "", "", I, R"x(ERR:Invalid FilterExpression: Syntax error; token: ")", near: ",)")x"},
      {F, "a in ()", "", "", I, R"x(ERR:Invalid FilterExpression: Syntax error; token: ")", near: "()")x"},
      {F, "a > between", "", "", I, R"(ERR:Invalid FilterExpression: Syntax error; token: "between", near: "> between")"},
      {F, "ü > a", "", "", I, R"(ERR:Invalid FilterExpression: Syntax error; token: "ü", near: "ü >")"},
      {F, "size(a).b > a", "", "", I, R"(ERR:Invalid FilterExpression: Syntax error; token: ".", near: ").b")"},
      {F, "(size(a))[0] > a", "", "", I, R"(ERR:Invalid FilterExpression: Syntax error; token: "[", near: ")[0")"},
      {F, "attribute_exists(Pictures-RearView)", "", "", I,
       R"(ERR:Invalid FilterExpression: Syntax error; token: "-", near: "Pictures-RearView")"},
      {F, "attribute_exists(asdf[a])", "", "", I, R"(ERR:Invalid FilterExpression: Syntax error; token: "a", near: "[a]")"},
      {F, "b[:a] > a", "", "", I, R"(ERR:Invalid FilterExpression: Syntax error; token: ":a", near: "[:a]")"},
      {F, "a > :things.stuff", "", "", I, R"(ERR:Invalid FilterExpression: Syntax error; token: ".", near: ":things.stuff")"},
      {F, "# = :v", "", "", I, R"(ERR:Invalid FilterExpression: Syntax error; token: "#", near: "# =")"},
      {F, "(a)between(b.c[4.5].#d)and(:a)", "", "", I, R"(ERR:Invalid FilterExpression: Syntax error; token: ".", near: "4.5")"},
      {F, "(a)", "", "", I, R"x(ERR:Invalid FilterExpression: Syntax error; token: "<EOF>", near: ")")x"},
      {F, "a = :v :w", "", "", I, R"(ERR:Invalid FilterExpression: Syntax error; token: ":w", near: ":v :w")"},
      {F, "a[99999999999] = :v", "", "", I,
       R"(ERR:Invalid FilterExpression: Syntax error; token: "99999999999", near: "[99999999999]")"},
      {C, "(a = :v) = :w", "", "", I, R"(ERR:Invalid ConditionExpression: Syntax error; token: "=", near: ") = :w")"},
      {C, "(a AND b = :v)", "", "", I, R"(ERR:Invalid ConditionExpression: Syntax error; token: "AND", near: "a AND b")"},
      {ExpressionKind::kKeyCondition, "pk = :v a", "", "", I,
       R"(ERR:Invalid KeyConditionExpression: Syntax error; token: "a", near: ":v a")"},
      // Redundant parentheses (reported before any other semantic error).
      {C, "((a = :v))", "", "", I, "ERR:Invalid ConditionExpression: The expression has redundant parentheses;"},
      {F, "a=a and a > ((views))", "", "", I, "ERR:Invalid FilterExpression: The expression has redundant parentheses;"},
      {F, "(a)between(((b.c)).d)and(c)", "", "", I, "ERR:Invalid FilterExpression: The expression has redundant parentheses;"},
      {F, "a > whatever((:things), ((a)))", "", "", I, "ERR:Invalid FilterExpression: The expression has redundant parentheses;"},
      {F, "a=a AND ((a=a AND a=a)) AND a=a", "", "", I, "ERR:Invalid FilterExpression: The expression has redundant parentheses;"},
      {F, "a=a OR ((a=a OR (a=a OR a=a)))", "", "", I, "ERR:Invalid FilterExpression: The expression has redundant parentheses;"},
      {F, "NOT ((attribute_exists(a)))", "", "", I, "ERR:Invalid FilterExpression: The expression has redundant parentheses;"},
      // Unknown and misused functions.
      {F, "a=a and whatever((:things)) > a", "", "", I, "ERR:Invalid FilterExpression: Invalid function name; function: whatever"},
      {F, "attRIbute_exIsts((views), #a)", "", "", I,
       "ERR:Invalid FilterExpression: Invalid function name; function: attRIbute_exIsts"},
      {C, "ATTRIBUTE_EXISTS(a)", "", "", I, "ERR:Invalid ConditionExpression: Invalid function name; function: ATTRIBUTE_EXISTS"},
      {F, "a=a and attribute_exists((views), (#a)) > b", "", "", I,
       "ERR:Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: attribute_exists"},
      {F, "attribute_not_exists(things) > b", "", "", I,
       "ERR:Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: attribute_not_exists"},
      {F, "attribute_type(things, :a) > b", "", "", I,
       "ERR:Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: attribute_type"},
      {F, "begins_with(things, a) > b", "", "", I,
       "ERR:Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: begins_with"},
      {F, "contains(:things, c) > b", "", "", I,
       "ERR:Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: contains"},
      {F, "size(contains(a, b)) > a", "", "", I,
       "ERR:Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: contains"},
      {F, "size(things)", "", "", I,
       "ERR:Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: size"},
      {F, "a between b and attribute_exists(things)", "", "", I,
       "ERR:Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: attribute_exists"},
      {F, "a in (b, attribute_exists(things))", "", "", I,
       "ERR:Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: attribute_exists"},
      // Reserved words, echoed as written.
      {F, "attribute_exists(views, #a)", "", "", I,
       "ERR:Invalid FilterExpression: Attribute name is a reserved keyword; reserved keyword: views"},
      {F, ":a < abOrT", "", "", I, "ERR:Invalid FilterExpression: Attribute name is a reserved keyword; reserved keyword: abOrT"},
      {C, "size = :v", "", R"({":v": 1})", I, "ERR:Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: size"},
      {C, "a.Size = :v", "", R"({":v": 1})", I, "ERR:Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: Size"},
      // Undefined names / values.
      {F, "attribute_exists(#Pictures.RearView, :a) and a=a", "", "", I,
       "ERR:Invalid FilterExpression: An expression attribute name used in the document path is not defined; attribute name: #Pictures"},
      {F, "begins_with(Pictures.#RearView)", "", "", I,
       "ERR:Invalid FilterExpression: An expression attribute name used in the document path is not defined; attribute name: #RearView"},
      {F, "(#P between :lo and :hi) and (#PC in (:cat1, :cat2))", "", "", I,
       "ERR:Invalid FilterExpression: An expression attribute name used in the document path is not defined; attribute name: #P"},
      {F, "#4g > a", "", "", I,
       "ERR:Invalid FilterExpression: An expression attribute name used in the document path is not defined; attribute name: #4g"},
      {F, "#_ > a", "", "", I,
       "ERR:Invalid FilterExpression: An expression attribute name used in the document path is not defined; attribute name: #_"},
      {F, "(a)between(b.c[45].#d)and(:a)", "", "", I,
       "ERR:Invalid FilterExpression: An expression attribute name used in the document path is not defined; attribute name: #d"},
      {F, "begins_with(:hello, #a, #b)", R"({"#a": "a", "#b": "b"})", "", I,
       "ERR:Invalid FilterExpression: An expression attribute value used in expression is not defined; attribute value: :hello"},
      {F, ":a < :b", "", "", I,
       "ERR:Invalid FilterExpression: An expression attribute value used in expression is not defined; attribute value: :a"},
      {F, ":_ > a", "", "", I,
       "ERR:Invalid FilterExpression: An expression attribute value used in expression is not defined; attribute value: :_"},
      {C, "a = :v", "", R"({":w": 1})", I,
       "ERR:Invalid ConditionExpression: An expression attribute value used in expression is not defined; attribute value: :v"},
      // Operand counts.
      {F, "attribute_exists(things, a) and a=a", "", "", I,
       "ERR:Invalid FilterExpression: Incorrect number of operands for operator or function; operator or function: attribute_exists, number of operands: 2"},
      {F, "attribute_not_exists(things, b)", "", "", I,
       "ERR:Invalid FilterExpression: Incorrect number of operands for operator or function; operator or function: attribute_not_exists, number of operands: 2"},
      {F, "attribute_type(things)", "", "", I,
       "ERR:Invalid FilterExpression: Incorrect number of operands for operator or function; operator or function: attribute_type, number of operands: 1"},
      {F, "begins_with(things)", "", "", I,
       "ERR:Invalid FilterExpression: Incorrect number of operands for operator or function; operator or function: begins_with, number of operands: 1"},
      {C, "begins_with(things, size(a), b)", "", "", I,
       "ERR:Invalid ConditionExpression: Incorrect number of operands for operator or function; operator or function: begins_with, number of operands: 3"},
      {F, "contains(things)", "", "", I,
       "ERR:Invalid FilterExpression: Incorrect number of operands for operator or function; operator or function: contains, number of operands: 1"},
      {F, "size(things, a) > b", "", "", I,
       "ERR:Invalid FilterExpression: Incorrect number of operands for operator or function; operator or function: size, number of operands: 2"},
      // Operand types.
      {F, "attribute_type(a, size(a)) and a=a and a=:a", "", R"({":a": 1})", I,
       "ERR:Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: attribute_type, operand type: N"},
      {F, "attribute_type(a, :a)", "", R"({":a": 1})", I,
       "ERR:Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: attribute_type, operand type: N"},
      {F, "attribute_type(a, :a)", "", R"({":a": {"$B": "YQ=="}})", I,
       "ERR:Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: attribute_type, operand type: B"},
      {F, "attribute_type(a, :a)", "", R"({":a": {"$SS": ["1"]}})", I,
       "ERR:Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: attribute_type, operand type: SS"},
      {F, "attribute_type(a, b)", "", "", I,
       "ERR:Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: attribute_type, operand type: {NS,SS,L,BS,N,M,B,BOOL,NULL,S}"},
      {F, "begins_with(a, size(a)) and a=:a", "", R"({":a": 1})", I,
       "ERR:Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"},
      {F, "begins_with(a, :a)", "", R"({":a": true})", I,
       "ERR:Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: BOOL"},
      {F, "begins_with(a, :a)", "", R"({":a": null})", I,
       "ERR:Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: NULL"},
      {F, "begins_with(:a, a)", "", R"({":a": []})", I,
       "ERR:Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: L"},
      {F, "begins_with(:a, a)", "", R"({":a": {}})", I,
       "ERR:Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: M"},
      {F, "begins_with(:a, a)", "", R"({":a": {"$NS": ["1"]}})", I,
       "ERR:Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: NS"},
      {F, "size(size(a)) > :a", "", R"({":a": 1})", I,
       "ERR:Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: size, operand type: N"},
      {F, "attribute_not_exists(size(:a))", "", R"({":a": 1})", I,
       "ERR:Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: size, operand type: N"},
      {F, "size(:a) > a", "", R"({":a": true})", I,
       "ERR:Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: size, operand type: BOOL"},
      {F, "size(:a) > a", "", R"({":a": null})", I,
       "ERR:Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: size, operand type: NULL"},
      {F, "attribute_type(a, :a)", "", R"({":a": "1"})", I,
       "ERR:Invalid FilterExpression: Invalid attribute type name found; type: 1, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}"},
      {F, "attribute_exists(:a) and a=a", "", R"({":a": "1"})", I,
       "ERR:Invalid FilterExpression: Operator or function requires a document path; operator or function: attribute_exists"},
      {F, "attribute_not_exists(size(:a))", "", R"({":a": "1"})", I,
       "ERR:Invalid FilterExpression: Operator or function requires a document path; operator or function: attribute_not_exists"},
      {C, "a < :l", "", R"({":l": [1]})", I,
       "ERR:Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: <, operand type: L"},
      {C, ":l >= a", "", R"({":l": true})", I,
       "ERR:Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: >=, operand type: BOOL"},
      {C, "a between :x and :y", "", R"({":x": true, ":y": false})", I,
       "ERR:Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: BETWEEN, operand type: BOOL"},
      {F, "a between :b and :a", "", R"({":a": "a", ":b": 1})", I,
       "ERR:Invalid FilterExpression: The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: {S:a}"},
      {F, "a between :b and :a", "", R"({":a": "a", ":b": "b"})", I,
       "ERR:Invalid FilterExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {S:b}, upper bound operand: AttributeValue: {S:a}"},
      {F, "a between :b and :a", "", R"({":a": 2, ":b": 10})", I,
       "ERR:Invalid FilterExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:10}, upper bound operand: AttributeValue: {N:2}"},
      // Non-distinct operands.
      {F, "a = a AND #a = b AND :views > a", R"({"#a": "a"})", "", I,
       "ERR:Invalid FilterExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: =, first operand: [a]"},
      {F, "#a <> a", R"({"#a": "a"})", "", I,
       "ERR:Invalid FilterExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: <>, first operand: [a]"},
      {F, "a > #a", R"({"#a": "a"})", "", I,
       "ERR:Invalid FilterExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: >, first operand: [a]"},
      {F, "((a=a) OR (a=a))", R"({"#a": "a"})", "", I,
       "ERR:Invalid FilterExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: =, first operand: [a]"},
      {F, "contains(ab.bc[1].a, ab.bc[1].#a)", R"({"#a": "a"})", "", I,
       "ERR:Invalid FilterExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: contains, first operand: [ab, bc, [1], a]"},
      {F, "attribute_type(ab.bc[1].#a, ab.bc[1].a)", R"({"#a": "a"})", "", I,
       "ERR:Invalid FilterExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: attribute_type, first operand: [ab, bc, [1], a]"},
      {F, "begins_with(ab.bc[1].a, ab.bc[1].#a)", R"({"#a": "a"})", "", I,
       "ERR:Invalid FilterExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: begins_with, first operand: [ab, bc, [1], a]"},
      {F, ":a > :a", "", R"({":a": 1})", I, "false"},
      // Priority between classes within one condition and across conditions.
      {F, "a = #undefined AND size(x, y) = :v", "", "", I,
       "ERR:Invalid FilterExpression: An expression attribute name used in the document path is not defined; attribute name: #undefined"},
      {F, "size(x, y) = :v AND a = #undefined", "", "", I,
       "ERR:Invalid FilterExpression: An expression attribute value used in expression is not defined; attribute value: :v"},
      {F, "begins_with(a, :n) AND b = #nope", "", R"({":n": 1})", I,
       "ERR:Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"},
      {F, "whatever(a) = :v AND size(b)", "", "", I, "ERR:Invalid FilterExpression: Invalid function name; function: whatever"},
      {F, "size(b) AND views = :v", "", "", I,
       "ERR:Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: size"},
      // The update functions are known names, refused in conditions (after unknown names).
      {C, "if_not_exists(a, a) = :v", "", R"({":v": 5})", I,
       "ERR:Invalid ConditionExpression: The function is not allowed in a condition expression; function: if_not_exists"},
      {C, "list_append(a, a) = :v", "", R"({":v": 5})", I,
       "ERR:Invalid ConditionExpression: The function is not allowed in a condition expression; function: list_append"},
      {F, "if_not_exists(a, b)", "", "", I,
       "ERR:Invalid FilterExpression: The function is not allowed in a condition expression; function: if_not_exists"},
      {F, "a = :v AND size(list_append(a, b)) > :v", "", "", I,
       "ERR:Invalid FilterExpression: The function is not allowed in a condition expression; function: list_append"},
      {F, "if_not_exists(a, b) = :v AND dog(a) = :v", "", "", I, "ERR:Invalid FilterExpression: Invalid function name; function: dog"},
      {F, "attribute_exists(a) < :v AND list_append(a, b) = :v", "", "", I,
       "ERR:Invalid FilterExpression: The function is not allowed in a condition expression; function: list_append"},
      {ExpressionKind::kKeyCondition, "pk = if_not_exists(a, :v)", "", "", I,
       "ERR:Invalid KeyConditionExpression: The function is not allowed in a condition expression; function: if_not_exists"},
      // Maps and unused keys.
      {C, "a = :v", "{}", R"({":v": 1})", I, "ERR:ExpressionAttributeNames must not be empty"},
      {C, "a = :v", R"({"a": "a"})", R"({":v": 1})", I, R"(ERR:ExpressionAttributeNames contains invalid key: Syntax error; key: "a")"},
      {C, "a = :v", R"({"#": "a"})", R"({":v": 1})", I, R"(ERR:ExpressionAttributeNames contains invalid key: Syntax error; key: "#")"},
      {C, "a = :v", "", "{}", I, "ERR:ExpressionAttributeValues must not be empty"},
      {C, "a = :v", "", R"({":v": 1, "b": 2})", I, R"(ERR:ExpressionAttributeValues contains invalid key: Syntax error; key: "b")"},
      {C, "a = :v", "", R"({":v": 1, ":w": 2})", I, "ERR:Value provided in ExpressionAttributeValues unused in expressions: keys: {:w}"},
      {C, "a = :v", R"({"#b": "b", "#a": "a"})", R"({":v": 1})", I,
       "ERR:Value provided in ExpressionAttributeNames unused in expressions: keys: {#a, #b}"},
      {C, "#a = :v", R"({"#a": "a"})", R"({":v": 1, ":x": 1, ":y": 2})", I,
       "ERR:Value provided in ExpressionAttributeValues unused in expressions: keys: {:x, :y}"},
      // Attribute names are shorter than 64 KiB, wherever they come from.
      {C, "#a = :v", R"({"#a": ")" + Rep("x", 65535) + R"("})", R"({":v": 1})", I, "false"},
      {C, "#a = :v", R"({"#a": ")" + Rep("x", 65536) + R"("})", R"({":v": 1})", I,
       "ERR:1 validation error detected: Attribute name is too large, must be less than 65536 bytes"},
      {C, "a = :v", R"({"#a": ")" + Rep("x", 70000) + R"(", "b": "c"})", R"({":v": 1})", I,
       "ERR:1 validation error detected: Attribute name is too large, must be less than 65536 bytes"},
  };
}

// DynamoDB's limits on an expression's shape: at most 300 operators (function calls are not
// operators), document paths of at most 32 levels, and any nesting the 4 KB text holds.
std::vector<Case> LimitCases() {
  const std::string I = kItem;
  const std::string ab = R"({"a": 1, "b": 2})";
  const std::string too_many = "ERR:Invalid ConditionExpression: The expression contains too many operators; operator count: 301";
  return {
      // 299 / 300 operators ('<' and OR), then 301: DynamoDB stops counting at 301.
      {C, "a<b " + Rep("or a<b ", 149), "", "", ab, "true"},
      {C, "a<b " + Rep("or a<b ", 148) + "or NOT a<b", "", "", ab, "true"},
      {C, "a<b " + Rep("or a<b ", 150), "", "", ab, too_many},
      {C, "a<b " + Rep("or a<b ", 584), "", "", ab, too_many},
      {F, Rep("a<b AND ", 150) + "a<b", "", "", ab,
       "ERR:Invalid FilterExpression: The expression contains too many operators; operator count: 301"},
      // BETWEEN and IN are one operator each, whatever their operands; function calls are none.
      {C, "a BETWEEN a AND b" + Rep(" OR a IN (a, b, a, b)", 149), "", "", ab, "true"},
      {C, "a BETWEEN a AND b" + Rep(" OR a IN (a, b, a, b)", 150), "", "", ab, too_many},
      {C, Rep("attribute_exists(a) AND ", 150) + "size(a) = size(b)", "", "", ab, "false"},
      // A syntax error anywhere wins over the count.
      {C, "a<b " + Rep("or a<b ", 150) + "x", "", "", ab, R"(ERR:Invalid ConditionExpression: Syntax error; token: "x", near: "b x")"},
      // The count wins over text-only semantic errors.
      {C, "((a<b)) " + Rep("or a<b ", 150), "", "", ab, too_many},
      // Nesting: 149 levels of "a<b OR (...)" are fine (299 operators), 454 are too many operators.
      {C, "a<b " + Rep("or (a<b ", 149) + Rep(")", 149), "", "", ab, "true"},
      {C, "a<b " + Rep("or (NOT a>b ", 149) + Rep(")", 149), "", "", ab,
       "ERR:Invalid ConditionExpression: The expression contains too many operators; operator count: 301"},
      {C, "a<b " + Rep("or (a<b ", 454) + Rep(")", 454), "", "", ab, too_many},
      {C, Rep("not ", 300) + "a<b", "", "", ab, too_many},
      {C, Rep("not ", 1000) + "a<b", "", "", ab, too_many},
      // The deepest nestings the 4 KB limit allows, with DynamoDB's messages (scylla's
      // test_deeply_nested_expression_*): nothing recurses out of the stack.
      {C, Rep("(", 2046) + "a<b" + Rep(")", 2046), "", "", ab,
       "ERR:Invalid ConditionExpression: The expression has redundant parentheses;"},
      {C, "a = " + Rep("(", 2044) + "b" + Rep(")", 2044), "", "", ab,
       "ERR:Invalid ConditionExpression: The expression has redundant parentheses;"},
      {C, "a < " + Rep("f(", 1355) + "b" + Rep(")", 1355), "", "", ab, "ERR:Invalid ConditionExpression: Invalid function name; function: f"},
      {C, "a < " + Rep("f((", 818) + "b" + Rep("))", 818), "", "", ab,
       "ERR:Invalid ConditionExpression: Invalid function name; function: f"},
      {C, "a < " + Rep("size(", 680) + "b" + Rep(")", 680), "", "", ab,
       "ERR:Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: size, operand type: N"},
      {C, Rep("(", 4096), "", "", ab, R"(ERR:Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "(")"},
      {C, Rep("(", 4090) + "a<b", "", "", ab, R"(ERR:Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "b")"},
      {C, Rep("size(", 819), "", "", ab, R"(ERR:Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "(")"},
      {C, Rep("not ", 1024), "", "", ab, R"(ERR:Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "not ")"},
      {C, "a = " + Rep("(", 1000) + "b" + Rep(").c", 1000), "", "", ab,
       "ERR:Invalid ConditionExpression: The document path has too many nesting levels; nesting levels: 1001"},
      // Document paths: 32 levels, names or indexes, bare or #name.
      {C, "a" + Rep(".b", 31) + " = :v", "", R"({":v": 1})", ab, "false"},
      {C, "a" + Rep("[0]", 31) + " = :v", "", R"({":v": 1})", ab, "false"},
      {C, "a" + Rep(".b", 32) + " = :v", "", R"({":v": 1})", ab,
       "ERR:Invalid ConditionExpression: The document path has too many nesting levels; nesting levels: 33"},
      {C, ":v = #a" + Rep("[0].#a", 16), R"({"#a": "a"})", R"({":v": 1})", ab,
       "ERR:Invalid ConditionExpression: The document path has too many nesting levels; nesting levels: 33"},
      {F, "attribute_exists(a" + Rep(".b", 39) + ")", "", "", ab,
       "ERR:Invalid FilterExpression: The document path has too many nesting levels; nesting levels: 40"},
      {F, "size(x" + Rep(".b", 32) + ") > a" + Rep(".b", 40), "", "", ab,
       "ERR:Invalid FilterExpression: The document path has too many nesting levels; nesting levels: 33"},
      {F, "(a" + Rep(".b", 20) + ")" + Rep(".c", 20) + " = :v", "", R"({":v": 1})", ab,
       "ERR:Invalid FilterExpression: The document path has too many nesting levels; nesting levels: 41"},
      {ExpressionKind::kKeyCondition, "pk = :v AND sk" + Rep("[1]", 32) + " > :v", "", R"({":v": 1})", ab,
       "ERR:Invalid KeyConditionExpression: The document path has too many nesting levels; nesting levels: 33"},
  };
}

class ConditionTable : public ::testing::TestWithParam<Case> {};

TEST_P(ConditionTable, Evaluates) { EXPECT_EQ(RunCase(GetParam()), GetParam().expect) << GetParam(); }

INSTANTIATE_TEST_SUITE_P(Evaluation, ConditionTable, ::testing::ValuesIn(EvaluationCases()));
INSTANTIATE_TEST_SUITE_P(Errors, ConditionTable, ::testing::ValuesIn(ErrorCases()));
INSTANTIATE_TEST_SUITE_P(Limits, ConditionTable, ::testing::ValuesIn(LimitCases()));

// The limit cases again, on a thread with a small stack: the deepest expressions within 4 KB must
// not need more than a fraction of a server thread's stack (parser.h).
TEST(ConditionLimits, DeepestExpressionsFitASmallStack) {
  for (const Case& c : LimitCases()) EXPECT_EQ(RunCaseOnSmallStack(c), c.expect) << c;
}

TEST(ConditionLimits, InAcceptsHundredOperandsAndRefusesMore) {
  auto in_expression = [](int n, std::string& values) {
    std::string expr = "a IN (";
    values = "{";
    for (int i = 0; i < n; ++i) {
      expr += (i ? ", :v" : ":v") + std::to_string(i);
      values += (i ? ", \":v" : "\":v") + std::to_string(i) + "\": " + std::to_string(i);
    }
    values += "}";
    return expr + ")";
  };
  std::string values;
  std::string expr = in_expression(100, values);
  EXPECT_EQ(RunCase({C, expr, "", values, R"({"a": 99})", ""}), "true");
  expr = in_expression(101, values);
  EXPECT_EQ(RunCase({C, expr, "", values, R"({"a": 99})", ""}),
            "ERR:Invalid ConditionExpression: The IN operator is provided with too many operands; number of operands: 101");
}

TEST(ConditionLimits, ExpressionSizeLimitIs4096Bytes) {
  std::string expr = "a = :v";
  while (expr.size() < 4096) expr += " ";
  EXPECT_EQ(RunCase({C, expr, "", R"({":v": 1})", R"({"a": 1})", ""}), "true");
  expr += " ";
  EXPECT_EQ(RunCase({C, expr, "", R"({":v": 1})", R"({"a": 1})", ""}),
            "ERR:Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; expression size: 4097");
}

TEST(ConditionLimits, LongFlatChainsAreFine) {
  std::string expr = "a = :v";
  for (int i = 0; i < 149; ++i) expr += (i % 2 ? " AND a = :v" : " OR a = :v");  // 299 operators
  EXPECT_EQ(RunCase({C, expr, "", R"({":v": 1})", R"({"a": 1})", ""}), "true");
}

TEST(ConditionHeads, ReportsTopLevelNames) {
  const NameMap names = Names(R"({"#k": "pk"})");
  const ValueMap values = Values(R"({":v": 1})");
  UsageTracker tracker;
  ExpressionInputs in{&names, &values, &tracker, nullptr};
  auto r = ParseFilterExpression("#k = :v AND m.x = :v AND size(l[0]) > :v", in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->PathHeads(), (std::vector<std::string>{"pk", "m", "l"}));
  EXPECT_EQ(r->PathHeads(true), (std::vector<std::string>{"m", "l"}));
  EXPECT_TRUE(CheckAllUsed(in).ok());
  EXPECT_EQ(CheckKeyPathsScalar(r->PathHeads(true), {"pk"}, {"m"}).message(),
            "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: IndexKey: m");
}

TEST(ConditionExpressionObject, DefaultIsAlwaysTrueAndSharedAcrossThreads) {
  ConditionExpression none;
  EXPECT_TRUE(none.empty());
  EXPECT_TRUE(none.Evaluate(nullptr));
  const ValueMap values = Values(R"({":v": 3})");
  ExpressionInputs in{nullptr, &values, nullptr, nullptr};
  auto r = ParseFilterExpression("n > :v", in);
  ASSERT_TRUE(r.ok());
  const ConditionExpression filter = *r;
  std::vector<std::thread> threads;
  std::atomic<int> matches{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 1000; ++i) {
        Item item{{"n", AttributeValue::N(Number::FromInt(i % 6 + t))}};
        if (filter.Evaluate(&item)) matches.fetch_add(1);
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_GT(matches.load(), 0);
}

}  // namespace
}  // namespace monotable::expr::testing
