// Secondary index entries: where an item appears in a GSI or LSI, and what is stored there.
//
// Layout of an entry key (all components order-preserving, see model/item_codec.h):
//   [index key_prefix u32][hash u64][index partition components][index sort components]
//   [table hash component][table range component, if any]
// The hash covers the index partition components (for an LSI: the table's partition key), so an
// index partition is one contiguous range ordered by the index sort key, then the table key.
// The value is the projected item (KEYS_ONLY: table and index keys; INCLUDE: plus the listed
// attributes; ALL: the whole item). An item lacking any index key attribute, or holding one of
// the wrong type, is not in the index (sparse index).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "model/attribute_value.h"
#include "model/table_description.h"

namespace monotable::table {

// An item's entry in one index. An ALL projection stores the whole item: the entry then refers
// to the item it was made from (which must outlive it) rather than copying it.
struct IndexEntry {
  std::string key;
  size_t sort_offset = 0;            // where the sort key starts in `key` (after the partition id)
  const Item* whole_item = nullptr;  // ALL projections
  Item projected_attributes;         // KEYS_ONLY and INCLUDE projections

  const Item& projected() const { return whole_item ? *whole_item : projected_attributes; }
};

// Write units one index arm of a write costs (AWS's ladder, see model/capacity.h).
struct IndexWriteCost {
  const IndexDescription* index;  // points into the table description the write used
  double units;
};

// The index's partition attributes, then its sort attributes (multi-attribute keys keep order).
std::vector<const KeyElement*> IndexHashKeys(const IndexDescription& index);
std::vector<const KeyElement*> IndexRangeKeys(const IndexDescription& index);
// A global index whose partition or sort key has more than one attribute (2025 multi-attribute keys).
bool IsMultiAttributeIndex(const IndexDescription& index);
// Whether an index read returns `attribute` (table and index keys, plus the projection).
bool IndexProjects(const TableDescription& table, const IndexDescription& index, std::string_view attribute);

// The entry for `item` in `index`, or nullopt when the item is not indexed there. For an ALL
// projection the entry refers to `item`.
std::optional<IndexEntry> MakeIndexEntry(const TableDescription& table, const IndexDescription& index,
                                         const Item& item);

// Applies an index's projection to an item (the value an index read returns).
Item ProjectForIndex(const TableDescription& table, const IndexDescription& index, const Item& item);

// The key attributes LastEvaluatedKey carries for a read of `index` (nullptr: the table).
Item LastEvaluatedKeyOf(const TableDescription& table, const IndexDescription* index, const Item& item);

// Engine key of the position of `item` in `index` (nullptr: the table); nullopt if absent there.
// For an index, `sort_offset` (when given) receives where the index sort key starts in it.
std::optional<std::string> PositionKey(const TableDescription& table, const IndexDescription* index,
                                       const Item& item, size_t* sort_offset = nullptr);

// The smallest key greater than every key that starts with `prefix` ("" if there is none).
std::string PrefixSuccessor(std::string prefix);

// Item collections (tables with local secondary indexes): the items sharing one partition key
// value, plus their entries in every LSI (kept with the item's partition: colocated keyspaces of
// the table's, engine.h). The engine key ranges that hold one collection (the
// table partition, then one range per LSI), and an estimate of its stored bytes from the store's
// per-partition size approximation: cheap (no item is read on RocksDB) and good to the precision DynamoDB
// reports (whole gigabytes).
std::vector<std::pair<std::string, std::string>> ItemCollectionRanges(const TableDescription& table,
                                                                     const AttributeValue& partition_value);
uint64_t EstimateItemCollectionBytes(engine::PartitionStore& store, const TableDescription& table,
                                     const AttributeValue& partition_value);

// Which secondary indexes AddIndexMutations covers: all, the global ones only (what the change-log
// applier derives on the logged path), or the local ones only (what the item's own partition
// commit writes there, as colocated keyspaces: engine.h).
enum class IndexScope { kAll, kGlobal, kLocal };

// Appends the index-entry mutations that turn `old_item` into `new_item` (either may be null)
// for every secondary index of `table` in `scope`, and returns what each touched index arm costs.
// `encoded_new_item`, when given, is EncodeItem(*new_item), which ALL projections store as is.
// `sort_offsets`, when given, receives for each mutation appended where its sort key starts (the
// key is [keyspace u32][partition id][sort key]): what a partitioned store needs to address it.
std::vector<IndexWriteCost> AddIndexMutations(const TableDescription& table, const Item* old_item,
                                              const Item* new_item, engine::WriteBatch& batch,
                                              const std::string* encoded_new_item = nullptr,
                                              std::vector<uint32_t>* sort_offsets = nullptr,
                                              IndexScope scope = IndexScope::kAll);

}  // namespace monotable::table
