// Lambda event filtering: one filter pattern (the "Pattern" string of FilterCriteria.Filters),
// compiled once and matched against a record's JSON as Lambda matches it.
//
// Contract (the rules of AWS's "Control which events Lambda sends to your function"):
// - A pattern is a JSON object; its fields are ANDed. An object value descends into the record's
//   field of that name; an array value is a list of rules ORed together, matched against the
//   record's value at that path (when that value is an array, against each element).
// - Rules: a string, number, boolean or null literal (equality; "" matches the empty string,
//   numbers compare numerically), {"prefix": S}, {"suffix": S}, {"equals-ignore-case": S},
//   {"prefix": {"equals-ignore-case": S}}, {"suffix": {"equals-ignore-case": S}},
//   {"anything-but": literal | [literals] | {"prefix": S} | {"suffix": S} | {"equals-ignore-case": S}},
//   {"numeric": ["<"|"<="|"="|">="|">", N, ...]} (one or two comparisons), {"exists": true|false}.
// - Rules apply to leaf values only. A record value that is an object matches no rule, except
//   that {"exists": false} matches when the path holds no leaf value (missing, or an object);
//   a missing field matches nothing else (anything-but included).
// - Numeric rules match JSON numbers only: DynamoDB "N" values are strings in the record, so
//   {"N": [{"numeric": [">", 5]}]} never matches (as on AWS); match them as strings instead.
// - Compile() refuses bad patterns (not JSON, not an object, an empty rule list, unknown operator,
//   malformed numeric range, nesting deeper than 32) with a kValidation Status.
#pragma once

#include <rapidjson/document.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace monotable::triggers {

struct FilterRule {
  enum class Kind {
    kString,
    kNumber,
    kBool,
    kNull,
    kPrefix,
    kSuffix,
    kIgnoreCase,
    kPrefixIgnoreCase,
    kSuffixIgnoreCase,
    kAnythingBut,
    kAnythingButPrefix,
    kAnythingButSuffix,
    kAnythingButIgnoreCase,
    kNumeric,
    kExists
  };
  Kind kind = Kind::kString;
  std::string text;
  double number = 0;
  bool flag = false;
  std::vector<FilterRule> values;  // anything-but list
  struct Bound {
    std::string op;
    double value = 0;
  };
  std::vector<Bound> bounds;  // numeric
};

class FilterPattern {
 public:
  static Result<std::shared_ptr<const FilterPattern>> Compile(std::string_view json);
  bool Matches(const rapidjson::Value& record) const;

 private:
  struct Node {
    std::map<std::string, Node, std::less<>> children;  // object pattern
    std::vector<FilterRule> rules;                      // leaf pattern (when children is empty)
    bool leaf = false;
  };
  static Status CompileNode(const rapidjson::Value& json, Node& node, int depth);
  static bool MatchNode(const Node& node, const rapidjson::Value* value);
  Node root_;
};

}  // namespace monotable::triggers
