#include "model/attribute_value.h"

#include <gtest/gtest.h>

#include <random>

#include "model/item_codec.h"

namespace monotable {
namespace {

Number N(const char* text) { return Number::Parse(text).value(); }

TEST(ItemSize, ScalarsFollowAwsRules) {
  EXPECT_EQ(AttributeValueSize(AttributeValue::S("héllo")), 6u);  // UTF-8 bytes
  EXPECT_EQ(AttributeValueSize(AttributeValue::B(std::string("\0\1\2", 3))), 3u);
  EXPECT_EQ(AttributeValueSize(AttributeValue::Bool(true)), 1u);
  EXPECT_EQ(AttributeValueSize(AttributeValue::Null()), 1u);
  EXPECT_EQ(AttributeValueSize(AttributeValue::N(N("123"))), 3u);
  EXPECT_EQ(AttributeValueSize(AttributeValue::N(N("-42"))), 3u);
}

TEST(ItemSize, ContainersAddThreeAndOnePerElement) {
  // L: 3 + sum(1 + element): 3 + (1 + 1) + (1 + 2)
  AttributeValue list = AttributeValue::L({AttributeValue::Null(), AttributeValue::S("ab")});
  EXPECT_EQ(AttributeValueSize(list), 8u);
  // M: 3 + sum(1 + key bytes + value): 3 + (1 + 1 + 1)
  AttributeValue map = AttributeValue::M({{"k", AttributeValue::Bool(false)}});
  EXPECT_EQ(AttributeValueSize(map), 6u);
  EXPECT_EQ(AttributeValueSize(AttributeValue::M({})), 3u);
  EXPECT_EQ(AttributeValueSize(AttributeValue::L({})), 3u);
}

TEST(ItemSize, SetsSumMembers) {
  EXPECT_EQ(AttributeValueSize(AttributeValue::SS({"a", "bcd"})), 4u);
  EXPECT_EQ(AttributeValueSize(AttributeValue::NS({N("1"), N("1234")})), 5u);  // 2 + 3
  EXPECT_EQ(AttributeValueSize(AttributeValue::BS({"xy"})), 2u);
}

TEST(ItemSize, ItemCountsAttributeNames) {
  Item item{{"pk", AttributeValue::S("abc")}, {"n", AttributeValue::N(N("1"))}};
  EXPECT_EQ(ItemSize(item), 2u + 3u + 1u + 2u);
}

TEST(AttributeValueEquality, SetsIgnoreOrder) {
  EXPECT_EQ(AttributeValue::SS({"a", "b"}), AttributeValue::SS({"b", "a"}));
  EXPECT_NE(AttributeValue::SS({"a", "b"}), AttributeValue::SS({"a", "c"}));
  EXPECT_NE(AttributeValue::SS({"a"}), AttributeValue::BS({"a"}));
  EXPECT_EQ(AttributeValue::NS({N("1.0"), N("2")}), AttributeValue::NS({N("2"), N("1")}));
  EXPECT_NE(AttributeValue::L({AttributeValue::S("a"), AttributeValue::S("b")}),
            AttributeValue::L({AttributeValue::S("b"), AttributeValue::S("a")}));
}

TEST(NestingDepth, CountsContainers) {
  AttributeValue v = AttributeValue::S("x");
  EXPECT_EQ(NestingDepth(v), 0);
  for (int i = 0; i < 5; ++i) v = AttributeValue::L({v});
  EXPECT_EQ(NestingDepth(v), 5);
}

Item EveryType() {
  AttributeValue::Map nested{{"inner", AttributeValue::L({AttributeValue::N(N("-0.5")), AttributeValue::Null()})}};
  return Item{
      {"s", AttributeValue::S(std::string("with\0zero", 9))},
      {"n", AttributeValue::N(N("12345678901234567890123456789012345678"))},
      {"b", AttributeValue::B(std::string("\0\xff", 2))},
      {"t", AttributeValue::Bool(true)},
      {"z", AttributeValue::Null()},
      {"l", AttributeValue::L({AttributeValue::S(""), AttributeValue::M(nested)})},
      {"m", AttributeValue::M(nested)},
      {"ss", AttributeValue::SS({"b", "a"})},
      {"ns", AttributeValue::NS({N("1E+125"), N("-1E-130")})},
      {"bs", AttributeValue::BS({std::string("\0", 1), "x"})},
  };
}

TEST(ItemCodec, RoundTripsEveryType) {
  Item item = EveryType();
  std::string bytes = EncodeItem(item);
  auto decoded = DecodeItem(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(*decoded, item);
  // Sets come out in their canonical order, whatever order they were built in.
  EXPECT_EQ(decoded->at("ss").string_set(), (std::vector<std::string>{"a", "b"}));
}

TEST(AttributeValue, SetsAreKeptInCanonicalOrder) {
  // SS and BS by unsigned bytes (U+FFFF's EF BF BF before U+1F600's F0 9F 98 80), NS numerically.
  EXPECT_EQ(AttributeValue::SS({"z", "\xf0\x9f\x98\x80", "a", "\xef\xbf\xbf", "Z"}).string_set(),
            (std::vector<std::string>{"Z", "a", "z", "\xef\xbf\xbf", "\xf0\x9f\x98\x80"}));
  EXPECT_EQ(AttributeValue::BS({"\xff", std::string("\0", 1), "\x7f", "\x80"}).string_set(),
            (std::vector<std::string>{std::string("\0", 1), "\x7f", "\x80", "\xff"}));
  std::vector<std::string> numbers;
  const AttributeValue ns = AttributeValue::NS({N("10"), N("9"), N("-1E-130"), N("-1"), N("1E+125"), N("0")});
  for (const Number& n : ns.number_set()) {
    numbers.push_back(n.ToString());
  }
  EXPECT_EQ(numbers, (std::vector<std::string>{N("-1").ToString(), N("-1E-130").ToString(), N("0").ToString(),
                                               N("9").ToString(), N("10").ToString(), N("1E+125").ToString()}));
  // A set changed in place is put back in order.
  AttributeValue ss = AttributeValue::SS({"b", "d"});
  ss.string_set().push_back("a");
  ss.Canonicalize();
  EXPECT_EQ(ss.string_set(), (std::vector<std::string>{"a", "b", "d"}));
}

TEST(ItemCodec, RejectsEveryTruncationWithoutCrashing) {
  std::string bytes = EncodeItem(EveryType());
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(DecodeItem(std::string_view(bytes).substr(0, n)).ok()) << "prefix " << n;
  }
  EXPECT_FALSE(DecodeItem(bytes + "x").ok());
}

TEST(ItemCodec, SurvivesGarbage) {
  uint64_t state = 12345;
  for (int i = 0; i < 20000; ++i) {
    std::string junk;
    size_t len = (state >> 33) % 40;
    for (size_t j = 0; j < len; ++j) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      junk.push_back(static_cast<char>(state >> 56));
    }
    auto decoded = DecodeItem(junk);  // must not crash; either result is fine
    if (decoded.ok()) {
      EXPECT_EQ(DecodeItem(EncodeItem(*decoded)).ok(), true);
    }
  }
}

// Rebuilds an item from the visitor's calls: proves the walk reports everything, in order.
class RebuildVisitor : public EncodedItemVisitor {
 public:
  Item item;

