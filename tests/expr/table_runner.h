// The declarative case table shared by the expr tests: one row = one request with one expression.
//
// expect is "true"/"false" for ConditionExpression / FilterExpression (evaluated against item; an
// empty item string means the item does not exist), the resulting item (document notation) for
// ProjectionExpression and UpdateExpression, or "ERR:<exact ValidationException message>". After a
// successful bind the runner also checks the request's unused names/values, so an unused-key
// message is expected as an error too.
#pragma once

#include <pthread.h>

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

// A stack comfortably below a server thread's (8 MiB by default): the worst expressions the 4 KB
// limit allows need ~300 KB in an optimized build, ~700 KB unoptimized, ~1 MB with ASan.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr size_t kTestStackBytes = 4 << 20;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr size_t kTestStackBytes = 4 << 20;
#else
inline constexpr size_t kTestStackBytes = 1 << 20;
#endif
#else
inline constexpr size_t kTestStackBytes = 1 << 20;
#endif

// RunCase on a thread whose stack is only `stack_bytes`: a parser or walk that recursed too deep
// crashes the test instead of passing.
inline std::string RunCaseOnSmallStack(const Case& c, size_t stack_bytes = kTestStackBytes) {
  struct Job {
    const Case* c;
    std::string result;
  } job{&c, {}};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, stack_bytes);
  pthread_t thread;
  const int rc = pthread_create(
      &thread, &attr,
      [](void* p) -> void* {
        auto* j = static_cast<Job*>(p);
        j->result = RunCase(*j->c);
        return nullptr;
      },
      &job);
  pthread_attr_destroy(&attr);
  if (rc != 0) return "pthread_create failed";
  pthread_join(thread, nullptr);
  return job.result;
}

// `unit` repeated n times.
inline std::string Rep(std::string_view unit, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out.append(unit);
  return out;
}

}  // namespace monotable::expr::testing
