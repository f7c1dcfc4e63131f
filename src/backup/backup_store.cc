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
  std::vector<BackupRecord> loaded;
  MT_RETURN_IF_ERROR(ScanSystemRecords(store_, BackupKeysBegin(), BackupKeysEnd(), [&](std::string_view value) {
    MT_ASSIGN_OR_RETURN(BackupRecord record, DecodeBackup(value));
    (record.status == BackupStatus::kCreating ? abandoned : loaded).push_back(std::move(record));
    return Status::Ok();
  }));
  {
    std::lock_guard lock(mu_);
    for (auto& record : loaded) backups_[record.id] = std::move(record);
  }
  for (const auto& record : abandoned) MT_RETURN_IF_ERROR(Remove(record));
  return Status::Ok();
}

Status BackupStore::Persist(const BackupRecord& record) {
  return PutSystemRecord(store_, BackupKey(record.id), EncodeBackup(record));
}

Status BackupStore::Remove(const BackupRecord& record) {
  // The copy first: a record left behind by a failure points at nothing half-dropped it still needs.
  MT_RETURN_IF_ERROR(store_.DropKeyspace(record.data_prefix));
  return PutSystemRecord(store_, BackupKey(record.id), std::nullopt);
}

Result<BackupStore::Pending> BackupStore::Begin(const table::TableHandle& table, std::string name, int64_t now_ms,
                                                std::string type, int64_t expiry_ms) {
  Pending pending;
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
  const engine::PartitionRef target = DataPartition(record.data_prefix);
  engine::PartitionWrite batch;
  size_t batch_bytes = 0;
  Status status;
  // The table's keys, keyspace-relative (partition id + sort key), become the copy's sort keys.
  Status scanned = store_.ScanKeyspace(pending.table_prefix, "", "", [&](std::string_view key, std::string_view value) {
    auto size = EncodedItemSize(value);
    if (!size.ok()) {
      status = size.status();
      return false;
    }
    record.item_count++;
    record.size_bytes += static_cast<int64_t>(*size);
    batch.mutations.push_back({std::string(key), std::string(value)});
    batch_bytes += key.size() + value.size();
    if (batch.mutations.size() >= kCopyBatchItems || batch_bytes >= kCopyBatchBytes) {
      status = store_.Commit(target, std::move(batch)).status();
      if (!status.ok()) return false;
      batch = {};
      batch_bytes = 0;
    }
    return true;
  });
  if (status.ok()) status = scanned;
  if (status.ok() && !batch.mutations.empty()) status = store_.Commit(target, std::move(batch)).status();
  if (status.ok()) {
    record.status = BackupStatus::kAvailable;
    status = Persist(record);
  }
  if (!status.ok()) {
    // Nothing half-made stays behind.
    (void)Remove(record);
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
  MT_RETURN_IF_ERROR(PutSystemRecord(store_, BackupKey(record.id), std::nullopt));
  MT_RETURN_IF_ERROR(store_.DropKeyspace(record.data_prefix));
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
  Status inner;
  MT_RETURN_IF_ERROR(store_.ReadRange(DataPartition(backup.data_prefix), {"", "", true},
                                      [&](std::string_view, std::string_view value) {
                                        inner = fn(value);
                                        return inner.ok();
                                      }));
  return inner;
}

}  // namespace monotable::backup
