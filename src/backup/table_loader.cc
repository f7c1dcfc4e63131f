#include "backup/table_loader.h"

#include <shared_mutex>

#include "model/item_codec.h"
#include "table/database.h"
#include "changelog/keys.h"

namespace monotable::backup {

Status TableLoader::Add(const Item& item) {
  const TableDescription& table = *table_->description;
  std::string encoded = EncodeItem(item);
  size_t size = ItemSize(item);
  batch_bytes_ += encoded.size();
  (void)table::AddIndexMutations(table, nullptr, &item, batch_, &encoded);
  batch_.mutations.push_back({table::ItemKeyOf(table, item), std::move(encoded)});
  ++batch_items_;
  ++pending_count_;
  pending_size_ += static_cast<int64_t>(size);
  ++items_;
  bytes_ += static_cast<int64_t>(size);
  if (batch_items_ >= kBatchItems || batch_bytes_ >= kBatchBytes) return Flush();
  return Status::Ok();
}

Status TableLoader::Flush() {
  if (batch_.mutations.empty()) return Status::Ok();
  {
    std::shared_lock lock(table_->gate->mutex);
    if (table_->gate->dropped) return Status::NotFound("Requested resource not found");
    MT_RETURN_IF_ERROR(engine_.Commit(batch_));
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
