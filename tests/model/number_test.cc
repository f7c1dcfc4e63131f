#include "model/number.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace monotable {
namespace {

constexpr char kNotNumeric[] = "The parameter cannot be converted to a numeric value";
constexpr char kTooPrecise[] = "Attempting to store more than 38 significant digits in a Number";
constexpr char kOverflow[] =
    "Number overflow. Attempting to store a number with magnitude larger than supported range";
constexpr char kUnderflow[] =
    "Number underflow. Attempting to store a number with magnitude smaller than supported range";
const std::string kMax = "9.9999999999999999999999999999999999999E+125";  // largest Number

Number N(std::string_view text) {
  auto r = Number::Parse(text);
  EXPECT_TRUE(r.ok()) << text << ": " << r.status().message();
  return r.ok() ? r.value() : Number();
}

std::string Canon(std::string_view text) { return N(text).ToString(); }

std::string ParseError(std::string_view text) {
  auto r = Number::Parse(text);
  if (r.ok()) return "OK: " + r->ToString();
  EXPECT_EQ(r.status().code(), ErrorCode::kValidation);
  return r.status().message();
}

std::string Key(const Number& n) {
  std::string out;
  n.AppendOrderedKey(out);
  return out;
}

// --- Parse / ToString -------------------------------------------------------------------------

TEST(NumberParseTest, AcceptsDynamoDbForms) {
  EXPECT_EQ(Canon("0"), "0");
  EXPECT_EQ(Canon("1"), "1");
  EXPECT_EQ(Canon("+3"), "3");
  EXPECT_EQ(Canon("-7"), "-7");
  EXPECT_EQ(Canon("1e5"), "100000");
  EXPECT_EQ(Canon("1E5"), "100000");
  EXPECT_EQ(Canon("1e+5"), "100000");
  EXPECT_EQ(Canon("1e-5"), "0.00001");
  EXPECT_EQ(Canon("-0012.50"), "-12.5");
  EXPECT_EQ(Canon(".5"), "0.5");
  EXPECT_EQ(Canon("-.5"), "-0.5");
  EXPECT_EQ(Canon("+.5"), "0.5");
  EXPECT_EQ(Canon("5."), "5");
  EXPECT_EQ(Canon("5.e2"), "500");
  EXPECT_EQ(Canon(".5e1"), "5");
  EXPECT_EQ(Canon("1.50"), "1.5");
  EXPECT_EQ(Canon("1e3"), "1000");
  EXPECT_EQ(Canon("1E-5"), "0.00001");
  EXPECT_EQ(Canon("123.456e1"), "1234.56");
  EXPECT_EQ(Canon("123.456e-4"), "0.0123456");
  EXPECT_EQ(Canon("0.000123e4"), "1.23");
  EXPECT_EQ(Canon("1e0005"), "100000");
  EXPECT_EQ(Canon("00000"), "0");
  EXPECT_EQ(Canon("10"), "10");
  EXPECT_EQ(Canon("10.01"), "10.01");
  EXPECT_EQ(Canon("-1000.000"), "-1000");
}

TEST(NumberParseTest, ZeroInAnyFormIsUnsignedZero) {
  for (const char* z : {"0", "-0", "+0", "0.0000", "-0.000", "0e9999", "0e-9999", ".0", "0.",
                        "-0e999999999999999999999", "000.000E+12"}) {
    auto r = Number::Parse(z);
    ASSERT_TRUE(r.ok()) << z;
    EXPECT_TRUE(r->IsZero()) << z;
    EXPECT_FALSE(r->IsNegative()) << z;
    EXPECT_EQ(r->ToString(), "0") << z;
    EXPECT_EQ(*r, Number()) << z;
  }
}

TEST(NumberParseTest, RejectsMalformedText) {
  EXPECT_EQ(ParseError(""), kNotNumeric);
  for (const char* bad :
       {"abc",       "1e",  "1e+",  "1E-", "--1",   "++1",   "+-1",   "1.2.3", "Infinity",
        "-Infinity", "NaN", "0x10", " 1",  "1 ",    "\t1",   "1\n",   "-",     "+",
        ".",         "-.",  "e5",   ".e5", "1e5.0", "1e5e5", "1,000", "1_000", "١",
        "1f",        "1d",  "e",    "E",   "1..2",  "--",    "1-",    "1+1",   "0b1"}) {
    EXPECT_EQ(ParseError(bad), std::string(kNotNumeric) + ": " + bad) << bad;
  }
  EXPECT_EQ(ParseError(std::string_view("1\0", 2)),
            std::string(kNotNumeric) + ": " + std::string("1\0", 2));
}

TEST(NumberParseTest, RangeBoundaries) {
  const std::string& max38 = kMax;
  auto max = Number::Parse(max38);
  ASSERT_TRUE(max.ok());
  EXPECT_EQ(max->ToString(), std::string(38, '9') + std::string(88, '0'));
  EXPECT_EQ(ParseError("-" + max38), "OK: -" + std::string(38, '9') + std::string(88, '0'));

  EXPECT_EQ(ParseError("1E+126"), kOverflow);
  EXPECT_EQ(ParseError("-1E+126"), kOverflow);
  EXPECT_EQ(ParseError("10E+125"), kOverflow);
  EXPECT_EQ(ParseError("1" + std::string(126, '0')), kOverflow);
  EXPECT_EQ(ParseError("1e999999999999"), kOverflow);
  EXPECT_EQ(ParseError("1e99999999999999999999999999999999999"), kOverflow);
  EXPECT_EQ(ParseError("-1e999999999999"), kOverflow);

  EXPECT_EQ(Canon("1E+125"), "1" + std::string(125, '0'));
  EXPECT_EQ(Canon("1" + std::string(125, '0')), "1" + std::string(125, '0'));
  EXPECT_EQ(Canon("1E-130"), "0." + std::string(129, '0') + "1");
  EXPECT_EQ(Canon("-1E-130"), "-0." + std::string(129, '0') + "1");
  EXPECT_EQ(Canon("0." + std::string(129, '0') + "1"), "0." + std::string(129, '0') + "1");
  EXPECT_EQ(Canon("9.9999999999999999999999999999999999999E-130"),
            "0." + std::string(129, '0') + std::string(38, '9'));

  EXPECT_EQ(ParseError("1E-131"), kUnderflow);
  EXPECT_EQ(ParseError("-1E-131"), kUnderflow);
  EXPECT_EQ(ParseError("0.99E-130"), kUnderflow);
  EXPECT_EQ(ParseError("0." + std::string(130, '0') + "1"), kUnderflow);
  EXPECT_EQ(ParseError("1e-999999999999"), kUnderflow);
  EXPECT_EQ(ParseError("1e-99999999999999999999999999999999999"), kUnderflow);
}

TEST(NumberParseTest, SignificantDigitLimit) {
  const std::string d38 = "12345678901234567890123456789012345678";
  EXPECT_EQ(Canon(d38), d38);
  EXPECT_EQ(Canon("-" + d38), "-" + d38);
  EXPECT_EQ(Canon("0.000" + d38 + "000"), "0.000" + d38);
  EXPECT_EQ(Canon("000" + d38 + "000"), d38 + "000");
  EXPECT_EQ(ParseError(d38 + "9"), kTooPrecise);
  EXPECT_EQ(ParseError("1." + std::string(37, '0') + "1"), kTooPrecise);
  EXPECT_EQ(Canon("1." + std::string(36, '0') + "1"), "1." + std::string(36, '0') + "1");
  EXPECT_EQ(ParseError("9.99999999999999999999999999999999999999E+125"), kTooPrecise);
  // Leading and trailing zeros are not significant.
  EXPECT_EQ(Canon("1000000000000000000000000000000000000000000"),
            "1000000000000000000000000000000000000000000");
  EXPECT_EQ(Canon("1E42"), "1" + std::string(42, '0'));
  EXPECT_EQ(Canon("0.0000000000000000000000000000000000000000001"),
            "0.0000000000000000000000000000000000000000001");
  EXPECT_EQ(Canon(std::string(200, '0') + "5" + std::string(100, '0') + "e-100"), "5");
}

TEST(NumberParseTest, RangeIsCheckedBeforePrecision) {
  const std::string d40 = "1234567890123456789012345678901234567890";
  EXPECT_EQ(ParseError(d40 + "e200"), kOverflow);
  EXPECT_EQ(ParseError(d40 + "e-300"), kUnderflow);
  EXPECT_EQ(ParseError(d40), kTooPrecise);
}

TEST(NumberToStringTest, ParseOfToStringRoundTrips) {
  for (const char* t : {"0", "1", "-1", "0.5", "-0.001", "123.456", "1e125", "1e-130", "-9e100",
                        "3.14159", "100.5", "12345678901234567890123456789012345678"}) {
    Number n = N(t);
    EXPECT_EQ(N(n.ToString()), n) << t;
    EXPECT_EQ(N(n.ToString()).ToString(), n.ToString()) << t;
  }
}

TEST(NumberFromIntTest, MatchesParse) {
  for (int64_t v : {int64_t{0}, int64_t{1}, int64_t{-1}, int64_t{10}, int64_t{-100}, int64_t{42},
                    int64_t{1000000}, int64_t{123456789}, std::numeric_limits<int64_t>::max(),
                    std::numeric_limits<int64_t>::min()}) {
    Number n = Number::FromInt(v);
    EXPECT_EQ(n.ToString(), std::to_string(v));
    EXPECT_EQ(n, N(std::to_string(v)));
    EXPECT_EQ(Key(n), Key(N(std::to_string(v))));
    EXPECT_EQ(n.IsNegative(), v < 0);
    EXPECT_EQ(n.IsZero(), v == 0);
  }
}

TEST(NumberFromIntTest, DefaultIsZero) {
  Number z;
  EXPECT_TRUE(z.IsZero());
  EXPECT_FALSE(z.IsNegative());
  EXPECT_EQ(z.ToString(), "0");
  EXPECT_EQ(z, Number::FromInt(0));
}

// --- Compare ----------------------------------------------------------------------------------

TEST(NumberCompareTest, NumericOrder) {
  const std::vector<std::string> ascending = {
      "-" + kMax, "-1e100", "-1000", "-999.99", "-10",   "-9",     "-1.5",     "-1.01",  "-1.001",
      "-1",       "-0.5",   "-0.1",  "-1e-130", "0",     "1e-130", "1.1e-130", "0.0001", "0.1",
      "0.11",     "0.12",   "0.2",   "1",       "1.001", "1.01",   "1.1",      "2",      "9",
      "10",       "10.5",   "99",    "100",     "1e100", kMax};
  for (size_t i = 0; i < ascending.size(); ++i) {
    for (size_t j = 0; j < ascending.size(); ++j) {
      Number a = N(ascending[i]), b = N(ascending[j]);
      int expected = i < j ? -1 : (i > j ? 1 : 0);
      EXPECT_EQ(a.Compare(b), expected) << ascending[i] << " vs " << ascending[j];
      EXPECT_EQ(a < b, i < j);
      EXPECT_EQ(a == b, i == j);
    }
  }
}

TEST(NumberCompareTest, EqualValuesInDifferentForms) {
  EXPECT_EQ(N("1.50"), N("1.5"));
  EXPECT_EQ(N("15e-1"), N("1.5"));
  EXPECT_EQ(N("0.015E2"), N("001.5000"));
  EXPECT_EQ(N("-0"), N("0"));
  EXPECT_EQ(N("1e3"), N("1000"));
  EXPECT_NE(N("1e3"), N("-1000"));
}

// --- Arithmetic -------------------------------------------------------------------------------

std::string AddText(std::string_view a, std::string_view b) {
  auto r = Number::Add(N(a), N(b));
  return r.ok() ? r->ToString() : r.status().message();
}

std::string SubText(std::string_view a, std::string_view b) {
  auto r = Number::Subtract(N(a), N(b));
  return r.ok() ? r->ToString() : r.status().message();
}

TEST(NumberArithmeticTest, AddExact) {
  EXPECT_EQ(AddText("1", "2"), "3");
  EXPECT_EQ(AddText("0.1", "0.2"), "0.3");
  EXPECT_EQ(AddText("9", "1"), "10");
  EXPECT_EQ(AddText("999.999", "0.001"), "1000");
  EXPECT_EQ(AddText("-5", "3"), "-2");
  EXPECT_EQ(AddText("5", "-3"), "2");
  EXPECT_EQ(AddText("-5", "-3"), "-8");
  EXPECT_EQ(AddText("5", "-5"), "0");
  EXPECT_EQ(AddText("-0.5", "0.5"), "0");
  EXPECT_EQ(AddText("0", "0"), "0");
  EXPECT_EQ(AddText("0", "-7.25"), "-7.25");
  EXPECT_EQ(AddText("-7.25", "0"), "-7.25");
  EXPECT_EQ(AddText("1e10", "1e-10"), "10000000000.0000000001");
  EXPECT_EQ(AddText("1000", "-0.001"), "999.999");
  EXPECT_EQ(AddText("-1000", "0.001"), "-999.999");
  EXPECT_EQ(AddText("0.001", "-1000"), "-999.999");
  EXPECT_EQ(AddText("1e-130", "1e-130"), "0." + std::string(129, '0') + "2");
  EXPECT_EQ(AddText("1e-130", "-1e-130"), "0");
  EXPECT_EQ(AddText("1e37", "1"), "1" + std::string(36, '0') + "1");
  EXPECT_TRUE(Number::Add(N("5"), N("-5"))->IsZero());
  EXPECT_FALSE(Number::Add(N("5"), N("-5"))->IsNegative());
}

TEST(NumberArithmeticTest, SubtractExact) {
  EXPECT_EQ(SubText("3", "2"), "1");
  EXPECT_EQ(SubText("2", "3"), "-1");
  EXPECT_EQ(SubText("-2", "-3"), "1");
  EXPECT_EQ(SubText("1", "0.0000001"), "0.9999999");
  EXPECT_EQ(SubText("0", "5"), "-5");
  EXPECT_EQ(SubText("5", "0"), "5");
  EXPECT_EQ(SubText("0", "0"), "0");
  EXPECT_EQ(SubText("1.5", "1.5"), "0");
  EXPECT_EQ(SubText("100", "0.01"), "99.99");
  EXPECT_EQ(SubText("-100", "0.01"), "-100.01");
  EXPECT_EQ(SubText("1e125", "9e124"), "1" + std::string(124, '0'));
}

TEST(NumberArithmeticTest, ResultLimits) {
  const std::string& max = kMax;
  EXPECT_EQ(AddText(max, "1e125"), kOverflow);
  EXPECT_EQ(AddText(max, max), kOverflow);
  EXPECT_EQ(SubText("-" + max, max), kOverflow);
  EXPECT_EQ(AddText(max, "1e88"), kOverflow);    // exactly 1E126
  EXPECT_EQ(AddText(max, "1e37"), kTooPrecise);  // below 1E126 but needs 89 digits
  EXPECT_EQ(AddText("1e38", "1"), kTooPrecise);
  EXPECT_EQ(SubText("1e125", "1"), kTooPrecise);
  EXPECT_EQ(AddText("1", "1e-38"), kTooPrecise);
  EXPECT_EQ(AddText(std::string(38, '9'), "1"), "1" + std::string(38, '0'));
  EXPECT_EQ(AddText(std::string(38, '9'), "2"), kTooPrecise);
  EXPECT_EQ(AddText(max, "-1e88"), "99999999999999999999999999999999999998" + std::string(88, '0'));
}

TEST(NumberArithmeticTest, RandomIntegersMatchInt64) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int64_t> dist(-(int64_t{1} << 60), int64_t{1} << 60);
  for (int i = 0; i < 5000; ++i) {
    int64_t a = dist(rng) >> (rng() % 60), b = dist(rng) >> (rng() % 60);
    auto sum = Number::Add(Number::FromInt(a), Number::FromInt(b));
    auto diff = Number::Subtract(Number::FromInt(a), Number::FromInt(b));
    ASSERT_TRUE(sum.ok() && diff.ok());
    EXPECT_EQ(*sum, Number::FromInt(a + b)) << a << " + " << b;
    EXPECT_EQ(*diff, Number::FromInt(a - b)) << a << " - " << b;
    EXPECT_EQ(sum->ToString(), std::to_string(a + b));
  }
}

