// BackupStore: on-demand backups (CreateBackup and friends) kept inside the PartitionStore.
//
// Contract:
// - Begin() registers a backup of a table as CREATING; Copy() copies the table's items into the
//   backup's own keyspace (ScanKeyspace over the table's keyspace, partition by partition),
//   counts them and marks the backup AVAILABLE. Consistency is per partition: each partition is
//   copied from one consistent view of it, with no view across partitions (as DynamoDB's own
//   backups and exports; the ordered embedded engines happen to scan from one snapshot). Writes
//   acknowledged before Begin() are in the backup; the caller runs Copy() right after Begin(),
//   before answering, so that writes after the request are not (BackupService does).
// - Records persist in the system partition (records.h): backups survive restarts on a durable
//   engine. A backup found still CREATING at Load() was cut short by a stop: it is removed (its
//   partial copy dropped).
// - The copy lives in one partition ("") of the backup's keyspace, committed in batches (one
//   partition commit each); Delete() removes the record and drops the backup's keyspace. A
//   backup that is being created or restored from cannot be deleted.
// - ForEachItem() reads a backup's items in key order.
// - Thread-safe: one mutex guards the in-memory map (never held across a store scan).
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
  BackupStore(engine::PartitionStore& store, table::Catalog& catalog) : store_(store), catalog_(catalog) {}

  Status Load();

  struct Pending {
    BackupRecord record;
    uint32_t table_prefix = 0;
  };
  // `type` USER or SYSTEM (with its expiry).
  Result<Pending> Begin(const table::TableHandle& table, std::string name, int64_t now_ms, std::string type = "USER",
                        int64_t expiry_ms = 0);
  // Copies the table's items into the backup and marks it AVAILABLE (or removes it on failure).
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
  // Removes a backup's record and copy.
  Status Remove(const BackupRecord& record);

  engine::PartitionStore& store_;
  table::Catalog& catalog_;
  mutable std::mutex mu_;
  std::map<std::string, BackupRecord, std::less<>> backups_;  // by id
  std::map<std::string, int, std::less<>> holds_;
};

}  // namespace monotable::backup
