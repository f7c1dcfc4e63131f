// Number: DynamoDB's N type, an exact decimal of at most 38 significant digits.
//
// Contract:
// - Parse() accepts what DynamoDB accepts ("-0012.50", "1e5", "+3", ".5", "5.", "1E-130") and
//   refuses the rest with DynamoDB's ValidationException messages:
//     empty text             -> "The parameter cannot be converted to a numeric value"
//     not a number           -> "The parameter cannot be converted to a numeric value: <text>"
//     > 38 significant digits-> "Attempting to store more than 38 significant digits in a Number"
//     magnitude >= 1E126     -> "Number overflow. Attempting to store a number with magnitude larger than supported range"
//     magnitude < 1E-130     -> "Number underflow. Attempting to store a number with magnitude smaller than supported range"
// - A parsed Number is normalised: no leading/trailing zeros in its digits, zero has no sign.
//   ToString() gives DynamoDB's returned text: plain positional notation, no exponent, no
//   trailing fractional zeros ("1.50" -> "1.5", "1e3" -> "1000", "-0" -> "0", "1E-5" -> "0.00001").
// - Compare() orders numerically; operator== is numeric equality.
// - Add()/Subtract() are exact; a result needing more than 38 significant digits or outside the
//   range fails with the same messages as Parse (DynamoDB's UpdateExpression arithmetic behaves so).
// - StorageSize() is DynamoDB's measured size rule (see shared spec: 1 + ceil(aligned digits / 2) pairs,
//   + 1 when negative; zero is 1 byte).
// - AppendOrderedKey() writes a self-delimiting, order-preserving byte encoding: for any a, b,
//   memcmp order of encodings == numeric order, and encodings of equal numbers are identical.
//   DecodeOrderedKey() reads one back and advances the view past it.
// - StoredNumber::Read() checks an ordered key as DecodeOrderedKey does without decoding it; its
//   StorageSize(), WriteText() and Decode() give the decoded number's size, text and value. It views
//   the bytes it was read from, so it lives no longer than they do.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace monotable {

class Number {
 public:
  Number() = default;  // zero

  static Result<Number> Parse(std::string_view text);
  static Number FromInt(int64_t v);

  std::string ToString() const;
  bool IsZero() const { return digits_.empty(); }
  bool IsNegative() const { return negative_; }

  int Compare(const Number& other) const;
  bool operator==(const Number& o) const { return Compare(o) == 0; }
  std::strong_ordering operator<=>(const Number& o) const { return Compare(o) <=> 0; }

  static Result<Number> Add(const Number& a, const Number& b);
  static Result<Number> Subtract(const Number& a, const Number& b);

  size_t StorageSize() const;

  void AppendOrderedKey(std::string& out) const;
  static Result<Number> DecodeOrderedKey(std::string_view& in);
  // DecodeOrderedKey(in)->StorageSize() without building the number (same checks, same advance).
  static Result<size_t> OrderedKeyStorageSize(std::string_view& in);

 private:
  friend class StoredNumber;

  // Builds a normalised Number from value = (negative ? -1 : 1) * 0.<digits> * 10^exponent, where
  // digits may carry leading/trailing zeros, then applies DynamoDB's range and precision checks.
  static Result<Number> Make(bool negative, std::string_view digits, int64_t exponent);

  // value = (negative_ ? -1 : 1) * 0.d1 d2 d3 ... * 10^exponent_, digits_ = "d1d2d3..." with
  // d1 != '0' and no trailing '0'; empty digits_ means zero (exponent_ 0, negative_ false).
  bool negative_ = false;
  std::string digits_;
  int32_t exponent_ = 0;
};

// A number as stored (AppendOrderedKey's bytes), checked as DecodeOrderedKey checks but not
// decoded: a walk over stored items takes its size and its text straight from the bytes. A view:
// valid while the bytes it was read from are.
class StoredNumber {
 public:
  // ToString()'s longest text: a sign, "0.", 129 zeros and 38 digits (-0.1...1E-129 with 38 ones).
  static constexpr size_t kMaxTextBytes = 176;

  // The ordered key at the front of `in` (a corrupt one fails as DecodeOrderedKey does); advances
  // the view past it.
  static Result<StoredNumber> Read(std::string_view& in);

  Number Decode() const;
  size_t StorageSize() const;  // Decode().StorageSize()
  // Decode().ToString(), written to `out` (kMaxTextBytes or more); returns its length.
  size_t WriteText(char* out) const;

 private:
  StoredNumber() = default;
  // The significant digits, '0'-'9', into out (40 or more); returns how many.
  size_t WriteDigits(char* out) const;

  std::string_view key_;  // the whole ordered key
  bool zero_ = true;
  bool negative_ = false;
  int32_t exponent_ = 0;
  uint32_t digits_ = 0;  // significant digits
};

}  // namespace monotable