TEST(NumberArithmeticTest, RandomDecimalsInvert) {
  std::mt19937_64 rng(11);
  auto rand_num = [&] {
    std::string s = rng() % 2 ? "-" : "";
    int len = 1 + static_cast<int>(rng() % 15);
    for (int i = 0; i < len; ++i) s.push_back(static_cast<char>('0' + rng() % 10));
    return N(s + "e" + std::to_string(static_cast<int>(rng() % 21) - 10));
  };
  for (int i = 0; i < 3000; ++i) {
    Number a = rand_num(), b = rand_num();
    auto sum = Number::Add(a, b);
    ASSERT_TRUE(sum.ok()) << a.ToString() << " + " << b.ToString();
    auto back = Number::Subtract(*sum, b);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, a) << a.ToString() << " + " << b.ToString();
    EXPECT_EQ(*Number::Add(b, a), *sum);
    EXPECT_EQ(Number::Subtract(a, b)->Compare(Number()), a.Compare(b));
  }
}

// --- StorageSize ------------------------------------------------------------------------------

TEST(NumberStorageSizeTest, MeasuredSizes) {
  const std::vector<std::pair<std::string, size_t>> cases = {
      {"1", 2},         {"12", 2},    {"123", 3},
      {"1234", 3},      {"100", 2},   {"1010", 3},
      {"1.5", 3},       {"15", 2},    {"3.14159", 5},
      {"123456", 4},    {"100.5", 4}, {"0.15", 2},
      {"0.0000001", 2}, {"-42", 3},   {"12345678901234567890123456789012345678", 20},
      {"0", 1},         {"-0", 1},    {"0.000", 1},
  };
  for (const auto& [text, size] : cases) EXPECT_EQ(N(text).StorageSize(), size) << text;
}