  void Name(std::string_view name) override { name_ = std::string(name); }
  void Bytes(AttrType type, std::string_view bytes) override {
    if (!stack_.empty() && (stack_.back().type == AttrType::kSS || stack_.back().type == AttrType::kBS)) {
      stack_.back().members.emplace_back(bytes);
      return;
    }
    Put(type == AttrType::kS ? AttributeValue::S(std::string(bytes)) : AttributeValue::B(std::string(bytes)));
  }
  void Num(const StoredNumber& number) override {
    if (!stack_.empty() && stack_.back().type == AttrType::kNS) {
      stack_.back().numbers.push_back(number.Decode());
      return;
    }
    Put(AttributeValue::N(number.Decode()));
  }
  void Boolean(bool value) override { Put(AttributeValue::Bool(value)); }
  void Null() override { Put(AttributeValue::Null()); }
  void Begin(AttrType type, uint64_t) override { stack_.push_back({type, name_, {}, {}, {}, {}}); }
  void End(AttrType type) override {
    Frame f = std::move(stack_.back());
    stack_.pop_back();
    name_ = f.name;
    switch (type) {
      case AttrType::kL: Put(AttributeValue::L(std::move(f.list))); break;
      case AttrType::kM: Put(AttributeValue::M(std::move(f.map))); break;
      case AttrType::kSS: Put(AttributeValue::SS(std::move(f.members))); break;
      case AttrType::kBS: Put(AttributeValue::BS(std::move(f.members))); break;
      default: Put(AttributeValue::NS(std::move(f.numbers))); break;
    }
  }

