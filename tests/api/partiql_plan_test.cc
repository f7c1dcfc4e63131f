// PartiQL planning: statement -> how it reads (GetItem / Query / Scan, partitions, sort range)
// or writes (key, condition), or the exact error; and the per-kind counters.
#include <gtest/gtest.h>

#include "api/partiql/executor.h"
#include "api/partiql/metrics.h"
#include "api/partiql/prepare.h"
#include "engine/engine.h"

namespace monotable::api::partiql {
namespace {

std::string Value(const AttributeValue& v) {
  switch (v.type()) {
    case AttrType::kS:
      return "'" + v.s() + "'";
    case AttrType::kN:
      return v.n().ToString();
    default:
      return "?";
  }
}

const char* SortText(table::SortOp op) {
  switch (op) {
    case table::SortOp::kNone:
      return "";
    case table::SortOp::kEq:
      return "=";
    case table::SortOp::kLt:
      return "<";
    case table::SortOp::kLe:
      return "<=";
    case table::SortOp::kGt:
      return ">";
    case table::SortOp::kGe:
      return ">=";
    case table::SortOp::kBetween:
      return "between";
    case table::SortOp::kBeginsWith:
      return "begins_with";
  }
  return "?";
}

class PlanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SetPartiqlLogging(false);
    db_ = std::make_unique<table::Database>(engine::NewMemoryEngine());
    ASSERT_TRUE(db_->catalog().Load().ok());
    TableDescription t;
    t.name = "tbl";
    t.attribute_definitions = {{"pk", AttrType::kS}, {"sk", AttrType::kN}, {"g", AttrType::kS}};
    t.key_schema = {{"pk", KeyRole::kHash}, {"sk", KeyRole::kRange}};
    IndexDescription gsi;
    gsi.name = "gsi";
    gsi.key_schema = {{"g", KeyRole::kHash}, {"sk", KeyRole::kRange}};
    t.global_indexes.push_back(gsi);
    ASSERT_TRUE(db_->catalog().Create(t).ok());
    TableDescription h;
    h.name = "hash";
    h.attribute_definitions = {{"id", AttrType::kN}};
    h.key_schema = {{"id", KeyRole::kHash}};
    ASSERT_TRUE(db_->catalog().Create(h).ok());
  }

  // "GetItem [keys]", "Query [partitions] <op> <values> fwd|back", "Scan", "Write {key} cond|-", or the error.
  std::string Planned(const std::string& text, std::vector<AttributeValue> params = {}) {
    auto s = Parse(text, std::move(params));
    if (!s.ok()) return "ERR:" + s.status().message();
    Status planned = Plan(*db_, *s);
    if (!planned.ok()) return "ERR:" + planned.message();
    std::string out;
    if (!s->IsRead()) {
      out = "Write {";
      for (const auto& [k, v] : s->key) out += k + "=" + Value(v) + (k == s->key.rbegin()->first ? "" : ",");
      return out + "} " + (s->condition.empty() ? "-" : "cond");
    }
    const ReadAccess& r = s->read;
    out = std::string(AccessKindName(r.kind));
    if (r.kind == AccessKind::kGetItem) {
      for (const Item& key : r.keys) {
        out += " {";
        for (const auto& [k, v] : key) out += k + "=" + Value(v) + (k == key.rbegin()->first ? "" : ",");
        out += "}";
      }
    } else if (r.kind == AccessKind::kQuery) {
      out += " [";
      for (size_t i = 0; i < r.partitions.size(); ++i) out += (i ? "," : "") + Value(r.partitions[i][0]);
      out += "]";
      if (r.sort.op != table::SortOp::kNone) {
        out += std::string(" ") + SortText(r.sort.op) + " " + Value(r.sort.first);
        if (r.sort.op == table::SortOp::kBetween) out += " " + Value(r.sort.second);
      }
      out += r.forward ? " fwd" : " back";
    }
    return out;
  }

  std::unique_ptr<table::Database> db_;
};

