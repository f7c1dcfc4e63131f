// Reader: Query and Scan pages over a table or one of its indexes.
//
// Contract:
// - A Query page is one ranged read of one partition (engine::PartitionStore::ReadRange), forward
//   or backward, from a consistent view of that partition. A Scan page walks the partition
//   directory in hash order (ScanKeyspace; always forward), each partition from a consistent view
//   of it; there is no view across partitions, as on DynamoDB.
// - Reading stops after `limit` items, or once the items read reach 1 MB (the item that crosses
//   the limit is included), as DynamoDB does; then `last_evaluated_key` is set (also when the
//   limit is reached exactly at the end of the data, as DynamoDB does). Filters and projections
//   are the caller's business: every item read is returned and counted in `bytes_read`.
// - Items come back as stored records (the item codec's bytes): a caller that only passes them
//   on (Query/Scan without filter or projection) writes them out without building Items;
//   Page::Decode() gives the Item.
// - Items returned by an index read are the index's projected items. An LSI is read as a keyspace
//   colocated with the table's (engine.h: its partitions live in the table's partitions).
// - `exclusive_start` (already validated by the caller) resumes strictly after that position.
#pragma once

#include <optional>
#include <vector>

#include "table/database.h"

namespace monotable::table {

enum class SortOp { kNone, kEq, kLt, kLe, kGt, kGe, kBetween, kBeginsWith };

struct SortCondition {
  std::vector<AttributeValue> equal_prefix;  // leading sort attributes fixed by '=' (multi-attribute keys)
  SortOp op = SortOp::kNone;                 // condition on the next sort attribute
  AttributeValue first;
  AttributeValue second;  // BETWEEN's upper bound
};

struct PageOptions {
  bool forward = true;
  std::optional<int64_t> limit;
  const Item* exclusive_start = nullptr;
  uint64_t max_bytes = 1024 * 1024;
};

struct Page {
  std::vector<std::string> records;  // encoded items (model/item_codec.h), in read order
  Result<Item> Decode(size_t i) const;
  std::optional<Item> last_evaluated_key;
  uint64_t bytes_read = 0;
};

// `partition` holds the values of the index's (or table's) partition attributes, in schema order.
Result<Page> QueryPartition(Database& db, const TableHandle& table, const IndexDescription* index,
                            const std::vector<AttributeValue>& partition, const SortCondition& sort,
                            const PageOptions& options);

Result<Page> ScanSegment(Database& db, const TableHandle& table, const IndexDescription* index, int segment,
                         int total_segments, const PageOptions& options);

// Whether `start` (the ExclusiveStartKey of a Scan of `index`, nullptr: the table) lies in scan
// segment `segment` of `total_segments` (the segment its partition key hashes to).
bool InScanSegment(const TableDescription& table, const IndexDescription* index, const Item& start, int segment,
                   int total_segments);

}  // namespace monotable::table
