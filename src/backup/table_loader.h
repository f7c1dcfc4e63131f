// TableLoader: fills a new table with items (restores, imports).
//
// Contract:
// - Add() takes one item (already valid for the table: its key attributes present and of the
//   right types), holding the table's gate shared (catalog.h) when it writes, so that a table
//   dropped meanwhile is refused (ResourceNotFound) instead of receiving keys in its dropped space.
// - On a store that AppliesDerivedInCommit() (the embedded engines) the loader commits every
//   kBatchItems items (or ~4 MB) with their secondary-index entries in one CommitWithDerived
//   batch; Finish() commits the rest.
// - On a logged store (db.committer().logged(): the partitioned engine, RADOS) every item goes
//   through the logged write path (ItemCommitter::CommitItem, one partition commit each) so that
//   the change-log applier derives its GSI, LSI and expiry entries; Add() has written the item and
//   its derived entries when it returns. Finish() has nothing left to do.
// - Items are written over whatever the key holds: the table is new and nobody else is expected to
//   write it while it is being loaded (a write that does anyway may be overwritten, as on AWS,
//   where a table being restored is not writable). No stream or PITR history records are written.
// - The table's statistics (item count, size) grow with what was committed.
// - Not thread-safe; one loader per table load.
#pragma once

#include <memory>
#include <string>

#include "engine/engine.h"
#include "model/attribute_value.h"
#include "table/catalog.h"

namespace monotable::table {
class Database;
}

namespace monotable::backup {

class TableLoader {
 public:
  static constexpr size_t kBatchItems = 1000;
  static constexpr size_t kBatchBytes = 4 << 20;

  TableLoader(table::Database& db, std::shared_ptr<const table::TableHandle> table)
      : db_(db), table_(std::move(table)) {}

  Status Add(const Item& item);
  Status Finish();
  int64_t items() const { return items_; }
  int64_t bytes() const { return bytes_; }

 private:
  Status Flush();
  Status AddLogged(const Item& item, std::string encoded, int64_t size);

  table::Database& db_;
  std::shared_ptr<const table::TableHandle> table_;
  engine::WriteBatch batch_;
  size_t batch_items_ = 0, batch_bytes_ = 0;
  int64_t pending_count_ = 0, pending_size_ = 0;
  int64_t items_ = 0, bytes_ = 0;
};

}  // namespace monotable::backup
