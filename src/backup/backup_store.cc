#include "backup/backup_store.h"

#include <algorithm>

#include "model/item_codec.h"
#include "table/description_codec.h"
#include "changelog/keys.h"

namespace monotable::backup {
namespace {

constexpr size_t kCopyBatchItems = 1000;
constexpr size_t kCopyBatchBytes = 4 << 20;

}  // namespace

Status BackupStore::Load() {
  std::vector<BackupRecord> abandoned;
  {
    auto it = engine_.NewIterator(BackupKeysBegin(), BackupKeysEnd());
    std::lock_guard lock(mu_);
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      auto record = DecodeBackup(it->value());
      if (!record.ok()) return record.status();
      if (record->status == BackupStatus::kCreating) {
        abandoned.push_back(std::move(*record));
      } else {
        backups_[record->id] = std::move(*record);
      }
    }
    MT_RETURN_IF_ERROR(it->status());
  }
  for (const auto& record : abandoned) {
    auto [first, last] = table::KeySpaceRange(record.data_prefix);
    MT_RETURN_IF_ERROR(engine_.DeleteRange(first, last));
    MT_RETURN_IF_ERROR(engine_.Commit({{}, {{BackupKey(record.id), std::nullopt}}}));
  }
  return Status::Ok();
}

Status BackupStore::Persist(const BackupRecord& record) {
  return engine_.Commit({{}, {{BackupKey(record.id), EncodeBackup(record)}}});
}

Result<BackupStore::Pending> BackupStore::Begin(const table::TableHandle& table, std::string name, int64_t now_ms,
                                                std::string type, int64_t expiry_ms) {
  Pending pending;
  // The snapshot first: the backup holds every write acknowledged before the request.
  pending.snapshot = engine_.GetSnapshot();
  pending.table_prefix = table.description->key_prefix;
  MT_ASSIGN_OR_RETURN(uint32_t prefix, catalog_.NewKeyPrefix());
  BackupRecord& r = pending.record;
  r.id = NewBackupId(now_ms);
  r.name = std::move(name);
  r.status = BackupStatus::kCreating;
  r.created_ms = now_ms;
  r.data_prefix = prefix;
  r.table_name = table.description->name;
  r.table_id = table.description->table_id;
  r.description = table::EncodeDescription(*table.description);
  r.type = std::move(type);
  r.expiry_ms = expiry_ms;
  MT_RETURN_IF_ERROR(Persist(r));
  std::lock_guard lock(mu_);
  backups_[r.id] = r;
  return pending;
}

Status BackupStore::Copy(const Pending& pending) {
  BackupRecord record = pending.record;
  auto [first, last] = table::KeySpaceRange(pending.table_prefix);
  std::string target = table::PrefixBytes(record.data_prefix);
  auto it = engine_.NewIterator(first, last, pending.snapshot);
  engine::WriteBatch batch;
  size_t batch_bytes = 0;
  Status status;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::string_view key = it->key(), value = it->value();
    auto size = EncodedItemSize(value);
    if (!size.ok()) {
      status = size.status();
      break;
    }
    record.item_count++;
    record.size_bytes += static_cast<int64_t>(*size);
    batch.mutations.push_back({target + std::string(key.substr(4)), std::string(value)});
    batch_bytes += key.size() + value.size();
    if (batch.mutations.size() >= kCopyBatchItems || batch_bytes >= kCopyBatchBytes) {
      status = engine_.Commit(batch);
      if (!status.ok()) break;
      batch = {};
      batch_bytes = 0;
    }
  }
  if (status.ok()) status = it->status();
  if (status.ok() && !batch.mutations.empty()) status = engine_.Commit(batch);
  if (status.ok()) {
    record.status = BackupStatus::kAvailable;
    status = Persist(record);
  }
  if (!status.ok()) {
    // Nothing half-made stays behind.
    auto [df, dl] = table::KeySpaceRange(record.data_prefix);
    (void)engine_.DeleteRange(df, dl);
    (void)engine_.Commit({{}, {{BackupKey(record.id), std::nullopt}}});
    std::lock_guard lock(mu_);
    backups_.erase(record.id);
    return status;
  }
  std::lock_guard lock(mu_);
  if (auto found = backups_.find(record.id); found != backups_.end()) found->second = record;
  return Status::Ok();
}

std::optional<BackupRecord> BackupStore::Find(std::string_view id) const {
  std::lock_guard lock(mu_);
  auto it = backups_.find(id);
  if (it == backups_.end()) return std::nullopt;
  return it->second;
}

std::vector<BackupRecord> BackupStore::List() const {
  std::vector<BackupRecord> out;
  {
    std::lock_guard lock(mu_);
    for (const auto& [id, r] : backups_) out.push_back(r);
  }
  // backups_ is keyed by id, and an id starts with its creation time: already oldest first.
  return out;
}

Result<BackupRecord> BackupStore::Delete(std::string_view id) {
  BackupRecord record;
  {
    std::lock_guard lock(mu_);
    auto it = backups_.find(id);
    if (it == backups_.end()) return Status(ErrorCode::kBackupNotFound, "");
    if (it->second.status == BackupStatus::kCreating || holds_.count(id)) {
      return Status(ErrorCode::kBackupInUse, "");
    }
    record = it->second;
    backups_.erase(it);
  }
  MT_RETURN_IF_ERROR(engine_.Commit({{}, {{BackupKey(record.id), std::nullopt}}}));
  auto [first, last] = table::KeySpaceRange(record.data_prefix);
  MT_RETURN_IF_ERROR(engine_.DeleteRange(first, last));
  record.status = BackupStatus::kDeleted;
  return record;
}

void BackupStore::Hold(std::string_view id) {
  std::lock_guard lock(mu_);
  holds_[std::string(id)]++;
}

void BackupStore::Release(std::string_view id) {
  std::lock_guard lock(mu_);
  auto it = holds_.find(id);
  if (it != holds_.end() && --it->second <= 0) holds_.erase(it);
}

bool BackupStore::Held(std::string_view id) const {
  std::lock_guard lock(mu_);
  return holds_.count(id) > 0;
}

Status BackupStore::ForEachItem(const BackupRecord& backup,
                                const std::function<Status(std::string_view record)>& fn) const {
  auto [first, last] = table::KeySpaceRange(backup.data_prefix);
  auto it = engine_.NewIterator(first, last);
  for (it->SeekToFirst(); it->Valid(); it->Next()) MT_RETURN_IF_ERROR(fn(it->value()));
  return it->status();
}

}  // namespace monotable::backup