 private:
  struct Frame {
    AttrType type;
    std::string name;  // the name this container will be stored under in its parent
    AttributeValue::List list;
    AttributeValue::Map map;
    std::vector<std::string> members;
    std::vector<Number> numbers;
  };
  void Put(AttributeValue v) {
    if (stack_.empty()) {
      item.emplace(name_, std::move(v));
    } else if (stack_.back().type == AttrType::kL) {
      stack_.back().list.push_back(std::move(v));
    } else {
      stack_.back().map.emplace(name_, std::move(v));
    }
  }
  std::string name_;
  std::vector<Frame> stack_;
};

TEST(EncodedItem, VisitReportsEveryValueInOrder) {
  Item item = EveryType();
  RebuildVisitor visitor;
  ASSERT_TRUE(VisitEncodedItem(EncodeItem(item), visitor).ok());
  EXPECT_EQ(visitor.item, item);
}

TEST(EncodedItem, SizeEqualsItemSize) {
  Item every = EveryType();
  std::vector<Item> items = {
      Item{},
      every,
      Item{{"l", AttributeValue::L({AttributeValue::L({AttributeValue::M({{"k", AttributeValue::NS({N("7")})}})}),
                                    AttributeValue::SS({"abc"}), AttributeValue::Bool(false)})}},
      Item{{"m", AttributeValue::M({{"a", AttributeValue::L({})}, {"bb", AttributeValue::M({})}})}},
  };
  for (const auto& [name, value] : every) items.push_back(Item{{name, value}});
  for (const Item& item : items) {
    auto size = EncodedItemSize(EncodeItem(item));
    ASSERT_TRUE(size.ok());
    EXPECT_EQ(*size, ItemSize(item));
  }
}

TEST(EncodedItem, SizedVisitReportsEveryValueAndTheSize) {
  Item item = EveryType();
  RebuildVisitor visitor;
  auto size = VisitEncodedItemSized(EncodeItem(item), visitor);
  ASSERT_TRUE(size.ok());
  EXPECT_EQ(visitor.item, item);
  EXPECT_EQ(*size, ItemSize(item));
  RebuildVisitor truncated;
  EXPECT_FALSE(VisitEncodedItemSized(EncodeItem(item).substr(1), truncated).ok());
}

AttributeValue RandomValue(std::mt19937_64& rng, int depth) {
  auto text = [&] { return std::string(rng() % 6, static_cast<char>('a' + rng() % 3)); };
  auto number = [&] {
    std::string t = (rng() % 2 ? "-" : "") + std::to_string(rng() % 100000);
    if (rng() % 2) t += "." + std::to_string(rng() % 1000);
    if (rng() % 3 == 0) t += "E" + std::to_string(static_cast<int>(rng() % 200) - 100);
    return Number::Parse(t).value();
  };
  switch (rng() % (depth < 3 ? 10 : 7)) {
    case 0: return AttributeValue::S(text());
    case 1: return AttributeValue::B(text());
    case 2: return AttributeValue::N(number());
    case 3: return AttributeValue::Bool(rng() % 2);
    case 4: return AttributeValue::Null();
    case 5: return AttributeValue::SS({text() + "1", text() + "2"});
    case 6: return AttributeValue::NS({number()});
    case 7: {
      AttributeValue::List list;
      for (int i = static_cast<int>(rng() % 4); i > 0; --i) list.push_back(RandomValue(rng, depth + 1));
      return AttributeValue::L(std::move(list));
    }
    default: {
      AttributeValue::Map map;
      for (int i = static_cast<int>(rng() % 4); i > 0; --i) map.emplace(text(), RandomValue(rng, depth + 1));
      return AttributeValue::M(std::move(map));
    }
  }
}

class IgnoringVisitor final : public EncodedItemVisitor {
 public:
  void Name(std::string_view) override {}
  void Bytes(AttrType, std::string_view) override {}
  void Num(const StoredNumber&) override {}
  void Boolean(bool) override {}
  void Null() override {}
  void Begin(AttrType, uint64_t) override {}
  void End(AttrType) override {}
};

// The size walk agrees with ItemSize on random items. On damaged bytes it fails exactly where
// decoding fails, and otherwise measures what the visiting walk measures (damage can duplicate a
// name, which a decoded map keeps once and both walks count twice).
TEST(EncodedItem, SizeMatchesDecodingOnRandomItemsAndDamage) {
  std::mt19937_64 rng(17);
  for (int i = 0; i < 2000; ++i) {
    Item item;
    for (int n = static_cast<int>(rng() % 6); n > 0; --n) item.emplace("a" + std::to_string(rng() % 50), RandomValue(rng, 0));
    const std::string bytes = EncodeItem(item);
    auto size = EncodedItemSize(bytes);
    ASSERT_TRUE(size.ok());
    EXPECT_EQ(*size, ItemSize(item));
    for (int damage = 0; damage < 8 && !bytes.empty(); ++damage) {
      std::string bad = bytes;
      bad[rng() % bad.size()] = static_cast<char>(rng() % 256);
      auto decoded = DecodeItem(bad);
      auto measured = EncodedItemSize(bad);
      IgnoringVisitor ignoring;
      auto visited = VisitEncodedItemSized(bad, ignoring);
      ASSERT_EQ(decoded.ok(), measured.ok()) << "item " << i << " damage " << damage;
      ASSERT_EQ(visited.ok(), measured.ok()) << "item " << i << " damage " << damage;
      if (measured.ok()) {
        EXPECT_EQ(*measured, *visited);
      }
    }
  }
}

TEST(EncodedItem, RejectsTruncationLikeDecode) {
  std::string bytes = EncodeItem(EveryType());
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(EncodedItemSize(std::string_view(bytes).substr(0, n)).ok()) << "prefix " << n;
  }
  EXPECT_FALSE(EncodedItemSize(bytes + "x").ok());
}

