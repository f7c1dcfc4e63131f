#include "model/number.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace monotable {

namespace {

constexpr int kMaxDigits = 38;
// In the 0.d1d2... * 10^exponent form: 1E126 is 0.1E127 and 1E-130 is 0.1E-129.
constexpr int64_t kMaxExponent = 126;
constexpr int64_t kMinExponent = -129;
// Exponent digits beyond this cannot change the outcome (overflow / underflow); saturating keeps
// "1e999999999999999999999" from wrapping.
constexpr int64_t kExponentCap = int64_t{1} << 40;

constexpr uint8_t kKeyNegative = 0x01;
constexpr uint8_t kKeyZero = 0x02;
constexpr uint8_t kKeyPositive = 0x03;
constexpr int kKeyExponentBias = 0x8000;
constexpr uint8_t kKeyTerminator = 0x00;

constexpr char kNotNumeric[] = "The parameter cannot be converted to a numeric value";
constexpr char kTooPrecise[] = "Attempting to store more than 38 significant digits in a Number";
constexpr char kOverflow[] =
    "Number overflow. Attempting to store a number with magnitude larger than supported range";
constexpr char kUnderflow[] =
    "Number underflow. Attempting to store a number with magnitude smaller than supported range";

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

int64_t FloorDiv2(int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

Status Corrupt(std::string what) {
  return Status(ErrorCode::kCorruption, "Invalid number key: " + std::move(what));
}

// Magnitude comparison of two normalised digit strings with their exponents.
int CompareMagnitude(const std::string& da, int32_t ea, const std::string& db, int32_t eb) {
  if (ea != eb) return ea < eb ? -1 : 1;
  int c = da.compare(db);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

}  // namespace

Result<Number> Number::Make(bool negative, std::string_view digits, int64_t exponent) {
  size_t first = digits.find_first_not_of('0');
  if (first == std::string_view::npos) return Number();
  size_t last = digits.find_last_not_of('0');
  exponent -= static_cast<int64_t>(first);
  if (exponent > kMaxExponent) return Status::Validation(kOverflow);
  if (exponent < kMinExponent) return Status::Validation(kUnderflow);
  if (last - first + 1 > kMaxDigits) return Status::Validation(kTooPrecise);
  Number n;
  n.negative_ = negative;
  n.digits_ = std::string(digits.substr(first, last - first + 1));
  n.exponent_ = static_cast<int32_t>(exponent);
  return n;
}

Result<Number> Number::Parse(std::string_view text) {
  if (text.empty()) return Status::Validation(kNotNumeric);
  auto invalid = [&] {
    return Status::Validation(std::string(kNotNumeric) + ": " + std::string(text));
  };

  size_t i = 0;
  bool negative = false;
  if (text[i] == '+' || text[i] == '-') negative = text[i++] == '-';
  size_t int_begin = i;
  while (i < text.size() && IsDigit(text[i])) ++i;
  std::string_view int_part = text.substr(int_begin, i - int_begin);
  std::string_view frac_part;
  if (i < text.size() && text[i] == '.') {
    size_t frac_begin = ++i;
    while (i < text.size() && IsDigit(text[i])) ++i;
    frac_part = text.substr(frac_begin, i - frac_begin);
  }
  if (int_part.empty() && frac_part.empty()) return invalid();

  int64_t exp = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) exp_negative = text[i++] == '-';
    size_t exp_begin = i;
    for (; i < text.size() && IsDigit(text[i]); ++i) {
      if (exp < kExponentCap) exp = exp * 10 + (text[i] - '0');
    }
    if (i == exp_begin) return invalid();
    if (exp_negative) exp = -exp;
  }
  if (i != text.size()) return invalid();

  std::string digits;
  digits.reserve(int_part.size() + frac_part.size());
  digits.append(int_part).append(frac_part);
  return Make(negative, digits, static_cast<int64_t>(int_part.size()) + exp);
}

Number Number::FromInt(int64_t v) {
  if (v == 0) return Number();
  uint64_t mag = v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  std::string digits;
  for (; mag != 0; mag /= 10) digits.push_back(static_cast<char>('0' + mag % 10));
  std::reverse(digits.begin(), digits.end());
  Number n;
  n.negative_ = v < 0;
  n.exponent_ = static_cast<int32_t>(digits.size());
  size_t last = digits.find_last_not_of('0');
  digits.resize(last + 1);
  n.digits_ = std::move(digits);
  return n;
}

