// The declarative case table shared by the expr tests: one row = one request with one expression.
//
// expect is "true"/"false" for ConditionExpression / FilterExpression (evaluated against item; an
// empty item string means the item does not exist), the resulting item (document notation) for
// ProjectionExpression and UpdateExpression, or "ERR:<exact ValidationException message>". After a
// successful bind the runner also checks the request's unused names/values, so an unused-key
// message is expected as an error too.
#pragma once

#include <ostream>
#include <string>

#include "expr/expression.h"
#include "expr_test_util.h"

namespace monotable::expr::testing {

struct Case {
  ExpressionKind kind;
  std::string expression;
  std::string names;   // {"#n": "name", ...} or "" for no ExpressionAttributeNames
  std::string values;  // {":v": <doc>, ...} or "" for no ExpressionAttributeValues
  std::string item;    // the item, or "" when absent
  std::string expect;
};

inline std::ostream& operator<<(std::ostream& os, const Case& c) {
  return os << ExpressionKindName(c.kind) << " `" << c.expression << "` names=" << c.names << " values=" << c.values
            << " item=" << c.item;
}

inline std::string Error(const Status& s) {
  EXPECT_EQ(s.code(), ErrorCode::kValidation) << s.message();
  return "ERR:" + s.message();
}

inline std::string RunCase(const Case& c) {
  const NameMap names = Names(c.names);
  const ValueMap values = Values(c.values);
  UsageTracker tracker;
  ExpressionCache cache(64, 2);
  ExpressionInputs in{c.names.empty() ? nullptr : &names, c.values.empty() ? nullptr : &values, &tracker, &cache};
  Status maps = ValidateAttributeMaps(in.names, in.values);
  if (!maps.ok()) return Error(maps);
  const Item item = It(c.item);
  const Item* item_ptr = c.item.empty() ? nullptr : &item;
  switch (c.kind) {
    case ExpressionKind::kCondition:
    case ExpressionKind::kFilter:
    case ExpressionKind::kKeyCondition: {
      auto r = c.kind == ExpressionKind::kCondition ? ParseConditionExpression(c.expression, in)
               : c.kind == ExpressionKind::kFilter  ? ParseFilterExpression(c.expression, in)
                                                    : ParseKeyConditionExpression(c.expression, in);
      if (!r.ok()) return Error(r.status());
      Status unused = CheckAllUsed(in);
      if (!unused.ok()) return Error(unused);
      return r->Evaluate(item_ptr) ? "true" : "false";
    }
    case ExpressionKind::kProjection: {
      auto r = ParseProjectionExpression(c.expression, in);
      if (!r.ok()) return Error(r.status());
      Status unused = CheckAllUsed(in);
      if (!unused.ok()) return Error(unused);
      return Doc(r->Apply(item));
    }
    case ExpressionKind::kUpdate: {
      auto r = ParseUpdateExpression(c.expression, in);
      if (!r.ok()) return Error(r.status());
      Status unused = CheckAllUsed(in);
      if (!unused.ok()) return Error(unused);
      auto applied = r->Apply(item_ptr, Item{});
      if (!applied.ok()) return Error(applied.status());
      return Doc(applied->item);
    }
  }
  return "?";
}

}  // namespace monotable::expr::testing
