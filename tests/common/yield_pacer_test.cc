#include "common/yield_pacer.h"

#include <gtest/gtest.h>

namespace monotable {
namespace {

using std::chrono::microseconds;

TEST(YieldPacerTest, DueOncePerInterval) {
  const YieldPacer::Clock::time_point start{};
  YieldPacer pacer(microseconds(1000), start);
  EXPECT_FALSE(pacer.Due(start));
  EXPECT_FALSE(pacer.Due(start + microseconds(999)));
  EXPECT_TRUE(pacer.Due(start + microseconds(1000)));
  // The next interval starts when the pacer was last due.
  EXPECT_FALSE(pacer.Due(start + microseconds(1500)));
  EXPECT_FALSE(pacer.Due(start + microseconds(1999)));
  EXPECT_TRUE(pacer.Due(start + microseconds(2000)));
}

TEST(YieldPacerTest, LongPauseGivesOneYieldNotABacklog) {
  const YieldPacer::Clock::time_point start{};
  YieldPacer pacer(microseconds(1000), start);
  EXPECT_TRUE(pacer.Due(start + microseconds(50'000)));  // an idle thread's first batch
  EXPECT_FALSE(pacer.Due(start + microseconds(50'001)));
  EXPECT_TRUE(pacer.Due(start + microseconds(51'000)));
}

}  // namespace
}  // namespace monotable
