// The CRC32C that replaces RocksDB's (crc32c_hardware.h): published check values, agreement with a
// bit-at-a-time reference at every length and alignment (one chain and three joined), Extend's
// chaining and Crc32cCombine (with the carry-less multiply where the processor has it, and the
// software fallback).
// (RocksDB itself verifies the log records it wrote with it when it reopens a database:
// rocksdb_engine_test.cc, ReopenPersists.)
#include "engine/rocksdb/crc32c_hardware.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

namespace rocksdb::crc32c {
uint32_t Extend(uint32_t init_crc, const char* data, size_t n);
uint32_t Crc32cCombine(uint32_t crc1, uint32_t crc2, size_t crc2len);
std::string IsFastCrc32Supported();
}  // namespace rocksdb::crc32c

namespace monotable::engine {
namespace {

uint32_t Reference(const std::string& data) {
  uint32_t crc = 0xFFFFFFFF;
  for (unsigned char byte : data) {
    crc ^= byte;
    for (int bit = 0; bit < 8; ++bit) crc = crc & 1 ? (crc >> 1) ^ 0x82F63B78 : crc >> 1;
  }
  return ~crc;
}

uint32_t Crc(const std::string& data) { return rocksdb::crc32c::Extend(0, data.data(), data.size()); }

std::string RandomBytes(std::mt19937_64& rng, size_t n) {
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng());
  return s;
}

TEST(Crc32cHardwareTest, PublishedCheckValues) {
  EXPECT_EQ(Crc("123456789"), 0xE3069283u);
  EXPECT_EQ(Crc(std::string(32, '\0')), 0x8A9136AAu);
  EXPECT_EQ(Crc(std::string(32, '\xff')), 0x62A8AB43u);
  std::string ascending, descending;
  for (int i = 0; i < 32; ++i) {
    ascending.push_back(static_cast<char>(i));
    descending.push_back(static_cast<char>(31 - i));
  }
  EXPECT_EQ(Crc(ascending), 0x46DD794Eu);
  EXPECT_EQ(Crc(descending), 0x113FDB5Cu);
  EXPECT_EQ(Crc(""), 0u);
}

TEST(Crc32cHardwareTest, UsesTheInstructionWhereTheProcessorHasIt) {
#if defined(__x86_64__)
  EXPECT_EQ(HardwareCrc32cInUse(), __builtin_cpu_supports("sse4.2") != 0);
  EXPECT_NE(rocksdb::crc32c::IsFastCrc32Supported().find("monotable"), std::string::npos);
#else
  EXPECT_FALSE(HardwareCrc32cInUse());
#endif
}

TEST(Crc32cHardwareTest, AgreesWithTheReferenceAtEveryLengthAndAlignment) {
  std::mt19937_64 rng(7);
  const std::string buffer = RandomBytes(rng, 600);
  for (size_t offset = 0; offset < 8; ++offset) {
    for (size_t n = 0; n + offset <= 520; ++n) {
      const std::string data = buffer.substr(offset, n);
      const uint32_t expected = Reference(data);
      ASSERT_EQ(rocksdb::crc32c::Extend(0, buffer.data() + offset, n), expected) << offset << " " << n;
      ASSERT_EQ(ExtendCrc32cBytewise(0, buffer.data() + offset, n), expected) << offset << " " << n;
      ASSERT_EQ(ExtendCrc32cOneChain(0, buffer.data() + offset, n), expected) << offset << " " << n;
    }
  }
  for (size_t n : {4096, 4133, 32768, 70001}) {
    const std::string data = RandomBytes(rng, n);
    EXPECT_EQ(Crc(data), Reference(data)) << n;
    EXPECT_EQ(ExtendCrc32cOneChain(0, data.data(), n), Reference(data)) << n;
  }
}

// From 192 bytes Extend reads three chains side by side and joins them: every way the data can
// split into three lanes and a tail (lanes of 64 bytes up, tails of 0 to 23 bytes), a non-zero
// starting CRC, and lanes whose CRCs would cancel if the join dropped a lane's shift.
TEST(Crc32cHardwareTest, ThreeChainsJoinToTheOneChainResult) {
  std::mt19937_64 rng(13);
  const std::string buffer = RandomBytes(rng, 3 * 4096 + 64);
  for (size_t n = 180; n < 3 * 4096 + 40; n += (n < 1200 ? 1 : 97)) {
    const size_t offset = n % 8;
    const std::string data = buffer.substr(offset, n);
    ASSERT_EQ(Crc(data), Reference(data)) << n;
    const uint32_t start = static_cast<uint32_t>(rng());
    ASSERT_EQ(rocksdb::crc32c::Extend(start, data.data(), n), ExtendCrc32cBytewise(start, data.data(), n)) << n;
  }
  std::string three_equal_lanes;
  for (int lane = 0; lane < 3; ++lane) three_equal_lanes += std::string(64, '\x5a');
  EXPECT_EQ(Crc(three_equal_lanes), Reference(three_equal_lanes));
  EXPECT_EQ(Crc(std::string(4096, 'x')), Reference(std::string(4096, 'x')));
}

TEST(Crc32cHardwareTest, ExtendContinuesAndCombineJoins) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 300; ++round) {
    const size_t a_size = round < 20 ? static_cast<size_t>(round) : rng() % 5000;
    const size_t b_size = round % 7 == 0 ? 0 : rng() % (round % 3 == 0 ? 70000 : 300);
    const std::string a = RandomBytes(rng, a_size), b = RandomBytes(rng, b_size);
    const uint32_t whole = Reference(a + b);
    ASSERT_EQ(rocksdb::crc32c::Extend(Crc(a), b.data(), b.size()), whole) << a_size << " " << b_size;
    ASSERT_EQ(ExtendCrc32cBytewise(Crc(a), b.data(), b.size()), whole) << a_size << " " << b_size;
    ASSERT_EQ(rocksdb::crc32c::Crc32cCombine(Crc(a), Crc(b), b.size()), whole) << a_size << " " << b_size;
    ASSERT_EQ(CombineCrc32cSoftware(Crc(a), Crc(b), b.size()), whole) << a_size << " " << b_size;
  }
  // Lengths of 4 GB and more (higher powers of x): shifting by n1 bytes and then by n2 is shifting
  // by n1 + n2 (a CRC of 0 over B leaves only A's CRC shifted).
  EXPECT_EQ(rocksdb::crc32c::Crc32cCombine(0x12345678, 0, 0), 0x12345678u);
  for (uint64_t n1 : {uint64_t{5}, (uint64_t{1} << 33) + 5, (uint64_t{1} << 62) + 9}) {
    for (uint64_t n2 : {uint64_t{3}, (uint64_t{1} << 40) + 3, (uint64_t{1} << 32) - 1}) {
      const uint32_t stepwise =
          rocksdb::crc32c::Crc32cCombine(rocksdb::crc32c::Crc32cCombine(0x9ABCDEF0, 0, n1), 0, n2);
      EXPECT_EQ(stepwise, rocksdb::crc32c::Crc32cCombine(0x9ABCDEF0, 0, n1 + n2)) << n1 << " " << n2;
      EXPECT_EQ(stepwise, CombineCrc32cSoftware(0x9ABCDEF0, 0, n1 + n2)) << n1 << " " << n2;
    }
  }
  for (uint64_t n = 0; n < 300; ++n) {  // every shift of up to 8 bytes and each power of x used
    const uint64_t bytes = n < 200 ? n : uint64_t{1} << (n - 200) % 64;
    ASSERT_EQ(rocksdb::crc32c::Crc32cCombine(0xDEADBEEF, 0x01234567, bytes),
              CombineCrc32cSoftware(0xDEADBEEF, 0x01234567, bytes))
        << bytes;
  }
}

}  // namespace
}  // namespace monotable::engine
