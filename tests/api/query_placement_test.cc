#include "api/query_placement.h"

#include <gtest/gtest.h>

namespace monotable::api {
namespace {

TEST(QueryPlacementTest, FirstQueryGoesToAWorker) {
  QueryPlacement placement;
  EXPECT_FALSE(placement.Inline());
}

TEST(QueryPlacementTest, FollowsTheSizeOfTheLastQuery) {
  QueryPlacement placement;
  placement.Record({10, 2'000});
  EXPECT_TRUE(placement.Inline());
  placement.Record({QueryPlacement::kInlineItems + 1, 2'000});  // too many items
  EXPECT_FALSE(placement.Inline());
  placement.Record({QueryPlacement::kInlineItems, QueryPlacement::kInlineBytes});  // the limits themselves
  EXPECT_TRUE(placement.Inline());
  placement.Record({1, QueryPlacement::kInlineBytes + 1});  // one large item
  EXPECT_FALSE(placement.Inline());
  placement.Record({0, 0});  // nothing read (an empty partition, or a request refused)
  EXPECT_TRUE(placement.Inline());
}

}  // namespace
}  // namespace monotable::api