TEST(NumberStorageSizeTest, PairAlignment) {
  EXPECT_EQ(N("10").StorageSize(), 2);
  EXPECT_EQ(N("1000").StorageSize(), 2);
  EXPECT_EQ(N("10000").StorageSize(), 2);
  EXPECT_EQ(N("10001").StorageSize(), 4);
  EXPECT_EQ(N("0.5").StorageSize(), 2);
  EXPECT_EQ(N("0.05").StorageSize(), 2);
  EXPECT_EQ(N("0.005").StorageSize(), 2);
  EXPECT_EQ(N("0.105").StorageSize(), 3);
  EXPECT_EQ(N("-0.15").StorageSize(), 3);
  EXPECT_EQ(N(kMax).StorageSize(), 20);
  EXPECT_EQ(N("1.2345678901234567890123456789012345678").StorageSize(), 21);
  EXPECT_EQ(N("-1.2345678901234567890123456789012345678").StorageSize(), 22);
  EXPECT_EQ(N("1e125").StorageSize(), 2);
  EXPECT_EQ(N("1e-130").StorageSize(), 2);
  EXPECT_EQ(N("1e-129").StorageSize(), 2);
}

// --- Ordered key ------------------------------------------------------------------------------

Number RandomNumber(std::mt19937_64& rng) {
  if (rng() % 20 == 0) return Number();
  int len = 1 + static_cast<int>(rng() % 38);
  if (rng() % 3 == 0) len = 1 + static_cast<int>(rng() % 3);  // short mantissas: key prefixes
  std::string digits(1, static_cast<char>('1' + rng() % 9));
  for (int i = 1; i < len; ++i) {
    digits.push_back(static_cast<char>('0' + (rng() % 4 == 0 ? 0 : rng() % 10)));
  }
  // value = 0.<digits> * 10^e, e in [-129, 126]; half the time clustered to force ties.
  int e = rng() % 2 ? static_cast<int>(rng() % 256) - 129 : static_cast<int>(rng() % 7) - 3;
  return N(std::string(rng() % 2 ? "-" : "") + "0." + digits + "e" + std::to_string(e));
}

