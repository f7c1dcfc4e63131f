// LSIs live with their partition (issue #45): on the partitioned test engine, a table with two
// local secondary indexes (one ALL, one sparse KEYS_ONLY) takes a workload of overwrites that move
// items within the LSIs, deletes and two-item transactions, stopped at every partition write with
// the write applied (kAfterWrite) and not (kBeforeWrite). What the stop leaves, read as it is (no
// change-log or transaction recovery yet), must hold exactly the LSI entries its items call for:
// no entry without its item, no item without its entry, no stale entry. The same holds once a
// Database reopened on it has recovered, and a Query on an LSI reads those entries.
#include <gtest/gtest.h>

#include <map>

#include "changelog/index_entries.h"
#include "changelog/keys.h"
#include "engine/partitioned/partitioned_store.h"
#include "model/item_codec.h"
#include "table/database.h"
#include "table/reader.h"
#include "table/transaction.h"

namespace monotable::table {
namespace {

TableDescription Orders() {
  TableDescription t;
  t.name = "orders";
  t.attribute_definitions = {
      {"pk", AttrType::kS}, {"sk", AttrType::kS}, {"l", AttrType::kS}, {"m", AttrType::kN}};
  t.key_schema = {{"pk", KeyRole::kHash}, {"sk", KeyRole::kRange}};
  IndexDescription by_l;
  by_l.name = "by_l";
  by_l.key_schema = {{"pk", KeyRole::kHash}, {"l", KeyRole::kRange}};
  by_l.projection.type = ProjectionType::kAll;
  by_l.global = false;
  IndexDescription by_m;
  by_m.name = "by_m";
  by_m.key_schema = {{"pk", KeyRole::kHash}, {"m", KeyRole::kRange}};
  by_m.projection.type = ProjectionType::kKeysOnly;
  by_m.global = false;
  t.local_indexes = {by_l, by_m};
  return t;
}

Item Key(const std::string& pk, const std::string& sk) {
  return {{"pk", AttributeValue::S(pk)}, {"sk", AttributeValue::S(sk)}};
}
AttributeValue N(int64_t v) { return AttributeValue::N(Number::FromInt(v)); }

using Entries = std::map<std::string, std::string>;  // index key (partition id + sort key) -> item, re-encoded

// The LSI entries the table's items call for, and those the store holds, per LSI.
void ExpectLocalIndexesMatchItems(engine::PartitionStore& store, const TableDescription& desc,
                                  const std::string& when) {
  SCOPED_TRACE(when);
  std::vector<Item> items;
  ASSERT_TRUE(store
                  .ScanKeyspace(desc.key_prefix, "", "",
                                [&](std::string_view, std::string_view value) {
                                  items.push_back(DecodeItem(value).value());
                                  return true;
                                })
                  .ok());
  for (const IndexDescription& index : desc.local_indexes) {
    Entries wanted, found;
    for (const Item& item : items) {
      if (auto entry = MakeIndexEntry(desc, index, item)) wanted[entry->key.substr(4)] = EncodeItem(entry->projected());
    }
    ASSERT_TRUE(store
                    .ScanKeyspace({index.key_prefix, desc.key_prefix}, "", "",
                                  [&](std::string_view key, std::string_view value) {
                                    found[std::string(key)] = EncodeItem(DecodeItem(value).value());
                                    return true;
                                  })
                    .ok());
    EXPECT_EQ(found, wanted) << index.name << ": entries differ from what the items call for";
  }
}

// Runs the workload until the first failure (the crash), or to its end: true when it ended.
bool RunWorkload(Database& db) {
  auto table = db.catalog().Find("orders");
  auto put = [&](const std::string& pk, const std::string& sk, int step) {
    return WriteAction{table.get(), Key(pk, sk),
                       [pk, sk, step](const Item*) -> Result<std::optional<Item>> {
                         Item item = Key(pk, sk);
                         item["l"] = AttributeValue::S("L" + std::to_string(step % 5));
                         if (step % 2 == 0) item["m"] = N(step);  // sparse in by_m
                         item["v"] = N(step);
                         return std::optional(item);
                       },
                       false, nullptr};
  };
  for (int step = 0; step < 10; ++step) {
    const std::string pk = "c" + std::to_string(step % 2), sk = "s" + std::to_string(step % 3);
    if (step % 4 == 3) {
      if (!db.Write(*table, Key(pk, sk), [](const Item*) -> Result<std::optional<Item>> { return std::optional<Item>(); }).ok()) {
        return false;
      }
    } else {
      auto action = put(pk, sk, step);
      if (!db.Write(*table, action.key, action.apply).ok()) return false;
    }
    // A transaction over two partitions, moving both items within the LSIs.
    auto both = WriteAtomically(db, {put("c0", "t", step + 1), put("c1", "t", step + 2)}, WriteCharge::kTransactional);
    if (!both.ok() || !both->committed) return false;
  }
  return true;
}

class LsiCrashTest : public ::testing::TestWithParam<engine::CrashPoint> {
 protected:
  static Result<std::unique_ptr<Database>> Open(const std::shared_ptr<engine::PartitionedState>& state) {
    DatabaseOptions options;
    options.ttl_period_ms = 3'600'000;  // no background pass during the test
    return Database::OpenOnStore(engine::OpenPartitionedStore(state), options);
  }
};

TEST_P(LsiCrashTest, LocalIndexEntriesAndTheirItemsAreNeverApart) {
  int crashes = 0;
  for (uint64_t n = 0;; ++n) {
    SCOPED_TRACE("crash at partition write " + std::to_string(n + 1));
    auto state = engine::NewPartitionedState();
    auto db = Open(state);
    ASSERT_TRUE(db.ok()) << db.status().message();
    ASSERT_TRUE((*db)->catalog().Create(Orders()).ok());
    const TableDescription desc = *(*db)->catalog().Find("orders")->description;
    engine::CrashAfter(*state, n, GetParam());
    if (RunWorkload(**db)) {
      ASSERT_FALSE(engine::Crashed(*state));
      ASSERT_GT(n, 40u);  // the workload ran to its end: every write has been stopped at
      ExpectLocalIndexesMatchItems((*db)->store(), desc, "no crash");
      break;
    }
    ASSERT_TRUE(engine::Crashed(*state));
    ++crashes;
    engine::Restart(*state);  // the old Database's store now fails every call, as a dead process
    db->reset();
    // What the stop left, before anything recovers.
    auto raw = engine::OpenPartitionedStore(state);
    ExpectLocalIndexesMatchItems(*raw, desc, "as the crash left it");
    // Then after change-log and transaction recovery; a Query on the LSI reads the entries.
    auto reopened = Open(state);
    ASSERT_TRUE(reopened.ok()) << reopened.status().message();
    ASSERT_TRUE((*reopened)->committer().coordinator().Recover(0).ok());
    ExpectLocalIndexesMatchItems((*reopened)->store(), desc, "after recovery");
    auto table = (*reopened)->catalog().Find("orders");
    for (const char* pk : {"c0", "c1"}) {
      auto page = QueryPartition(**reopened, *table, &desc.local_indexes[0], {AttributeValue::S(pk)}, {}, {});
      ASSERT_TRUE(page.ok()) << page.status().message();
      for (size_t i = 0; i < page->records.size(); ++i) {
        Item entry = page->Decode(i).value();
        auto item = (*reopened)->GetItem(*table, Key(pk, entry.at("sk").s()));
        ASSERT_TRUE(item.ok() && item->has_value()) << pk << "/" << entry.at("sk").s();
        EXPECT_TRUE(**item == entry) << "the LSI's copy differs from the item";
      }
    }
  }
  EXPECT_GT(crashes, 40);
}

INSTANTIATE_TEST_SUITE_P(Points, LsiCrashTest,
                         ::testing::Values(engine::CrashPoint::kBeforeWrite, engine::CrashPoint::kAfterWrite),
                         [](const auto& info) {
                           return info.param == engine::CrashPoint::kBeforeWrite ? "BeforeWrite" : "AfterWrite";
                         });

}  // namespace
}  // namespace monotable::table