std::string Number::ToString() const {
  if (IsZero()) return "0";
  std::string out;
  const auto len = static_cast<int32_t>(digits_.size());
  out.reserve(static_cast<size_t>(std::abs(exponent_)) + digits_.size() + 3);
  if (negative_) out.push_back('-');
  if (exponent_ <= 0) {
    out.append("0.").append(static_cast<size_t>(-exponent_), '0').append(digits_);
  } else if (exponent_ >= len) {
    out.append(digits_).append(static_cast<size_t>(exponent_ - len), '0');
  } else {
    out.append(digits_, 0, exponent_).append(".").append(digits_, exponent_);
  }
  return out;
}

int Number::Compare(const Number& other) const {
  auto sign = [](const Number& n) { return n.IsZero() ? 0 : (n.negative_ ? -1 : 1); };
  int sa = sign(*this), sb = sign(other);
  if (sa != sb) return sa < sb ? -1 : 1;
  if (sa == 0) return 0;
  int c = CompareMagnitude(digits_, exponent_, other.digits_, other.exponent_);
  return sa > 0 ? c : -c;
}

Result<Number> Number::Add(const Number& a, const Number& b) {
  if (a.IsZero()) return b;
  if (b.IsZero()) return a;
  // Lay both magnitudes out on a common grid of decimal positions [lo, hi), most significant
  // first, with one spare leading slot for a carry.
  const int64_t hi = std::max(a.exponent_, b.exponent_) + 1;
  const int64_t lo = std::min<int64_t>(a.exponent_ - static_cast<int64_t>(a.digits_.size()),
                                       b.exponent_ - static_cast<int64_t>(b.digits_.size()));
  const auto width = static_cast<size_t>(hi - lo);
  auto lay_out = [&](const Number& n) {
    std::vector<int> v(width, 0);
    const auto offset = static_cast<size_t>(hi - n.exponent_);
    for (size_t i = 0; i < n.digits_.size(); ++i) v[offset + i] = n.digits_[i] - '0';
    return v;
  };
  std::vector<int> x = lay_out(a), y = lay_out(b);
  bool negative = a.negative_;
  if (a.negative_ != b.negative_ &&
      CompareMagnitude(a.digits_, a.exponent_, b.digits_, b.exponent_) < 0) {
    std::swap(x, y);
    negative = b.negative_;
  }
  const int direction = a.negative_ == b.negative_ ? 1 : -1;  // x + y or x - y (|x| >= |y|)
  std::string digits(width, '0');
  int carry = 0;
  for (size_t i = width; i-- > 0;) {
    int d = x[i] + direction * y[i] + carry;
    carry = d >= 10 ? 1 : (d < 0 ? -1 : 0);
    d -= carry * 10;
    digits[i] = static_cast<char>('0' + d);
  }
  return Make(negative, digits, hi);
}

Result<Number> Number::Subtract(const Number& a, const Number& b) {
  Number negated = b;
  if (!negated.IsZero()) negated.negative_ = !negated.negative_;
  return Add(a, negated);
}

size_t Number::StorageSize() const {
  if (IsZero()) return 1;
  // Digits are grouped in base-100 pairs aligned on the decimal point; the digit of weight 10^p
  // falls in pair floor(p / 2). Only the pairs from the first to the last significant digit count.
  const int64_t first_pos = exponent_ - 1;
  const int64_t last_pos = exponent_ - static_cast<int64_t>(digits_.size());
  const auto pairs = static_cast<size_t>(FloorDiv2(first_pos) - FloorDiv2(last_pos) + 1);
  return 1 + pairs + (negative_ ? 1 : 0);
}

// Layout: class byte (negative < zero < positive); for non-zero numbers, the biased exponent as
// two big-endian bytes, the mantissa digits packed in pairs as bytes 1..100 (an odd count padded
// with a trailing 0 digit), and a 0x00 terminator that sorts below every pair byte. Negative
// numbers complement everything after the class byte so larger magnitudes sort first.
void Number::AppendOrderedKey(std::string& out) const {
  if (IsZero()) {
    out.push_back(static_cast<char>(kKeyZero));
    return;
  }
  const uint8_t mask = negative_ ? 0xFF : 0x00;
  auto put = [&](unsigned byte) {
    out.push_back(static_cast<char>(static_cast<uint8_t>(byte) ^ mask));
  };
  out.push_back(static_cast<char>(negative_ ? kKeyNegative : kKeyPositive));
  const auto biased = static_cast<unsigned>(exponent_ + kKeyExponentBias);
  put(biased >> 8);
  put(biased & 0xFF);
  for (size_t i = 0; i < digits_.size(); i += 2) {
    int hi = digits_[i] - '0';
    int lo = i + 1 < digits_.size() ? digits_[i + 1] - '0' : 0;
    put(static_cast<unsigned>(1 + hi * 10 + lo));
  }
  put(kKeyTerminator);
}

