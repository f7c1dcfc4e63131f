// TableLoader: fills a new table with items in large engine batches (restores, imports).
//
// Contract:
// - Add() takes one item (already valid for the table: its key attributes present and of the
//   right types); every kBatchItems items (or ~4 MB) the loader commits the items, their
//   secondary-index entries and the table's statistics in one engine batch, holding the table's
//   gate shared (catalog.h) so that a table dropped meanwhile is refused (ResourceNotFound)
//   instead of receiving keys in its dropped space. Finish() commits the rest.
// - Items are written unguarded: the table is new and nobody else is expected to write it while
//   it is being loaded (a write that does anyway may be overwritten, as on AWS, where a table
//   being restored is not writable). No stream or PITR history records are written.
// - Not thread-safe; one loader per table load.
#pragma once

#include <memory>
#include <string>

#include "engine/engine.h"
#include "model/attribute_value.h"
#include "table/catalog.h"

namespace monotable::backup {

class TableLoader {
 public:
  static constexpr size_t kBatchItems = 1000;
  static constexpr size_t kBatchBytes = 4 << 20;

  TableLoader(engine::Engine& engine, std::shared_ptr<const table::TableHandle> table)
      : engine_(engine), table_(std::move(table)) {}

  Status Add(const Item& item);
  Status Finish();
  int64_t items() const { return items_; }
  int64_t bytes() const { return bytes_; }

 private:
  Status Flush();

  engine::Engine& engine_;
  std::shared_ptr<const table::TableHandle> table_;
  engine::WriteBatch batch_;
  size_t batch_items_ = 0, batch_bytes_ = 0;
  int64_t pending_count_ = 0, pending_size_ = 0;
  int64_t items_ = 0, bytes_ = 0;
};

}  // namespace monotable::backup
