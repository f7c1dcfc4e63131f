#include "txn/coordinator.h"

#include <chrono>
#include <random>
#include <set>
#include <tuple>
#include <utility>

namespace monotable::txn {
namespace {

// Attempts at a prepare whose guard failed although the item and the marker looked right again.
constexpr int kPrepareAttempts = 3;
// Attempts at ReadItems' two passes before an item that keeps moving answers kConflict.
constexpr int kReadAttempts = 3;
// Attempts at creating a record whose id another Run or a recoverer keeps changing.
constexpr int kCreateAttempts = 3;

int64_t SystemNowMs() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

// 16 random bytes in hex: the attempt's marker value (and the id of a transaction without one).
std::string RandomNonce() {
  thread_local std::mt19937_64 generator{std::random_device{}()};
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (int word = 0; word < 2; ++word) {
    uint64_t bits = generator();
    for (int i = 0; i < 16; ++i, bits >>= 4) out.push_back(kDigits[bits & 15]);
  }
  return out;
}

bool IsGuardFailure(const Status& status) { return status.code() == ErrorCode::kGuardFailed; }

// OK, or kGuardFailed taken as "someone else did it already".
Status IgnoringGuardFailure(const Status& status) { return IsGuardFailure(status) ? Status::Ok() : status; }

}  // namespace

Coordinator::Coordinator(engine::PartitionStore& store, changelog::ChangeApplier& applier, Clock clock)
    : store_(store), applier_(applier), clock_(clock ? std::move(clock) : Clock(SystemNowMs)), ledger_(store) {}

Result<TxnOutcome> Coordinator::Run(std::vector<TxnWrite> writes, std::string id, std::string result) {
  std::set<std::tuple<uint32_t, std::string_view, std::string_view>> items;
  for (const TxnWrite& w : writes) {
    if (!items.emplace(w.keyspace, w.partition_id, w.sort_key).second) {
      return Status(ErrorCode::kValidation, "Transaction request cannot include multiple operations on one item");
    }
  }
  LedgerRecord record;
  record.attempt = RandomNonce();
  record.id = id.empty() ? record.attempt : std::move(id);
  record.created_ms = clock_();
  record.writes = std::move(writes);
  record.result = std::move(result);

  std::optional<StoredRecord> pending;
  for (int attempt = 0; attempt < kCreateAttempts && !pending; ++attempt) {
    auto created = ledger_.Create(record);
    if (created.ok()) {
      pending = std::move(created).value();
      break;
    }
    if (!IsGuardFailure(created.status())) return created.status();
    MT_ASSIGN_OR_RETURN(auto existing, ledger_.Find(record.id));
    if (!existing) continue;  // removed meanwhile: create again
    switch (existing->record.state) {
      case LedgerState::kCommitted:
        MT_RETURN_IF_ERROR(Finish(*existing));
        return TxnOutcome{};
      case LedgerState::kDone:
        return TxnOutcome{};
      case LedgerState::kPending:
        return Status(ErrorCode::kTransactionInProgress, "Transaction is ongoing for the client request token");
      case LedgerState::kAborted: {
        // The aborted attempt's markers go before its record does (nobody else would release them).
        MT_RETURN_IF_ERROR(ReleaseMarkers(existing->record, existing->record.writes.size()));
        auto replaced = ledger_.Move(*existing, record);
        if (replaced.ok()) pending = std::move(replaced).value();
        else if (!IsGuardFailure(replaced.status())) return replaced.status();
        break;
      }
    }
  }
  if (!pending) return Status(ErrorCode::kTransactionInProgress, "Transaction is ongoing for the client request token");

  size_t prepared = 0;
  auto outcome = Prepare(*pending, prepared);
  if (!outcome.ok()) {
    (void)Abort(*pending, prepared, /*remove_record=*/true);  // best effort: Recover() finishes it otherwise
    return outcome.status();
  }
  if (outcome->kind != TxnOutcome::Kind::kCommitted) {
    MT_RETURN_IF_ERROR(Abort(*pending, prepared, /*remove_record=*/true));
    return *outcome;
  }
  LedgerRecord committed = pending->record;
  committed.state = LedgerState::kCommitted;
  auto decided = ledger_.Move(*pending, committed);
  if (!decided.ok()) {
    if (!IsGuardFailure(decided.status())) return decided.status();  // the outcome is Recover()'s to settle
    // A recoverer presumed us dead and aborted the record first.
    MT_RETURN_IF_ERROR(ReleaseMarkers(pending->record, prepared));
    return TxnOutcome{TxnOutcome::Kind::kConflict, 0};
  }
  MT_RETURN_IF_ERROR(Finish(*decided));
  return TxnOutcome{};
}

Result<TxnOutcome> Coordinator::Prepare(const StoredRecord& stored, size_t& prepared) {
  const LedgerRecord& record = stored.record;
  for (size_t i = 0; i < record.writes.size(); ++i) {
    const TxnWrite& w = record.writes[i];
    prepared = i + 1;  // counted before the commit: its acknowledgment may be lost after it applied
    for (int attempt = 0;; ++attempt) {
      engine::PartitionWrite write;
      write.guards.push_back({w.sort_key, w.expected});
      write.marker_guards.push_back({w.sort_key, std::nullopt});
      write.marker_mutations.push_back({w.sort_key, record.attempt});
      Status status = store_.Commit(w.Partition(), std::move(write)).status();
      if (status.ok()) break;
      if (!IsGuardFailure(status)) return status;
      MT_ASSIGN_OR_RETURN(auto item, store_.Get(w.Partition(), w.sort_key));
      if (item != w.expected) return TxnOutcome{TxnOutcome::Kind::kItemChanged, i};
      MT_ASSIGN_OR_RETURN(auto marker, store_.GetMarker(w.Partition(), w.sort_key));
      if (marker || attempt + 1 == kPrepareAttempts) return TxnOutcome{TxnOutcome::Kind::kConflict, i};
    }
  }
  return TxnOutcome{};
}

Status Coordinator::Abort(const StoredRecord& stored, size_t prepared, bool remove_record) {
  LedgerRecord aborted = stored.record;
  aborted.state = LedgerState::kAborted;
  aborted.finished_ms = clock_();
  auto moved = ledger_.Move(stored, aborted);
  if (!moved.ok()) {
    if (!IsGuardFailure(moved.status())) return moved.status();
    // Moved by someone else: released unless this very attempt was committed meanwhile.
    MT_ASSIGN_OR_RETURN(auto now, ledger_.Find(stored.record.id));
    if (now && now->record.attempt == stored.record.attempt) {
      if (now->record.state == LedgerState::kCommitted) return Finish(*now);
      if (now->record.state == LedgerState::kDone) return Status::Ok();
    }
    return ReleaseMarkers(stored.record, prepared);
  }
  MT_RETURN_IF_ERROR(ReleaseMarkers(stored.record, prepared));
  if (!remove_record) return Status::Ok();
  return IgnoringGuardFailure(ledger_.Remove(*moved));
}

Status Coordinator::ReleaseMarkers(const LedgerRecord& record, size_t count) {
  for (size_t i = 0; i < count && i < record.writes.size(); ++i) {
    const TxnWrite& w = record.writes[i];
    engine::PartitionWrite write;
    write.marker_guards.push_back({w.sort_key, record.attempt});
    write.marker_mutations.push_back({w.sort_key, std::nullopt});
    MT_RETURN_IF_ERROR(IgnoringGuardFailure(store_.Commit(w.Partition(), std::move(write)).status()));
  }
  return Status::Ok();
}

Status Coordinator::ApplyAll(const LedgerRecord& record) {
  for (const TxnWrite& w : record.writes) {
    engine::PartitionWrite write;
    write.marker_guards.push_back({w.sort_key, record.attempt});
    write.marker_mutations.push_back({w.sort_key, std::nullopt});
    if (!w.check_only) {
      write.mutations.push_back({w.sort_key, w.new_value});
      if (!w.change.empty()) {
        // The item's LSI entries (colocated with its partition) change in this same commit.
        MT_RETURN_IF_ERROR(applier_.AddLocalIndexWrites(w.Partition(), w.change, write));
        write.log.push_back(w.change);
      }
    }
    // A failed guard: applied already (by a recoverer, or by an earlier run of this record).
    MT_RETURN_IF_ERROR(IgnoringGuardFailure(store_.Commit(w.Partition(), std::move(write)).status()));
    // Drained even then: whoever applied it may have stopped before draining. A write that logged
    // nothing (it derives nothing) leaves nothing to drain.
    if (!w.check_only && !w.change.empty()) MT_RETURN_IF_ERROR(applier_.Drain(w.Partition()));
  }
  return Status::Ok();
}

Status Coordinator::Finish(const StoredRecord& committed) {
  MT_RETURN_IF_ERROR(ApplyAll(committed.record));
  LedgerRecord done = committed.record;
  done.state = LedgerState::kDone;
  done.finished_ms = clock_();
  return IgnoringGuardFailure(ledger_.Move(committed, done).status());
}

Result<std::optional<LedgerRecord>> Coordinator::Find(std::string_view id) {
  MT_ASSIGN_OR_RETURN(auto stored, ledger_.Find(id));
  if (!stored) return std::optional<LedgerRecord>();
  return std::optional<LedgerRecord>(std::move(stored->record));
}

Status Coordinator::Recover(int64_t stale_after_ms) {
  const int64_t now = clock_();
  // A record that cannot be settled now (an engine error) does not hold back the others.
  Status first_failure;
  MT_RETURN_IF_ERROR(ledger_.ForEach([&](StoredRecord stored) {
    Status status = RecoverOne(std::move(stored), now, stale_after_ms);
    if (!status.ok() && first_failure.ok()) first_failure = status;
    return Status::Ok();
  }));
  return first_failure;
}

Status Coordinator::RecoverOne(StoredRecord stored, int64_t now, int64_t stale_after_ms) {
  const LedgerRecord& record = stored.record;
  switch (record.state) {
    case LedgerState::kPending:
      if (now - record.created_ms < stale_after_ms) return Status::Ok();
      return Abort(stored, record.writes.size(), /*remove_record=*/false);
    case LedgerState::kCommitted:
      return Finish(stored);
    case LedgerState::kAborted:
      MT_RETURN_IF_ERROR(ReleaseMarkers(record, record.writes.size()));
      break;
    case LedgerState::kDone:
      break;
  }
  if (now - record.finished_ms < kTokenWindowMs) return Status::Ok();
  return IgnoringGuardFailure(ledger_.Remove(stored));
}

Result<TxnReadOutcome> Coordinator::ReadItems(const std::vector<TxnRead>& reads) {
  size_t moved = 0;
  for (int attempt = 0; attempt < kReadAttempts; ++attempt) {
    TxnReadOutcome outcome;
    outcome.values.resize(reads.size());
    bool stable = true;
    for (int pass = 0; pass < 2 && stable; ++pass) {
      for (size_t i = 0; i < reads.size(); ++i) {
        engine::PartitionRef partition{reads[i].keyspace, reads[i].partition_id};
        MT_ASSIGN_OR_RETURN(auto marker, store_.GetMarker(partition, reads[i].sort_key));
        if (marker) return TxnReadOutcome{TxnReadOutcome::Kind::kConflict, i, {}};
        MT_ASSIGN_OR_RETURN(auto value, store_.Get(partition, reads[i].sort_key));
        if (pass == 0) {
          outcome.values[i] = std::move(value);
        } else if (value != outcome.values[i]) {
          stable = false;
          moved = i;
          break;
        }
      }
    }
    if (stable) return outcome;
  }
  return TxnReadOutcome{TxnReadOutcome::Kind::kConflict, moved, {}};
}

}  // namespace monotable::txn
