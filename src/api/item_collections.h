// Item collections of tables with local secondary indexes: the 10 GB size limit
// (ItemCollectionSizeLimitExceededException) and ReturnItemCollectionMetrics=SIZE.
//
// Contract:
// - Only a table with at least one LSI has item collections (all items sharing a partition key
//   value, plus their LSI entries). For other tables nothing here writes a member or refuses a
//   write, as on DynamoDB.
// - A collection's size is table::EstimateItemCollectionBytes: the engine's range-size
//   approximation over the collection's key ranges, taken once per write (no item is read on
//   RocksDB). It is an estimate, as DynamoDB's own is.
// - The limit: a write that creates an item or makes it bigger in a collection whose estimate plus
//   that growth exceeds the limit is refused, nothing written. Deletes and shrinking updates always
//   pass. The limit is 10 GB; the environment variable MONOTABLE_ITEM_COLLECTION_LIMIT_BYTES
//   overrides it (tests), read once.
// - ItemCollectionMetrics: {"ItemCollectionKey": {<partition key>: value}, "SizeEstimateRangeGB":
//   [lower, upper]} where lower is the whole number of GB of the estimate after the write and
//   upper = lower + 1 (a small collection reports [0.0, 1.0], as DynamoDB does).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "api/operation.h"
#include "table/database.h"

namespace monotable::api {

uint64_t ItemCollectionLimitBytes();

// Database::Write with the item-collection limit applied to `apply`.
// `attempted_size` as for Database::Write.
Result<table::WriteResult> WriteInCollection(table::Database& db, const table::TableHandle& table, const Item& key,
                                             const table::ApplyFn& apply,
                                             const table::AttemptedSizeFn& attempted_size = nullptr);
// The limit as a wrapper of an apply function (for multi-item writes); `key` holds the partition key.
table::ApplyFn LimitItemCollection(table::Database& db, const table::TableHandle& table, const Item& key,
                                   table::ApplyFn apply);

// Single-item writes: the ItemCollectionMetrics member, when the request asks for SIZE and the
// table has LSIs. `key` holds (at least) the partition key of the written item.
void WriteItemCollectionMetrics(OperationContext& ctx, const table::TableHandle& table, const Item& key);

// BatchWriteItem / TransactWriteItems: {"<table>": [metrics, ...]}, one entry per written item of
// a table with LSIs, written only when the request asks for SIZE and there is an entry.
class ItemCollectionMetricsByTable {
 public:
  explicit ItemCollectionMetricsByTable(const rapidjson::Value& request);
  void Add(table::Database& db, const table::TableHandle& table, const Item& key);
  void Write(JsonWriter& w) const;

 private:
  bool wanted_ = false;
  std::vector<std::pair<std::string, std::vector<std::pair<Item, uint64_t>>>> tables_;
};

}  // namespace monotable::api