TEST(NumberOrderedKeyTest, KnownOrdering) {
  const std::vector<std::string> ascending = {
      "-" + kMax, "-1e100",  "-101", "-100",   "-10.1",  "-10", "-1.01", "-1.001",
      "-1",       "-1e-130", "0",    "1e-130", "0.0101", "0.1", "1",     "1.001",
      "1.01",     "1.1",     "10",   "10.1",   "100",    "101", "1e100", kMax};
  for (size_t i = 0; i + 1 < ascending.size(); ++i) {
    EXPECT_LT(Key(N(ascending[i])), Key(N(ascending[i + 1])))
        << ascending[i] << " vs " << ascending[i + 1];
  }
  EXPECT_EQ(Key(N("1.50")), Key(N("15e-1")));
  EXPECT_EQ(Key(N("-0")), Key(Number()));
  EXPECT_EQ(Key(Number()), std::string("\x02", 1));
}

TEST(NumberOrderedKeyTest, RandomOrderAgreesWithCompare) {
  std::mt19937_64 rng(42);
  std::vector<Number> nums;
  for (int i = 0; i < 5000; ++i) nums.push_back(RandomNumber(rng));
  std::vector<Number> by_value = nums;
  std::sort(by_value.begin(), by_value.end(),
            [](const Number& a, const Number& b) { return a.Compare(b) < 0; });
  std::vector<std::pair<std::string, Number>> by_key;
  for (const auto& n : nums) by_key.emplace_back(Key(n), n);
  std::sort(by_key.begin(), by_key.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < nums.size(); ++i) EXPECT_EQ(by_key[i].second, by_value[i]) << i;
  for (size_t i = 0; i + 1 < by_value.size(); ++i) {
    int c = by_value[i].Compare(by_value[i + 1]);
    std::string ka = Key(by_value[i]), kb = Key(by_value[i + 1]);
    if (c == 0) {
      EXPECT_EQ(ka, kb);
    } else {
      EXPECT_LT(ka, kb) << by_value[i].ToString() << " vs " << by_value[i + 1].ToString();
    }
  }
}

