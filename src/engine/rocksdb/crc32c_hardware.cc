#include "engine/rocksdb/crc32c_hardware.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace {

// The Castagnoli polynomial, bit-reflected (bit 31 is x^0), as CRC32C computes it.
constexpr uint32_t kPolynomial = 0x82F63B78;

constexpr std::array<uint32_t, 256> MakeByteTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t crc = b;
    for (int bit = 0; bit < 8; ++bit) crc = crc & 1 ? (crc >> 1) ^ kPolynomial : crc >> 1;
    table[b] = crc;
  }
  return table;
}
constexpr std::array<uint32_t, 256> kByteTable = MakeByteTable();

// The CRC register (not inverted) advanced over data.
uint32_t UpdateBytewise(uint32_t crc, const unsigned char* p, size_t n) {
  while (n-- > 0) crc = (crc >> 8) ^ kByteTable[(crc ^ *p++) & 0xff];
  return crc;
}

}  // namespace

namespace monotable::engine {

uint32_t ExtendCrc32cBytewise(uint32_t init_crc, const char* data, size_t n) {
  return ~UpdateBytewise(~init_crc, reinterpret_cast<const unsigned char*>(data), n);
}

}  // namespace monotable::engine

#if defined(__x86_64__)

namespace {

bool HasSse42() {
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2") != 0;
  }();
  return has;
}

__attribute__((target("sse4.2"))) uint32_t UpdateSse42(uint32_t crc, const unsigned char* p, size_t n) {
  uint64_t wide = crc;
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t word;
    std::memcpy(&word, p, sizeof word);
    wide = _mm_crc32_u64(wide, word);
  }
  crc = static_cast<uint32_t>(wide);
  for (; n > 0; ++p, --n) crc = _mm_crc32_u8(crc, *p);
  return crc;
}

// a * b modulo the polynomial, both in the reflected representation (as zlib's crc32_combine).
constexpr uint32_t MultiplyModP(uint32_t a, uint32_t b) {
  uint32_t product = 0;
  for (uint32_t m = uint32_t{1} << 31; m != 0; m >>= 1) {
    if (a & m) product ^= b;
    b = b & 1 ? (b >> 1) ^ kPolynomial : b >> 1;
  }
  return product;
}

// kPowers[k] = x^(2^k) modulo the polynomial; enough of them for any 64-bit count of bits.
constexpr std::array<uint32_t, 67> MakePowers() {
  std::array<uint32_t, 67> powers{};
  uint32_t p = uint32_t{1} << 30;  // x^1
  for (uint32_t& power : powers) {
    power = p;
    p = MultiplyModP(p, p);
  }
  return powers;
}
constexpr std::array<uint32_t, 67> kPowers = MakePowers();

// x^(8 * bytes) modulo the polynomial: what n zero bytes multiply the CRC register by.
uint32_t ZeroBytesOperator(uint64_t bytes) {
  uint32_t p = uint32_t{1} << 31;  // x^0
  for (unsigned k = 3; bytes != 0; bytes >>= 1, ++k) {
    if (bytes & 1) p = MultiplyModP(kPowers[k], p);
  }
  return p;
}

}  // namespace

// The definitions that replace RocksDB's util/crc32c.cc (see the header); its declarations, from
// util/crc32c.h, which Debian does not install.
namespace rocksdb::crc32c {

std::string IsFastCrc32Supported();
uint32_t Extend(uint32_t init_crc, const char* data, size_t n);
uint32_t Crc32cCombine(uint32_t crc1, uint32_t crc2, size_t crc2len);

std::string IsFastCrc32Supported() {
  return HasSse42() ? "Supported on x86 (SSE4.2, monotable)" : "Not supported on x86";
}

uint32_t Extend(uint32_t init_crc, const char* data, size_t n) {
  const auto* p = reinterpret_cast<const unsigned char*>(data);
  const uint32_t crc = HasSse42() ? UpdateSse42(~init_crc, p, n) : UpdateBytewise(~init_crc, p, n);
  return ~crc;
}

// With the CRC's initial and final inversions, crc(A + B) = crc(A) * x^(8 |B|) ^ crc(B).
uint32_t Crc32cCombine(uint32_t crc1, uint32_t crc2, size_t crc2len) {
  return MultiplyModP(ZeroBytesOperator(crc2len), crc1) ^ crc2;
}

}  // namespace rocksdb::crc32c

namespace monotable::engine {

bool HardwareCrc32cInUse() { return HasSse42(); }

}  // namespace monotable::engine

#else

namespace monotable::engine {

bool HardwareCrc32cInUse() { return false; }

}  // namespace monotable::engine

#endif
