// BackupStore: on-demand backups (CreateBackup and friends) kept inside the engine.
//
// Contract:
// - Begin() registers a backup of a table as CREATING and takes an engine snapshot of it at that
//   instant; Copy() then copies the table's items as of that snapshot into the backup's own key
//   space (writes that land meanwhile are not in the backup), counts them and marks the backup
//   AVAILABLE. The copy may run on another thread; the snapshot keeps the table's state alive.
// - Records persist in the system key space (records.h): backups survive restarts on a durable
//   engine. A backup found still CREATING at Load() lost its snapshot with the process that took
//   it: it is removed (its partial copy dropped).
// - Delete() removes the record and drops the backup's key space (the engine reclaims it in the
//   background). A backup that is being created or restored from cannot be deleted.
// - ForEachItem() reads a backup's items in key order.
// - Thread-safe: one mutex guards the in-memory map (never held across an engine scan).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "backup/records.h"
#include "engine/engine.h"
#include "model/attribute_value.h"
#include "table/catalog.h"

namespace monotable::backup {

class BackupStore {
 public:
  BackupStore(engine::Engine& engine, table::Catalog& catalog) : engine_(engine), catalog_(catalog) {}

  Status Load();

  struct Pending {
    BackupRecord record;
    std::shared_ptr<const engine::Snapshot> snapshot;
    uint32_t table_prefix = 0;
  };
  // `type` USER or SYSTEM (with its expiry).
  Result<Pending> Begin(const table::TableHandle& table, std::string name, int64_t now_ms, std::string type = "USER",
                        int64_t expiry_ms = 0);
  // Copies the snapshot into the backup and marks it AVAILABLE (or removes it on failure).
  Status Copy(const Pending& pending);

  std::optional<BackupRecord> Find(std::string_view id) const;
  // Every backup, in id order: oldest first (an id starts with its 14-digit creation time).
  std::vector<BackupRecord> List() const;
  Result<BackupRecord> Delete(std::string_view id);

  // Marks a backup as being restored from (Delete refuses it meanwhile); Release undoes it.
  void Hold(std::string_view id);
  void Release(std::string_view id);
  bool Held(std::string_view id) const;

  Status ForEachItem(const BackupRecord& backup, const std::function<Status(std::string_view record)>& fn) const;

 private:
  Status Persist(const BackupRecord& record);

  engine::Engine& engine_;
  table::Catalog& catalog_;
  mutable std::mutex mu_;
  std::map<std::string, BackupRecord, std::less<>> backups_;  // by id
  std::map<std::string, int, std::less<>> holds_;
};

}  // namespace monotable::backup
