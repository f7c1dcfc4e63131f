// The table layer on the partitioned test engine (engine/partitioned), stopped at every partition
// write of a workload of single-item writes and bank transfers (transactions of two items), with
// the write applied (kAfterWrite: its acknowledgment lost) and not applied (kBeforeWrite). After a
// restart, a Database opened on what the crash left (change-log and transaction recovery) must
// show: every acknowledged write (overwrites of the same keys, so a lost one shows), no
// transaction half applied (the balances' sum), GSI entries exactly those the items call for, and
// no item still held by a prepare marker once the in-doubt transactions are recovered.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "changelog/index_entries.h"
#include "changelog/keys.h"
#include "engine/partitioned/partitioned_store.h"
#include "model/item_codec.h"
#include "table/database.h"
#include "table/transaction.h"

namespace monotable::table {
namespace {

constexpr int kAccounts = 4;
constexpr int kStartBalance = 100;

TableDescription Accounts() {
  TableDescription t;
  t.name = "accounts";
  t.attribute_definitions = {{"pk", AttrType::kS}, {"g", AttrType::kS}};
  t.key_schema = {{"pk", KeyRole::kHash}};
  IndexDescription gsi;
  gsi.name = "by_g";
  gsi.key_schema = {{"g", KeyRole::kHash}};
  gsi.projection.type = ProjectionType::kAll;
  t.global_indexes.push_back(gsi);
  return t;
}

Item Key(const std::string& pk) { return {{"pk", AttributeValue::S(pk)}}; }
int64_t Int(const Item& item, const std::string& name) {
  return std::stoll(item.at(name).n().ToString());
}
AttributeValue N(int64_t v) { return AttributeValue::N(Number::FromInt(v)); }

// The state after a run: what each versioned key last acknowledged and last attempted.
struct Acknowledged {
  std::map<std::string, int64_t> acknowledged, attempted;
};

class PartitionedCrashTest : public ::testing::TestWithParam<engine::CrashPoint> {
 protected:
  static Result<std::unique_ptr<Database>> Open(const std::shared_ptr<engine::PartitionedState>& state) {
    DatabaseOptions options;
    options.ttl_period_ms = 3'600'000;  // no background pass during the test
    return Database::OpenOnStore(engine::OpenPartitionedStore(state), options);
  }

  // Sets up the table and the accounts, before any crash is armed.
  static void Seed(Database& db) {
    ASSERT_TRUE(db.catalog().Create(Accounts()).ok());
    auto table = db.catalog().Find("accounts");
    for (int i = 0; i < kAccounts; ++i) {
      Item item = Key("acct" + std::to_string(i));
      item["g"] = AttributeValue::S("bank");
      item["bal"] = N(kStartBalance);
      ASSERT_TRUE(db.Write(*table, Key("acct" + std::to_string(i)), [item](const Item*) -> Result<std::optional<Item>> {
                     return std::optional(item);
                   }).ok());
    }
  }

  // Runs the workload until the first failure (the crash); returns what was acknowledged.
  static Acknowledged RunWorkload(Database& db) {
    Acknowledged out;
    auto table = db.catalog().Find("accounts");
    for (int step = 0; step < 12; ++step) {
      // A versioned overwrite that also moves the item between GSI partitions.
      const std::string pk = "ver" + std::to_string(step % 3);
      out.attempted[pk] = step;
      Item item = Key(pk);
      item["v"] = N(step);
      item["g"] = AttributeValue::S(step % 2 ? "odd" : "even");
      if (!db.Write(*table, Key(pk), [item](const Item*) -> Result<std::optional<Item>> { return std::optional(item); })
               .ok()) {
        return out;
      }
      out.acknowledged[pk] = step;
      // A transfer of 10 between two accounts.
      const std::string from = "acct" + std::to_string(step % kAccounts);
      const std::string to = "acct" + std::to_string((step + 1) % kAccounts);
      auto move = [&](const std::string& pk, int64_t delta) {
        return WriteAction{table.get(), Key(pk),
                           [pk, delta](const Item* existing) -> Result<std::optional<Item>> {
                             Item next = *existing;
                             next["bal"] = N(Int(*existing, "bal") + delta);
                             return std::optional(next);
                           },
                           false, nullptr};
      };
      auto transfer = WriteAtomically(db, {move(from, -10), move(to, +10)}, WriteCharge::kTransactional);
      if (!transfer.ok() || !transfer->committed) return out;
    }
    return out;
  }

