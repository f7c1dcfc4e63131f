// Multi-item atomic operations (TransactWriteItems, TransactGetItems) on the table layer.
//
// Contract:
// - WriteAtomically reads every target item, calls each action's `apply` (no side effects: it may
//   run again), and commits all resulting item mutations, with everything derived from them
//   (changelog::AppendDerived: index and expiry entries; stream records), in ONE guarded
//   PartitionStore::CommitWithDerived (one engine batch) whose guards cover every target item.
//   If any item changed between the read and the commit,
//   the whole thing is re-read and re-applied; after `max_attempts` such collisions it gives up
//   with every action's outcome set to kTransactionConflict. The result is serializable with
//   respect to every other write (single-item writes use the same guards).
// - If any `apply` refuses (ConditionalCheckFailed, Validation, ItemCollectionSizeLimitExceeded or
//   ProvisionedThroughputExceeded), nothing is written and `outcomes` holds each action's status (OK
//   for the ones that would have succeeded), in request order. Other errors are returned as is.
// - An action whose apply returns the existing item unchanged (ConditionCheck) writes nothing but
//   still guards its item.
// - Every action that applies is charged to the throughput model (table::Throughput) before the
//   commit, a ConditionCheck too (AWS bills it as a write of the item it checked): the table arm
//   in the partition of the action's key, at double rate for kTransactional, and each index arm
//   the write touches in its own partition. A throttled action is refused with
//   ProvisionedThroughputExceeded like any other refusal; what the others consumed stays consumed.
//   An action refused by its condition (ConditionalCheckFailed) is charged too, as AWS consumes
//   write capacity for a failed conditional write: the table arm only, at the action's rate, for the
//   larger of the existing item and `attempted_size` (a missing item and no size: the minimum).
//   Throttled, its outcome is ProvisionedThroughputExceeded instead.
//   A request is charged once: an attempt whose commit loses a race gives its charges back
//   (Throughput::Refund) before the retry, so what stays charged is the attempt that commits, or
//   the last one (refused, or given up on with kTransactionConflict).
// - Grouping::kEachOnItsOwn (BatchWriteItem): the actions are independent writes committed in one
//   engine batch (one WAL record, one write-group pass). A throttled action is left out (its
//   outcome ProvisionedThroughputExceeded, its result empty) and the others still commit; any
//   other refusal is returned as the error with nothing written. `committed` is then true when the
//   batch committed, whatever was left out; `outcomes` holds every action's status.
// - ReadConsistent reads all keys from one engine snapshot; over a store alone, through the
//   transaction coordinator's prepare markers (txn/coordinator.h, ReadItems).
// - On a store that does not apply derived writes in its commit (ItemCommitter::logged()), each
//   single-item or BatchWriteItem write commits in its own item partition with its change logged
//   (table/item_commit.h), and a transaction of several items runs through the transaction
//   coordinator: its prepare markers and ledger replace the one engine batch, with the same
//   outcomes (an item held by another transaction cancels with TransactionConflict at once).
#pragma once

#include <vector>

#include "table/database.h"

namespace monotable::table {

struct WriteAction {
  const TableHandle* table;  // kept alive by the caller
  Item key;
  ApplyFn apply;
  bool check_only = false;  // ConditionCheck: never writes
  AttemptedSizeFn attempted_size;  // null: a failed condition is charged for the existing item only
};

struct TransactionResult {
  bool committed = false;
  std::vector<Status> outcomes;             // one per action when not committed
  std::vector<std::optional<Item>> old_items;  // when not committed: the item each action saw (ALL_OLD)
  std::vector<WriteResult> results;         // one per action when committed
};

// A transaction's table arms cost double (TransactWriteItems, ExecuteTransaction); a single-item
// write's do not.
enum class WriteCharge { kStandard, kTransactional };

// All or nothing (transactions, single-item writes), or independent writes sharing a commit.
enum class Grouping { kAllOrNothing, kEachOnItsOwn };

// `also_commit`: mutations committed in the same engine batch when the actions commit (a
// ClientRequestToken's record, txn/idempotency.h).
Result<TransactionResult> WriteAtomically(Database& db, const std::vector<WriteAction>& actions, WriteCharge charge,
                                          int max_attempts = 16, Grouping grouping = Grouping::kAllOrNothing,
                                          const std::vector<engine::Mutation>& also_commit = {});

struct ReadTarget {
  std::shared_ptr<const TableHandle> table;
  Item key;
};

// kTransactionConflict when an item is held by a transaction being committed (a store without an
// ordered engine reads through prepare markers); `conflict_index` then names the target.
Result<std::vector<std::optional<Item>>> ReadConsistent(Database& db, const std::vector<ReadTarget>& targets,
                                                        size_t* conflict_index = nullptr);

}  // namespace monotable::table