Result<StoredNumber> StoredNumber::Read(std::string_view& in) {
  if (in.empty()) return Corrupt("empty");
  StoredNumber n;
  const auto cls = static_cast<uint8_t>(in[0]);
  if (cls == kKeyZero) {
    n.key_ = in.substr(0, 1);
    in.remove_prefix(1);
    return n;
  }
  if (cls != kKeyNegative && cls != kKeyPositive) return Corrupt("bad class byte");
  const uint8_t mask = cls == kKeyNegative ? 0xFF : 0x00;
  auto byte_at = [&](size_t i) { return static_cast<uint8_t>(static_cast<uint8_t>(in[i]) ^ mask); };
  if (in.size() < 3) return Corrupt("truncated exponent");
  const int64_t exponent = ((byte_at(1) << 8) | byte_at(2)) - kKeyExponentBias;
  if (exponent < kMinExponent || exponent > kMaxExponent) return Corrupt("exponent out of range");
  size_t pos = 3;
  for (;; ++pos) {
    if (pos >= in.size()) return Corrupt("missing terminator");
    const uint8_t b = byte_at(pos);
    if (b == kKeyTerminator) break;
    if (b > 100) return Corrupt("bad digit byte");
    if (2 * (pos - 3) >= static_cast<size_t>(kMaxDigits)) return Corrupt("too many digits");
  }
  // Pair bytes are 1 + the pair's value: the first digit may not be 0, and only the last pair may
  // end in a 0 (the padding of an odd count).
  if (pos == 3 || (byte_at(3) - 1) / 10 == 0) return Corrupt("non-canonical digits");
  size_t digits = 2 * (pos - 3);
  const uint8_t last = byte_at(pos - 1) - 1;
  if (last % 10 == 0) {
    --digits;
    if (last / 10 == 0) return Corrupt("non-canonical digits");
  }
  n.key_ = in.substr(0, pos + 1);
  n.zero_ = false;
  n.negative_ = cls == kKeyNegative;
  n.exponent_ = static_cast<int32_t>(exponent);
  n.digits_ = static_cast<uint32_t>(digits);
  in.remove_prefix(pos + 1);
  return n;
}

size_t StoredNumber::WriteDigits(char* out) const {
  const uint8_t mask = negative_ ? 0xFF : 0x00;
  char* p = out;
  for (size_t pos = 3; pos + 1 < key_.size(); ++pos) {
    const uint8_t pair = (static_cast<uint8_t>(key_[pos]) ^ mask) - 1;
    *p++ = static_cast<char>('0' + pair / 10);
    *p++ = static_cast<char>('0' + pair % 10);
  }
  return digits_;  // an odd count's padding digit was written past the end
}

Number StoredNumber::Decode() const {
  Number n;
  if (zero_) return n;
  char digits[kMaxDigits + 2];
  n.negative_ = negative_;
  n.exponent_ = exponent_;
  n.digits_.assign(digits, WriteDigits(digits));
  return n;
}

size_t StoredNumber::StorageSize() const {
  if (zero_) return 1;
  // Number::StorageSize's rule, from the exponent and the digit count.
  const int64_t first_pos = int64_t{exponent_} - 1;
  const int64_t last_pos = int64_t{exponent_} - digits_;
  return static_cast<size_t>(1 + FloorDiv2(first_pos) - FloorDiv2(last_pos) + 1 + (negative_ ? 1 : 0));
}

size_t StoredNumber::WriteText(char* out) const {
  if (zero_) {
    out[0] = '0';
    return 1;
  }
  // Number::ToString's layouts: 0.000ddd, ddd000, dd.d
  char digits[kMaxDigits + 2];
  const size_t len = WriteDigits(digits);
  char* p = out;
  if (negative_) *p++ = '-';
  if (exponent_ <= 0) {
    *p++ = '0';
    *p++ = '.';
    p = std::fill_n(p, -exponent_, '0');
    p = std::copy_n(digits, len, p);
  } else if (static_cast<size_t>(exponent_) >= len) {
    p = std::copy_n(digits, len, p);
    p = std::fill_n(p, static_cast<size_t>(exponent_) - len, '0');
  } else {
    p = std::copy_n(digits, exponent_, p);
    *p++ = '.';
    p = std::copy_n(digits + exponent_, len - static_cast<size_t>(exponent_), p);
  }
  return static_cast<size_t>(p - out);
}

static_assert(StoredNumber::kMaxTextBytes >= 1 + 2 + -kMinExponent + kMaxDigits);

Result<Number> Number::DecodeOrderedKey(std::string_view& in) {
  MT_ASSIGN_OR_RETURN(StoredNumber n, StoredNumber::Read(in));
  return n.Decode();
}

Result<size_t> Number::OrderedKeyStorageSize(std::string_view& in) {
  MT_ASSIGN_OR_RETURN(StoredNumber n, StoredNumber::Read(in));
  return n.StorageSize();
}

}  // namespace monotable
