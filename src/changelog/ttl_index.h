// Expiry index: where the TTL worker finds expired items without scanning tables.
//
// Layout: while a table has TTL enabled, every item whose TTL attribute is a top-level Number
// with a non-negative value has one entry [ttl key_prefix u32][expiry seconds u64 BE][item
// engine key] -> "" (expiry seconds: the value rounded down). The write path maintains it in
// the same engine batch as the item (AddExpiryMutations, next to the index mutations), so an
// entry exists exactly while the item holds that expiry value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.h"
#include "model/attribute_value.h"
#include "model/table_description.h"

namespace monotable::table {

// AWS ignores expiry times more than five years in the past.
constexpr int64_t kTtlMaxAgeSeconds = 5LL * 365 * 24 * 3600;

// The item's expiry time (epoch seconds) when `attribute` is a top-level Number, else nullopt.
std::optional<double> ExpiryTime(const Item& item, std::string_view attribute);
// Whether an item with this expiry time is due for deletion at `now_seconds`.
bool IsExpired(double expiry, double now_seconds);

std::string ExpiryKey(uint32_t key_prefix, uint64_t seconds, std::string_view item_key);
// The item engine key inside an expiry entry key.
std::string_view ItemKeyOfExpiry(std::string_view expiry_key);
// The entry `item` needs in the table's expiry index, or nullopt.
std::optional<std::string> ExpiryEntryOf(const TableDescription& table, const Item& item);

// Expiry entries are addressed by partition [expiry seconds u64] (ScanKeyspace visits them in
// time order) and sort key [item engine key]: the sort key starts at byte 12 of the entry key.
constexpr uint32_t kExpirySortOffset = 12;

// Appends the expiry-index mutations that turn `old_item` into `new_item` (either may be null);
// `sort_offsets` as AddIndexMutations' (index_entries.h).
void AddExpiryMutations(const TableDescription& table, const Item* old_item, const Item* new_item,
                        engine::WriteBatch& batch, std::vector<uint32_t>* sort_offsets = nullptr);

}  // namespace monotable::table
