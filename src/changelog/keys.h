// Engine key layout of items and key validation with DynamoDB's messages.
//
// Layout: an item of a table (or an entry of an index) lives at
//   [key_prefix: u32 BE][PartitionHash(pk): u64 BE][pk component][sk component, if any]
// so one partition is one contiguous, sort-key-ordered range, and partitions follow hash order.
// Key space 0 is the system space (catalog records).
#pragma once

#include <cstdint>
#include <string>

#include "model/attribute_value.h"
#include "model/table_description.h"

namespace monotable::table {

constexpr uint32_t kSystemKeyPrefix = 0;
// key_prefix + partition hash: the bytes every key of one partition shares (the engine's group prefix).
constexpr size_t kPartitionPrefixBytes = 12;

std::string PrefixBytes(uint32_t key_prefix);
// [prefix, prefix + 1): every key of one key space.
std::pair<std::string, std::string> KeySpaceRange(uint32_t key_prefix);
std::string EncodeItemKey(uint32_t key_prefix, const AttributeValue& hash, const AttributeValue* range);
// The partition id of the item collection of `hash`: [partition hash u64 BE][key component].
std::string PartitionIdOf(const AttributeValue& hash);

// The item's key (table key attributes only), for messages and ReturnValues.
Item ExtractKey(const TableDescription& table, const Item& item);

// Which write produced the item ValidateItemKeys checks: an UpdateItem's result words an empty
// secondary index key value as AWS does for updates ("The update expression attempted to update a
// secondary index key to a value that is not supported", dynamodb-conformance's
// error-messages/indexKeyValues.test.ts).
enum class ItemSource { kPut, kUpdate };

// PutItem-style validation of the key attributes inside a full item, secondary index keys included
// (type, emptiness, and the key size limits).
Status ValidateItemKeys(const TableDescription& table, const Item& item, ItemSource source = ItemSource::kPut);
// GetItem/DeleteItem/UpdateItem-style validation of a Key map.
Status ValidateKey(const TableDescription& table, const Item& key);

// Engine key of a validated item or key map.
std::string ItemKeyOf(const TableDescription& table, const Item& item);

// Where the sort key starts in an item's engine key of `table` (after [key_prefix][hash][partition
// key component]): the split into partition id and sort key a partitioned store needs.
// kCorruption when the key does not parse.
Result<size_t> ItemSortOffset(const TableDescription& table, std::string_view item_key);

}  // namespace monotable::table
