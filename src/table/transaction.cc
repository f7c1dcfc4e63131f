#include "table/transaction.h"

#include <algorithm>
#include <mutex>
#include <shared_mutex>

#include "changelog/change_applier.h"
#include "model/capacity.h"
#include "model/item_codec.h"
#include "table/change_log.h"
#include "changelog/keys.h"
#include "table/item_commit.h"
#include "txn/coordinator.h"

namespace monotable::table {

namespace {

// The throughput-model arms of one write: the table arm in the partition of the item's key (a
// transaction's at double rate, a ConditionCheck's like a write of the item it checked, a write
// or check of a missing item at the minimum), each index arm in the partition of the item's index
// key. `fn(index, partition_key, units)` runs for each, the table arm first; it stops at the first
// error and returns it.
template <typename Fn>
Status ForEachWriteArm(const TableHandle& handle, const Item& key, const Item* old_item, const WriteResult& result,
                       WriteCharge charge, Fn&& fn) {
  const TableDescription& table = *handle.description;
  auto key_of = [](const Item& i, const std::string& name) -> const AttributeValue* {
    auto it = i.find(name);
    return it == i.end() ? nullptr : &it->second;
  };
  size_t size = std::max(old_item ? ItemSize(*old_item) : 0, result.new_item ? ItemSize(*result.new_item) : 0);
  MT_RETURN_IF_ERROR(
      fn(nullptr, key_of(key, table.hash_key()), WriteUnits(size, charge == WriteCharge::kTransactional)));
  for (const IndexWriteCost& cost : result.index_costs) {
    const std::string& index_hash = cost.index->key_schema[0].name;
    const AttributeValue* index_key = result.new_item ? key_of(*result.new_item, index_hash) : nullptr;
    if (!index_key && old_item) index_key = key_of(*old_item, index_hash);
    MT_RETURN_IF_ERROR(fn(cost.index, index_key, cost.units));
  }
  return Status::Ok();
}

// Charges a write to the throughput model. Throttled: ProvisionedThroughputExceededException.
Status ChargeWrite(Database& db, const TableHandle& handle, const Item& key, const Item* old_item,
                   const WriteResult& result, WriteCharge charge) {
  int64_t bytes = handle.stats->size_bytes.load(std::memory_order_relaxed);
  return ForEachWriteArm(handle, key, old_item, result, charge,
                         [&](const IndexDescription* index, const AttributeValue* partition_key, double units) {
                           return db.throughput().Consume(*handle.description, index, partition_key, units,
                                                          /*write=*/true, bytes);
                         });
}

// Charges a write refused by its condition: the table arm, for the larger of the item it found and
// the item it would have written.
Status ChargeFailedCondition(Database& db, const WriteAction& action, const Item* existing, WriteCharge charge) {
  const TableDescription& table = *action.table->description;
  size_t size = std::max(existing ? ItemSize(*existing) : 0,
                         action.attempted_size ? action.attempted_size(existing) : 0);
  auto it = action.key.find(table.hash_key());
  return db.throughput().Consume(table, nullptr, it == action.key.end() ? nullptr : &it->second,
                                 WriteUnits(size, charge == WriteCharge::kTransactional), /*write=*/true,
                                 action.table->stats->size_bytes.load(std::memory_order_relaxed));
}

// Gives back what ChargeWrite took (every arm succeeded), for an attempt that is retried.
void RefundWrite(Database& db, const TableHandle& handle, const Item& key, const Item* old_item,
                 const WriteResult& result, WriteCharge charge) {
  int64_t bytes = handle.stats->size_bytes.load(std::memory_order_relaxed);
  (void)ForEachWriteArm(handle, key, old_item, result, charge,
                        [&](const IndexDescription* index, const AttributeValue* partition_key, double units) {
                          db.throughput().Refund(*handle.description, index, partition_key, units, /*write=*/true,
                                                 bytes);
                          return Status::Ok();
                        });
}

// Commits `batch` while holding the gates of the actions' tables shared (catalog.h): a table
// dropped meanwhile refuses the write (ResourceNotFoundException, as a write to a table that is
// gone) instead of leaving its keys in the dropped table's space.
Status CommitUnlessDropped(Database& db, const std::vector<WriteAction>& actions, const engine::WriteBatch& batch) {
  std::vector<TableGate*> gates;
  gates.reserve(actions.size());
  for (const auto& a : actions) {
    if (a.table->gate) gates.push_back(a.table->gate.get());
  }
  std::sort(gates.begin(), gates.end());
  gates.erase(std::unique(gates.begin(), gates.end()), gates.end());
  std::vector<std::shared_lock<std::shared_mutex>> held;
  held.reserve(gates.size());
  for (TableGate* gate : gates) {
    held.emplace_back(gate->mutex);
    if (gate->dropped) return Status::NotFound("Requested resource not found");
  }
  return db.store().CommitWithDerived(batch);
}

// Whether an apply's refusal cancels the write (an action's outcome) rather than failing the request.
bool CancelsTheWrite(ErrorCode code) {
  return code == ErrorCode::kConditionalCheckFailed || code == ErrorCode::kValidation ||
         code == ErrorCode::kItemCollectionSizeLimitExceeded || code == ErrorCode::kProvisionedThroughputExceeded ||
         code == ErrorCode::kDuplicateItem;
}

// Every action's outcome TransactionConflict: given up after the last attempt lost its race.
TransactionResult GaveUp(size_t actions) {
  TransactionResult conflict;
  for (size_t i = 0; i < actions; ++i) {
    conflict.outcomes.emplace_back(ErrorCode::kTransactionConflict, "Transaction is ongoing for the item");
    conflict.old_items.emplace_back();
  }
  return conflict;
}

// One action of the logged path, read and applied: what its partition commit needs.
struct LoggedAttempt {
  std::optional<std::string> raw;  // the item as stored when read
  std::optional<Item> old_item;
  WriteResult result;
  std::optional<std::string> encoded;  // the new item's encoding
  bool derives = false;  // the write changes a GSI or expiry entry (the applier has work)
  bool changes_local = false;  // the write changes an LSI entry (written with the item: item_commit.h)
  Status outcome = Status::Ok();
};

// Reads the action's item and applies it, charging the throughput model as the embedded path does.
// A non-OK Result is an internal failure; a refusal is the attempt's `outcome`.
Result<LoggedAttempt> ReadAndApply(Database& db, const WriteAction& action, const std::string& key,
                                   WriteCharge charge) {
  LoggedAttempt attempt;
  const TableDescription& table = *action.table->description;
  MT_ASSIGN_OR_RETURN(ItemAddress address, AddressOf(table, key));
  MT_ASSIGN_OR_RETURN(attempt.raw, db.store().Get(address.partition, address.sort_key));
  if (attempt.raw) {
    MT_ASSIGN_OR_RETURN(Item decoded, DecodeItem(*attempt.raw));
    attempt.old_item = std::move(decoded);
  }
  const Item* old_item = attempt.old_item ? &*attempt.old_item : nullptr;
  auto applied = action.apply(old_item);
  if (!applied.ok()) {
    ErrorCode code = applied.status().code();
    if (!CancelsTheWrite(code)) {
      return applied.status();
    }
    attempt.outcome = applied.status();
    if (code == ErrorCode::kConditionalCheckFailed) {
      Status charged = ChargeFailedCondition(db, action, old_item, charge);
      if (charged.code() == ErrorCode::kProvisionedThroughputExceeded) {
        attempt.outcome = charged;
      } else {
        MT_RETURN_IF_ERROR(charged);
      }
    }
    return attempt;
  }
  attempt.result.new_item = std::move(applied).value();
  if (!action.check_only) {
    if (attempt.result.new_item) attempt.encoded = EncodeItem(*attempt.result.new_item);
    // The index arms' costs (the entries themselves are written by the change-log applier).
    engine::WriteBatch derived, local;
    const Item* new_item = attempt.result.new_item ? &*attempt.result.new_item : nullptr;
    const std::string* encoded = attempt.encoded ? &*attempt.encoded : nullptr;
    attempt.result.index_costs = changelog::AppendDerived(table, old_item, new_item, {}, derived, nullptr, encoded,
                                                          IndexScope::kGlobal);
    for (const IndexWriteCost& cost :
         AddIndexMutations(table, old_item, new_item, local, encoded, nullptr, IndexScope::kLocal)) {
      attempt.result.index_costs.push_back(cost);
    }
    attempt.derives = !derived.mutations.empty();
    attempt.changes_local = !local.mutations.empty();
  }
  attempt.outcome = ChargeWrite(db, *action.table, action.key, old_item, attempt.result, charge);
  return attempt;
}

// The change record of an applied action: its images and its stream record, numbered by
// `changes` (settled by its owner once the commit is over).
changelog::ItemChange ChangeOf(const TableDescription& table, const LoggedAttempt& attempt, ChangeLogBatch& changes) {
  const Item* old_item = attempt.old_item ? &*attempt.old_item : nullptr;
  const Item* new_item = attempt.result.new_item ? &*attempt.result.new_item : nullptr;
  changes.Add(table, old_item, new_item);
  engine::WriteBatch stream_records;
  changelog::ItemChange change;
  // The change hooks' mutations (PITR history) come addressed; the stream records go to
  // change.stream (the applier numbers them in the stream's shards: changelog/stream_append.h).
  changes.AppendTo(stream_records, &change.extra, &change.stream);
  change.table_keyspace = table.key_prefix;
  change.old_image = attempt.old_item;
  change.new_image = attempt.result.new_item;
  for (engine::Mutation& m : stream_records.mutations) {
    // Stream records live in their stream's partition "" of its key space: the sort key follows
    // the 4-byte key space.
    change.extra.push_back({std::move(m.key), 4, std::move(m.value)});
  }
  return change;
}

// Commits one applied action in its item's partition with its change logged (ItemCommitter),
// holding the table's gate shared. kGuardFailed: the item changed since it was read.
Status CommitLoggedAttempt(Database& db, const WriteAction& action, const std::string& key, LoggedAttempt& attempt) {
  const TableDescription& table = *action.table->description;
  ChangeLogBatch changes(db.streams());
  changelog::ItemChange change = ChangeOf(table, attempt, changes);
  std::shared_lock gate(action.table->gate->mutex);
  if (action.table->gate->dropped) return Status::NotFound("Requested resource not found");
  // A change that derives nothing (no index or expiry entry, no stream record) needs no log record.
  const bool log = attempt.derives || !change.extra.empty() || !change.stream.empty();
  return db.committer().CommitItem(table, key, attempt.raw, attempt.encoded, std::move(change), log);
}

void CountCommitted(const WriteAction& action, const WriteResult& r) {
  auto& stats = *action.table->stats;
  stats.item_count += (r.new_item ? 1 : 0) - (r.old_item ? 1 : 0);
  stats.size_bytes += static_cast<int64_t>(r.new_item ? ItemSize(*r.new_item) : 0) -
                      static_cast<int64_t>(r.old_item ? ItemSize(*r.old_item) : 0);
}

// A transaction of several items on the logged path: read and apply every action, then hand the
// writes to the transaction coordinator (txn/coordinator.h). An item changed since it was read
// re-runs the whole attempt (charged once, as on the embedded path); an item held by another
// transaction cancels with TransactionConflict for that action. `also_commit` (the
// ClientRequestToken's record) names the ledger record, so a retry of the token after a crash
// finds the transaction's outcome there, and is committed once the transaction is.
Result<TransactionResult> WriteThroughCoordinator(Database& db, const std::vector<WriteAction>& actions,
                                                  const std::vector<std::string>& keys, WriteCharge charge,
                                                  int max_attempts, const std::vector<engine::Mutation>& also_commit) {
  std::string ledger_id = also_commit.empty() ? std::string() : also_commit.front().key;
  for (int attempt_number = 0; attempt_number < max_attempts; ++attempt_number) {
    TransactionResult out;
    std::vector<LoggedAttempt> attempts;
    attempts.reserve(actions.size());
    bool refused = false;
    for (size_t i = 0; i < actions.size(); ++i) {
      MT_ASSIGN_OR_RETURN(LoggedAttempt attempt, ReadAndApply(db, actions[i], keys[i], charge));
      if (!attempt.outcome.ok()) refused = true;
      out.outcomes.push_back(attempt.outcome);
      out.old_items.push_back(attempt.old_item);
      attempts.push_back(std::move(attempt));
    }
    if (refused) return out;
    std::vector<std::unique_ptr<ChangeLogBatch>> changes;  // settle their stream numbers on return
    std::vector<txn::TxnWrite> writes;
    writes.reserve(actions.size());
    for (size_t i = 0; i < actions.size(); ++i) {
      const TableDescription& table = *actions[i].table->description;
      MT_ASSIGN_OR_RETURN(ItemAddress address, AddressOf(table, keys[i]));
      txn::TxnWrite& write = writes.emplace_back();
      write.keyspace = address.partition.keyspace;
      write.partition_id = std::string(address.partition.id);
      write.sort_key = std::string(address.sort_key);
      write.expected = attempts[i].raw;
      write.check_only = actions[i].check_only;
      if (!write.check_only) {
        write.new_value = attempts[i].encoded;
        changes.push_back(std::make_unique<ChangeLogBatch>(db.streams()));
        changelog::ItemChange change = ChangeOf(table, attempts[i], *changes.back());
        // A change that derives nothing needs no log record (and its partition no drain); one that
        // changes an LSI entry carries it, as the coordinator derives the LSI writes from it.
        if (attempts[i].derives || attempts[i].changes_local || !change.extra.empty() || !change.stream.empty()) {
          write.change = changelog::EncodeItemChange(change);
        }
      }
    }
    Result<txn::TxnOutcome> ran = Status::Ok();
    {
      std::vector<std::shared_lock<std::shared_mutex>> gates;
      std::vector<TableGate*> seen;
      for (const auto& a : actions) {
        TableGate* gate = a.table->gate.get();
        if (std::find(seen.begin(), seen.end(), gate) != seen.end()) continue;
        seen.push_back(gate);
      }
      std::sort(seen.begin(), seen.end());
      for (TableGate* gate : seen) {
        gates.emplace_back(gate->mutex);
        if (gate->dropped) return Status::NotFound("Requested resource not found");
      }
      ran = db.committer().coordinator().Run(std::move(writes), ledger_id);
    }
    MT_RETURN_IF_ERROR(ran.status());
    const txn::TxnOutcome outcome = *ran;
    if (outcome.kind == txn::TxnOutcome::Kind::kItemChanged && attempt_number + 1 < max_attempts) {
      for (size_t i = 0; i < actions.size(); ++i) {
        const Item* old_item = attempts[i].old_item ? &*attempts[i].old_item : nullptr;
        RefundWrite(db, *actions[i].table, actions[i].key, old_item, attempts[i].result, charge);
      }
      continue;
    }
    if (outcome.kind != txn::TxnOutcome::Kind::kCommitted) {
      // Held by another transaction (or still changing after every attempt): cancelled.
      for (Status& s : out.outcomes) s = Status::Ok();
      out.outcomes[outcome.index] = Status(ErrorCode::kTransactionConflict, "Transaction is ongoing for the item");
      return out;
    }
    if (!also_commit.empty()) {
      // The token's records are in the system partition (key space 0, partition id ""): one commit.
      engine::PartitionWrite write;
      for (const engine::Mutation& m : also_commit) write.mutations.push_back({m.key.substr(4), m.value});
      MT_RETURN_IF_ERROR(db.store().Commit({kSystemKeyPrefix, ""}, std::move(write)).status());
    }
    out.results.resize(actions.size());
    for (size_t i = 0; i < actions.size(); ++i) {
      out.results[i] = std::move(attempts[i].result);
      out.results[i].old_item = std::move(attempts[i].old_item);
      if (!actions[i].check_only) CountCommitted(actions[i], out.results[i]);
    }
    out.committed = true;
    out.old_items.clear();
    out.outcomes.clear();
    return out;
  }
  return GaveUp(actions.size());
}

// The logged path (ItemCommitter::logged()): every action commits in its own item partition.
// Single-item writes and BatchWriteItem's independent writes; a transaction of several items
// needs the transaction coordinator (src/txn).
Result<TransactionResult> WriteLogged(Database& db, const std::vector<WriteAction>& actions, WriteCharge charge,
                                      int max_attempts, Grouping grouping,
                                      const std::vector<engine::Mutation>& also_commit) {
  const bool each_on_its_own = grouping == Grouping::kEachOnItsOwn;
  std::vector<std::string> keys;
  keys.reserve(actions.size());
  for (const auto& a : actions) keys.push_back(ItemKeyOf(*a.table->description, a.key));
  if (actions.size() > 1 && !each_on_its_own) {
    return WriteThroughCoordinator(db, actions, keys, charge, max_attempts, also_commit);
  }
  // Every action is read and applied before any commits, so a refusal writes nothing.
  std::vector<LoggedAttempt> attempts;
  attempts.reserve(actions.size());
  TransactionResult out;
  bool refused = false;
  for (size_t i = 0; i < actions.size(); ++i) {
    MT_ASSIGN_OR_RETURN(LoggedAttempt attempt, ReadAndApply(db, actions[i], keys[i], charge));
    const Status& outcome = attempt.outcome;
    if (!outcome.ok() && each_on_its_own && outcome.code() != ErrorCode::kProvisionedThroughputExceeded) {
      return outcome;
    }
    if (!outcome.ok() && !each_on_its_own) refused = true;
    out.outcomes.push_back(outcome);
    out.old_items.push_back(attempt.old_item);
    attempts.push_back(std::move(attempt));
  }
  if (refused) return out;
  out.results.resize(actions.size());
  for (size_t i = 0; i < actions.size(); ++i) {
    if (!out.outcomes[i].ok()) continue;  // throttled: left out
    for (int tries = 1;; ++tries) {
      LoggedAttempt& attempt = attempts[i];
      Status committed = actions[i].check_only ? Status::Ok() : CommitLoggedAttempt(db, actions[i], keys[i], attempt);
      if (committed.ok()) break;
      if (committed.code() != ErrorCode::kGuardFailed) return committed;
      // Lost a race: charged once, for the attempt that commits (or the last one).
      const Item* old_item = attempt.old_item ? &*attempt.old_item : nullptr;
      if (tries >= max_attempts) {
        out.outcomes[i] = Status(ErrorCode::kTransactionConflict, "Transaction is ongoing for the item");
        if (!each_on_its_own) {
          out.results.clear();
          return out;
        }
        break;
      }
      RefundWrite(db, *actions[i].table, actions[i].key, old_item, attempt.result, charge);
      MT_ASSIGN_OR_RETURN(attempt, ReadAndApply(db, actions[i], keys[i], charge));
      out.outcomes[i] = attempt.outcome;
      out.old_items[i] = attempt.old_item;
      if (!attempt.outcome.ok()) {
        if (!each_on_its_own) {
          out.results.clear();
          return out;
        }
        if (attempt.outcome.code() != ErrorCode::kProvisionedThroughputExceeded) return attempt.outcome;
        break;
      }
    }
    if (!out.outcomes[i].ok()) continue;
    out.results[i] = std::move(attempts[i].result);
    out.results[i].old_item = std::move(attempts[i].old_item);
    if (!actions[i].check_only) CountCommitted(actions[i], out.results[i]);
  }
  out.committed = true;
  out.old_items.clear();
  if (!each_on_its_own) out.outcomes.clear();
  return out;
}

}  // namespace

Result<TransactionResult> WriteAtomically(Database& db, const std::vector<WriteAction>& actions, WriteCharge charge,
                                          int max_attempts, Grouping grouping,
                                          const std::vector<engine::Mutation>& also_commit) {
  if (db.committer().logged()) return WriteLogged(db, actions, charge, max_attempts, grouping, also_commit);
  const bool each_on_its_own = grouping == Grouping::kEachOnItsOwn;
  std::vector<std::string> keys;
  keys.reserve(actions.size());
  for (const auto& a : actions) keys.push_back(ItemKeyOf(*a.table->description, a.key));

  // Each action's old item lives in out.old_items (reserved, so pointers into it stay valid) until
  // the commit moves it into the action's result: one decoded copy, never duplicated.
  auto old_of = [](const std::optional<Item>& item) { return item ? &*item : nullptr; };
  for (int attempt = 0; attempt < max_attempts; ++attempt) {
    TransactionResult out;
    out.old_items.reserve(actions.size());
    engine::WriteBatch batch;
    ChangeLogBatch changes(db.streams());  // settles its sequence numbers when this attempt ends
    bool refused = false;
    for (size_t i = 0; i < actions.size(); ++i) {
      uint64_t token = db.engine().ReadToken(keys[i]);  // before the read: lets Commit skip re-reading
      MT_ASSIGN_OR_RETURN(auto raw, db.engine().GetForWrite(keys[i]));
      std::optional<Item>& old_slot = out.old_items.emplace_back();
      if (raw) {
        MT_ASSIGN_OR_RETURN(Item decoded, DecodeItem(*raw));
        old_slot = std::move(decoded);
      }
      const Item* old_item = old_of(old_slot);
      const bool existed = raw.has_value();
      batch.guards.push_back({keys[i], std::move(raw), token});
      auto applied = actions[i].apply(old_item);
      if (!applied.ok() && each_on_its_own) return applied.status();
      if (!applied.ok()) {
        ErrorCode code = applied.status().code();
        if (!CancelsTheWrite(code)) {
          return applied.status();  // an internal failure is not a cancellation
        }
        Status outcome = applied.status();
        if (code == ErrorCode::kConditionalCheckFailed) {
          Status charged = ChargeFailedCondition(db, actions[i], old_item, charge);
          if (charged.code() == ErrorCode::kProvisionedThroughputExceeded) {
            outcome = charged;
          } else {
            MT_RETURN_IF_ERROR(charged);
          }
        }
        out.outcomes.push_back(std::move(outcome));
        refused = true;
        continue;
      }
      out.outcomes.push_back(Status::Ok());
      WriteResult result{std::nullopt, std::move(applied).value(), {}};  // old_item: at the commit
      const size_t mutations_before = batch.mutations.size();
      if (!actions[i].check_only) {
        // The item's encoding is also what its indexes projecting ALL store: encoded once.
        std::optional<std::string> encoded;
        if (result.new_item) encoded = EncodeItem(*result.new_item);
        // Its GSI, LSI and expiry entries: derived in this very commit (the store applies derived
        // writes in the commit; the stream records join below, through `changes`).
        result.index_costs = changelog::AppendDerived(*actions[i].table->description, old_item,
                                                      old_of(result.new_item), {}, batch, nullptr,
                                                      encoded ? &*encoded : nullptr);
        if (encoded) {
          batch.mutations.push_back({keys[i], std::move(*encoded)});
        } else if (existed) {
          batch.mutations.push_back({keys[i], std::nullopt});
        }
      }
      Status charged = ChargeWrite(db, *actions[i].table, actions[i].key, old_item, result, charge);
      if (!charged.ok()) {
        out.outcomes.back() = charged;
        if (each_on_its_own && charged.code() == ErrorCode::kProvisionedThroughputExceeded) {
          batch.mutations.resize(mutations_before);  // left out; the others still commit
          out.results.emplace_back();
          continue;
        }
        refused = true;
      } else if (!actions[i].check_only) {
        changes.Add(*actions[i].table->description, old_item, old_of(result.new_item));
      }
      out.results.push_back(std::move(result));
    }
    if (refused) {
      out.results.clear();
      return out;
    }
    changes.AppendTo(batch);
    batch.mutations.insert(batch.mutations.end(), also_commit.begin(), also_commit.end());
    Status committed = CommitUnlessDropped(db, actions, batch);
    changes.Settle();
    if (committed.code() == ErrorCode::kGuardFailed) {
      // Lost a race: the request is charged once, for the attempt that commits (or the last one).
      if (attempt + 1 < max_attempts) {
        for (size_t i = 0; i < actions.size(); ++i) {
          if (out.outcomes[i].ok()) {
            RefundWrite(db, *actions[i].table, actions[i].key, old_of(out.old_items[i]), out.results[i], charge);
          }
        }
      }
      continue;
    }
    MT_RETURN_IF_ERROR(committed);
    for (size_t i = 0; i < actions.size(); ++i) {
      if (!out.outcomes[i].ok()) continue;
      out.results[i].old_item = std::move(out.old_items[i]);
      if (actions[i].check_only) continue;
      const auto& r = out.results[i];
      auto& stats = *actions[i].table->stats;
      stats.item_count += (r.new_item ? 1 : 0) - (r.old_item ? 1 : 0);
      stats.size_bytes += static_cast<int64_t>(r.new_item ? ItemSize(*r.new_item) : 0) -
                          static_cast<int64_t>(r.old_item ? ItemSize(*r.old_item) : 0);
    }
    out.committed = true;
    out.old_items.clear();
    if (!each_on_its_own) out.outcomes.clear();
    return out;
  }
  return GaveUp(actions.size());
}

Result<std::vector<std::optional<Item>>> ReadConsistent(Database& db, const std::vector<ReadTarget>& targets,
                                                        size_t* conflict_index) {
  std::vector<std::optional<Item>> items;
  items.reserve(targets.size());
  std::vector<std::optional<std::string>> raws;
  raws.reserve(targets.size());
  if (db.has_engine()) {
    // One engine snapshot.
    auto snapshot = db.engine().GetSnapshot();
    for (const auto& t : targets) {
      MT_ASSIGN_OR_RETURN(auto raw, db.engine().Get(ItemKeyOf(*t.table->description, t.key), snapshot.get()));
      raws.push_back(std::move(raw));
    }
  } else {
    // Through the transactions' prepare markers (txn/coordinator.h, ReadItems).
    std::vector<txn::TxnRead> reads;
    reads.reserve(targets.size());
    for (const auto& t : targets) {
      std::string key = ItemKeyOf(*t.table->description, t.key);
      MT_ASSIGN_OR_RETURN(ItemAddress address, AddressOf(*t.table->description, key));
      reads.push_back({address.partition.keyspace, std::string(address.partition.id), std::string(address.sort_key)});
    }
    MT_ASSIGN_OR_RETURN(txn::TxnReadOutcome read, db.committer().coordinator().ReadItems(reads));
    if (read.kind == txn::TxnReadOutcome::Kind::kConflict) {
      if (conflict_index) *conflict_index = read.index;
      return Status(ErrorCode::kTransactionConflict, "Transaction is ongoing for the item");
    }
    raws = std::move(read.values);
  }
  for (auto& raw : raws) {
    if (!raw) {
      items.emplace_back();
      continue;
    }
    MT_ASSIGN_OR_RETURN(Item item, DecodeItem(*raw));
    items.emplace_back(std::move(item));
  }
  return items;
}

}  // namespace monotable::table
