#include "engine/rocksdb/crc32c_hardware.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#if defined(__x86_64__)
#include <nmmintrin.h>
#include <wmmintrin.h>
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

namespace monotable::engine {

uint32_t ExtendCrc32cBytewise(uint32_t init_crc, const char* data, size_t n) {
  return ~UpdateBytewise(~init_crc, reinterpret_cast<const unsigned char*>(data), n);
}

uint32_t CombineCrc32cSoftware(uint32_t crc1, uint32_t crc2, uint64_t crc2len) {
  return MultiplyModP(ZeroBytesOperator(crc2len), crc1) ^ crc2;
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

bool HasCarrylessMultiply() {
  static const bool has = HasSse42() && __builtin_cpu_supports("pclmul") != 0;  // HasSse42 inits the CPU model
  return has;
}

// With the instructions, a * b costs a carry-less multiply and a crc32: for 32-bit reflected a and
// b, the 63-bit carry-less product read as the crc32 instruction's 64 data bits is a * b * x, and
// the instruction (from a zero register) multiplies its data by x^32 modulo the polynomial: the
// result is a * b * x^33. kShiftedPowers[j] = x^(8 * 2^j - 33) then turns that into a shift of a by
// 2^j bytes, for j >= 3 (a shift of 1 to 7 bytes is one crc32 of a zero byte each).
// x^(8 * 2^3 - 33) = x^31, and each next power is the one before times x^(8 * 2^(j-1)).
constexpr std::array<uint32_t, 64> MakeShiftedPowers() {
  std::array<uint32_t, 64> shifted{};
  shifted[3] = 1;  // x^31 (bit 31 - 31)
  for (unsigned j = 4; j < 64; ++j) shifted[j] = MultiplyModP(kPowers[j + 2], shifted[j - 1]);
  return shifted;
}
constexpr std::array<uint32_t, 64> kShiftedPowers = MakeShiftedPowers();

// crc * x^(8 * bytes) modulo the polynomial: ZeroBytesOperator's product, ~12 instructions a set
// bit of `bytes` instead of ~200.
__attribute__((target("sse4.2,pclmul"))) uint32_t ShiftByZeroBytesCarryless(uint32_t crc, uint64_t bytes) {
  for (uint64_t low = bytes & 7; low > 0; --low) crc = _mm_crc32_u8(crc, 0);
  bytes >>= 3;
  for (unsigned j = 3; bytes != 0; bytes >>= 1, ++j) {
    if (!(bytes & 1)) continue;
    const __m128i product = _mm_clmulepi64_si128(_mm_cvtsi32_si128(static_cast<int>(crc)),
                                                 _mm_cvtsi32_si128(static_cast<int>(kShiftedPowers[j])), 0);
    crc = static_cast<uint32_t>(_mm_crc32_u64(0, static_cast<uint64_t>(_mm_cvtsi128_si64(product))));
  }
  return crc;
}

// The crc32 instruction takes 3 cycles and can start one a cycle: one chain of it runs at a third
// of the instruction's rate. From kThreeWayBytes on, the data's first 3 * lane bytes go as three
// chains side by side, one a third (the second and third from a zero register), and are joined
// with the register's linearity: R(r, A B C) = R(r, A) x^(8|BC|) ^ R(0, B) x^(8|C|) ^ R(0, C).
// A 4,150-byte log record (a 4 KB item): 467 -> 177 ns (build/crc32c_bench).
constexpr size_t kThreeWayBytes = 192;

__attribute__((target("sse4.2,pclmul"))) uint32_t UpdateSse42ThreeWay(uint32_t crc, const unsigned char* p, size_t n) {
  const size_t lane = n / 3 / 8 * 8;
  uint64_t a = crc, b = 0, c = 0;
  const unsigned char* pb = p + lane;
  const unsigned char* pc = p + 2 * lane;
  for (size_t i = 0; i < lane; i += 8) {
    uint64_t wa, wb, wc;
    std::memcpy(&wa, p + i, sizeof wa);
    std::memcpy(&wb, pb + i, sizeof wb);
    std::memcpy(&wc, pc + i, sizeof wc);
    a = _mm_crc32_u64(a, wa);
    b = _mm_crc32_u64(b, wb);
    c = _mm_crc32_u64(c, wc);
  }
  crc = ShiftByZeroBytesCarryless(static_cast<uint32_t>(a), 2 * lane) ^
        ShiftByZeroBytesCarryless(static_cast<uint32_t>(b), lane) ^ static_cast<uint32_t>(c);
  return UpdateSse42(crc, p + 3 * lane, n - 3 * lane);
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
  if (n >= kThreeWayBytes && HasCarrylessMultiply()) {
    return ~UpdateSse42ThreeWay(~init_crc, reinterpret_cast<const unsigned char*>(data), n);
  }
  return monotable::engine::ExtendCrc32cOneChain(init_crc, data, n);
}

// With the CRC's initial and final inversions, crc(A + B) = crc(A) * x^(8 |B|) ^ crc(B).
// RocksDB's log writer combines each record's type and payload CRCs this way (a 4 KB record: ~3,500
// instructions with the software multiply, ~150 with the carry-less one).
uint32_t Crc32cCombine(uint32_t crc1, uint32_t crc2, size_t crc2len) {
  if (HasCarrylessMultiply()) return ShiftByZeroBytesCarryless(crc1, crc2len) ^ crc2;
  return monotable::engine::CombineCrc32cSoftware(crc1, crc2, crc2len);
}

}  // namespace rocksdb::crc32c

namespace monotable::engine {

bool HardwareCrc32cInUse() { return HasSse42(); }

uint32_t ExtendCrc32cOneChain(uint32_t init_crc, const char* data, size_t n) {
  const auto* p = reinterpret_cast<const unsigned char*>(data);
  return ~(HasSse42() ? UpdateSse42(~init_crc, p, n) : UpdateBytewise(~init_crc, p, n));
}

}  // namespace monotable::engine

#else

namespace monotable::engine {

bool HardwareCrc32cInUse() { return false; }

uint32_t ExtendCrc32cOneChain(uint32_t init_crc, const char* data, size_t n) {
  return ExtendCrc32cBytewise(init_crc, data, n);
}

}  // namespace monotable::engine

#endif
