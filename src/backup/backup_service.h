// BackupService: on-demand backups, point-in-time recovery and restores of one Database; what the
// API operations (src/api/ops/*backup*, *continuous_backups*, restore_*) call.
//
// Contract:
// - Construction loads the persisted state (backups, PITR settings, restore records) and
//   installs the PITR history hook on the database's change log; a background worker then runs
//   backup copies and restores in request order, and trims PITR history every few minutes.
// - CreateBackup() (and CreateSystemBackup()) copy the table before they return, and return the
//   backup AVAILABLE (consistent per partition, see backup_store.h); works on every PartitionStore.
// - Restore*() create the target table at once (DescribeTable says CREATING and RestoreSummary
//   RestoreInProgress=true until the load ends) and load its items on the worker; then the table
//   is ACTIVE. A restore interrupted by a stop leaves a table that the next start drops.
// - RestoreOf() is the RestoreSummary of a restored table (by table id).
// - Exports and imports (export_import.h) run on the worker too, against the object store set by
//   set_object_store() (object_store.h: `serve --export-dir DIR` or `serve --s3-endpoint URL`;
//   set_export_dir() is the directory's shorthand; none: they fail). Their records persist in
//   the system partition ('E', 'I'; records.h); one still IN_PROGRESS at a start is marked FAILED.
// - Everything reads and writes through db.store() (engine.h part 1): restores and imports load
//   through TableLoader (the logged write path on a logged store), PITR reads are pitr.h's.
// - The destructor stops the worker after the job in hand (the database must outlive it).
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "backup/backup_store.h"
#include "backup/export_import.h"
#include "backup/object_store.h"
#include "backup/pitr.h"
#include "backup/restore_plan.h"
#include "table/database.h"

namespace monotable::backup {

// OK unless `source` was dropped (DeleteTable) by now: a job reading a table without a snapshot
// checks it after its reads, so a table dropped under it fails the job instead of giving part of it.
Status SourceKept(const table::TableHandle& source);

class BackupService {
 public:
  static constexpr int64_t kTrimPeriodMs = 10 * 60 * 1000;

  // `clock`: epoch milliseconds (tests may fake it).
  explicit BackupService(table::Database& db, table::Clock clock = table::SystemNowMs);
  ~BackupService();
  BackupService(const BackupService&) = delete;
  BackupService& operator=(const BackupService&) = delete;

  // Non-OK when the persisted state could not be read (the operations then fail with it).
  const Status& load_status() const { return load_status_; }

  BackupStore& backups() { return backups_; }
  PitrLog& pitr() { return *pitr_; }
  int64_t NowMs() const { return clock_(); }

  Result<BackupRecord> CreateBackup(const table::TableHandle& table, std::string name);
  // The SYSTEM backup AWS makes of a table with PITR enabled that is being deleted (call before the
  // drop: the items are copied before it returns); kept kSystemBackupDays, then deleted.
  static constexpr int64_t kSystemBackupDays = 35;
  Result<BackupRecord> CreateSystemBackup(const table::TableHandle& table);
  // Deletes SYSTEM backups past their expiry (the worker does it with the PITR trim).
  Status DeleteExpired();

  // `source_backup_arn` / `source_table_arn` go into the RestoreSummary as given.
  Result<TableDescription> RestoreFromBackup(const BackupRecord& backup, const std::string& target,
                                             const RestoreOverrides& overrides, std::string source_backup_arn,
                                             std::string source_table_arn);
  Result<TableDescription> RestoreToTime(std::shared_ptr<const table::TableHandle> source, const PitrRecord& pitr,
                                         int64_t at_ms, const std::string& target, const RestoreOverrides& overrides,
                                         std::string source_table_arn);

  std::optional<RestoreRecord> RestoreOf(std::string_view table_id) const;
  // Whether an import is still loading the table (DescribeTable then says CREATING).
  bool Importing(std::string_view table_id) const {
    std::lock_guard lock(restores_mu_);
    return importing_.count(std::string(table_id)) > 0;
  }

  // Call before the first export or import (the worker uses the store without a lock).
  void set_object_store(std::shared_ptr<ObjectStore> store) { store_ = std::move(store); }
  void set_export_dir(const std::string& dir) { store_ = dir.empty() ? nullptr : NewDirectoryStore(dir); }
  // Registers the export (IN_PROGRESS) and queues it; `record` has its request fields filled in.
  // The items are the table's at record.export_ms (PITR must be enabled: the caller checks).
  Result<ExportRecord> Export(std::shared_ptr<const table::TableHandle> source, const PitrRecord& pitr,
                              ExportRecord record);
  std::optional<ExportRecord> FindExport(std::string_view arn) const;
  std::vector<ExportRecord> Exports() const;  // oldest first
  // Creates the table `plan` and queues the import of the objects `record` names into it.
  Result<ImportRecord> Import(TableDescription plan, ImportRecord record,
                              const std::function<void(ImportRecord&, const TableDescription&)>& name_it);
  std::optional<ImportRecord> FindImport(std::string_view arn) const;
  std::vector<ImportRecord> Imports() const;  // oldest first

  // Waits until every job queued so far has run (tests, CLI).
  void WaitIdle();

 private:
  using Job = std::function<void()>;
  void Enqueue(Job job);
  void Run(std::stop_token stop);
  Status LoadRestores();
  Status LoadTransfers();
  Status PutExport(const ExportRecord& r);
  Status PutImport(const ImportRecord& r);
  Status PutRestore(const RestoreRecord& r);
  Result<BackupRecord> CopyNow(const BackupStore::Pending& pending);
  // Creates the target table and its restore record; the job loads it with `for_each`'s items.
  using ItemSource = std::function<Status(const std::function<Status(std::string_view)>&)>;
  Result<TableDescription> StartRestore(TableDescription plan, RestoreRecord record, ItemSource source,
                                        std::function<void()> done);

  table::Database& db_;
  table::Clock clock_;
  Status load_status_;
  BackupStore backups_;
  std::shared_ptr<PitrLog> pitr_;
  mutable std::mutex restores_mu_;
  std::map<std::string, RestoreRecord, std::less<>> restores_;  // by table id
  std::set<std::string> importing_;                             // under restores_mu_: table ids
  std::shared_ptr<ObjectStore> store_;  // none: exports and imports fail
  mutable std::mutex transfers_mu_;
  std::map<std::string, ExportRecord, std::less<>> exports_;  // by ARN
  std::map<std::string, ImportRecord, std::less<>> imports_;  // by ARN

  std::mutex mu_;
  std::condition_variable_any wake_;
  std::deque<Job> jobs_;
  size_t running_ = 0;
  std::condition_variable_any idle_;
  std::jthread worker_;  // last: stopped first
};

}  // namespace monotable::backup
