// Ledger: the durable record of every cross-partition transaction (TransactWriteItems), kept in
// the PartitionStore so that any server can finish or roll back a transaction whose coordinator
// died (coordinator.h runs the protocol; this file is its storage).
//
// Contract:
// - One record per transaction id, alone in its own partition of kLedgerKeyspace (an engine-
//   reserved keyspace): partition id = SHA-256(id) (32 bytes: hash-first and prefix-free, as the
//   engine contract asks), sort key "r". A record carries the id, the attempt (a random nonce per
//   Run: the value of every prepare marker the attempt set, so a later attempt under the same id
//   never mistakes an older attempt's markers for its own), the state, the creation and finish
//   times, every write (so any server can apply them) and the caller's opaque `result` bytes.
// - States move PENDING -> COMMITTED -> DONE, or PENDING -> ABORTED; every move is one guarded
//   commit of the record's partition, guarded on the exact bytes read (a move that lost a race
//   answers kGuardFailed and changes nothing). Records are removed guarded the same way.
// - Encode/Decode round-trip; Decode never crashes on bad bytes (kCorruption).
// - Thread-safe (stateless over the store); the store must outlive the ledger.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "engine/engine.h"

namespace monotable::txn {

// The ledger's keyspace (engine-reserved: no table uses it).
constexpr uint32_t kLedgerKeyspace = engine::kReservedKeyspaces + 1;

// One write of a transaction: an item put or delete, or a ConditionCheck (check_only).
struct TxnWrite {
  uint32_t keyspace = 0;
  std::string partition_id;
  std::string sort_key;
  std::optional<std::string> expected;   // the item's stored value as read (nullopt: absent); guarded at prepare
  bool check_only = false;               // ConditionCheck: guarded (prepared and released), writes nothing
  std::optional<std::string> new_value;  // nullopt: delete (ignored when check_only)
  std::string change;                    // changelog::EncodeItemChange(...) of this write; empty when check_only
                                         // or when the write derives nothing (not logged)

  engine::PartitionRef Partition() const { return {keyspace, partition_id}; }
};

enum class LedgerState : uint8_t { kPending = 1, kCommitted = 2, kDone = 3, kAborted = 4 };

struct LedgerRecord {
  std::string id;
  std::string attempt;  // the value of this attempt's prepare markers
  LedgerState state = LedgerState::kPending;
  int64_t created_ms = 0;
  int64_t finished_ms = 0;  // when it became DONE or ABORTED; 0 before
  std::vector<TxnWrite> writes;
  std::string result;  // the caller's bytes (its ClientRequestToken record)
};

std::string EncodeLedgerRecord(const LedgerRecord& record);
Result<LedgerRecord> DecodeLedgerRecord(std::string_view bytes);

// A record as stored: decoded, with the exact bytes later moves are guarded on.
struct StoredRecord {
  LedgerRecord record;
  std::string bytes;
};

class Ledger {
 public:
  explicit Ledger(engine::PartitionStore& store) : store_(store) {}

  // Writes `record` (a new PENDING record); kGuardFailed when the id already has one.
  Result<StoredRecord> Create(const LedgerRecord& record);
  // Replaces `from` (as read) by `to`; kGuardFailed when the stored record is no longer `from`.
  Result<StoredRecord> Move(const StoredRecord& from, const LedgerRecord& to);
  // Removes `from` (as read); kGuardFailed when the stored record is no longer `from`.
  [[nodiscard]] Status Remove(const StoredRecord& from);
  Result<std::optional<StoredRecord>> Find(std::string_view id);
  // Every record, in partition order (recovery); a record that does not decode is an error.
  [[nodiscard]] Status ForEach(const std::function<Status(StoredRecord)>& visit);

 private:
  engine::PartitionStore& store_;
};

}  // namespace monotable::txn
