#include "changelog/ttl_index.h"

#include <cmath>
#include <cstdlib>

#include "model/item_codec.h"
#include "changelog/keys.h"

namespace monotable::table {

std::optional<double> ExpiryTime(const Item& item, std::string_view attribute) {
  auto it = item.find(attribute);
  if (it == item.end() || it->second.type() != AttrType::kN) return std::nullopt;
  return std::strtod(it->second.n().ToString().c_str(), nullptr);
}

bool IsExpired(double expiry, double now_seconds) {
  return expiry < now_seconds && expiry >= now_seconds - static_cast<double>(kTtlMaxAgeSeconds);
}

std::string ExpiryKey(uint32_t key_prefix, uint64_t seconds, std::string_view item_key) {
  std::string key = PrefixBytes(key_prefix);
  AppendBigEndian64(seconds, key);
  key.append(item_key);
  return key;
}

std::string_view ItemKeyOfExpiry(std::string_view expiry_key) {
  return expiry_key.size() < 12 ? std::string_view() : expiry_key.substr(12);
}

std::optional<std::string> ExpiryEntryOf(const TableDescription& table, const Item& item) {
  if (!table.ttl.enabled || table.ttl.key_prefix == 0) return std::nullopt;
  auto expiry = ExpiryTime(item, table.ttl.attribute);
  // Negative times are far more than five years old; beyond 2^62 seconds nothing ever expires.
  if (!expiry || !(*expiry >= 0) || *expiry >= 4.6e18) return std::nullopt;
  return ExpiryKey(table.ttl.key_prefix, static_cast<uint64_t>(std::floor(*expiry)), ItemKeyOf(table, item));
}

void AddExpiryMutations(const TableDescription& table, const Item* old_item, const Item* new_item,
                        engine::WriteBatch& batch, std::vector<uint32_t>* sort_offsets) {
  if (!table.ttl.enabled || table.ttl.key_prefix == 0) return;
  std::optional<std::string> old_entry, new_entry;
  if (old_item) old_entry = ExpiryEntryOf(table, *old_item);
  if (new_item) new_entry = ExpiryEntryOf(table, *new_item);
  if (old_entry == new_entry) return;
  if (old_entry) batch.mutations.push_back({std::move(*old_entry), std::nullopt});
  if (new_entry) batch.mutations.push_back({std::move(*new_entry), std::string()});
  if (sort_offsets) sort_offsets->insert(sort_offsets->end(), (old_entry ? 1 : 0) + (new_entry ? 1 : 0), kExpirySortOffset);
}

}  // namespace monotable::table
