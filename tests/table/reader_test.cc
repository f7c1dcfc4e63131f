#include "table/reader.h"

#include <gtest/gtest.h>

#include <set>

#include "changelog/index_entries.h"
#include "changelog/keys.h"

namespace monotable::table {
namespace {

std::vector<Item> ItemsOf(const Page& page) {
  std::vector<Item> items;
  for (size_t i = 0; i < page.records.size(); ++i) items.push_back(page.Decode(i).value());
  return items;
}

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
    for (const auto& item : ItemsOf(page)) out.push_back(item.at("sk").n().ToString());
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
  EXPECT_TRUE(next.records.empty());
  EXPECT_FALSE(next.last_evaluated_key);
}

TEST_F(ReaderTest, PageStopsAfterOneMegabyteIncludingTheCrossingItem) {
  std::string blob(100 * 1024, 'x');
  for (int i = 0; i < 15; ++i) {
    Put({{"pk", AttributeValue::S("p")}, {"sk", AttributeValue::N(Number::FromInt(i))}, {"d", AttributeValue::S(blob)}});
  }
  Page page = Query({});
  EXPECT_EQ(page.records.size(), 11u);  // 10 items are < 1 MB, the 11th crosses it
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
  for (const auto& item : ItemsOf(*page)) {
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
    for (const auto& item : ItemsOf(*page)) out.push_back(item.at("gsk").s());
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
        for (const auto& item : ItemsOf(*page)) seen.insert(item.at("pk").s() + "/" + item.at("sk").n().ToString());
        start = page->last_evaluated_key;
      } while (start);
    }
    EXPECT_EQ(seen.size(), 300u) << total;
    EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), 300u);
  }
}

TEST_F(ReaderTest, EveryItemIsInTheScanSegmentThatReturnsIt) {
  for (int i = 0; i < 60; ++i) {
    Put({{"pk", AttributeValue::S("user" + std::to_string(i))}, {"sk", AttributeValue::N(Number::FromInt(i % 2))},
         {"gpk", AttributeValue::S("g" + std::to_string(i % 7))}, {"gsk", AttributeValue::S("x")}});
  }
  const TableDescription& desc = *table_->description;
  const IndexDescription* gsi = &desc.global_indexes[0];
  for (const IndexDescription* index : {static_cast<const IndexDescription*>(nullptr), gsi}) {
    for (int total : {1, 3, 8}) {
      size_t checked = 0;
      for (int segment = 0; segment < total; ++segment) {
        PageOptions o;
        auto page = ScanSegment(*db_, *table_, index, segment, total, o);
        ASSERT_TRUE(page.ok());
        for (const auto& item : ItemsOf(*page)) {
          Item start = LastEvaluatedKeyOf(desc, index, item);
          for (int other = 0; other < total; ++other) {
            EXPECT_EQ(InScanSegment(desc, index, start, other, total), other == segment) << total;
          }
          ++checked;
        }
      }
      EXPECT_EQ(checked, 60u);
    }
  }
}

