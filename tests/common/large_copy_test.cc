#include "common/large_copy.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

extern "C" void* __wrap_memcpy(void* dst, const void* src, size_t n);
extern "C" void* __wrap_memmove(void* dst, const void* src, size_t n);

namespace monotable {
namespace {

// Calls through pointers the compiler cannot see through, so that each is a real call of the
// (wrapped) library function, not an inlined builtin copy.
void* (*volatile memcpy_call)(void*, const void*, size_t) = &memcpy;
void* (*volatile memmove_call)(void*, const void*, size_t) = &memmove;

std::vector<char> Pattern(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<char> bytes(n);
  for (auto& b : bytes) b = static_cast<char>(rng());
  return bytes;
}

// Sizes around the chunk size and glibc's rep movsb thresholds, and large ones.
const size_t kSizes[] = {0, 1, 31, 2047, 2048, 2049, 2111, 2112, 2113, 4096, 4140, 6144, 6145,
                         65536 + 17, 600 * 1024 + 5, 2 * 1024 * 1024 + 3};

TEST(LargeCopy, LimitIsTheL2SizeOnAmdOnly) {
  EXPECT_EQ(ChunkedCopyLimit(false, 1 << 20), 0u);
  EXPECT_EQ(ChunkedCopyLimit(true, 1 << 20), size_t{1} << 20);
  EXPECT_EQ(ChunkedCopyLimit(true, 0), size_t{512} << 10);
  EXPECT_EQ(ChunkedCopyLimit(true, -1), size_t{512} << 10);
  EXPECT_EQ(ChunkedCopyLimitHere(), ChunkedCopyLimitHere());
}

// The link flags (CMakeLists.txt) are what puts the wrapper in place: without them memcpy is
// glibc's own and the tests below would pass without exercising it.
TEST(LargeCopy, MemcpyAndMemmoveAreTheWrappers) {
  EXPECT_EQ(memcpy_call, &__wrap_memcpy);
  EXPECT_EQ(memmove_call, &__wrap_memmove);
}

TEST(LargeCopy, ChunksCopyEveryByteAndNothingElse) {
  for (size_t n : kSizes) {
    for (size_t offset : {0, 1, 8, 16, 31, 63}) {
      auto src = Pattern(n + 64, static_cast<unsigned>(n + offset));
      std::vector<char> dst(n + 128, '\x5a');
      EXPECT_EQ(CopyInChunks(dst.data() + offset, src.data() + 3, n), dst.data() + offset);
      ASSERT_EQ(std::memcmp(dst.data() + offset, src.data() + 3, n), 0) << n << " " << offset;
      for (size_t i = 0; i < offset; ++i) ASSERT_EQ(dst[i], '\x5a');
      for (size_t i = offset + n; i < dst.size(); ++i) ASSERT_EQ(dst[i], '\x5a');
    }
  }
}

TEST(LargeCopy, WrappedMemcpyCopiesAtOffsetsInAndAroundTheSlowWindow) {
  for (size_t n : kSizes) {
    auto src = Pattern(n + 4096, static_cast<unsigned>(n));
    for (size_t delta : {0, 1, 8, 16, 24, 31, 32, 100, 4000, 4095}) {
      std::vector<char> dst(n + 4096 + 64, '\x11');
      char* to = dst.data() + delta;
      EXPECT_EQ(memcpy_call(to, src.data(), n), to);
      ASSERT_EQ(std::memcmp(to, src.data(), n), 0) << n << " " << delta;
      if (delta > 0) {
        ASSERT_EQ(dst[delta - 1], '\x11');
      }
      ASSERT_EQ(dst[delta + n], '\x11');
    }
  }
}

// memmove against a byte-at-a-time reference, for disjoint and overlapping regions both ways.
TEST(LargeCopy, WrappedMemmoveHandlesOverlapBothWays) {
  for (size_t n : kSizes) {
    if (n > 700 * 1024) continue;  // the reference is a byte loop
    const size_t span = 2 * n + 8192;
    auto original = Pattern(span, static_cast<unsigned>(n) * 7);
    for (long shift : {-static_cast<long>(n) - 100, -4097L, -4096L, -64L, -17L, -1L, 1L, 16L, 24L,
                       4095L, static_cast<long>(n) + 3}) {
      const size_t from = n + 4096;
      const size_t to = static_cast<size_t>(static_cast<long>(from) + shift);
      if (to + n > span) continue;
      std::vector<char> expected = original;
      std::vector<char> copy(original.begin() + from, original.begin() + from + n);
      for (size_t i = 0; i < n; ++i) expected[to + i] = copy[i];
      std::vector<char> actual = original;
      EXPECT_EQ(memmove_call(actual.data() + to, actual.data() + from, n), actual.data() + to);
      ASSERT_TRUE(actual == expected) << n << " shift " << shift;
    }
  }
}

}  // namespace
}  // namespace monotable