TEST(NumberOrderedKeyTest, PrefixFreeSoSuffixesDoNotBreakOrder) {
  std::mt19937_64 rng(3);
  std::vector<Number> nums;
  for (int i = 0; i < 600; ++i) nums.push_back(RandomNumber(rng));
  for (const char* t : {"1", "1.1", "1.01", "10", "100", "-1", "-1.1", "-10", "0"})
    nums.push_back(N(t));
  auto suffix = [&] {
    std::string s;
    for (int i = static_cast<int>(rng() % 4); i > 0; --i)
      s.push_back(static_cast<char>(rng() % 256));
    if (rng() % 2) s.push_back(static_cast<char>(rng() % 2 ? 0x00 : 0xFF));
    return s;
  };
  for (const auto& a : nums) {
    for (const auto& b : nums) {
      std::string ka = Key(a), kb = Key(b);
      if (ka != kb) {
        ASSERT_FALSE(kb.size() > ka.size() && kb.compare(0, ka.size(), ka) == 0)
            << a.ToString() << " is a prefix of " << b.ToString();
      }
      int c = a.Compare(b);
      if (c == 0) continue;
      std::string sa = ka + suffix(), sb = kb + suffix();
      EXPECT_EQ(sa < sb, c < 0) << a.ToString() << " vs " << b.ToString();
    }
  }
}

