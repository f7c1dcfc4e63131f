// UpdateExpression: application semantics and every validation / runtime message, as a table.
#include <gtest/gtest.h>

#include "expr/projection.h"
#include "table_runner.h"

namespace monotable::expr::testing {
namespace {

constexpr ExpressionKind U = ExpressionKind::kUpdate;

const char* const kItem = R"({"pk": "p", "tally": 1, "label": "x", "letters": [1, 2, 3], "info": {"a": 1},
  "tags": {"$SS": ["a", "b"]}, "f": 0.1, "nums": {"$NS": ["1", "2"]}, "bin": {"$BS": ["AQ=="]}})";

std::string With(const std::string& changes) {
  // The base item with top-level attributes replaced / added (document notation, no removals).
  Item item = It(kItem);
  for (auto& [k, v] : It(changes)) item.insert_or_assign(k, v);
  return Doc(item);
}

std::string Without(std::initializer_list<const char*> names, const std::string& changes = "{}") {
  Item item = It(With(changes));
  for (const char* n : names) item.erase(n);
  return Doc(item);
}

std::vector<Case> ApplyCases() {
  const std::string I = kItem;
  return {
      {U, "SET a = :a, info.b = :b, #l[0] = :z", R"({"#l": "letters"})", R"({":a": "A", ":b": 2, ":z": 0})", I,
       With(R"({"a": "A", "info": {"a": 1, "b": 2}, "letters": [0, 2, 3]})")},
      {U, "SET letters[10] = :v", "", R"({":v": 4})", I, With(R"({"letters": [1, 2, 3, 4]})")},
      {U, "SET letters[5] = :x, letters[4] = :y", "", R"({":x": "x", ":y": "y"})", I,
       With(R"({"letters": [1, 2, 3, "y", "x"]})")},
      {U, "SET letters[1] = :x", "", R"({":x": "x"})", I, With(R"({"letters": [1, "x", 3]})")},
      {U, "SET f = f + :f, tally = tally - :one", "", R"({":f": 0.2, ":one": 1})", I, With(R"({"f": 0.3, "tally": 0})")},
      {U, "SET a = tally, tally = :ten", "", R"({":ten": 10})", I, With(R"({"a": 1, "tally": 10})")},
      {U, "SET tally = if_not_exists(tally, :zero) + :one, fresh = if_not_exists(fresh, :zero)", "",
       R"({":zero": 0, ":one": 1})", I, With(R"({"tally": 2, "fresh": 0})")},
      {U, "SET letters = list_append(letters, :tail), alt = list_append(if_not_exists(alt, :empty), :tail), "
          "front = list_append(:head, letters)",
       "", R"({":tail": [9], ":empty": [], ":head": [0]})", I,
       With(R"({"letters": [1, 2, 3, 9], "alt": [9], "front": [0, 1, 2, 3]})")},
      {U, "SET a = (tally + :one)", "", R"({":one": 1})", I, With(R"({"a": 2})")},
      {U, "SET a = (tally) + :one", "", R"({":one": 1})", I, With(R"({"a": 2})")},
      {U, "SET a = ((tally) - (:one))", "", R"({":one": 1})", I, With(R"({"a": 0})")},
      {U, "set a = ((tally))", "", "", I, With(R"({"a": 1})")},
      {U, "SET a = :m", "", R"({":m": {"x": [1, {"$SS": ["q"]}]}})", I, With(R"({"a": {"x": [1, {"$SS": ["q"]}]}})")},
      {U, "SET label = :v", "", R"({":v": {"$B": "AQI="}})", I, With(R"({"label": {"$B": "AQI="}})")},
      {U, "REMOVE #n, info.a, letters[0], letters[2]", R"({"#n": "label"})", "", I,
       Without({"label"}, R"({"letters": [2], "info": {}})")},
      {U, "REMOVE letters[2], letters[0], letters[1]", "", "", I, With(R"({"letters": []})")},
      {U, "REMOVE nothere, letters[10], info.zz", "", "", I, With("{}")},
      {U, "SET letters[1] = :x REMOVE letters[0]", "", R"({":x": "x"})", I, With(R"({"letters": ["x", 3]})")},
      {U, "SET letters[7] = :x REMOVE letters[0]", "", R"({":x": "x"})", I, With(R"({"letters": [2, 3, "x"]})")},
      {U, "ADD #c :five, newCount :five, tags :more, nums :ns", R"({"#c": "tally"})",
       R"({":five": 5, ":more": {"$SS": ["b", "c"]}, ":ns": {"$NS": ["3", "1.0"]}})", I,
       With(R"({"tally": 6, "newCount": 5, "tags": {"$SS": ["a", "b", "c"]}, "nums": {"$NS": ["1", "2", "3"]}})")},
      {U, "ADD tally :n, bin :b", "", R"({":n": -1.5, ":b": {"$BS": ["Ag==", "AQ=="]}})", I,
       With(R"({"tally": -0.5, "bin": {"$BS": ["AQ==", "Ag=="]}})")},
      {U, "ADD letters[5] :n, letters[0] :n", "", R"({":n": 7})", I, With(R"({"letters": [8, 2, 3, 7]})")},
      {U, "DELETE tags :a", "", R"({":a": {"$SS": ["a", "zz"]}})", I, With(R"({"tags": {"$SS": ["b"]}})")},
      {U, "DELETE tags :ab, nums :n", "", R"({":ab": {"$SS": ["a", "b"]}, ":n": {"$NS": ["2.0"]}})", I,
       Without({"tags"}, R"({"nums": {"$NS": ["1"]}})")},
      {U, "DELETE absent :s, info.x :s", "", R"({":s": {"$SS": ["a"]}})", I, With("{}")},
      {U, "SET a = :a REMOVE info ADD #c :one DELETE tags :t", R"({"#c": "tally"})",
       R"({":a": 1, ":one": 1, ":t": {"$SS": ["a"]}})", I, Without({"info"}, R"({"a": 1, "tally": 2, "tags": {"$SS": ["b"]}})")},
      {U, "ADD tags :t SET a = :a", "", R"({":t": {"$SS": ["c"]}, ":a": 1})", I,
       With(R"({"a": 1, "tags": {"$SS": ["a", "b", "c"]}})")},
      {U, "set a=:a", "", R"({":a": 1})", "", R"({"a":1})"},
      {U, "ADD n :n, s :s", "", R"({":n": 2, ":s": {"$NS": ["1"]}})", "", R"({"n":2,"s":{"$NS":["1"]}})"},
      {U, "REMOVE a DELETE b :s", "", R"({":s": {"$SS": ["a"]}})", "", "{}"},
      // DynamoDB's nested example: operands read the old item, list writes past the end append in
      // index order after the in-place ones.
      {U, "set b.c=((c[1])+(b.a)),b.a = a,c[1] = a, c[4] = b.a - b.b, c[2] = b.c add c[8] :b, c[6] :a", "",
       R"({":a": 2, ":b": {"$SS": ["a"]}})", R"({"a": "k", "b": {"a": 1, "b": 2, "c": 3}, "c": [1, 3]})",
       R"({"a":"k","b":{"a":"k","b":2,"c":4},"c":[1,"k",3,-1,2,{"$SS":["a"]}]})"},
      // Runtime errors.
      {U, "SET c = nothere", "", "", I, "ERR:The provided expression refers to an attribute that does not exist in the item"},
      {U, "SET e = list_append(nothere, letters)", "", "", I,
       "ERR:The provided expression refers to an attribute that does not exist in the item"},
      {U, "SET x = nothere + :one", "", R"({":one": 1})", I,
       "ERR:The provided expression refers to an attribute that does not exist in the item"},
      {U, "SET x = label + label", "", "", I, "ERR:An operand in the update expression has an incorrect data type"},
      {U, "SET x = tally - info", "", "", I, "ERR:An operand in the update expression has an incorrect data type"},
      {U, "SET x = list_append(tags, letters)", "", "", I, "ERR:An operand in the update expression has an incorrect data type"},
      {U, "SET x = list_append(letters, if_not_exists(f, :l))", "", R"({":l": []})", I,
       "ERR:An operand in the update expression has an incorrect data type"},
      {U, "ADD label :n", "", R"({":n": 1})", I, "ERR:An operand in the update expression has an incorrect data type"},
      {U, "ADD tags :ns", "", R"({":ns": {"$NS": ["1"]}})", I, "ERR:An operand in the update expression has an incorrect data type"},
      {U, "ADD tally :ns", "", R"({":ns": {"$NS": ["1"]}})", I, "ERR:An operand in the update expression has an incorrect data type"},
      {U, "DELETE tally :s", "", R"({":s": {"$SS": ["1"]}})", I, "ERR:An operand in the update expression has an incorrect data type"},
      {U, "DELETE tags :ns", "", R"({":ns": {"$NS": ["1"]}})", I, "ERR:An operand in the update expression has an incorrect data type"},
      {U, "SET nope.a = :v", "", R"({":v": 1})", I, "ERR:The document path provided in the update expression is invalid for update"},
      {U, "SET label.a = :v", "", R"({":v": 1})", I, "ERR:The document path provided in the update expression is invalid for update"},
      {U, "SET info[1] = :v", "", R"({":v": 1})", I, "ERR:The document path provided in the update expression is invalid for update"},
      {U, "SET letters.x = :v", "", R"({":v": 1})", I, "ERR:The document path provided in the update expression is invalid for update"},
      {U, "SET letters[5].x = :v", "", R"({":v": 1})", I,
       "ERR:The document path provided in the update expression is invalid for update"},
      {U, "REMOVE nope.a", "", "", I, "ERR:The document path provided in the update expression is invalid for update"},
      {U, "REMOVE info[0]", "", "", I, "ERR:The document path provided in the update expression is invalid for update"},
      {U, "ADD nope.a :n", "", R"({":n": 1})", I, "ERR:The document path provided in the update expression is invalid for update"},
      {U, "DELETE label[1] :s", "", R"({":s": {"$SS": ["a"]}})", I,
       "ERR:The document path provided in the update expression is invalid for update"},
      {U, "SET b.a = :v", "", R"({":v": 1})", "", "ERR:The document path provided in the update expression is invalid for update"},
      {U, "SET big = big + big", "", "", R"({"big": 9.9999999999999999999999999999999999999E+125})",
       "ERR:Number overflow. Attempting to store a number with magnitude larger than supported range"},
      // A result that cannot be stored exactly (more than 38 significant digits) is reported as an
      // overflow, as DynamoDB does for 1E+50 + 1, by + and - and by ADD alike.
      {U, "ADD big :n", "", R"({":n": 0.1})", R"({"big": 12345678901234567890123456789012345678})",
       "ERR:Number overflow. Attempting to store a number with magnitude larger than supported range"},
      {U, "SET b = :a + :b", "", R"({":a": 1e50, ":b": 1})", I,
       "ERR:Number overflow. Attempting to store a number with magnitude larger than supported range"},
      {U, "SET b = :a - :b", "", R"({":a": 1e50, ":b": 1})", I,
       "ERR:Number overflow. Attempting to store a number with magnitude larger than supported range"},
      {U, "SET b = :a - :b", "", R"({":a": 1e-100, ":b": 1})", I,
       "ERR:Number overflow. Attempting to store a number with magnitude larger than supported range"},
      {U, "SET b = :a + :b", "", R"({":a": 1e50, ":b": 1e13})", I, With(R"({"b": 100000000000000000000000000000000000010000000000000})")},
      {U, "SET b = :a - :b", "", R"({":a": 2E-130, ":b": 1.5E-130})", I,
       "ERR:Number underflow. Attempting to store a number with magnitude smaller than supported range"},
      // Parse errors.
      {U, "", "", "", I, "ERR:Invalid UpdateExpression: The expression can not be empty;"},
      {U, "whatever", "", "", I, R"(ERR:Invalid UpdateExpression: Syntax error; token: "whatever", near: "whatever")"},
      {U, "set a", "", "", I, R"(ERR:Invalid UpdateExpression: Syntax error; token: "<EOF>", near: "a")"},
      {U, "SET x = ", "", "", I, R"(ERR:Invalid UpdateExpression: Syntax error; token: "<EOF>", near: "= ")"},
      {U, "add a", "", "", I, R"(ERR:Invalid UpdateExpression: Syntax error; token: "<EOF>", near: "a")"},
      {U, "set a=set", "", "", I, R"(ERR:Invalid UpdateExpression: Syntax error; token: "set", near: "=set")"},
      {U, "remove a = b", "", "", I, R"(ERR:Invalid UpdateExpression: Syntax error; token: "=", near: "a = b")"},
      {U, "delete a b", "", "", I, R"(ERR:Invalid UpdateExpression: Syntax error; token: "b", near: "a b")"},
      {U, "add a if_not_exist(b)", "", "", I,
       R"(ERR:Invalid UpdateExpression: Syntax error; token: "if_not_exist", near: "a if_not_exist(")"},
      {U, "set :a = b", "", "", I, R"(ERR:Invalid UpdateExpression: Syntax error; token: ":a", near: "set :a =")"},
      {U, "set a = b / c", "", "", I, R"(ERR:Invalid UpdateExpression: Syntax error; token: "/", near: "b / c")"},
      {U, "set a[1] = \"eight\"", "", "", I, R"(ERR:Invalid UpdateExpression: Syntax error; token: """, near: "= "eight")"},
      {U, "SET if_not_exist(a, b) = a", "", "", I,
       R"(ERR:Invalid UpdateExpression: Syntax error; token: "(", near: "if_not_exist(a")"},
      {U, "set (a = (b + c))", "", "", I, R"(ERR:Invalid UpdateExpression: Syntax error; token: "(", near: "set (a")"},
      {U, "set a = (b.c).d + e", "", "", I, R"(ERR:Invalid UpdateExpression: Syntax error; token: ".", near: ").d")"},
      {U, "set a = b + c + d", "", "", I, R"(ERR:Invalid UpdateExpression: Syntax error; token: "+", near: "c + d")"},
      {U, "set a = (((b)))", "", "", I, R"(ERR:Invalid UpdateExpression: Syntax error; token: "(", near: "((b")"},
      {U, "SET MyStr = myNum + 1", "", "", I, R"(ERR:Invalid UpdateExpression: Syntax error; token: "1", near: "+ 1")"},
      {U, "SET MyStr = myNum Mystr2 myNum2", "", "", I,
       R"(ERR:Invalid UpdateExpression: Syntax error; token: "Mystr2", near: "myNum Mystr2 myNum2")"},
      {U, "ADD hits : incr", "", "", I, R"(ERR:Invalid UpdateExpression: Syntax error; token: ":", near: "hits : incr")"},
      {U, "SET #as, #b = :x", "", "", I, R"(ERR:Invalid UpdateExpression: Syntax error; token: ",", near: "#as, #b")"},
      {U, "SET a = :v, REMOVE b", "", "", I, R"(ERR:Invalid UpdateExpression: Syntax error; token: "REMOVE", near: ", REMOVE b")"},
      {U, "DELETE #memberOf :t undefined SET #x = :y", "", "", I,
       R"(ERR:Invalid UpdateExpression: Syntax error; token: "undefined", near: ":t undefined SET")"},
      // Semantic errors, in DynamoDB's priority order.
      {U, "set a = #c set c = :d", "", "", I,
       R"(ERR:Invalid UpdateExpression: The "SET" section can only be used once in an update expression;)"},
      {U, "remove #d set a = b remove e", "", "", I,
       R"(ERR:Invalid UpdateExpression: The "REMOVE" section can only be used once in an update expression;)"},
      {U, "add #d :e set a = b add e :f", "", "", I,
       R"(ERR:Invalid UpdateExpression: The "ADD" section can only be used once in an update expression;)"},
      {U, "delete #d :e set a = b delete #e :f", "", "", I,
       R"(ERR:Invalid UpdateExpression: The "DELETE" section can only be used once in an update expression;)"},
      {U, " set #c = :c set abOrt = true ", "", "", I,
       "ERR:Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: abOrt"},
      {U, " remove Absolute ", "", "", I, "ERR:Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: Absolute"},
      {U, "set #c = if_not_exist(:c) set c = d", "", "", I,
       "ERR:Invalid UpdateExpression: Invalid function name; function: if_not_exist"},
      {U, "SET #c = if_not_exists(:c)", R"({"#a": "a"})", R"({":a": 1})", I,
       "ERR:Invalid UpdateExpression: An expression attribute name used in the document path is not defined; attribute name: #c"},
      {U, "SET #a = if_not_exists(:c)", R"({"#a": "a"})", R"({":a": 1})", I,
       "ERR:Invalid UpdateExpression: An expression attribute value used in expression is not defined; attribute value: :c"},
      {U, "SET a = :nope, #nope = :b", "", R"({":b": 1})", I,
       "ERR:Invalid UpdateExpression: An expression attribute name used in the document path is not defined; attribute name: #nope"},
      {U, "set d[1] = a, d.b = a, c[1].a = a, #c = if_not_exists(a)", R"({"#c": "c", "#d": "[3]"})", "", I,
       "ERR:Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [c, [1], a], path two: [c]"},
      {U, "set #c[3].#d = a, #c[3] = a", R"({"#c": "c", "#d": "[3]"})", "", I,
       "ERR:Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [c, [3], [3]], path two: [c, [3]]"},
      {U, "SET a = :v, a = :v", "", R"({":v": 1})", I,
       "ERR:Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]"},
      {U, "SET a.b = :v REMOVE a", "", R"({":v": 1})", I,
       "ERR:Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a, b], path two: [a]"},
      {U, "set #c[3].#d = a, #c.#d[3] = if_not_exists(a)", R"({"#b": "b", "#c": "c", "#d": "[3]"})", "", I,
       "ERR:Invalid UpdateExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [c, [3], [3]], path two: [c, [3], [3]]"},
      {U, "remove a.#c set a[1] = #d", R"({"#b": "b", "#c": "c", "#d": "[3]"})", "", I,
       "ERR:Invalid UpdateExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, c], path two: [a, [1]]"},
      {U, "set b = list_append(:a, a), c = if_not_exists(a) add a.b :a", "", R"({":a": "a", ":b": "a"})", I,
       "ERR:Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: STRING"},
      {U, "delete a.b :a", "", R"({":a": "a"})", I,
       "ERR:Invalid UpdateExpression: Incorrect operand type for operator or function; operator: DELETE, operand type: STRING"},
      {U, "add a.b :a", "", R"({":a": null})", I,
       "ERR:Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: NULL"},
      {U, "add a.b :a", "", R"({":a": true})", I,
       "ERR:Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: BOOLEAN"},
      {U, "delete a.b :a", "", R"({":a": {"$B": "YQ=="}})", I,
       "ERR:Invalid UpdateExpression: Incorrect operand type for operator or function; operator: DELETE, operand type: BINARY"},
      {U, "add a.b :a", "", R"({":a": {"a": [1]}})", I,
       "ERR:Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: MAP"},
      {U, "add a.b :a", "", R"({":a": [1]})", I,
       "ERR:Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: LIST"},
      {U, "delete a.b :a", "", R"({":a": 1})", I,
       "ERR:Invalid UpdateExpression: Incorrect operand type for operator or function; operator: DELETE, operand type: NUMBER"},
      {U, "set a = if_not_exists(c)", "", "", I,
       "ERR:Invalid UpdateExpression: Incorrect number of operands for operator or function; operator or function: if_not_exists, number of operands: 1"},
      {U, "set a = list_append(c)", "", "", I,
       "ERR:Invalid UpdateExpression: Incorrect number of operands for operator or function; operator or function: list_append, number of operands: 1"},
      {U, "set a = if_not_exists(:a, c)", "", R"({":a": "a"})", I,
       "ERR:Invalid UpdateExpression: Operator or function requires a document path; operator or function: if_not_exists"},
      {U, "set a = if_not_exists(if_not_exists(a, b), c)", "", "", I,
       "ERR:Invalid UpdateExpression: Operator or function requires a document path; operator or function: if_not_exists"},
      // list_append cannot take list_append's result; condition functions are not update functions.
      {U, "SET a = list_append(list_append(:v1, :v2), :v3)", "", R"({":v1": ["a"], ":v2": ["1"], ":v3": ["hi"]})", I,
       "ERR:Invalid UpdateExpression: The function is not allowed to be used this way in an expression; function: list_append"},
      {U, "SET a = list_append(:v1, (list_append(:v2, :v3)))", "", R"({":v1": ["a"], ":v2": ["1"], ":v3": ["hi"]})", I,
       "ERR:Invalid UpdateExpression: The function is not allowed to be used this way in an expression; function: list_append"},
      {U, "SET a = list_append(if_not_exists(a, :v1), :v2)", "", R"({":v1": ["a"], ":v2": ["1"]})", I,
       With(R"({"a": ["a", "1"]})")},
      {U, "SET a = size(letters)", "", "", I,
       "ERR:Invalid UpdateExpression: The function is not allowed in an update expression; function: size"},
      {U, "SET a = if_not_exists(a, attribute_exists(b))", "", "", I,
       "ERR:Invalid UpdateExpression: The function is not allowed in an update expression; function: attribute_exists"},
      {U, "SET a = contains(b, c), d = dog(e)", "", "", I, "ERR:Invalid UpdateExpression: Invalid function name; function: dog"},
      {U, "SET a = list_append(list_append(a, b), c), d = begins_with(e, f)", "", "", I,
       "ERR:Invalid UpdateExpression: The function is not allowed in an update expression; function: begins_with"},
      {U, "SET a = list_append(list_append(a, b), c), abort = :v", "", "", I,
       "ERR:Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: abort"},
      {U, "set a = list_append(:a, a)", "", R"({":a": "a"})", I,
       "ERR:Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: list_append, operand type: S"},
      {U, "set a = list_append(a, :b)", "", R"({":b": 1})", I,
       "ERR:Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: list_append, operand type: N"},
      {U, "set a = list_append(:i, a)", "", R"({":i": {}})", I,
       "ERR:Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: list_append, operand type: M"},
      {U, "set a = a + :a", "", R"({":a": "a"})", I,
       "ERR:Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: +, operand type: S"},
      {U, "set a = :c - a", "", R"({":c": {"$B": "YQ=="}})", I,
       "ERR:Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: -, operand type: B"},
      {U, "set a = a + :j", "", R"({":j": []})", I,
       "ERR:Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: +, operand type: L"},
      {U, "set a = a - :g", "", R"({":g": {"$NS": ["1"]}})", I,
       "ERR:Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: -, operand type: NS"},
      {U, "remove a set b = list_append(b, if_not_exists(a, :a))", R"({"#a": "a", "#b": "b"})", R"({":a": [1]})",
       R"({"b": []})", "ERR:Value provided in ExpressionAttributeNames unused in expressions: keys: {#a, #b}"},
      {U, "remove a", "", R"({":a": 1, ":c": 2})", I,
       "ERR:Value provided in ExpressionAttributeValues unused in expressions: keys: {:a, :c}"},
  };
}

// DynamoDB's limits on an update's shape: at most 300 operators (+ and -; functions and SET's '='
// are not operators), document paths of at most 32 levels, any nesting the 4 KB text holds.
std::vector<Case> LimitCases() {
  const std::string I = kItem;
  const std::string overlap =
      "ERR:Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these "
      "paths; path one: [a], path two: [a]";
  return {
      {U, "SET a = b + c" + Rep(", a = b - c", 299), "", "", I, overlap},
      {U, "SET a = b + c" + Rep(", a = b - c", 300), "", "", I,
       "ERR:Invalid UpdateExpression: The expression contains too many operators; operator count: 301"},
      {U, "SET a = b" + Rep(", a = if_not_exists(b, c)", 160), "", "", I, overlap},
      {U, "SET a" + Rep(".b", 31) + " = :v", "", R"({":v": 1})", I,
       "ERR:The document path provided in the update expression is invalid for update"},
      {U, "SET a" + Rep(".b", 32) + " = :v", "", R"({":v": 1})", I,
       "ERR:Invalid UpdateExpression: The document path has too many nesting levels; nesting levels: 33"},
      {U, "SET a = letters" + Rep("[0]", 32), "", "", I,
       "ERR:Invalid UpdateExpression: The document path has too many nesting levels; nesting levels: 33"},
      {U, "REMOVE x SET a = list_append(if_not_exists(letters" + Rep("[1]", 33) + ", b), c)", "", "", I,
       "ERR:Invalid UpdateExpression: The document path has too many nesting levels; nesting levels: 34"},
      {U, "REMOVE #a" + Rep(".#a", 32), R"({"#a": "a"})", "", I,
       "ERR:Invalid UpdateExpression: The document path has too many nesting levels; nesting levels: 33"},
      {U, "ADD a" + Rep("[2]", 40) + " :v", "", R"({":v": 1})", I,
       "ERR:Invalid UpdateExpression: The document path has too many nesting levels; nesting levels: 41"},
      // The deepest nestings within 4 KB.
      {U, "SET a = " + Rep("f(", 1360) + "b" + Rep(")", 1360), "", "", I, "ERR:Invalid UpdateExpression: Invalid function name; function: f"},
      {U, "SET a = " + Rep("if_not_exists(a,", 230) + ":v" + Rep(")", 230), "", R"({":v": 2})", I, With(R"({"a": 2})")},
      {U, "SET a = " + Rep("f(", 1361), "", "", I, R"(ERR:Invalid UpdateExpression: Syntax error; token: "<EOF>", near: "(")"},
  };
}

class UpdateTable : public ::testing::TestWithParam<Case> {};

TEST_P(UpdateTable, Applies) { EXPECT_EQ(RunCase(GetParam()), GetParam().expect) << GetParam(); }

INSTANTIATE_TEST_SUITE_P(Cases, UpdateTable, ::testing::ValuesIn(ApplyCases()));
INSTANTIATE_TEST_SUITE_P(Limits, UpdateTable, ::testing::ValuesIn(LimitCases()));

TEST(UpdateLimits, DeepestExpressionsFitASmallStack) {
  for (const Case& c : LimitCases()) EXPECT_EQ(RunCaseOnSmallStack(c), c.expect) << c;
}

Result<UpdateExpression> Parse(const std::string& expr, const NameMap* names, const ValueMap* values) {
  ExpressionInputs in{names, values, nullptr, nullptr};
  return ParseUpdateExpression(expr, in);
}

TEST(UpdateOutcome, UpdatedPathsGiveDynamoDbsUpdatedOldAndNew) {
  const ValueMap values = Values(R"({":a": 2, ":b": {"$SS": ["a"]}})");
  auto u = Parse("set b.c=((c[1])+(b.a)),b.a = a,c[1] = a, c[4] = b.a - b.b, c[2] = b.c add c[8] :b, c[6] :a",
                 nullptr, &values);
  ASSERT_TRUE(u.ok()) << u.status().message();
  const Item old_item = It(R"({"a": "k", "b": {"a": 1, "b": 2, "c": 3}, "c": [1, 3]})");
  auto out = u->Apply(&old_item, Item{});
  ASSERT_TRUE(out.ok()) << out.status().message();
  std::vector<std::string> paths;
  for (const auto& p : out->updated_paths) paths.push_back(FormatPath(p));
  EXPECT_EQ(paths, (std::vector<std::string>{"[b, c]", "[b, a]", "[c, [1]]", "[c, [4]]", "[c, [2]]", "[c, [8]]", "[c, [6]]"}));
  EXPECT_EQ(Doc(ProjectPaths(out->updated_paths, out->item)), R"({"b":{"a":"k","c":4},"c":["k",3,2]})");
  EXPECT_EQ(Doc(ProjectPaths(out->updated_paths, old_item)), R"({"b":{"a":1,"c":3},"c":[3]})");
  EXPECT_EQ(out->updated_paths.size(), u->TargetPaths().size());
}

TEST(UpdateOutcome, StartsFromTheKeyWhenTheItemIsAbsent) {
  auto u = Parse("set b = if_not_exists(b, pk)", nullptr, nullptr);
  ASSERT_TRUE(u.ok());
  const Item key = It(R"({"pk": "p1"})");
  auto out = ApplyUpdate(*u, nullptr, key);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(Doc(out->item), R"({"b":"p1","pk":"p1"})");
  // No side effects: applying again gives the same result.
  auto again = ApplyUpdate(*u, nullptr, key);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(Doc(again->item), Doc(out->item));
}

TEST(UpdateKeys, RefusesUpdatesOfKeyAttributes) {
  const ValueMap values = Values(R"({":a": 1, ":ns": {"$NS": ["1"]}})");
  const std::vector<std::string> hash = {"a"};
  const std::vector<std::string> range = {"a", "b"};
  for (const char* e : {"add a.b :a", "delete a :ns", "remove d set b = :a, a = :a", "delete b :ns remove a",
                        "set a = a.b + a[1]"}) {
    auto u = Parse(e, nullptr, &values);
    ASSERT_TRUE(u.ok()) << e << ": " << u.status().message();
    EXPECT_EQ(CheckKeyAttributesNotUpdated(*u, hash).message(),
              "One or more parameter values were invalid: Cannot update attribute a. This attribute is part of the key")
        << e;
  }
  auto u = Parse("set d[1] = :a add b.b :a", nullptr, &values);
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(CheckKeyAttributesNotUpdated(*u, range).message(),
            "One or more parameter values were invalid: Cannot update attribute b. This attribute is part of the key");
  u = Parse("set c = a, d = b.x", nullptr, &values);
  ASSERT_TRUE(u.ok());
  EXPECT_TRUE(CheckKeyAttributesNotUpdated(*u, range).ok());
  EXPECT_EQ(u->PathHeads(), (std::vector<std::string>{"c", "a", "d", "b"}));
  EXPECT_EQ(u->PathHeads(true), (std::vector<std::string>{"b"}));
  EXPECT_EQ(CheckKeyPathsScalar(u->PathHeads(true), range, {}).message(),
            "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: b");
}

TEST(UpdateUsage, TracksNamesAndValuesAcrossExpressionsOfOneRequest) {
  const NameMap names = Names(R"({"#a": "a", "#b": "b"})");
  const ValueMap values = Values(R"({":a": 1, ":b": 2})");
  UsageTracker tracker;
  ExpressionInputs in{&names, &values, &tracker, nullptr};
  ASSERT_TRUE(ParseUpdateExpression("SET #a = :a", in).ok());
  EXPECT_EQ(CheckAllUsed(in).message(), "Value provided in ExpressionAttributeNames unused in expressions: keys: {#b}");
  ASSERT_TRUE(ParseConditionExpression("#b = :b", in).ok());
  EXPECT_TRUE(CheckAllUsed(in).ok());
}

}  // namespace
}  // namespace monotable::expr::testing
