// DynamoDB JSON lines round-trip and refuse bad input; export files are written in AWS's layout
// and read back by ReadImport; locations never leave the export directory.
#include "backup/export_import.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "backup/dynamodb_json.h"
#include "backup/ion_text.h"
#include "model/item_codec.h"

namespace monotable::backup {
namespace {

AttributeValue Num(const std::string& text) { return AttributeValue::N(Number::Parse(text).value()); }

Item Sample() {
  return {
      {"pk", AttributeValue::S("a\"\n\\")},
      {"n", Num("-12.50")},
      {"b", AttributeValue::B(std::string("\x00\xff", 2))},
      {"l", AttributeValue::L({AttributeValue::Null(), AttributeValue::Bool(true)})},
      {"m", AttributeValue::M({{"ss", AttributeValue::SS({"y", "x"})},
                               {"ns", AttributeValue::NS({Number::Parse("2").value(), Number::Parse("1").value()})}})},
      {"bs", AttributeValue::BS({"\x01", "\x02"})}};
}

TEST(DynamoJsonTest, RoundTrip) {
  Item item = Sample();
  auto back = ItemFromLine(ItemLine(item));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_TRUE(*back == item);
}

TEST(DynamoJsonTest, RefusesBadLines) {
  for (std::string_view bad : {"", "x", "[]", "{}", "{\"Item\":1}", "{\"Item\":{\"a\":{}}}",
                               "{\"Item\":{\"a\":{\"S\":1}}}", "{\"Item\":{\"a\":{\"N\":\"x\"}}}",
                               "{\"Item\":{\"a\":{\"S\":\"x\",\"N\":\"1\"}}}", "{\"Item\":{\"a\":{\"SS\":[]}}}",
                               "{\"Item\":{\"a\":{\"SS\":[\"x\",\"x\"]}}}", "{\"Item\":{\"a\":{\"NULL\":false}}}",
                               "{\"Item\":{\"a\":{\"B\":\"!!\"}}}", "{\"Item\":{\"\":{\"S\":\"x\"}}}"}) {
    EXPECT_FALSE(ItemFromLine(bad).ok()) << bad;
  }
  std::string deep = "{\"Item\":{\"a\":";
  for (int i = 0; i < 40; ++i) deep += "{\"L\":[";
  deep += "{\"S\":\"x\"}";
  for (int i = 0; i < 40; ++i) deep += "]}";
  deep += "}}";
  EXPECT_FALSE(ItemFromLine(deep).ok());
}

TEST(IonTextTest, RoundTripAndAwsSpellings) {
  Item item = Sample();
  item["odd name"] = AttributeValue::S("x");
  item["n2"] = Num("1E+125");
  auto back = IonItemFromLine(IonItemLine(item));
  ASSERT_TRUE(back.ok()) << back.status().message() << "\n" << IonItemLine(item);
  EXPECT_TRUE(*back == item);
  // As AWS's documentation shows an exported item: decimals with and without exponents, symbols.
  auto aws = IonItemFromLine(
      "$ion_1_0 {Item:{Authors:$dynamodb_SS::[\"Author1\",\"Author2\"],Id:103.,InPublication:false,"
      "Price:2.E+3,Ratio:1.5d-1,Raw:{{AAE=}},'quoted field':null.string,List:[1,\"a\"]}}");
  ASSERT_TRUE(aws.ok()) << aws.status().message();
  EXPECT_EQ(aws->at("Id").n().ToString(), "103");
  EXPECT_EQ(aws->at("Price").n().ToString(), "2000");
  EXPECT_EQ(aws->at("Ratio").n().ToString(), "0.15");
  EXPECT_EQ(aws->at("Authors").string_set().size(), 2u);
  EXPECT_EQ(aws->at("Raw").bytes(), std::string("\x00\x01", 2));
  EXPECT_EQ(aws->at("quoted field").type(), AttrType::kNull);
  EXPECT_EQ(IonItemFromLine("$ion_1_0").status().code(), ErrorCode::kResourceNotFound);
  for (std::string_view bad : {"{", "{Item:1}", "{Other:{}}", "{Item:{a:}}", "{Item:{a:\"x}}",
                               "{Item:{a:$dynamodb_SS::[]}}", "{Item:{a:$dynamodb_XX::[1]}}", "{Item:{a:{{!!}}}}",
                               "{Item:{a:1}} extra", "{Item:{a:nan}}", "{Item:{a:$dynamodb_NS::[1,1.0]}}"}) {
    EXPECT_FALSE(IonItemFromLine(bad).ok()) << bad;
  }
  std::string deep = "{Item:{a:";
  for (int i = 0; i < 40; ++i) deep += "[";
  for (int i = 0; i < 40; ++i) deep += "]";
  EXPECT_FALSE(IonItemFromLine(deep + "}}").ok());
}

TEST(ExportImportTest, SafeLocation) {
  EXPECT_TRUE(SafeLocation("bucket", "a/b/c"));
  EXPECT_TRUE(SafeLocation("b.c", "a..b/"));
  EXPECT_FALSE(SafeLocation("bucket", "../x"));
  EXPECT_FALSE(SafeLocation("bucket", "a/../../x"));
  EXPECT_FALSE(SafeLocation("a..b", ""));
  EXPECT_FALSE(SafeLocation("", "x"));
}

TEST(ExportImportTest, WrittenExportReadsBack) {
  auto root = std::filesystem::temp_directory_path() / ("mt-export-" + std::to_string(::getpid()));
  std::filesystem::remove_all(root);
  ExportRecord r;
  r.id = "01700000000000-0000abcd";
  r.export_arn = "arn:aws:dynamodb:us-east-1:000000000000:table/t/export/" + r.id;
  r.bucket = "bkt";
  r.prefix = "p/";
  std::vector<Item> items;
  for (int i = 0; i < 5; ++i) {
    Item item = Sample();
    item["pk"] = AttributeValue::S("k" + std::to_string(i));
    items.push_back(item);
  }
  auto store = NewDirectoryStore(root.string());
  ASSERT_TRUE(WriteExport(*store, r, [&](const std::function<Status(std::string_view, int64_t)>& fn) {
                for (const auto& item : items) MT_RETURN_IF_ERROR(fn(ItemLine(item), 1));
                return Status::Ok();
              }).ok());
  EXPECT_EQ(r.item_count, 5);
  EXPECT_EQ(r.manifest, "p/AWSDynamoDB/" + r.id + "/manifest-summary.json");
  EXPECT_TRUE(std::filesystem::exists(root / "bkt" / r.manifest));
  EXPECT_TRUE(std::filesystem::exists(root / "bkt/p/AWSDynamoDB" / r.id / "manifest-files.json"));

  TableDescription table;
  table.name = "t";
  table.attribute_definitions = {{"pk", AttrType::kS}};
  table.key_schema = {{"pk", KeyRole::kHash}};
  ImportRecord in;
  in.bucket = "bkt";
  in.key_prefix = "p/AWSDynamoDB/" + r.id + "/data/";
  in.input_format = "DYNAMODB_JSON";
  in.compression = "GZIP";
  std::vector<Item> read;
  int bad = 0;
  ASSERT_TRUE(ReadImport(
                  *store, in, table,
                  [&](const Item& item) {
                    read.push_back(item);
                    return Status::Ok();
                  },
                  [&](const std::string&, const std::string&) { ++bad; })
                  .ok());
  EXPECT_EQ(bad, 0);
  ASSERT_EQ(read.size(), items.size());
  EXPECT_EQ(in.imported_items, 5);
  // A bucket that does not exist.
  in.bucket = "nope";
  EXPECT_EQ(ReadImport(
                   *store, in, table, [](const Item&) { return Status::Ok(); },
                   [](const std::string&, const std::string&) {})
                   .code(),
            ErrorCode::kResourceNotFound);
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace monotable::backup
