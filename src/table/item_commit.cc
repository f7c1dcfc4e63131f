#include "table/item_commit.h"

#include "changelog/keys.h"
#include "model/item_codec.h"

namespace monotable::table {

Result<ItemAddress> AddressOf(const TableDescription& table, std::string_view item_key) {
  MT_ASSIGN_OR_RETURN(size_t sort_offset, ItemSortOffset(table, item_key));
  auto keyspace = static_cast<uint32_t>(ReadBigEndian(item_key.substr(0, 4)));
  return ItemAddress{{keyspace, item_key.substr(4, sort_offset - 4)}, item_key.substr(sort_offset)};
}

ItemCommitter::ItemCommitter(engine::PartitionStore& store, Catalog& catalog, txn::Coordinator::Clock clock)
    : store_(store),
      logged_(!store.AppliesDerivedInCommit()),
      applier_(store, [&catalog](uint32_t keyspace) { return catalog.FindByKeyspace(keyspace); }),
      coordinator_(store, applier_, std::move(clock)) {}

Status ItemCommitter::CommitItem(const TableDescription& table, std::string_view item_key,
                                 std::optional<std::string> expected, std::optional<std::string> new_value,
                                 changelog::ItemChange change, bool log) {
  MT_ASSIGN_OR_RETURN(ItemAddress address, AddressOf(table, item_key));
  engine::PartitionWrite write;
  // The item's LSI entries live with it (colocated keyspaces): written by this very commit.
  MT_RETURN_IF_ERROR(changelog::AppendLocalIndexWrites(
      table, address.partition.id, change.old_image ? &*change.old_image : nullptr,
      change.new_image ? &*change.new_image : nullptr, write, new_value ? &*new_value : nullptr));
  write.guards.push_back({std::string(address.sort_key), std::move(expected)});
  write.mutations.push_back({std::string(address.sort_key), std::move(new_value)});
  write.marker_guards.push_back({std::string(address.sort_key), std::nullopt});
  change.table_keyspace = table.key_prefix;
  Status committed = log ? applier_.CommitLogged(address.partition, std::move(write), change)
                         : store_.Commit(address.partition, std::move(write)).status();
  if (committed.code() != ErrorCode::kGuardFailed) return committed;
  MT_ASSIGN_OR_RETURN(auto marker, store_.GetMarker(address.partition, address.sort_key));
  if (marker) return Status(ErrorCode::kTransactionConflict, "Transaction is ongoing for the item");
  return committed;  // the item changed: the caller re-reads it
}

Status ItemCommitter::Rederive(const TableDescription& table, std::string_view item_key,
                               const std::string& stored_value) {
  MT_ASSIGN_OR_RETURN(ItemAddress address, AddressOf(table, item_key));
  MT_ASSIGN_OR_RETURN(Item item, DecodeItem(stored_value));
  engine::PartitionWrite write;
  // Puts of the LSI entries too (harmless when they exist), with the item's own commit.
  MT_RETURN_IF_ERROR(
      changelog::AppendLocalIndexWrites(table, address.partition.id, nullptr, &item, write, &stored_value));
  write.guards.push_back({std::string(address.sort_key), stored_value});
  write.marker_guards.push_back({std::string(address.sort_key), std::nullopt});
  changelog::ItemChange change;
  change.table_keyspace = table.key_prefix;
  change.by_service = true;
  change.new_image = std::move(item);
  return applier_.CommitLogged(address.partition, std::move(write), change);
}

}  // namespace monotable::table