  // Every item's GSI entry, and only those, are in the GSI's key space.
  static void ExpectIndexMatchesItems(Database& db) {
    auto table = db.catalog().Find("accounts");
    const TableDescription& desc = *table->description;
    std::set<std::string> wanted, found;
    std::vector<Item> items;
    ASSERT_TRUE(db.store()
                    .ScanKeyspace(desc.key_prefix, "", "",
                                  [&](std::string_view, std::string_view value) {
                                    items.push_back(DecodeItem(value).value());
                                    return true;
                                  })
                    .ok());
    for (const Item& item : items) {
      if (auto entry = MakeIndexEntry(desc, desc.global_indexes[0], item)) wanted.insert(entry->key);
    }
    const uint32_t gsi = desc.global_indexes[0].key_prefix;
    ASSERT_TRUE(db.store()
                    .ScanKeyspace(gsi, "", "",
                                  [&](std::string_view key, std::string_view) {
                                    found.insert(PrefixBytes(gsi) + std::string(key));
                                    return true;
                                  })
                    .ok());
    EXPECT_EQ(found, wanted);
  }
};

TEST_P(PartitionedCrashTest, EveryAcknowledgedWriteSurvivesAndNoTransactionIsHalfApplied) {
  int crashes = 0;
  for (uint64_t n = 0;; ++n) {
    SCOPED_TRACE("crash at partition write " + std::to_string(n + 1));
    auto state = engine::NewPartitionedState();
    {
      auto db = Open(state);
      ASSERT_TRUE(db.ok()) << db.status().message();
      Seed(**db);
      engine::CrashAfter(*state, n, GetParam());
      Acknowledged run = RunWorkload(**db);
      if (!engine::Crashed(*state)) {
        ASSERT_GT(n, 10u);  // the workload ran to its end: every step has been tried
        break;
      }
      ++crashes;
      engine::Restart(*state);  // the old Database's store now fails every call, as a dead process
      db->reset();
      auto reopened = Open(state);
      ASSERT_TRUE(reopened.ok()) << reopened.status().message();
      Database& after = **reopened;
      // In-doubt transactions are rolled back once their coordinator counts as dead.
      ASSERT_TRUE(after.committer().coordinator().Recover(0).ok());
      auto table = after.catalog().Find("accounts");
      int64_t sum = 0;
      for (int i = 0; i < kAccounts; ++i) {
        auto item = after.GetItem(*table, Key("acct" + std::to_string(i)));
        ASSERT_TRUE(item.ok() && item->has_value());
        sum += Int(**item, "bal");
        EXPECT_GE(Int(**item, "bal"), kStartBalance - 10 * 12);
      }
      EXPECT_EQ(sum, kAccounts * kStartBalance);
      for (const auto& [pk, attempted] : run.attempted) {
        auto item = after.GetItem(*table, Key(pk));
        ASSERT_TRUE(item.ok());
        auto acked = run.acknowledged.find(pk);
        if (acked == run.acknowledged.end()) continue;  // its only write was in flight
        ASSERT_TRUE(item->has_value()) << pk;
        EXPECT_GE(Int(**item, "v"), acked->second) << pk << ": an acknowledged overwrite was lost";
        EXPECT_LE(Int(**item, "v"), attempted) << pk;
      }
      ExpectIndexMatchesItems(after);
      // Nothing is held: a transfer between every pair of accounts commits.
      auto move = [&](const std::string& pk, int64_t delta) {
        return WriteAction{table.get(), Key(pk),
                           [delta](const Item* existing) -> Result<std::optional<Item>> {
                             Item next = *existing;
                             next["bal"] = N(Int(*existing, "bal") + delta);
                             return std::optional(next);
                           },
                           false, nullptr};
      };
      auto transfer = WriteAtomically(after, {move("acct0", -1), move("acct1", 1)}, WriteCharge::kTransactional);
      ASSERT_TRUE(transfer.ok());
      EXPECT_TRUE(transfer->committed);
    }
  }
  EXPECT_GT(crashes, 30);
}

INSTANTIATE_TEST_SUITE_P(Points, PartitionedCrashTest,
                         ::testing::Values(engine::CrashPoint::kBeforeWrite, engine::CrashPoint::kAfterWrite),
                         [](const auto& info) {
                           return info.param == engine::CrashPoint::kBeforeWrite ? "BeforeWrite" : "AfterWrite";
                         });

}  // namespace
}  // namespace monotable::table