TEST(NumberOrderedKeyTest, RoundTrip) {
  std::mt19937_64 rng(5);
  std::vector<Number> nums = {
      Number(),     N("1"),   N("-1"),       N("1e-130"),
      N("-1e-130"), N(kMax),  N("-" + kMax), N("12345678901234567890123456789012345678"),
      N("0.5"),     N("-100")};
  for (int i = 0; i < 3000; ++i) nums.push_back(RandomNumber(rng));
  for (const auto& n : nums) {
    std::string key = Key(n);
    std::string_view view = key;
    auto back = Number::DecodeOrderedKey(view);
    ASSERT_TRUE(back.ok()) << n.ToString() << ": " << back.status().message();
    EXPECT_EQ(*back, n);
    EXPECT_EQ(back->ToString(), n.ToString());
    EXPECT_EQ(back->IsNegative(), n.IsNegative());
    EXPECT_TRUE(view.empty());
  }
}

TEST(NumberOrderedKeyTest, DecodeConsumesOneKeyAtATime) {
  std::vector<Number> nums = {N("-12.5"), Number(), N("1e-130"), N("777"), N("-0.001")};
  std::string buf;
  for (const auto& n : nums) n.AppendOrderedKey(buf);
  buf += "tail";
  std::string_view view = buf;
  for (const auto& n : nums) {
    auto r = Number::DecodeOrderedKey(view);
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(r->ToString(), n.ToString());
  }
  EXPECT_EQ(view, "tail");
}

