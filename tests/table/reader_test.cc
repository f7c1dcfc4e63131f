#include "table/reader.h"

#include <gtest/gtest.h>

#include <set>

#include "table/keys.h"

namespace monotable::table {
namespace {

Number Num(const std::string& text) { return Number::Parse(text).value(); }

class ReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::make_unique<Database>(engine::NewMemoryEngine());
    ASSERT_TRUE(db_->catalog().Load().ok());
    TableDescription t;
    t.name = "tbl";
    t.attribute_definitions = {{"pk", AttrType::kS}, {"sk", AttrType::kN}, {"gpk", AttrType::kS},
                               {"gsk", AttrType::kS}, {"lsk", AttrType::kB}};
    t.key_schema = {{"pk", KeyRole::kHash}, {"sk", KeyRole::kRange}};
    IndexDescription gsi;
    gsi.name = "gsi";
    gsi.key_schema = {{"gpk", KeyRole::kHash}, {"gsk", KeyRole::kRange}};
    gsi.projection.type = ProjectionType::kKeysOnly;
    t.global_indexes.push_back(gsi);
    IndexDescription lsi;
    lsi.name = "lsi";
    lsi.global = false;
    lsi.key_schema = {{"pk", KeyRole::kHash}, {"lsk", KeyRole::kRange}};
    lsi.projection.type = ProjectionType::kInclude;
    lsi.projection.non_key_attributes = {"extra"};
    t.local_indexes.push_back(lsi);
    ASSERT_TRUE(db_->catalog().Create(t).ok());
    table_ = db_->catalog().Find("tbl");
  }

  void Put(Item item) {
    Item key = ExtractKey(*table_->description, item);
    auto r = db_->Write(*table_, key, [&](const Item*) -> Result<std::optional<Item>> { return std::optional(item); });
    ASSERT_TRUE(r.ok()) << r.status().message();
  }
  void Delete(Item key) {
    auto r = db_->Write(*table_, key, [&](const Item*) -> Result<std::optional<Item>> { return std::optional<Item>(); });
    ASSERT_TRUE(r.ok());
  }

  std::vector<std::string> SortKeys(const Page& page) {
    std::vector<std::string> out;
    for (const auto& item : page.items) out.push_back(item.at("sk").n().ToString());
    return out;
  }

  Page Query(SortCondition sort, PageOptions options = {}) {
    auto page = QueryPartition(*db_, *table_, nullptr, {AttributeValue::S("p")}, sort, options);
    EXPECT_TRUE(page.ok());
    return std::move(page).value();
  }

  std::unique_ptr<Database> db_;
  std::shared_ptr<const TableHandle> table_;
};

TEST_F(ReaderTest, SortConditionsSelectNumericRanges) {
  for (const char* n : {"-10", "-1.5", "0", "2", "10", "100"}) {
    Put({{"pk", AttributeValue::S("p")}, {"sk", AttributeValue::N(Num(n))}});
  }
  Put({{"pk", AttributeValue::S("other")}, {"sk", AttributeValue::N(Num("5"))}});

  EXPECT_EQ(SortKeys(Query({})), (std::vector<std::string>{"-10", "-1.5", "0", "2", "10", "100"}));
  SortCondition c;
  c.op = SortOp::kLt;
  c.first = AttributeValue::N(Num("2"));
  EXPECT_EQ(SortKeys(Query(c)), (std::vector<std::string>{"-10", "-1.5", "0"}));
  c.op = SortOp::kLe;
  EXPECT_EQ(SortKeys(Query(c)), (std::vector<std::string>{"-10", "-1.5", "0", "2"}));
  c.op = SortOp::kGt;
  EXPECT_EQ(SortKeys(Query(c)), (std::vector<std::string>{"10", "100"}));
  c.op = SortOp::kGe;
  EXPECT_EQ(SortKeys(Query(c)), (std::vector<std::string>{"2", "10", "100"}));
  c.op = SortOp::kEq;
  EXPECT_EQ(SortKeys(Query(c)), (std::vector<std::string>{"2"}));
  c.op = SortOp::kBetween;
  c.first = AttributeValue::N(Num("-1.5"));
  c.second = AttributeValue::N(Num("10"));
  EXPECT_EQ(SortKeys(Query(c)), (std::vector<std::string>{"-1.5", "0", "2", "10"}));
  PageOptions backward;
  backward.forward = false;
  EXPECT_EQ(SortKeys(Query(c, backward)), (std::vector<std::string>{"10", "2", "0", "-1.5"}));
}

TEST_F(ReaderTest, LimitAndExclusiveStartPageThroughInBothDirections) {
  for (int i = 0; i < 25; ++i) Put({{"pk", AttributeValue::S("p")}, {"sk", AttributeValue::N(Number::FromInt(i))}});
  for (bool forward : {true, false}) {
    std::vector<std::string> seen;
    std::optional<Item> start;
    int pages = 0;
    do {
      PageOptions o;
      o.forward = forward;
      o.limit = 10;
      o.exclusive_start = start ? &*start : nullptr;
      Page page = Query({}, o);
      for (auto& s : SortKeys(page)) seen.push_back(s);
      start = page.last_evaluated_key;
      ++pages;
    } while (start);
    EXPECT_EQ(seen.size(), 25u);
    EXPECT_EQ(pages, 3);
    EXPECT_EQ(seen.front(), forward ? "0" : "24");
  }
}

