#include "backup/table_loader.h"

#include <shared_mutex>

#include "changelog/keys.h"
#include "model/item_codec.h"
#include "table/database.h"
#include "table/item_commit.h"

namespace monotable::backup {

Status TableLoader::Add(const Item& item) {
  const TableDescription& table = *table_->description;
  std::string encoded = EncodeItem(item);
  auto size = static_cast<int64_t>(ItemSize(item));
  if (db_.committer().logged()) return AddLogged(item, std::move(encoded), size);
  batch_bytes_ += encoded.size();
  (void)table::AddIndexMutations(table, nullptr, &item, batch_, &encoded);
  batch_.mutations.push_back({table::ItemKeyOf(table, item), std::move(encoded)});
  ++batch_items_;
  ++pending_count_;
  pending_size_ += size;
  ++items_;
  bytes_ += size;
  if (batch_items_ >= kBatchItems || batch_bytes_ >= kBatchBytes) return Flush();
  return Status::Ok();
}

Status TableLoader::AddLogged(const Item& item, std::string encoded, int64_t size) {
  const TableDescription& table = *table_->description;
  std::string key = table::ItemKeyOf(table, item);
  MT_ASSIGN_OR_RETURN(table::ItemAddress address, table::AddressOf(table, key));
  // Expected absent (a new table); should someone have written the key meanwhile, the load
  // replaces that value (re-read, then guarded on it).
  std::optional<std::string> expected;
  for (int attempt = 0;; ++attempt) {
    changelog::ItemChange change;
    change.new_image = item;
    if (expected) {
      MT_ASSIGN_OR_RETURN(Item old_item, DecodeItem(*expected));
      change.old_image = std::move(old_item);
    }
    Status st;
    {
      std::shared_lock lock(table_->gate->mutex);
      if (table_->gate->dropped) return Status::NotFound("Requested resource not found");
      st = db_.committer().CommitItem(table, key, expected, encoded, std::move(change));
    }
    if (st.ok()) {
      if (!expected) {
        table_->stats->item_count += 1;
        table_->stats->size_bytes += size;
      } else {
        auto old_size = EncodedItemSize(*expected);
        table_->stats->size_bytes += size - (old_size.ok() ? static_cast<int64_t>(*old_size) : 0);
      }
      ++items_;
      bytes_ += size;
      return Status::Ok();
    }
    if (st.code() != ErrorCode::kGuardFailed || attempt >= 8) return st;
    MT_ASSIGN_OR_RETURN(expected, db_.store().Get(address.partition, address.sort_key));
  }
}

Status TableLoader::Flush() {
  if (batch_.mutations.empty()) return Status::Ok();
  {
    std::shared_lock lock(table_->gate->mutex);
    if (table_->gate->dropped) return Status::NotFound("Requested resource not found");
    MT_RETURN_IF_ERROR(db_.store().CommitWithDerived(batch_));
  }
  table_->stats->item_count += pending_count_;
  table_->stats->size_bytes += pending_size_;
  batch_ = {};
  batch_items_ = batch_bytes_ = 0;
  pending_count_ = pending_size_ = 0;
  return Status::Ok();
}

Status TableLoader::Finish() { return Flush(); }

}  // namespace monotable::backup