TEST(NumberOrderedKeyTest, DecodeRejectsTruncationAndGarbage) {
  for (const std::string& t :
       {std::string("1"), std::string("-1"), std::string("12345.678"), "-" + kMax}) {
    std::string key = Key(N(t));
    for (size_t len = 0; len < key.size(); ++len) {
      std::string_view view(key.data(), len);
      auto r = Number::DecodeOrderedKey(view);
      EXPECT_FALSE(r.ok()) << t << " truncated to " << len;
      EXPECT_EQ(view.size(), len);
    }
  }
  for (std::string bad : {std::string(""), std::string("\x00", 1), std::string("\x04"),
                          std::string("\xFF"), std::string("\x03\x80\x01\x00", 4),  // no digits
                          std::string("\x03\x80\x01\x01\x00", 5),                   // digits "00"
                          std::string("\x03\x80\x01\x02\x00", 5),                   // leading 0
                          std::string("\x03\x80\x01\x0B\x01\x00", 6),               // trailing 00
                          std::string("\x03\x80\x01\x65\x00", 5),                   // byte 101
                          std::string("\x03\x90\x00\x0B\x00", 5),                   // exponent
                          std::string("\x03\x7F\x00\x0B\x00", 5)}) {
    std::string_view view = bad;
    EXPECT_FALSE(Number::DecodeOrderedKey(view).ok());
  }
  std::string too_long = "\x03\x80\x01";
  too_long.append(20, '\x0C');
  too_long.push_back('\0');
  std::string_view view = too_long;
  EXPECT_FALSE(Number::DecodeOrderedKey(view).ok());
}

TEST(NumberOrderedKeyTest, RandomGarbageNeverCrashesAndDecodesCanonically) {
  std::mt19937_64 rng(9);
  int decoded = 0;
  for (int i = 0; i < 100000; ++i) {
    std::string bytes;
    bytes.push_back(static_cast<char>(1 + rng() % 3));
    const uint8_t mask = bytes[0] == 1 ? 0xFF : 0x00;
    bytes.push_back(static_cast<char>(0x80 ^ mask));
    for (int n = static_cast<int>(rng() % 24); n > 0; --n) {
      bytes.push_back(static_cast<char>(rng() % 4 ? (rng() % 102) ^ mask : rng() % 256));
    }
    std::string_view view = bytes;
    auto r = Number::DecodeOrderedKey(view);
    if (!r.ok()) {
      EXPECT_EQ(view.size(), bytes.size());
      continue;
    }
    ++decoded;
    std::string consumed = bytes.substr(0, bytes.size() - view.size());
    EXPECT_EQ(Key(*r), consumed);
    EXPECT_TRUE(Number::Parse(r->ToString()).ok());
  }
  EXPECT_GT(decoded, 0);
}

