// ItemChange's codec: round trip, and refusal of damaged bytes.
#include "changelog/item_change.h"

#include <gtest/gtest.h>

namespace monotable::changelog {
namespace {

TEST(ItemChangeCodec, RoundTrips) {
  ItemChange change;
  change.table_keyspace = 42;
  change.by_service = true;
  change.old_image = Item{{"pk", AttributeValue::S("a")}, {"n", AttributeValue::N(Number::FromInt(1))}};
  change.new_image = Item{{"pk", AttributeValue::S("a")}};
  change.extra.push_back({std::string("\0\0\0\x07stream", 10), 4, std::string("record")});
  change.extra.push_back({std::string("\0\0\0\x08pk", 6), 6, std::nullopt});
  auto decoded = DecodeItemChange(EncodeItemChange(change));
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(decoded->table_keyspace, 42u);
  EXPECT_TRUE(decoded->by_service);
  EXPECT_EQ(decoded->old_image, change.old_image);
  EXPECT_EQ(decoded->new_image, change.new_image);
  ASSERT_EQ(decoded->extra.size(), 2u);
  EXPECT_EQ(decoded->extra[0].key, change.extra[0].key);
  EXPECT_EQ(decoded->extra[0].sort_offset, 4u);
  EXPECT_EQ(decoded->extra[0].value, "record");
  EXPECT_FALSE(decoded->extra[1].value.has_value());
}

TEST(ItemChangeCodec, InsertWithoutOldImage) {
  ItemChange change;
  change.new_image = Item{{"pk", AttributeValue::S("a")}};
  auto decoded = DecodeItemChange(EncodeItemChange(change));
  ASSERT_TRUE(decoded.ok());
  EXPECT_FALSE(decoded->old_image.has_value());
  EXPECT_TRUE(decoded->new_image.has_value());
}

TEST(ItemChangeCodec, RefusesDamagedBytes) {
  ItemChange change;
  change.old_image = Item{{"pk", AttributeValue::S("a")}};
  change.extra.push_back({std::string("\0\0\0\x07s", 5), 4, std::string("v")});
  std::string bytes = EncodeItemChange(change);
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(DecodeItemChange(bytes.substr(0, n)).ok()) << n;
  }
  EXPECT_FALSE(DecodeItemChange(bytes + "x").ok());
  std::string bad_format = bytes;
  bad_format[0] = 9;
  EXPECT_FALSE(DecodeItemChange(bad_format).ok());
}

TEST(ItemChangeCodec, StreamPartsRoundTripAndTruncationsAreRefused) {
  ItemChange change;
  change.table_keyspace = 7;
  change.new_image = Item{{"pk", AttributeValue::S("a")}};
  change.stream.push_back({21, 123456789, 4, std::string("rec\0ord", 7)});
  std::string bytes = EncodeItemChange(change);
  auto decoded = DecodeItemChange(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  ASSERT_EQ(decoded->stream.size(), 1u);
  EXPECT_EQ(decoded->stream[0].stream_keyspace, 21u);
  EXPECT_EQ(decoded->stream[0].start, 123456789u);
  EXPECT_EQ(decoded->stream[0].shard_count, 4u);
  EXPECT_EQ(decoded->stream[0].record, std::string("rec\0ord", 7));
  for (size_t n = 0; n < bytes.size(); ++n) EXPECT_FALSE(DecodeItemChange(bytes.substr(0, n)).ok()) << n;
  // Without stream parts the record keeps the first format (logs written before them still decode).
  change.stream.clear();
  EXPECT_EQ(EncodeItemChange(change)[0], 1);
}

}  // namespace
}  // namespace monotable::changelog
