#include "changelog/change_applier.h"

#include <chrono>
#include <map>
#include <string_view>

#include "changelog/stream_append.h"
#include "changelog/ttl_index.h"
#include "model/item_codec.h"

namespace monotable::changelog {

std::vector<table::IndexWriteCost> AppendDerived(const TableDescription& table, const Item* old_item,
                                                 const Item* new_item, const std::vector<AddressedMutation>& extra,
                                                 engine::WriteBatch& batch, std::vector<uint32_t>* sort_offsets,
                                                 const std::string* encoded_new_item, table::IndexScope scope) {
  auto costs = table::AddIndexMutations(table, old_item, new_item, batch, encoded_new_item, sort_offsets, scope);
  table::AddExpiryMutations(table, old_item, new_item, batch, sort_offsets);
  for (const AddressedMutation& m : extra) {
    batch.mutations.push_back({m.key, m.value});
    if (sort_offsets) sort_offsets->push_back(m.sort_offset);
  }
  return costs;
}

Status AppendLocalIndexWrites(const TableDescription& table, std::string_view partition_id, const Item* old_item,
                              const Item* new_item, engine::PartitionWrite& write,
                              const std::string* encoded_new_item) {
  if (table.local_indexes.empty()) return Status::Ok();
  engine::WriteBatch entries;
  std::vector<uint32_t> offsets;
  (void)table::AddIndexMutations(table, old_item, new_item, entries, encoded_new_item, &offsets,
                                 table::IndexScope::kLocal);
  for (size_t i = 0; i < entries.mutations.size(); ++i) {
    engine::Mutation& m = entries.mutations[i];
    if (offsets[i] < 4 || std::string_view(m.key).substr(4, offsets[i] - 4) != partition_id) {
      return Status(ErrorCode::kInternal, "an LSI entry outside its item's partition");
    }
    auto keyspace = static_cast<uint32_t>(ReadBigEndian(std::string_view(m.key).substr(0, 4)));
    write.local_mutations.push_back({keyspace, m.key.substr(offsets[i]), std::move(m.value)});
  }
  return Status::Ok();
}

Status ChangeApplier::AddLocalIndexWrites(engine::PartitionRef partition, std::string_view record,
                                          engine::PartitionWrite& write) {
  MT_ASSIGN_OR_RETURN(ItemChange change, DecodeItemChange(record));
  std::shared_ptr<const TableDescription> table = tables_(change.table_keyspace);
  if (!table || table->local_indexes.empty()) return Status::Ok();
  return AppendLocalIndexWrites(*table, partition.id, change.old_image ? &*change.old_image : nullptr,
                                change.new_image ? &*change.new_image : nullptr, write);
}

std::mutex& ChangeApplier::LockOf(engine::PartitionRef partition) {
  size_t h = std::hash<std::string_view>()(partition.id) * 31 + partition.keyspace;
  return locks_[h % locks_.size()];
}

Status ChangeApplier::CommitLogged(engine::PartitionRef partition, engine::PartitionWrite write,
                                   const ItemChange& change) {
  write.log.push_back(EncodeItemChange(change));
  MT_RETURN_IF_ERROR(store_.Commit(partition, std::move(write)).status());
  return Drain(partition);
}

Status ChangeApplier::Apply(engine::PartitionRef partition, uint64_t position, std::string_view record) {
  MT_ASSIGN_OR_RETURN(ItemChange change, DecodeItemChange(record));
  std::shared_ptr<const TableDescription> table = tables_(change.table_keyspace);
  if (!table) return Status::Ok();
  engine::WriteBatch derived;
  std::vector<uint32_t> offsets;
  (void)AppendDerived(*table, change.old_image ? &*change.old_image : nullptr,
                      change.new_image ? &*change.new_image : nullptr, change.extra, derived, &offsets, nullptr,
                      table::IndexScope::kGlobal);  // LSI entries were written with the item
  // One commit per partition touched, in the order the partitions first appear.
  std::vector<std::pair<std::string_view, engine::PartitionWrite>> writes;
  std::map<std::string_view, size_t> slot;  // [keyspace][partition id] -> writes index
  for (size_t i = 0; i < derived.mutations.size(); ++i) {
    engine::Mutation& m = derived.mutations[i];
    std::string_view partition_key = std::string_view(m.key).substr(0, offsets[i]);
    auto [it, added] = slot.emplace(partition_key, writes.size());
    if (added) writes.emplace_back(partition_key, engine::PartitionWrite{});
    writes[it->second].second.mutations.push_back({m.key.substr(offsets[i]), std::move(m.value)});
  }
  for (auto& [partition_key, write] : writes) {
    auto keyspace = static_cast<uint32_t>(ReadBigEndian(partition_key.substr(0, 4)));
    MT_RETURN_IF_ERROR(store_.Commit({keyspace, partition_key.substr(4)}, std::move(write)).status());
  }
  // The stream records, numbered in their shards, once per (partition, position) (stream_append.h).
  const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch()).count();
  for (const StreamPart& part : change.stream) {
    MT_RETURN_IF_ERROR(AppendStreamPart(store_, partition, position, part, now_ms));
  }
  return Status::Ok();
}

Status ChangeApplier::Drain(engine::PartitionRef partition) {
  std::lock_guard lock(LockOf(partition));
  std::vector<std::pair<uint64_t, std::string>> records;
  MT_RETURN_IF_ERROR(store_.ReadLog(partition, 0, [&](uint64_t position, std::string_view record) {
    records.emplace_back(position, std::string(record));
    return true;
  }));
  if (records.empty()) return Status::Ok();
  for (const auto& [position, record] : records) MT_RETURN_IF_ERROR(Apply(partition, position, record));
  return store_.TrimLog(partition, records.back().first);
}

Status ChangeApplier::Recover(const std::vector<uint32_t>& table_keyspaces) {
  for (uint32_t keyspace : table_keyspaces) {
    std::vector<std::string> partitions;
    MT_RETURN_IF_ERROR(store_.ScanLogs(keyspace, [&](std::string_view id, uint64_t) {
      partitions.emplace_back(id);
      return true;
    }));
    for (const std::string& id : partitions) MT_RETURN_IF_ERROR(Drain({keyspace, id}));
  }
  return Status::Ok();
}

}  // namespace monotable::changelog