TEST_F(ReaderTest, LimitReachedAtTheEndStillReportsLastEvaluatedKey) {
  for (int i = 0; i < 3; ++i) Put({{"pk", AttributeValue::S("p")}, {"sk", AttributeValue::N(Number::FromInt(i))}});
  PageOptions o;
  o.limit = 3;
  Page page = Query({}, o);
  ASSERT_TRUE(page.last_evaluated_key);
  o.exclusive_start = &*page.last_evaluated_key;
  Page next = Query({}, o);
  EXPECT_TRUE(next.items.empty());
  EXPECT_FALSE(next.last_evaluated_key);
}

TEST_F(ReaderTest, PageStopsAfterOneMegabyteIncludingTheCrossingItem) {
  std::string blob(100 * 1024, 'x');
  for (int i = 0; i < 15; ++i) {
    Put({{"pk", AttributeValue::S("p")}, {"sk", AttributeValue::N(Number::FromInt(i))}, {"d", AttributeValue::S(blob)}});
  }
  Page page = Query({});
  EXPECT_EQ(page.items.size(), 11u);  // 10 items are < 1 MB, the 11th crosses it
  EXPECT_TRUE(page.last_evaluated_key);
}

TEST_F(ReaderTest, BeginsWithOnBinarySortKeyOfLocalIndex) {
  auto put = [&](int sk, std::string lsk) {
    Put({{"pk", AttributeValue::S("p")}, {"sk", AttributeValue::N(Number::FromInt(sk))},
         {"lsk", AttributeValue::B(std::move(lsk))}, {"extra", AttributeValue::S("e")}, {"hidden", AttributeValue::S("h")}});
  };
  put(1, std::string("\x00\x01", 2));
  put(2, std::string("\x00", 1));
  put(3, std::string("\x00\xff", 2));
  put(4, std::string("\x01", 1));
  const IndexDescription* lsi = table_->description->FindIndex("lsi");
  SortCondition c;
  c.op = SortOp::kBeginsWith;
  c.first = AttributeValue::B(std::string("\x00", 1));
  auto page = QueryPartition(*db_, *table_, lsi, {AttributeValue::S("p")}, c, {});
  ASSERT_TRUE(page.ok());
  std::vector<std::string> order;
  for (const auto& item : page->items) {
    order.push_back(item.at("sk").n().ToString());
    EXPECT_EQ(item.count("hidden"), 0u);  // INCLUDE projection
    EXPECT_EQ(item.at("extra").s(), "e");
  }
  EXPECT_EQ(order, (std::vector<std::string>{"2", "1", "3"}));
}

TEST_F(ReaderTest, GlobalIndexIsSparseAndFollowsKeyChanges) {
  const IndexDescription* gsi = table_->description->FindIndex("gsi");
  auto query_gsi = [&](const char* gpk) {
    auto page = QueryPartition(*db_, *table_, gsi, {AttributeValue::S(gpk)}, {}, {});
    EXPECT_TRUE(page.ok());
    std::vector<std::string> out;
    for (const auto& item : page->items) out.push_back(item.at("gsk").s());
    return out;
  };
  Put({{"pk", AttributeValue::S("a")}, {"sk", AttributeValue::N(Num("1"))}, {"gpk", AttributeValue::S("G")},
       {"gsk", AttributeValue::S("2")}});
  Put({{"pk", AttributeValue::S("b")}, {"sk", AttributeValue::N(Num("1"))}, {"gpk", AttributeValue::S("G")},
       {"gsk", AttributeValue::S("1")}});
  Put({{"pk", AttributeValue::S("c")}, {"sk", AttributeValue::N(Num("1"))}, {"gpk", AttributeValue::S("G")}});  // sparse
  EXPECT_EQ(query_gsi("G"), (std::vector<std::string>{"1", "2"}));
  // Moving item a to another index partition removes its old entry.
  Put({{"pk", AttributeValue::S("a")}, {"sk", AttributeValue::N(Num("1"))}, {"gpk", AttributeValue::S("H")},
       {"gsk", AttributeValue::S("9")}});
  EXPECT_EQ(query_gsi("G"), (std::vector<std::string>{"1"}));
  EXPECT_EQ(query_gsi("H"), (std::vector<std::string>{"9"}));
  Delete({{"pk", AttributeValue::S("b")}, {"sk", AttributeValue::N(Num("1"))}});
  EXPECT_TRUE(query_gsi("G").empty());
}

TEST_F(ReaderTest, ParallelScanSegmentsCoverEveryItemExactlyOnce) {
  for (int i = 0; i < 300; ++i) {
    Put({{"pk", AttributeValue::S("user" + std::to_string(i / 3))}, {"sk", AttributeValue::N(Number::FromInt(i % 3))}});
  }
  for (int total : {1, 2, 3, 7}) {
    std::multiset<std::string> seen;
    for (int segment = 0; segment < total; ++segment) {
      std::optional<Item> start;
      do {
        PageOptions o;
        o.limit = 40;
        o.exclusive_start = start ? &*start : nullptr;
        auto page = ScanSegment(*db_, *table_, nullptr, segment, total, o);
        ASSERT_TRUE(page.ok());
        for (const auto& item : page->items) seen.insert(item.at("pk").s() + "/" + item.at("sk").n().ToString());
        start = page->last_evaluated_key;
      } while (start);
    }
    EXPECT_EQ(seen.size(), 300u) << total;
    EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), 300u);
  }
}

}  // namespace
}  // namespace monotable::table
