#include "changelog/index_entries.h"

#include "model/capacity.h"
#include "model/item_codec.h"
#include "changelog/keys.h"

namespace monotable::table {
namespace {

const AttributeValue* TypedAttribute(const TableDescription& table, const Item& item, const std::string& name) {
  auto it = item.find(name);
  if (it == item.end()) return nullptr;
  auto type = table.AttributeType(name);
  if (!type || it->second.type() != *type) return nullptr;
  if ((*type == AttrType::kS || *type == AttrType::kB) && it->second.s().empty()) return nullptr;
  return &it->second;
}

// An index key attribute's value, or null when the item violates the index key (missing, wrong
// type, empty, or longer than a key value may be: 2048 bytes for a partition attribute, 1024
// for a sort attribute). Writes refuse such items (keys.cc); those already in the table when an
// index is created stay out of it (AWS's developer guide, "Detecting and correcting index key
// violations": "the items remain in the table, but the index doesn't have a corresponding entry").
const AttributeValue* IndexKeyAttribute(const TableDescription& table, const Item& item, const KeyElement& k) {
  const AttributeValue* v = TypedAttribute(table, item, k.name);
  if (!v || v->type() == AttrType::kN) return v;
  return v->s().size() > (k.role == KeyRole::kHash ? 2048u : 1024u) ? nullptr : v;
}

}  // namespace

std::vector<const KeyElement*> IndexHashKeys(const IndexDescription& index) {
  std::vector<const KeyElement*> keys;
  for (const auto& k : index.key_schema) if (k.role == KeyRole::kHash) keys.push_back(&k);
  return keys;
}

std::vector<const KeyElement*> IndexRangeKeys(const IndexDescription& index) {
  std::vector<const KeyElement*> keys;
  for (const auto& k : index.key_schema) if (k.role == KeyRole::kRange) keys.push_back(&k);
  return keys;
}

bool IsMultiAttributeIndex(const IndexDescription& index) {
  return IndexHashKeys(index).size() > 1 || IndexRangeKeys(index).size() > 1;
}

bool IndexProjects(const TableDescription& table, const IndexDescription& index, std::string_view attribute) {
  if (index.projection.type == ProjectionType::kAll) return true;
  for (const auto& k : table.key_schema) if (k.name == attribute) return true;
  for (const auto& k : index.key_schema) if (k.name == attribute) return true;
  if (index.projection.type == ProjectionType::kInclude) {
    for (const auto& name : index.projection.non_key_attributes) if (name == attribute) return true;
  }
  return false;
}

Item ProjectForIndex(const TableDescription& table, const IndexDescription& index, const Item& item) {
  if (index.projection.type == ProjectionType::kAll) return item;
  Item projected;
  auto copy = [&](const std::string& name) {
    auto it = item.find(name);
    if (it != item.end()) projected.insert_or_assign(it->first, it->second);
  };
  for (const auto& k : table.key_schema) copy(k.name);
  for (const auto& k : index.key_schema) copy(k.name);
  if (index.projection.type == ProjectionType::kInclude) {
    for (const auto& name : index.projection.non_key_attributes) copy(name);
  }
  return projected;
}

std::optional<std::string> PositionKey(const TableDescription& table, const IndexDescription* index,
                                       const Item& item, size_t* sort_offset) {
  const AttributeValue* table_hash = TypedAttribute(table, item, table.hash_key());
  const AttributeValue* table_range = nullptr;
  if (const std::string* range = table.range_key()) {
    table_range = TypedAttribute(table, item, *range);
    if (!table_range) return std::nullopt;
  }
  if (!table_hash) return std::nullopt;
  if (!index) return EncodeItemKey(table.key_prefix, *table_hash, table_range);

  // The partition attributes, then the sort attributes, each in schema order (IndexHashKeys and
  // IndexRangeKeys, without building their vectors on every write).
  std::string partition;
  const AttributeValue* hash_value = nullptr;
  int hash_attributes = 0;
  for (const KeyElement& k : index->key_schema) {
    if (k.role != KeyRole::kHash) continue;
    hash_value = IndexKeyAttribute(table, item, k);
    if (!hash_value) return std::nullopt;
    AppendKeyComponent(*hash_value, partition);
    ++hash_attributes;
  }
  std::string key;
  key.reserve(16 + partition.size() + 32);
  AppendBigEndian32(index->key_prefix, key);
  // Single-attribute partitions hash exactly like table partitions; several attributes hash their
  // concatenated components.
  uint64_t hash = hash_attributes == 1 ? PartitionHash(*hash_value) : PartitionHash(AttributeValue::B(partition));
  AppendBigEndian64(hash, key);
  key += partition;
  if (sort_offset) *sort_offset = key.size();
  for (const KeyElement& k : index->key_schema) {
    if (k.role != KeyRole::kRange) continue;
    const AttributeValue* v = IndexKeyAttribute(table, item, k);
    if (!v) return std::nullopt;
    AppendKeyComponent(*v, key);
  }
  AppendKeyComponent(*table_hash, key);
  if (table_range) AppendKeyComponent(*table_range, key);
  return key;
}

std::optional<IndexEntry> MakeIndexEntry(const TableDescription& table, const IndexDescription& index,
                                         const Item& item) {
  size_t sort_offset = 0;
  auto key = PositionKey(table, &index, item, &sort_offset);
  if (!key) return std::nullopt;
  if (index.projection.type == ProjectionType::kAll) return IndexEntry{std::move(*key), sort_offset, &item, {}};
  return IndexEntry{std::move(*key), sort_offset, nullptr, ProjectForIndex(table, index, item)};
}

Item LastEvaluatedKeyOf(const TableDescription& table, const IndexDescription* index, const Item& item) {
  Item key = ExtractKey(table, item);
  if (index) {
    for (const auto& k : index->key_schema) {
      auto it = item.find(k.name);
      if (it != item.end()) key.insert_or_assign(it->first, it->second);
    }
  }
  return key;
}

std::string PrefixSuccessor(std::string prefix) {
  while (!prefix.empty()) {
    auto& last = reinterpret_cast<unsigned char&>(prefix.back());
    if (last != 0xff) {
      ++last;
      return prefix;
    }
    prefix.pop_back();
  }
  return prefix;
}

std::vector<std::pair<std::string, std::string>> ItemCollectionRanges(const TableDescription& table,
                                                                     const AttributeValue& partition_value) {
  const std::string partition = PartitionIdOf(partition_value);
  std::vector<std::pair<std::string, std::string>> ranges;
  auto add = [&](uint32_t key_prefix) {
    std::string lower = PrefixBytes(key_prefix) + partition;
    std::string upper = PrefixSuccessor(lower);
    ranges.emplace_back(std::move(lower), std::move(upper));
  };
  add(table.key_prefix);
  for (const auto& index : table.local_indexes) add(index.key_prefix);
  return ranges;
}

uint64_t EstimateItemCollectionBytes(engine::PartitionStore& store, const TableDescription& table,
                                     const AttributeValue& partition_value) {
  const std::string partition_id = PartitionIdOf(partition_value);
  // The collection: the table's partition, then the same partition of every LSI.
  uint64_t total = store.ApproximateBytes({table.key_prefix, partition_id});
  for (const auto& index : table.local_indexes) {
    total += store.ApproximateBytes({index.key_prefix, partition_id, table.key_prefix});
  }
  return total;
}

std::vector<IndexWriteCost> AddIndexMutations(const TableDescription& table, const Item* old_item,
                                              const Item* new_item, engine::WriteBatch& batch,
                                              const std::string* encoded_new_item,
                                              std::vector<uint32_t>* sort_offsets, IndexScope scope) {
  std::vector<IndexWriteCost> costs;
  // Entries of ALL projections are the whole items: their sizes, their equality and the new
  // item's encoding are worked out once for every such index, not once per index.
  std::optional<size_t> old_whole_size, new_whole_size;
  std::optional<bool> whole_items_equal;
  std::string encoded;
  auto size_of = [](const IndexEntry& entry, std::optional<size_t>& whole_size) {
    if (!entry.whole_item) return ItemSize(entry.projected_attributes);
    if (!whole_size) whole_size = ItemSize(*entry.whole_item);
    return *whole_size;
  };
  auto equal = [&](const IndexEntry& old_entry, const IndexEntry& new_entry) {
    if (!old_entry.whole_item) return old_entry.projected_attributes == new_entry.projected_attributes;
    if (!whole_items_equal) whole_items_equal = *old_entry.whole_item == *new_entry.whole_item;
    return *whole_items_equal;
  };
  auto encode = [&](const IndexEntry& entry) {
    if (!entry.whole_item) return EncodeItem(entry.projected_attributes);
    if (!encoded_new_item) {
      encoded = EncodeItem(*entry.whole_item);
      encoded_new_item = &encoded;
    }
    return *encoded_new_item;
  };
  auto update = [&](const IndexDescription& index) {
    std::optional<IndexEntry> old_entry, new_entry;
    if (old_item) old_entry = MakeIndexEntry(table, index, *old_item);
    if (new_item) new_entry = MakeIndexEntry(table, index, *new_item);
    if (!old_entry && !new_entry) return;
    IndexEntryChange change;
    if (old_entry) change.old_size = size_of(*old_entry, old_whole_size);
    if (new_entry) change.new_size = size_of(*new_entry, new_whole_size);
    change.same_key = old_entry && new_entry && old_entry->key == new_entry->key;
    change.identical = change.same_key && equal(*old_entry, *new_entry);
    if (double units = IndexWriteUnits(change); units > 0) costs.push_back({&index, units});
    if (old_entry && !change.same_key) {
      if (sort_offsets) sort_offsets->push_back(static_cast<uint32_t>(old_entry->sort_offset));
      batch.mutations.push_back({std::move(old_entry->key), std::nullopt});
    }
    if (new_entry && !change.identical) {
      if (sort_offsets) sort_offsets->push_back(static_cast<uint32_t>(new_entry->sort_offset));
      batch.mutations.push_back({std::move(new_entry->key), encode(*new_entry)});
    }
  };
  if (scope != IndexScope::kLocal) {
    for (const auto& index : table.global_indexes) update(index);
  }
  if (scope != IndexScope::kGlobal) {
    for (const auto& index : table.local_indexes) update(index);
  }
  return costs;
}

}  // namespace monotable::table
