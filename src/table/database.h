// Database: the in-process C++ API of monotable (libmonotable). The HTTP server is a thin
// front end over it; tools and tests may use it directly.
//
// Contract:
// - Open() opens the engine (RocksDB under `path`, or memory) and loads the catalog.
// - Every item write goes through Write(): a read-modify-write of one item. The `apply`
//   callback sees the current item (nullptr when absent) and returns the new item (nullopt to
//   delete it) or a Status to refuse (e.g. ConditionalCheckFailed). It must have no side effects:
//   if another writer changes the item between the read and the commit, the commit's guard fails
//   and Write() calls `apply` again on the newer item. Items, statistics (and later index
//   entries and change records) commit in one atomic engine batch.
// - Reads (GetItem) are served from the latest committed state; every committed write is visible
//   to every later read, so eventually and strongly consistent reads behave alike here.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "engine/engine.h"
#include "model/attribute_value.h"
#include "table/catalog.h"
#include "table/index_builder.h"

namespace monotable::table {

struct DatabaseOptions {
  std::string path;        // RocksDB data directory
  bool in_memory = false;  // use the memory engine instead
  bool sync = false;       // fsync the WAL before acknowledging a write
};

struct WriteResult {
  std::optional<Item> old_item;  // the item before the write, if it existed
  std::optional<Item> new_item;  // the item after the write, if it exists
};

using ApplyFn = std::function<Result<std::optional<Item>>(const Item* existing)>;

// Appends the index-entry mutations that turn `old_item` into `new_item` (either may be null)
// for every secondary index of `table`.
void AddIndexMutations(const TableDescription& table, const Item* old_item, const Item* new_item,
                       engine::WriteBatch& batch);

class Database {
 public:
  static Result<std::unique_ptr<Database>> Open(const DatabaseOptions& options);
  explicit Database(std::unique_ptr<engine::Engine> engine);

  Catalog& catalog() { return catalog_; }
  IndexBuilder& index_builder() { return index_builder_; }
  engine::Engine& engine() { return *engine_; }

  // The table, or ResourceNotFoundException "Requested resource not found".
  Result<std::shared_ptr<const TableHandle>> Table(std::string_view name) const;

  // `key` must already be validated against the table's key schema (ValidateKey).
  Result<std::optional<Item>> GetItem(const TableHandle& table, const Item& key);
  Result<WriteResult> Write(const TableHandle& table, const Item& key, const ApplyFn& apply);

 private:
  std::unique_ptr<engine::Engine> engine_;
  Catalog catalog_;
  IndexBuilder index_builder_{*engine_, catalog_};  // destroyed first: stops background builds
};

}  // namespace monotable::table
