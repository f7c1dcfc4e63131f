#include "api/item_collections.h"

#include <cstdlib>
#include <memory>
#include <optional>

#include "api/request_fields.h"
#include "changelog/index_entries.h"

namespace monotable::api {
namespace {

constexpr uint64_t kGigabyte = 1024ULL * 1024 * 1024;

const AttributeValue* PartitionValue(const TableDescription& table, const Item& key) {
  auto it = key.find(table.hash_key());
  return it == key.end() ? nullptr : &it->second;
}

void WriteMetrics(JsonWriter& w, const Item& collection_key, uint64_t bytes) {
  w.StartObject();
  w.Key("ItemCollectionKey");
  WriteItem(w, collection_key);
  w.Key("SizeEstimateRangeGB");
  w.StartArray();
  auto lower = static_cast<double>(bytes / kGigabyte);
  w.Double(lower);
  w.Double(lower + 1);
  w.EndArray();
  w.EndObject();
}

Item CollectionKey(const TableDescription& table, const AttributeValue& value) {
  Item key;
  key.emplace(table.hash_key(), value);
  return key;
}

}  // namespace

uint64_t ItemCollectionLimitBytes() {
  static const uint64_t limit = [] {
    if (const char* env = std::getenv("MONOTABLE_ITEM_COLLECTION_LIMIT_BYTES")) {
      char* end = nullptr;
      unsigned long long v = std::strtoull(env, &end, 10);
      if (end != env && v > 0) return static_cast<uint64_t>(v);
    }
    return 10 * kGigabyte;
  }();
  return limit;
}

table::ApplyFn LimitItemCollection(table::Database& db, const table::TableHandle& table, const Item& key,
                                   table::ApplyFn apply) {
  const TableDescription& desc = *table.description;
  const AttributeValue* partition = PartitionValue(desc, key);
  if (desc.local_indexes.empty() || !partition) return apply;
  // The estimate is taken at most once per write (apply may run again after a collision).
  auto estimate = std::make_shared<std::optional<uint64_t>>();
  return [&db, &desc, value = *partition, estimate,
          apply = std::move(apply)](const Item* existing) -> Result<std::optional<Item>> {
    MT_ASSIGN_OR_RETURN(std::optional<Item> next, apply(existing));
    if (!next) return next;
    size_t old_size = existing ? ItemSize(*existing) : 0;
    size_t new_size = ItemSize(*next);
    if (new_size <= old_size) return next;
    if (!*estimate) *estimate = table::EstimateItemCollectionBytes(db.store(), desc, value);
    if (**estimate + (new_size - old_size) > ItemCollectionLimitBytes()) {
      return Status(ErrorCode::kItemCollectionSizeLimitExceeded, "Item collection size limit exceeded");
    }
    return next;
  };
}

Result<table::WriteResult> WriteInCollection(table::Database& db, const table::TableHandle& table, const Item& key,
                                             const table::ApplyFn& apply,
                                             const table::AttemptedSizeFn& attempted_size) {
  if (table.description->local_indexes.empty()) return db.Write(table, key, apply, attempted_size);
  return db.Write(table, key, LimitItemCollection(db, table, key, apply), attempted_size);
}

void WriteItemCollectionMetrics(OperationContext& ctx, const table::TableHandle& table, const Item& key) {
  const TableDescription& desc = *table.description;
  if (desc.local_indexes.empty() || StringOr(ctx.request, "ReturnItemCollectionMetrics", "NONE") != "SIZE") return;
  const AttributeValue* partition = PartitionValue(desc, key);
  if (!partition) return;
  ctx.out.Key("ItemCollectionMetrics");
  WriteMetrics(ctx.out, CollectionKey(desc, *partition),
               table::EstimateItemCollectionBytes(ctx.db.store(), desc, *partition));
}

ItemCollectionMetricsByTable::ItemCollectionMetricsByTable(const rapidjson::Value& request)
    : wanted_(StringOr(request, "ReturnItemCollectionMetrics", "NONE") == "SIZE") {}

void ItemCollectionMetricsByTable::Add(table::Database& db, const table::TableHandle& table, const Item& key) {
  const TableDescription& desc = *table.description;
  if (!wanted_ || desc.local_indexes.empty()) return;
  const AttributeValue* partition = PartitionValue(desc, key);
  if (!partition) return;
  uint64_t bytes = table::EstimateItemCollectionBytes(db.store(), desc, *partition);
  for (auto& [name, entries] : tables_) {
    if (name == desc.name) {
      entries.emplace_back(CollectionKey(desc, *partition), bytes);
      return;
    }
  }
  tables_.emplace_back(desc.name, std::vector<std::pair<Item, uint64_t>>{{CollectionKey(desc, *partition), bytes}});
}

void ItemCollectionMetricsByTable::Write(JsonWriter& w) const {
  if (!wanted_ || tables_.empty()) return;
  w.Key("ItemCollectionMetrics");
  w.StartObject();
  for (const auto& [name, entries] : tables_) {
    w.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()));
    w.StartArray();
    for (const auto& [key, bytes] : entries) WriteMetrics(w, key, bytes);
    w.EndArray();
  }
  w.EndObject();
}

}  // namespace monotable::api