TEST(MultiAttributeIndexTest, EqualPrefixThenConditionOnTheNextSortAttribute) {
  Database db(engine::NewMemoryEngine());
  ASSERT_TRUE(db.catalog().Load().ok());
  TableDescription t;
  t.name = "multi";
  t.attribute_definitions = {{"p", AttrType::kS}, {"h1", AttrType::kS}, {"h2", AttrType::kN},
                             {"r1", AttrType::kS}, {"r2", AttrType::kN}};
  t.key_schema = {{"p", KeyRole::kHash}};
  IndexDescription gsi;
  gsi.name = "gsi";
  gsi.key_schema = {{"h1", KeyRole::kHash}, {"h2", KeyRole::kHash}, {"r1", KeyRole::kRange}, {"r2", KeyRole::kRange}};
  t.global_indexes.push_back(gsi);
  ASSERT_TRUE(db.catalog().Create(t).ok());
  auto table = db.catalog().Find("multi");
  const IndexDescription* index = table->description->FindIndex("gsi");
  EXPECT_TRUE(IsMultiAttributeIndex(*index));
  int n = 0;
  for (const char* h1 : {"a", "b"}) {
    for (int h2 : {1, 2}) {
      for (const char* r1 : {"x", "xy", "y"}) {
        for (int r2 : {-3, 0, 7}) {
          Item item{{"p", AttributeValue::S("k" + std::to_string(n++))}, {"h1", AttributeValue::S(h1)},
                    {"h2", AttributeValue::N(Number::FromInt(h2))}, {"r1", AttributeValue::S(r1)},
                    {"r2", AttributeValue::N(Number::FromInt(r2))}};
          auto r = db.Write(*table, ExtractKey(*table->description, item),
                            [&](const Item*) -> Result<std::optional<Item>> { return std::optional(item); });
          ASSERT_TRUE(r.ok());
        }
      }
    }
  }
  auto read = [&](SortCondition sort, bool forward = true) {
    PageOptions o;
    o.forward = forward;
    auto page = QueryPartition(db, *table, index, {AttributeValue::S("b"), AttributeValue::N(Number::FromInt(2))}, sort, o);
    EXPECT_TRUE(page.ok());
    std::vector<std::string> out;
    for (const auto& item : ItemsOf(*page)) {
      EXPECT_EQ(item.at("h1").s(), "b");
      out.push_back(item.at("r1").s() + ":" + item.at("r2").n().ToString());
    }
    return out;
  };
  EXPECT_EQ(read({}).size(), 9u);
  EXPECT_EQ(read({}).front(), "x:-3");
  SortCondition eq_then_gt;
  eq_then_gt.equal_prefix = {AttributeValue::S("x")};
  eq_then_gt.op = SortOp::kGt;
  eq_then_gt.first = AttributeValue::N(Number::FromInt(-3));
  EXPECT_EQ(read(eq_then_gt), (std::vector<std::string>{"x:0", "x:7"}));
  EXPECT_EQ(read(eq_then_gt, false), (std::vector<std::string>{"x:7", "x:0"}));
  SortCondition prefix_only;
  prefix_only.equal_prefix = {AttributeValue::S("xy")};
  EXPECT_EQ(read(prefix_only), (std::vector<std::string>{"xy:-3", "xy:0", "xy:7"}));
  SortCondition begins;  // on the first sort attribute: "x" and "xy", every r2
  begins.op = SortOp::kBeginsWith;
  begins.first = AttributeValue::S("x");
  EXPECT_EQ(read(begins).size(), 6u);
  SortCondition le;  // r1 <= "x" keeps every r2 of r1 = "x", nothing of "xy"
  le.op = SortOp::kLe;
  le.first = AttributeValue::S("x");
  EXPECT_EQ(read(le), (std::vector<std::string>{"x:-3", "x:0", "x:7"}));
  SortCondition all_equal;
  all_equal.equal_prefix = {AttributeValue::S("y"), AttributeValue::N(Number::FromInt(0))};
  EXPECT_EQ(read(all_equal), (std::vector<std::string>{"y:0"}));
}

TEST_F(ReaderTest, ItemCollectionEstimateCoversTheTablePartitionAndItsLocalIndexEntries) {
  const TableDescription& t = *table_->description;
  auto estimate = [&](const char* pk) { return EstimateItemCollectionBytes(db_->store(), t, AttributeValue::S(pk)); };
  EXPECT_EQ(estimate("p"), 0u);
  Put({{"pk", AttributeValue::S("p")}, {"sk", AttributeValue::N(Num("1"))}, {"blob", AttributeValue::S(std::string(5000, 'x'))}});
  uint64_t table_only = estimate("p");
  EXPECT_GT(table_only, 5000u);
  EXPECT_LT(table_only, 5200u);
  // An LSI entry (INCLUDE projection) adds its projected bytes; other partitions add nothing.
  Put({{"pk", AttributeValue::S("p")}, {"sk", AttributeValue::N(Num("2"))}, {"lsk", AttributeValue::B("k")},
       {"extra", AttributeValue::S(std::string(3000, 'e'))}});
  EXPECT_GT(estimate("p"), table_only + 6000);
  Put({{"pk", AttributeValue::S("q")}, {"sk", AttributeValue::N(Num("1"))}, {"blob", AttributeValue::S(std::string(9000, 'x'))}});
  EXPECT_LT(estimate("p"), table_only + 6300);
  EXPECT_EQ(ItemCollectionRanges(t, AttributeValue::S("p")).size(), 2u);
  Delete({{"pk", AttributeValue::S("p")}, {"sk", AttributeValue::N(Num("2"))}});
  EXPECT_EQ(estimate("p"), table_only);
}

}  // namespace
}  // namespace monotable::table