TEST_F(PlanTest, Selects) {
  struct Case {
    std::string statement, expect;
  };
  const Case cases[] = {
      {"SELECT * FROM tbl", "Scan"},
      {"SELECT * FROM tbl WHERE x = 1", "Scan"},
      {"SELECT * FROM tbl WHERE pk > 'a'", "Scan"},
      {"SELECT * FROM tbl WHERE pk = 'a' OR x = 1", "Scan"},
      {"SELECT * FROM tbl WHERE NOT pk = 'a'", "Scan"},
      {"SELECT * FROM tbl WHERE pk = 'a'", "Query ['a'] fwd"},
      {"SELECT * FROM tbl WHERE 'a' = pk AND x = 1", "Query ['a'] fwd"},
      {"SELECT * FROM tbl WHERE pk = 'a' AND sk = 3", "GetItem {pk='a',sk=3}"},
      {"SELECT * FROM tbl WHERE pk = 'a' AND sk IN [3, 4]", "GetItem {pk='a',sk=3} {pk='a',sk=4}"},
      {"SELECT * FROM tbl WHERE pk = 'a' AND sk > 3", "Query ['a'] > 3 fwd"},
      {"SELECT * FROM tbl WHERE pk = 'a' AND 3 > sk", "Query ['a'] < 3 fwd"},
      {"SELECT * FROM tbl WHERE pk = 'a' AND sk BETWEEN 1 AND 2", "Query ['a'] between 1 2 fwd"},
      {"SELECT * FROM tbl WHERE pk = 'a' AND sk BETWEEN 2 AND 1", "Query ['a'] fwd"},
      {"SELECT * FROM tbl WHERE pk = 'a' AND sk > 'x'", "Query ['a'] fwd"},
      {"SELECT * FROM tbl WHERE pk IN ['a', 'b', 'a']", "Query ['a','b'] fwd"},
      {"SELECT * FROM tbl WHERE pk = 'b' OR pk = 'a'", "Query ['b','a'] fwd"},
      {"SELECT * FROM tbl WHERE pk = 'b' OR pk = 'a' AND x = 1", "Query ['b','a'] fwd"},
      {"SELECT * FROM tbl WHERE pk = 'a' ORDER BY sk DESC", "Query ['a'] back"},
      {"SELECT * FROM tbl WHERE pk IN ['a', 'c', 'b'] ORDER BY pk DESC", "Query ['c','b','a'] back"},
      {"SELECT * FROM tbl WHERE pk IN ['a', 'c', 'b'] ORDER BY pk, sk DESC", "Query ['a','b','c'] back"},
      {"SELECT * FROM tbl.gsi WHERE g = 'x' AND sk = 1", "Query ['x'] = 1 fwd"},
      {"SELECT * FROM tbl.gsi WHERE pk = 'x'", "Scan"},
      {"SELECT * FROM hash WHERE id = 1", "GetItem {id=1}"},
      {"SELECT * FROM hash WHERE id IN [2, 1] ORDER BY id DESC", "GetItem {id=2} {id=1}"},
      {"SELECT * FROM hash WHERE id = ?", "ERR:Number of parameters in request and statement don't match."},
      {"SELECT * FROM hash WHERE id = '1'",
       "ERR:Key attribute's data type should match its data type in table's schema: Key id"},
      {"SELECT * FROM nope WHERE id = 1", "ERR:Requested resource not found"},
      {"SELECT * FROM tbl.nope WHERE id = 1", "ERR:The table does not have the specified index"},
      {"SELECT * FROM tbl WHERE pk = 'a' ORDER BY x",
       "ERR:Attribute x in ORDER BY clause must be part of the primary key"},
  };
  for (const Case& c : cases) EXPECT_EQ(Planned(c.statement), c.expect) << c.statement;
  EXPECT_EQ(Planned("SELECT * FROM tbl WHERE pk = ? AND sk = ?",
                    {AttributeValue::S("p"), AttributeValue::N(Number::FromInt(7))}),
            "GetItem {pk='p',sk=7}");
}

TEST_F(PlanTest, Writes) {
  EXPECT_EQ(Planned("UPDATE tbl SET x = 1 WHERE pk = 'a' AND sk = 1"), "Write {pk='a',sk=1} cond");
  EXPECT_EQ(Planned("DELETE FROM tbl WHERE pk = 'a' AND sk = 1"), "Write {pk='a',sk=1} -");
  EXPECT_EQ(Planned("DELETE FROM tbl WHERE sk = 1 AND pk = 'a' AND x = 2"), "Write {pk='a',sk=1} cond");
  EXPECT_EQ(Planned("INSERT INTO hash VALUE {'id': 5, 'v': 'x'}"), "Write {id=5} -");
  EXPECT_EQ(Planned("DELETE FROM tbl WHERE pk = 'a'"),
            "ERR:Where clause does not contain a mandatory equality on all key attributes");
  EXPECT_EQ(Planned("DELETE FROM tbl WHERE pk = 'a' AND sk > 1"),
            "ERR:Where clause does not contain a mandatory equality on all key attributes");
  EXPECT_EQ(Planned("DELETE FROM tbl WHERE pk = 'a' AND sk = 1 AND sk > 1"),
            "ERR:Multiple conditions on same key sk. Only single item Update/Insert/Delete are supported");
  EXPECT_EQ(Planned("DELETE FROM tbl WHERE pk = 'a' OR sk = 1"),
            "ERR:Where clause does not contain a mandatory equality on all key attributes");
  EXPECT_EQ(Planned("DELETE FROM tbl.gsi WHERE pk = 'a' AND sk = 1"),
            "ERR:This operation is not supported on an index");
  EXPECT_EQ(Planned("INSERT INTO hash VALUE {'v': 1}"), "ERR:Key attribute should be present in the item: Key id");
  EXPECT_EQ(Planned("INSERT INTO hash VALUE 'x'"),
            "ERR:Unsupported format in item expression. Please use struct format {...} to express item values for "
            "insert statement.");
  EXPECT_EQ(Planned("EXISTS(SELECT * FROM hash WHERE id = 1)"),
            "ERR:EXISTS() must contain a single item read with additional condition");
  EXPECT_EQ(Planned("EXISTS(SELECT * FROM hash WHERE id = 1 AND v = 2)"), "Write {id=1} cond");
}

TEST_F(PlanTest, CountsHowStatementsRan) {
  auto before = GlobalPartiqlMetrics().Snapshot();
  for (const char* text :
       {"INSERT INTO hash VALUE {'id': 1}", "SELECT * FROM hash WHERE id = 1", "SELECT * FROM tbl WHERE pk = 'a'",
        "SELECT * FROM tbl", "SELECT * FROM tbl WHERE x = 1", "DELETE FROM hash WHERE id = 1"}) {
    auto s = Parse(text, {});
    ASSERT_TRUE(s.ok());
    ASSERT_TRUE(Plan(*db_, *s).ok());
    EXPECT_TRUE(Execute(*db_, *s, {}).status.ok()) << text;
  }
  auto after = GlobalPartiqlMetrics().Snapshot();
  EXPECT_EQ(after.put_item - before.put_item, 1u);
  EXPECT_EQ(after.get_item - before.get_item, 1u);
  EXPECT_EQ(after.query - before.query, 1u);
  EXPECT_EQ(after.scan - before.scan, 2u);
  EXPECT_EQ(after.delete_item - before.delete_item, 1u);
}

}  // namespace
}  // namespace monotable::api::partiql