// OrderedKeyStorageSize: the size DecodeOrderedKey(...)->StorageSize() gives, with the same checks
// and the same advance, on keys and on garbage.
// A number with ToString()'s longest text: "-0.", 129 zeros and 38 ones.
const std::string kLongestText = "-1." + std::string(37, '1') + "e-130";

// Zero, the range's ends, the longest text, integers and fractions of every shape, then `randoms`
// random numbers.
std::vector<Number> SampleNumbers(uint64_t seed, int randoms) {
  std::mt19937_64 rng(seed);
  std::vector<Number> nums = {Number(), N("1"), N("-1"), N("1e-130"), N("-1e-130"), N(kMax), N("-" + kMax),
                              N("0.5"), N("-100"), N("10"), N("0.01"), N("123.45"), N("-0.000120"),
                              N("1e125"), N(kLongestText), N("12345678901234567890123456789012345678"),
                              N("1234567890123456789012345678901234567.8"), N("5e37"), N("-7.5")};
  for (int i = 0; i < randoms; ++i) nums.push_back(RandomNumber(rng));
  return nums;
}

TEST(NumberOrderedKeyTest, StorageSizeWithoutDecodingMatchesDecoding) {
  std::mt19937_64 rng(11);
  for (const auto& n : SampleNumbers(12, 3000)) {
    std::string key = Key(n) + "tail";
    std::string_view view = key;
    auto size = Number::OrderedKeyStorageSize(view);
    ASSERT_TRUE(size.ok()) << n.ToString();
    EXPECT_EQ(*size, n.StorageSize()) << n.ToString();
    EXPECT_EQ(view, "tail");
  }
  for (int i = 0; i < 100000; ++i) {
    std::string bytes;
    bytes.push_back(static_cast<char>(rng() % 5));
    for (int k = static_cast<int>(rng() % 26); k > 0; --k) {
      bytes.push_back(static_cast<char>(rng() % 3 ? rng() % 102 : rng() % 256));
    }
    std::string_view by_decode = bytes, by_size = bytes;
    auto decoded = Number::DecodeOrderedKey(by_decode);
    auto size = Number::OrderedKeyStorageSize(by_size);
    ASSERT_EQ(decoded.ok(), size.ok()) << i;
    if (decoded.ok()) {
      EXPECT_EQ(*size, decoded->StorageSize());
      EXPECT_EQ(by_size.size(), by_decode.size());
    }
  }
}

// StoredNumber: the text, size and number of a stored key, taken from its bytes, are the decoded
// number's.
TEST(NumberOrderedKeyTest, StoredNumberTextAndSizeMatchTheDecodedNumber) {
  for (const auto& n : SampleNumbers(13, 5000)) {
    std::string key = Key(n) + "tail";
    std::string_view view = key;
    auto stored = StoredNumber::Read(view);
    ASSERT_TRUE(stored.ok()) << n.ToString();
    EXPECT_EQ(view, "tail");
    char text[StoredNumber::kMaxTextBytes];
    const size_t length = stored->WriteText(text);
    ASSERT_LE(length, StoredNumber::kMaxTextBytes);
    EXPECT_EQ(std::string(text, length), n.ToString());
    EXPECT_EQ(stored->StorageSize(), n.StorageSize()) << n.ToString();
    EXPECT_EQ(stored->Decode(), n);
    EXPECT_EQ(stored->Decode().ToString(), n.ToString());
  }
  char text[StoredNumber::kMaxTextBytes];
  std::string key = Key(N(kLongestText));
  std::string_view view = key;
  EXPECT_EQ(StoredNumber::Read(view)->WriteText(text), 170u);
}

}  // namespace
}  // namespace monotable
