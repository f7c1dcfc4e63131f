// ChangeApplier on the partitioned test engine: item writes commit item + change record in the
// item's partition, the applier derives GSI, expiry and stream entries from the log. A crash is
// injected at every partition write of a workload (before it and after it); after a restart and
// Recover(): every acknowledged write is there, GSI and expiry entries exactly match the items,
// and every committed write has exactly one stream record. Without Recover() gaps show.
#include "changelog/change_applier.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "changelog/keys.h"
#include "changelog/stream_record.h"
#include "changelog/ttl_index.h"
#include "engine/partitioned/partitioned_store.h"
#include "model/item_codec.h"

namespace monotable::changelog {
namespace {

constexpr uint32_t kTable = 10, kGsi = 11, kExpiry = 12, kStream = 13;

std::shared_ptr<const TableDescription> Table() {
  auto t = std::make_shared<TableDescription>();
  t->name = "t";
  t->key_prefix = kTable;
  t->attribute_definitions = {{"pk", AttrType::kS}, {"g", AttrType::kS}};
  t->key_schema = {{"pk", KeyRole::kHash}};
  IndexDescription gsi;
  gsi.name = "by_g";
  gsi.key_prefix = kGsi;
  gsi.key_schema = {{"g", KeyRole::kHash}};
  gsi.projection.type = ProjectionType::kAll;
  t->global_indexes.push_back(gsi);
  t->ttl.enabled = true;
  t->ttl.attribute = "exp";
  t->ttl.key_prefix = kExpiry;
  return t;
}

std::string PartitionOf(const std::string& pk) { return table::PartitionIdOf(AttributeValue::S(pk)); }

// One operation of the workload: the item `pk` becomes `item` (nullopt: deleted).
struct Op {
  std::string pk;
  std::optional<Item> item;
};

Item Make(const std::string& pk, const std::string& g, int exp) {
  Item item{{"pk", AttributeValue::S(pk)}, {"g", AttributeValue::S(g)}};
  if (exp) item["exp"] = AttributeValue::N(Number::FromInt(exp));
  return item;
}

std::vector<Op> Workload() {
  return {{"a", Make("a", "x", 100)}, {"b", Make("b", "x", 0)},   {"a", Make("a", "y", 200)},
          {"c", Make("c", "z", 300)}, {"b", std::nullopt},        {"c", Make("c", "x", 0)},
          {"b", Make("b", "y", 400)}, {"a", std::nullopt},        {"d", Make("d", "w", 500)}};
}

// The table layer's part, as a test double: read, guard, commit with the change logged. The
// stream record's sequence number is the op's number (reserved by the writer).
Status Write(engine::PartitionStore& store, ChangeApplier& applier, const TableDescription& table, const Op& op,
             uint64_t seq) {
  std::string id = PartitionOf(op.pk);
  MT_ASSIGN_OR_RETURN(auto raw, store.Get({kTable, id}, ""));
  std::optional<Item> old;
  if (raw) {
    MT_ASSIGN_OR_RETURN(Item decoded, DecodeItem(*raw));
    old = std::move(decoded);
  }
  engine::PartitionWrite write;
  write.guards.push_back({"", raw});
  write.mutations.push_back({"", op.item ? std::optional(EncodeItem(*op.item)) : std::nullopt});
  ItemChange change;
  change.table_keyspace = kTable;
  change.old_image = old;
  change.new_image = op.item;
  auto record = table::MakeChangeRecord(table, "NEW_AND_OLD_IMAGES", old ? &*old : nullptr,
                                        op.item ? &*op.item : nullptr, false);
  if (record) change.extra.push_back({table::ChangeRecordKey(kStream, seq), 4, table::EncodeChangeRecord(*record)});
  return applier.CommitLogged({kTable, id}, std::move(write), change);
}

std::map<std::string, std::string> ScanAll(engine::PartitionStore& store, uint32_t keyspace) {
  std::map<std::string, std::string> out;
  EXPECT_TRUE(store.ScanKeyspace(keyspace, "", "", [&](std::string_view k, std::string_view v) {
    out.emplace(std::string(k), std::string(v));
    return true;
  }).ok());
  return out;
}

// Runs the workload with a crash armed at partition write n + 1; returns whether it crashed and
// checks the state after a restart (with or without recovery). Returns false on a mismatch.
struct RunOutcome {
  bool crashed = false;
  bool consistent = true;
};

RunOutcome RunWithCrash(uint64_t n, engine::CrashPoint point, bool recover) {
  auto table = Table();
  TableResolver tables = [&](uint32_t keyspace) -> std::shared_ptr<const TableDescription> {
    return keyspace == kTable ? table : nullptr;
  };
  auto state = engine::NewPartitionedState();
  engine::CrashAfter(*state, n, point);
  auto ops = Workload();
  std::map<std::string, std::optional<Item>> acked;  // pk -> the value of its last acknowledged write
  std::set<uint64_t> acked_seqs;
  std::optional<size_t> failed;  // the op whose acknowledgment was lost
  {
    auto store = engine::OpenPartitionedStore(state);
    ChangeApplier applier(*store, tables);
    for (size_t i = 0; i < ops.size(); ++i) {
      Status st = Write(*store, applier, *table, ops[i], 1000 + i);
      if (!st.ok()) {
        failed = i;
        break;
      }
      acked[ops[i].pk] = ops[i].item;
      acked_seqs.insert(1000 + i);
    }
  }
  RunOutcome outcome;
  outcome.crashed = engine::Crashed(*state);
  engine::Restart(*state);
  auto store = engine::OpenPartitionedStore(state);
  ChangeApplier applier(*store, tables);
  if (recover) EXPECT_TRUE(applier.Recover({kTable}).ok());

  auto check = [&](bool ok) { outcome.consistent = outcome.consistent && ok; };
  // Items: every acknowledged write; the failed one either wholly there or not.
  std::map<std::string, Item> items;
  for (const auto& [key, value] : ScanAll(*store, kTable)) {
    Item item = DecodeItem(value).value();
    items.emplace(item.at("pk").s(), std::move(item));
  }
  std::set<uint64_t> committed_seqs = acked_seqs;
  for (const auto& [pk, value] : acked) {
    if (failed && ops[*failed].pk == pk) continue;
    auto it = items.find(pk);
    EXPECT_EQ(it != items.end() ? std::optional(it->second) : std::nullopt, value) << pk;
    check((it != items.end() ? std::optional(it->second) : std::nullopt) == value);
  }
  if (failed) {
    const Op& op = ops[*failed];
    auto it = items.find(op.pk);
    std::optional<Item> now = it != items.end() ? std::optional(it->second) : std::nullopt;
    std::optional<Item> before = acked.count(op.pk) ? acked[op.pk] : std::nullopt;
    EXPECT_TRUE(now == before || now == op.item) << op.pk;
    if (now == op.item && now != before) committed_seqs.insert(1000 + *failed);
  }
  // GSI and expiry entries: exactly those of the items.
  engine::WriteBatch expected;
  for (const auto& [pk, item] : items) (void)AppendDerived(*table, nullptr, &item, {}, expected);
  std::map<std::string, std::string> want_gsi, want_expiry;
  for (const auto& m : expected.mutations) {
    uint32_t keyspace = static_cast<uint32_t>(ReadBigEndian(std::string_view(m.key).substr(0, 4)));
    (keyspace == kGsi ? want_gsi : want_expiry).emplace(m.key.substr(4), *m.value);
  }
  EXPECT_EQ(ScanAll(*store, kGsi), want_gsi);
  EXPECT_EQ(ScanAll(*store, kExpiry), want_expiry);
  check(ScanAll(*store, kGsi) == want_gsi && ScanAll(*store, kExpiry) == want_expiry);
  // Stream: one record per committed write, at its reserved number.
  std::set<uint64_t> stream_seqs;
  for (const auto& [key, value] : ScanAll(*store, kStream)) {
    EXPECT_TRUE(table::DecodeChangeRecord(value).ok());
    stream_seqs.insert(ReadBigEndian(std::string_view(key).substr(0, 8)));
  }
  EXPECT_EQ(stream_seqs, committed_seqs);
  check(stream_seqs == committed_seqs);
  return outcome;
}

TEST(ChangeApplierCrash, RecoveryLeavesNoGapAtAnyCrashPoint) {
  for (auto point : {engine::CrashPoint::kBeforeWrite, engine::CrashPoint::kAfterWrite}) {
    uint64_t n = 0;
    for (;; ++n) {
      SCOPED_TRACE(testing::Message() << "crash at write " << n + 1 << (point == engine::CrashPoint::kAfterWrite ? " (after)" : " (before)"));
      RunOutcome outcome = RunWithCrash(n, point, /*recover=*/true);
      EXPECT_TRUE(outcome.consistent);
      if (!outcome.crashed) break;
    }
    EXPECT_GT(n, 20u);  // the workload's partition writes: items, logs, derived writes, trims
  }
}

TEST(ChangeApplierCrash, WithoutRecoveryGapsShow) {
  size_t inconsistent = 0;
  for (uint64_t n = 0;; ++n) {
    testing::TestPartResultArray failures;  // the mismatches are expected here: kept, not reported
    testing::ScopedFakeTestPartResultReporter quiet(
        testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    RunOutcome outcome = RunWithCrash(n, engine::CrashPoint::kBeforeWrite, /*recover=*/false);
    if (!outcome.consistent) ++inconsistent;
    if (!outcome.crashed) break;
  }
  EXPECT_GT(inconsistent, 0u);
}

TEST(ChangeApplier, DrainTrimsTheLog) {
  auto table = Table();
  auto state = engine::NewPartitionedState();
  auto store = engine::OpenPartitionedStore(state);
  ChangeApplier applier(*store, [&](uint32_t) { return table; });
  ASSERT_TRUE(Write(*store, applier, *table, {"a", Make("a", "x", 100)}, 1).ok());
  size_t logged = 0;
  ASSERT_TRUE(store->ScanLogs(kTable, [&](std::string_view, uint64_t) { return ++logged, true; }).ok());
  EXPECT_EQ(logged, 0u);
  EXPECT_EQ(ScanAll(*store, kGsi).size(), 1u);
  EXPECT_EQ(ScanAll(*store, kExpiry).size(), 1u);
  EXPECT_EQ(ScanAll(*store, kStream).size(), 1u);
}

}  // namespace
}  // namespace monotable::changelog
