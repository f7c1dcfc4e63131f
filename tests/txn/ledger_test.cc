// The transaction ledger (txn/ledger.h): the record codec round-trips and refuses bad bytes,
// and every state move is guarded on the bytes read.
#include "txn/ledger.h"

#include <gtest/gtest.h>

#include "txn_fixtures.h"

namespace monotable::txn {
namespace {

LedgerRecord SampleRecord() {
  LedgerRecord record;
  record.id = "token digest";
  record.attempt = "0123456789abcdef0123456789abcdef";
  record.created_ms = 1'700'000'000'000;
  record.result = std::string("opaque\0bytes", 12);
  record.writes = {Write(Pid(1, "a"), "k", "old", "new"), Write(Pid(2, "b"), std::string("\0k", 2), std::nullopt, ""),
                   Check(Pid(3, "c"), "k", "x")};
  record.writes[1].new_value = std::nullopt;  // a delete
  return record;
}

void ExpectSameWrite(const TxnWrite& a, const TxnWrite& b) {
  EXPECT_EQ(a.keyspace, b.keyspace);
  EXPECT_EQ(a.partition_id, b.partition_id);
  EXPECT_EQ(a.sort_key, b.sort_key);
  EXPECT_EQ(a.expected, b.expected);
  EXPECT_EQ(a.check_only, b.check_only);
  EXPECT_EQ(a.new_value, b.new_value);
  EXPECT_EQ(a.change, b.change);
}

TEST(LedgerTest, RecordRoundTrips) {
  LedgerRecord record = SampleRecord();
  record.state = LedgerState::kDone;
  record.finished_ms = 1'700'000'000'500;
  auto decoded = DecodeLedgerRecord(EncodeLedgerRecord(record));
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  EXPECT_EQ(decoded->id, record.id);
  EXPECT_EQ(decoded->attempt, record.attempt);
  EXPECT_EQ(decoded->state, LedgerState::kDone);
  EXPECT_EQ(decoded->created_ms, record.created_ms);
  EXPECT_EQ(decoded->finished_ms, record.finished_ms);
  EXPECT_EQ(decoded->result, record.result);
  ASSERT_EQ(decoded->writes.size(), record.writes.size());
  for (size_t i = 0; i < record.writes.size(); ++i) ExpectSameWrite(decoded->writes[i], record.writes[i]);
}

TEST(LedgerTest, BadBytesAreCorruptionNeverACrash) {
  std::string bytes = EncodeLedgerRecord(SampleRecord());
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_EQ(DecodeLedgerRecord(bytes.substr(0, n)).status().code(), ErrorCode::kCorruption) << n;
  }
  EXPECT_EQ(DecodeLedgerRecord(bytes + "x").status().code(), ErrorCode::kCorruption);
  std::string bad_state = bytes;
  bad_state[1] = 9;
  EXPECT_EQ(DecodeLedgerRecord(bad_state).status().code(), ErrorCode::kCorruption);
}

TEST(LedgerTest, MovesAreGuardedOnTheBytesRead) {
  auto store = engine::OpenPartitionedStore(engine::NewPartitionedState());
  Ledger ledger(*store);
  auto created = ledger.Create(SampleRecord());
  ASSERT_TRUE(created.ok());
  EXPECT_EQ(ledger.Create(SampleRecord()).status().code(), ErrorCode::kGuardFailed);
  LedgerRecord committed = created->record;
  committed.state = LedgerState::kCommitted;
  auto moved = ledger.Move(*created, committed);
  ASSERT_TRUE(moved.ok());
  LedgerRecord aborted = created->record;
  aborted.state = LedgerState::kAborted;
  EXPECT_EQ(ledger.Move(*created, aborted).status().code(), ErrorCode::kGuardFailed);  // lost the race
  EXPECT_EQ(ledger.Remove(*created).code(), ErrorCode::kGuardFailed);
  auto found = ledger.Find("token digest");
  ASSERT_TRUE(found.ok() && found->has_value());
  EXPECT_EQ((*found)->record.state, LedgerState::kCommitted);
  ASSERT_TRUE(ledger.Remove(**found).ok());
  EXPECT_FALSE(ledger.Find("token digest").value().has_value());
  EXPECT_TRUE(LedgerStates(*store).empty());
}

}  // namespace
}  // namespace monotable::txn
