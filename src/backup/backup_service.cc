#include "backup/backup_service.h"

#include <cstdio>
#include <shared_mutex>

#include "backup/table_loader.h"
#include "model/item_codec.h"
#include "table/description_codec.h"

namespace monotable::backup {

BackupService::BackupService(table::Database& db, table::Clock clock)
    : db_(db),
      clock_(std::move(clock)),
      backups_(db.store(), db.catalog()),
      pitr_(std::make_shared<PitrLog>(db.store(), db.catalog(), clock_)) {
  load_status_ = backups_.Load();
  if (load_status_.ok()) load_status_ = pitr_->Load();
  if (load_status_.ok()) load_status_ = LoadRestores();
  if (load_status_.ok()) load_status_ = LoadTransfers();
  if (!load_status_.ok()) {
    std::fprintf(stderr, "monotable: loading backups failed: %s\n", load_status_.message().c_str());
  }
  db_.streams().SetChangeHook(pitr_);
  worker_ = std::jthread([this](std::stop_token stop) { Run(stop); });
}

Status SourceKept(const table::TableHandle& source) {
  // The drop marks the gate before it drops the keyspace: not marked after the reads, the reads
  // saw the whole table (there is no snapshot to keep a dropped table readable).
  std::shared_lock gate(source.gate->mutex);
  if (source.gate->dropped) return Status::NotFound("the source table was deleted while it was read");
  return Status::Ok();
}

BackupService::~BackupService() {
  worker_.request_stop();
  wake_.notify_all();
  if (worker_.joinable()) worker_.join();
}

Status BackupService::LoadRestores() {
  std::vector<RestoreRecord> unfinished, finished;
  MT_RETURN_IF_ERROR(ScanSystemRecords(db_.store(), RestoreKeysBegin(), RestoreKeysEnd(), [&](std::string_view value) {
    MT_ASSIGN_OR_RETURN(RestoreRecord r, DecodeRestore(value));
    (r.in_progress ? unfinished : finished).push_back(std::move(r));
    return Status::Ok();
  }));
  {
    std::lock_guard lock(restores_mu_);
    for (auto& r : finished) restores_[r.table_id] = std::move(r);
  }
  // A restore cut short by a stop: its half-loaded table goes (the caller restores again).
  for (const auto& r : unfinished) {
    for (const auto& name : db_.catalog().Names()) {
      auto handle = db_.catalog().Find(name);
      if (handle && handle->description->table_id == r.table_id) {
        std::fprintf(stderr, "monotable: dropping table %s: its restore did not finish\n", name.c_str());
        (void)db_.catalog().Drop(name);
      }
    }
    MT_RETURN_IF_ERROR(PutSystemRecord(db_.store(), RestoreKey(r.table_id), std::nullopt));
  }
  return Status::Ok();
}

Status BackupService::PutRestore(const RestoreRecord& r) {
  MT_RETURN_IF_ERROR(PutSystemRecord(db_.store(), RestoreKey(r.table_id), EncodeRestore(r)));
  std::lock_guard lock(restores_mu_);
  restores_[r.table_id] = r;
  return Status::Ok();
}

std::optional<RestoreRecord> BackupService::RestoreOf(std::string_view table_id) const {
  std::lock_guard lock(restores_mu_);
  auto it = restores_.find(table_id);
  if (it == restores_.end()) return std::nullopt;
  return it->second;
}

void BackupService::Enqueue(Job job) {
  {
    std::lock_guard lock(mu_);
    jobs_.push_back(std::move(job));
  }
  wake_.notify_all();
}

void BackupService::WaitIdle() {
  std::unique_lock lock(mu_);
  idle_.wait(lock, [&] { return jobs_.empty() && running_ == 0; });
}

void BackupService::Run(std::stop_token stop) {
  int64_t last_trim = clock_();
  while (!stop.stop_requested()) {
    Job job;
    {
      std::unique_lock lock(mu_);
      wake_.wait_for(lock, stop, std::chrono::seconds(5), [&] { return !jobs_.empty(); });
      if (stop.stop_requested()) return;
      if (!jobs_.empty()) {
        job = std::move(jobs_.front());
        jobs_.pop_front();
        ++running_;
      }
    }
    if (job) {
      job();
      std::lock_guard lock(mu_);
      --running_;
      idle_.notify_all();
    }
    if (int64_t now = clock_(); now - last_trim >= kTrimPeriodMs) {
      last_trim = now;
      if (Status st = pitr_->Trim(); !st.ok()) {
        std::fprintf(stderr, "monotable: trimming PITR history failed: %s\n", st.message().c_str());
      }
      if (Status st = DeleteExpired(); !st.ok()) {
        std::fprintf(stderr, "monotable: deleting expired backups failed: %s\n", st.message().c_str());
      }
    }
  }
}

Result<BackupRecord> BackupService::CreateBackup(const table::TableHandle& table, std::string name) {
  MT_RETURN_IF_ERROR(load_status_);
  MT_ASSIGN_OR_RETURN(BackupStore::Pending pending, backups_.Begin(table, std::move(name), clock_()));
  return CopyNow(pending);
}

Result<BackupRecord> BackupService::CreateSystemBackup(const table::TableHandle& table) {
  MT_RETURN_IF_ERROR(load_status_);
  int64_t now = clock_();
  MT_ASSIGN_OR_RETURN(BackupStore::Pending pending,
                      backups_.Begin(table, table.description->name + "$DeletedTableBackup", now, "SYSTEM",
                                     now + kSystemBackupDays * 24 * 3600 * 1000));
  return CopyNow(pending);
}

Result<BackupRecord> BackupService::CopyNow(const BackupStore::Pending& pending) {
  // Copied before the request is answered: the backup holds every write acknowledged before the
  // request and none acknowledged after the answer (there is no snapshot to copy from later).
  if (Status st = backups_.Copy(pending); !st.ok()) {
    std::fprintf(stderr, "monotable: backup %s failed: %s\n", pending.record.id.c_str(), st.message().c_str());
    return st;
  }
  auto found = backups_.Find(pending.record.id);
  if (!found) return Status(ErrorCode::kBackupNotFound, "");
  return *found;
}

Status BackupService::DeleteExpired() {
  int64_t now = clock_();
  for (const auto& b : backups_.List()) {
    if (b.expiry_ms > 0 && b.expiry_ms <= now && b.status == BackupStatus::kAvailable && !backups_.Held(b.id)) {
      auto deleted = backups_.Delete(b.id);
      if (!deleted.ok() && deleted.status().code() != ErrorCode::kBackupInUse &&
          deleted.status().code() != ErrorCode::kBackupNotFound) {
        return deleted.status();
      }
    }
  }
  return Status::Ok();
}

Result<TableDescription> BackupService::StartRestore(TableDescription plan, RestoreRecord record, ItemSource source,
                                                     std::function<void()> done) {
  MT_RETURN_IF_ERROR(load_status_);
  auto created = db_.catalog().Create(std::move(plan));
  if (!created.ok()) {
    if (created.status().code() == ErrorCode::kResourceInUse) return Status(ErrorCode::kTableAlreadyExists, "");
    return created.status();
  }
  record.table_id = created->table_id;
  record.in_progress = true;
  if (Status st = PutRestore(record); !st.ok()) {
    (void)db_.catalog().Drop(created->name);
    return st;
  }
  std::string name = created->name;
  Enqueue([this, name, record, source = std::move(source), done = std::move(done)]() mutable {
    auto handle = db_.catalog().Find(name);
    Status st = handle && handle->description->table_id == record.table_id
                    ? Status::Ok()
                    : Status::NotFound("the restored table was dropped");
    if (st.ok()) {
      TableLoader loader(db_, handle);
      st = source([&](std::string_view bytes) -> Status {
        MT_ASSIGN_OR_RETURN(Item item, DecodeItem(bytes));
        return loader.Add(item);
      });
      if (st.ok()) st = loader.Finish();
    }
    if (!st.ok()) {
      std::fprintf(stderr, "monotable: restoring table %s failed: %s\n", name.c_str(), st.message().c_str());
      if (handle && handle->description->table_id == record.table_id) (void)db_.catalog().Drop(name);
      (void)PutSystemRecord(db_.store(), RestoreKey(record.table_id), std::nullopt);
      std::lock_guard lock(restores_mu_);
      restores_.erase(record.table_id);
    } else {
      record.in_progress = false;
      if (Status put = PutRestore(record); !put.ok()) {
        std::fprintf(stderr, "monotable: recording the restore of %s failed: %s\n", name.c_str(),
                     put.message().c_str());
      }
    }
    if (done) done();
  });
  return *created;
}

Result<TableDescription> BackupService::RestoreFromBackup(const BackupRecord& backup, const std::string& target,
                                                          const RestoreOverrides& overrides,
                                                          std::string source_backup_arn, std::string source_table_arn) {
  MT_ASSIGN_OR_RETURN(TableDescription source, table::DecodeDescription(backup.description));
  MT_ASSIGN_OR_RETURN(TableDescription plan, PlanRestore(source, target, overrides));
  RestoreRecord record;
  record.source_backup_arn = std::move(source_backup_arn);
  record.source_table_arn = std::move(source_table_arn);
  record.restore_ms = backup.created_ms;
  backups_.Hold(backup.id);
  auto started = StartRestore(
      std::move(plan), std::move(record),
      [this, backup](const std::function<Status(std::string_view)>& fn) { return backups_.ForEachItem(backup, fn); },
      [this, id = backup.id] { backups_.Release(id); });
  if (!started.ok()) backups_.Release(backup.id);
  return started;
}

Result<TableDescription> BackupService::RestoreToTime(std::shared_ptr<const table::TableHandle> source,
                                                      const PitrRecord& pitr, int64_t at_ms, const std::string& target,
                                                      const RestoreOverrides& overrides, std::string source_table_arn) {
  MT_ASSIGN_OR_RETURN(TableDescription plan, PlanRestore(*source->description, target, overrides));
  RestoreRecord record;
  record.source_table_arn = std::move(source_table_arn);
  record.restore_ms = at_ms;
  // Read when the job runs (pitr.h: the history keeps the items as of at_ms meanwhile).
  return StartRestore(
      std::move(plan), std::move(record),
      [this, source, pitr, at_ms](const std::function<Status(std::string_view)>& fn) {
        MT_RETURN_IF_ERROR(pitr_->ForEachItemAt(*source->description, pitr, at_ms, fn));
        return SourceKept(*source);
      },
      nullptr);
}

}  // namespace monotable::backup
