#include "api/query_placement.h"

#include <gtest/gtest.h>

namespace monotable::api {
namespace {

using std::chrono::microseconds;

TEST(QueryPlacementTest, FirstQueryGoesToAWorker) {
  QueryPlacement placement;
  EXPECT_FALSE(placement.Inline());
}

TEST(QueryPlacementTest, FollowsTheLastQuery) {
  QueryPlacement placement;
  placement.Record(microseconds(12));
  EXPECT_TRUE(placement.Inline());
  placement.Record(QueryPlacement::kInlineLimit);  // the limit itself is too long
  EXPECT_FALSE(placement.Inline());
  placement.Record(QueryPlacement::kInlineLimit - microseconds(1));
  EXPECT_TRUE(placement.Inline());
  placement.Record(std::chrono::milliseconds(3));
  EXPECT_FALSE(placement.Inline());
}

}  // namespace
}  // namespace monotable::api
