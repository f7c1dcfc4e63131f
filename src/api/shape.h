// Request shapes: declarative descriptions of each operation's input, and the generic two-pass
// check DynamoDB applies before any operation logic runs.
//
// A shape is written as JSON text in the operation's file (the same vocabulary as the AWS
// service model: String, Boolean, Long, Integer, Double, Blob, List, Map<T>, ValueStruct<T>,
// FieldStruct<T>, AttrStruct<ValueStruct|FieldStruct> for an AttributeValue), with constraints
// notNull, required, tableName, regex, enum, lengthGreaterThanOrEqual, lengthLessThanOrEqual,
// greaterThanOrEqual, lessThanOrEqual. Member order in the text is the order AWS checks them in.
//
// Contract of CheckRequest(shape, doc):
// 1. Type pass: walks the request in shape order; a JSON value of the wrong kind fails with
//    SerializationException and AWS's Jackson-style message ("NUMBER_VALUE cannot be converted
//    to String", "Start of structure or map found where not expected", ...). Members that the
//    shape does not name, and JSON nulls, are removed. Values AWS coerces are coerced in place
//    ("true"/"yes"/"1" strings to Boolean, decimals floored for Long).
// 2. Constraint pass: "The parameter 'X' is required but was not present in the request" and
//    the table-name length message fire first; then up to 10 constraint violations are joined
//    into "N validation error(s) detected: Value 'v' at 'path' failed to satisfy constraint: ...".
// After CheckRequest succeeds, operations read the document knowing every member has its type.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include <rapidjson/document.h>

#include "common/status.h"

namespace monotable::api {

struct Shape;

// Parses a shape description; aborts on a malformed description (a bug).
std::shared_ptr<const Shape> ParseShape(std::string_view description_json);

// An operation's shape, parsed on first use (the process does not parse ~35 descriptions
// before it can serve its first request). Thread-safe.
class LazyShape {
 public:
  LazyShape(const char* text) : text_(text) {}              // NOLINT: implicit, for Operation tables
  LazyShape(std::string (*make_text)()) : make_text_(make_text) {}  // NOLINT
  LazyShape(const LazyShape&) = delete;
  LazyShape& operator=(const LazyShape&) = delete;

  const Shape& get() const;

 private:
  const char* text_ = nullptr;
  std::string (*make_text_)() = nullptr;
  mutable std::once_flag once_;
  mutable std::shared_ptr<const Shape> shape_;
};

Status CheckRequest(const Shape& shape, rapidjson::Value& request, rapidjson::Document::AllocatorType& alloc);

}  // namespace monotable::api
