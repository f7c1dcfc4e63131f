// Online creation and removal of global secondary indexes (UpdateTable GlobalSecondaryIndexUpdates).
//
// Contract:
// - The caller publishes the new index (IndexStatus CREATING, Backfilling) with Catalog::Modify,
//   so every write from then on maintains it. StartBackfill waits until no request still holds the
//   table's previous description, then
//   backfills the entry of every existing item in the background, each entry committed under a
//   guard on its base item (on a logged store: a re-derive record in the item's partition,
//   table/item_commit.h) (so a concurrent write of that item wins and the build re-reads it),
//   and finally marks the index ACTIVE. The table stays readable and writable throughout, and the
//   finished index is exactly consistent with the table.
// - After the caller removed an index from the description, StartDrop drops its key space once no
//   request can still write to it.
// - A build interrupted by a shutdown resumes when the database is opened again (Resume).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "table/catalog.h"
#include "table/item_commit.h"

namespace monotable::table {

class IndexBuilder {
 public:
  IndexBuilder(engine::PartitionStore& store, ItemCommitter& committer, Catalog& catalog)
      : store_(store), committer_(committer), catalog_(catalog) {}
  ~IndexBuilder();  // stops and joins background work

  // The new index (status CREATING, backfilling) is already published; `previous` is the
  // description handle it replaced.
  void StartBackfill(const std::string& table_name, const std::string& index_name,
                     std::shared_ptr<const TableHandle> previous);
  // The index using `key_prefix` is already removed from the published description.
  void StartDrop(uint32_t key_prefix, std::shared_ptr<const TableHandle> previous);
  // Restarts the backfill of every index still marked as backfilling.
  void Resume();
  // Blocks until every started job finished (tests).
  void WaitIdle();

 private:
  void Backfill(std::stop_token stop, std::string table_name, std::string index_name,
                std::weak_ptr<const TableHandle> previous);
  // Writes the index entries of every item; stops (OK) when the table is dropped meanwhile.
  Status BackfillItems(std::stop_token stop, const TableHandle& handle, const IndexDescription& index);

  // Writes one item's entry (engine key, stored value), guarded by the item's value.
  Status BackfillItem(const TableHandle& handle, const IndexDescription& index, const std::string& key,
                      std::string value);

  engine::PartitionStore& store_;
  ItemCommitter& committer_;
  Catalog& catalog_;
  std::mutex mutex_;
  std::vector<std::jthread> jobs_;
};

}  // namespace monotable::table
