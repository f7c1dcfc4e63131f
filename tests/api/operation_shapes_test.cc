// Every operation's request shape is parsed on first use: each description must parse (a bad one
// aborts), and a request of the wrong kind is refused by the parsed shape.
#include <gtest/gtest.h>

#include "api/ops/operations.h"

namespace monotable::api {
namespace {

TEST(OperationShapesTest, EveryDescriptionParsesAndChecksARequest) {
  std::vector<const Operation*> ops = AllOperations();
  ops.insert(ops.end(), StreamOperations().begin(), StreamOperations().end());
  ASSERT_GE(ops.size(), 29u);
  for (const Operation* op : ops) {
    SCOPED_TRACE(std::string(op->name));
    rapidjson::Document doc;
    doc.Parse("[]");
    EXPECT_EQ(CheckRequest(op->shape.get(), doc, doc.GetAllocator()).code(), ErrorCode::kSerialization);
    // Parsed once: the same shape every time.
    EXPECT_EQ(&op->shape.get(), &op->shape.get());
  }
}

}  // namespace
}  // namespace monotable::api
