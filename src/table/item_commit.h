// ItemCommitter: how an item write reaches a store that does not apply derived writes in its
// commit (the partitioned test engine, Ceph RADOS): the logged path of engine.h's contract.
//
// Contract:
// - On a store that AppliesDerivedInCommit() (the embedded engines) nothing here is used: writers
//   build one WriteBatch of full keys (items, guards, changelog::AppendDerived's mutations, stream
//   records) and commit it with PartitionStore::CommitWithDerived.
// - CommitItem() commits ONE item's write in its own partition: a guard on the item's stored value
//   as read (nullopt: absent), the new value (nullopt: delete), and the change record
//   (changelog::ItemChange: old and new images, the stream record the writer numbered) appended to
//   the partition's log in the same commit, with the item's LSI entry changes (derived from the
//   change's images: local_mutations on the LSIs' keyspaces, colocated with the table's, engine.h)
//   in that same partition commit; then it drains the partition through the ChangeApplier, so
//   the item's GSI and expiry entries and its stream record are written when it returns OK.
//   kGuardFailed: the item changed since it was read; nothing written. The change's images must
//   be the item as read (old) and as written (new) even when `log` is false.
// - Rederive() logs a change with no old image and the item's stored value as the new one,
//   guarded on that value: the same commit puts the item's LSI entries and the applier then
//   (re)writes every GSI and expiry entry the item needs (puts only, so it is harmless when they
//   exist). Index and TTL backfills use it, as
//   the log orders it before any later write of the item.
// - A plain item write guards `no prepare marker` on its item (txn/coordinator.h): an item held by
//   a transaction answers kTransactionConflict ("Transaction is ongoing for the item"), as AWS
//   answers a write to an item in a transaction.
// - coordinator(): the transaction coordinator of writes of several items (TransactWriteItems),
//   over the same store and applier; RecoverTransactions() finishes or rolls back what a stopped
//   coordinator left (any server may run it).
// - The applier resolves a record's table through the catalog, by key space.
// - Thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "changelog/change_applier.h"
#include "changelog/item_change.h"
#include "engine/engine.h"
#include "model/table_description.h"
#include "table/catalog.h"
#include "txn/coordinator.h"

namespace monotable::table {

// An item's engine key split as a PartitionStore addresses it (views into `key`).
struct ItemAddress {
  engine::PartitionRef partition;
  std::string_view sort_key;
};
Result<ItemAddress> AddressOf(const TableDescription& table, std::string_view item_key);

class ItemCommitter {
 public:
  ItemCommitter(engine::PartitionStore& store, Catalog& catalog, txn::Coordinator::Clock clock);

  // True when item writes take the logged path (the store does not apply derived writes).
  bool logged() const { return logged_; }

  // `log` false: the change derives nothing for the applier (no GSI or expiry entry changes, no
  // stream record), so it is not logged and nothing is drained: one partition commit (LSI entry
  // changes included).
  Status CommitItem(const TableDescription& table, std::string_view item_key, std::optional<std::string> expected,
                    std::optional<std::string> new_value, changelog::ItemChange change, bool log = true);
  Status Rederive(const TableDescription& table, std::string_view item_key, const std::string& stored_value);

  changelog::ChangeApplier& applier() { return applier_; }
  txn::Coordinator& coordinator() { return coordinator_; }

  // A transaction whose coordinator has been silent this long is presumed dead: Recover rolls it
  // back when it was not decided yet.
  static constexpr int64_t kStaleTransactionMs = 5000;
  Status RecoverTransactions() { return coordinator_.Recover(kStaleTransactionMs); }

 private:
  engine::PartitionStore& store_;
  bool logged_;
  changelog::ChangeApplier applier_;
  txn::Coordinator coordinator_;
};

}  // namespace monotable::table