std::string KeyOf(const AttributeValue& v) {
  std::string out;
  AppendKeyComponent(v, out);
  return out;
}

TEST(KeyComponent, StringsOrderBytewiseAndAreSelfDelimiting) {
  std::vector<std::string> ordered = {std::string("a"), std::string("a\0", 2), std::string("a\0\0", 3),
                                      std::string("a\x01"), "ab", "b", "\xff"};
  for (size_t i = 0; i + 1 < ordered.size(); ++i) {
    EXPECT_LT(KeyOf(AttributeValue::S(ordered[i])), KeyOf(AttributeValue::S(ordered[i + 1]))) << i;
  }
  // A component followed by anything still sorts before the next value's component.
  EXPECT_LT(KeyOf(AttributeValue::S("a")) + "\xff\xff", KeyOf(AttributeValue::S("ab")));
}

TEST(KeyComponent, NumbersOrderNumerically) {
  std::vector<const char*> ordered = {"-1E+125", "-100", "-2", "-1.5", "-1", "-0.001", "0", "1E-130", "0.5", "1",
                                      "1.0001", "2", "10", "100", "1E+125"};
  for (size_t i = 0; i + 1 < ordered.size(); ++i) {
    EXPECT_LT(KeyOf(AttributeValue::N(N(ordered[i]))), KeyOf(AttributeValue::N(N(ordered[i + 1])))) << ordered[i];
  }
  EXPECT_EQ(KeyOf(AttributeValue::N(N("1.50"))), KeyOf(AttributeValue::N(N("1.5"))));
}

TEST(PartitionHash, StableAndTypeSensitive) {
  EXPECT_EQ(PartitionHash(AttributeValue::S("user#1")), PartitionHash(AttributeValue::S("user#1")));
  EXPECT_NE(PartitionHash(AttributeValue::S("user#1")), PartitionHash(AttributeValue::S("user#2")));
  EXPECT_NE(PartitionHash(AttributeValue::S("a")), PartitionHash(AttributeValue::B("a")));
  EXPECT_EQ(PartitionHash(AttributeValue::N(N("10"))), PartitionHash(AttributeValue::N(N("1E1"))));
}

TEST(PartitionHash, SpreadsAcrossSegments) {
  // Parallel scan splits the hash space evenly; 4 segments of 4,000 keys should each get ~1,000.
  int counts[4] = {0, 0, 0, 0};
  for (int i = 0; i < 4000; ++i) counts[PartitionHash(AttributeValue::S("USER#" + std::to_string(i))) >> 62]++;
  for (int c : counts) {
    EXPECT_GT(c, 850);
    EXPECT_LT(c, 1150);
  }
}

}  // namespace
}  // namespace monotable
