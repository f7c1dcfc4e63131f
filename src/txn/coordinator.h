// Coordinator: cross-partition transactions (TransactWriteItems, TransactGetItems) over a
// PartitionStore whose unit of atomicity is one partition (engine.h), with prepare markers and a
// durable ledger (ledger.h), so that any server finishes or rolls back a transaction whose
// coordinator died and no transaction is ever seen half applied.
//
// Contract:
// - Run(writes) is two-phase commit:
//   (a) the ledger record is created PENDING with every write and a creation time (an id that
//       already has a record is not run again: COMMITTED is finished and answers kCommitted, DONE
//       answers kCommitted, PENDING answers kTransactionInProgress, ABORTED is replaced);
//   (b) prepare, one partition commit per write: guarded on item == expected and marker absent, it
//       sets the item's marker (sort key = the item's sort key) to the attempt's nonce. A marker
//       held by another transaction answers kConflict with the write's index, a changed item
//       kItemChanged; either way the attempt is aborted;
//   (c) decision: the record moves PENDING -> COMMITTED (guarded: a recoverer that aborted it
//       first wins, and Run then answers kConflict);
//   (d) apply, one partition commit per write, guarded on marker == nonce: puts or deletes the
//       item, removes the marker, writes the item's LSI entry changes derived from `change`
//       (local_mutations: ChangeApplier::AddLocalIndexWrites; a write that changes an LSI entry
//       always carries its change) and logs `change` in the partition's change log, then the
//       partition is drained by the ChangeApplier (GSI, stream, TTL entries); a ConditionCheck
//       only removes its marker. A guard that fails means a recoverer applied it already;
//   (e) the record moves COMMITTED -> DONE with its finish time and is kept, with the caller's
//       `result`, for the token window (kTokenWindowMs), for ClientRequestToken replays.
//   Abort: PENDING -> ABORTED, every marker the attempt set is released (guarded on its nonce),
//   then the record is removed. An engine error answers the error; the outcome is then whatever
//   Recover() makes of the record (COMMITTED: applied; PENDING: rolled back).
// - Two writes of one transaction on the same item are refused (kValidation) before anything is
//   written. Conflicts never wait: a transaction that meets a marker aborts (no deadlock).
// - Writes elsewhere keep transactions serializable by guarding `marker absent` on the item they
//   write (GetMarker / PartitionWrite::marker_guards) and answering TransactionConflict when that
//   guard is what failed. Serialization point of a committed transaction: its decision; every
//   item it wrote was held by its marker from before the decision until its apply.
// - Recover(stale_after_ms), on any server, concurrently with live transactions and with other
//   recoverers: COMMITTED records are applied and moved to DONE; PENDING records created at least
//   stale_after_ms ago (by the creating server's clock: servers' clocks must agree well within
//   stale_after_ms) are aborted (their coordinator is presumed dead) and their markers
//   released; ABORTED records have their markers released again (an attempt that was still
//   preparing when it was aborted may have set one since) and are removed once older than the
//   token window, as DONE records are. Every step is guarded, so it is idempotent; a record that
//   fails (an engine error) does not stop the others, and the first failure is answered. Limit: an
//   attempt that stalls for longer than the token window after a recoverer aborted it, and then
//   dies between a prepare and its own abort, leaves a marker nobody releases.
// - ReadItems() (TransactGetItems) reads every item twice, markers included; an item held by a
//   marker answers kConflict with its index; when every item read the same twice, the values held
//   together at the moment between the two passes (an item changed and changed back in between is
//   not noticed). Items that moved between the passes are read again, a few times, then kConflict.
// - Thread-safe; the store and the applier must outlive the coordinator.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "changelog/change_applier.h"
#include "common/status.h"
#include "engine/engine.h"
#include "txn/ledger.h"

namespace monotable::txn {

// How long finished records are kept for ClientRequestToken replays.
constexpr int64_t kTokenWindowMs = 10 * 60 * 1000;

struct TxnOutcome {
  enum class Kind { kCommitted, kItemChanged, kConflict } kind = Kind::kCommitted;
  size_t index = 0;  // the write whose item changed since it was read / is held by another transaction
};

struct TxnRead {
  uint32_t keyspace = 0;
  std::string partition_id;
  std::string sort_key;
};

struct TxnReadOutcome {
  enum class Kind { kRead, kConflict } kind = Kind::kRead;
  size_t index = 0;                               // kConflict: the read whose item is held
  std::vector<std::optional<std::string>> values;  // kRead: one per read (nullopt: absent)
};

class Coordinator {
 public:
  using Clock = std::function<int64_t()>;  // epoch milliseconds

  Coordinator(engine::PartitionStore& store, changelog::ChangeApplier& applier, Clock clock = nullptr);

  // `id`: the ledger key (callers pass a digest of the ClientRequestToken, or empty for a fresh
  // random id). `result`: opaque bytes stored in the ledger record (the caller's token record).
  Result<TxnOutcome> Run(std::vector<TxnWrite> writes, std::string id = {}, std::string result = {});
  // The ledger record of `id` if any (state and `result`), for ClientRequestToken replays.
  Result<std::optional<LedgerRecord>> Find(std::string_view id);
  [[nodiscard]] Status Recover(int64_t stale_after_ms);
  Result<TxnReadOutcome> ReadItems(const std::vector<TxnRead>& reads);

 private:
  Result<TxnOutcome> Prepare(const StoredRecord& record, size_t& prepared);
  [[nodiscard]] Status Abort(const StoredRecord& record, size_t prepared, bool remove_record);
  [[nodiscard]] Status ApplyAll(const LedgerRecord& record);
  [[nodiscard]] Status ReleaseMarkers(const LedgerRecord& record, size_t count);
  [[nodiscard]] Status Finish(const StoredRecord& committed);
  [[nodiscard]] Status RecoverOne(StoredRecord stored, int64_t now, int64_t stale_after_ms);

  engine::PartitionStore& store_;
  changelog::ChangeApplier& applier_;
  Clock clock_;
  Ledger ledger_;
};

}  // namespace monotable::txn
