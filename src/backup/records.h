// Records of the backup subsystem, persisted in the system keyspace's partition "" of the
// PartitionStore (engine.h part 1), and their codecs.
//
// Layout (sort keys of partition "" of system keyspace 0, beside the catalog's 'T'/'P'/'C', the
// streams' 'S' and the idempotency tokens' 'K'/'k'; on the ordered embedded engines the engine
// key is [0000][sort key], the layout of earlier versions):
//   ['B'][backup id]        -> BackupRecord JSON (an on-demand backup)
//   ['H'][table prefix u32] -> PitrRecord JSON (point-in-time recovery of one table)
//   ['R'][table id]         -> RestoreRecord JSON (how a restored table came to be)
// A backup's items live in a keyspace of their own (BackupRecord::data_prefix), in its ONE
// partition "": sort key [the item's key without its table prefix] -> the item as stored (item
// codec); engine key [data_prefix][...] on the ordered engines, as before.
//
// PutSystemRecord() / ScanSystemRecords() write and read those records (one-partition commits).
//
// Contract: Decode(Encode(r)) == r; Decode never crashes on bad bytes (kCorruption); unknown
// members are ignored so that older servers read newer records.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "engine/engine.h"

namespace monotable::backup {

enum class BackupStatus { kCreating, kAvailable, kDeleted };
std::string_view BackupStatusName(BackupStatus status);

struct BackupRecord {
  std::string id;  // "<14-digit creation ms>-<8 hex>", as AWS's backup ids look
  std::string name;
  BackupStatus status = BackupStatus::kCreating;
  int64_t created_ms = 0;  // the instant the backup is consistent at (its request time)
  int64_t size_bytes = 0;  // the items' sizes (DynamoDB's item-size rules)
  int64_t item_count = 0;
  uint32_t data_prefix = 0;
  std::string table_name;
  std::string table_id;
  std::string description;    // the source table's description (table/description_codec.h)
  std::string type = "USER";  // USER, or SYSTEM: made when a table with PITR is deleted
  int64_t expiry_ms = 0;      // SYSTEM backups expire (are deleted) 35 days after creation
};

struct PitrRecord {
  uint32_t table_prefix = 0;  // the table's key prefix: what every write names it by
  std::string table_id;
  uint32_t history_prefix = 0;  // the key space of the table's change history
  int64_t enabled_ms = 0;
  int64_t recovery_days = 35;
};

struct RestoreRecord {
  std::string table_id;           // the restored table
  std::string source_backup_arn;  // restored from a backup, or
  std::string source_table_arn;   // to a point in time of a table
  int64_t restore_ms = 0;         // RestoreDateTime: the time the data is as of
  bool in_progress = true;
};

// Sort keys in the system partition (the *Begin/*End pairs bound a kind: [begin, end)).
std::string BackupKey(std::string_view id);
std::string BackupKeysBegin();
std::string BackupKeysEnd();
std::string PitrKey(uint32_t table_prefix);
std::string PitrKeysBegin();
std::string PitrKeysEnd();
std::string RestoreKey(std::string_view table_id);
std::string RestoreKeysBegin();
std::string RestoreKeysEnd();

// The system partition the records live in.
constexpr engine::PartitionRef kRecordsPartition{0, ""};
// Writes (nullopt: deletes) one record under `sort_key` of the system partition.
Status PutSystemRecord(engine::PartitionStore& store, std::string sort_key, std::optional<std::string> value);
// Calls `fn` with every record whose sort key is in [begin, end), in key order.
Status ScanSystemRecords(engine::PartitionStore& store, std::string_view begin, std::string_view end,
                         const std::function<Status(std::string_view value)>& fn);
// The single partition holding a backup's (or any copy's) items in keyspace `keyspace`.
inline engine::PartitionRef DataPartition(uint32_t keyspace) { return {keyspace, ""}; }

std::string EncodeBackup(const BackupRecord& r);
Result<BackupRecord> DecodeBackup(std::string_view json);
std::string EncodePitr(const PitrRecord& r);
Result<PitrRecord> DecodePitr(std::string_view json);
std::string EncodeRestore(const RestoreRecord& r);
Result<RestoreRecord> DecodeRestore(std::string_view json);

// A new backup id for a backup requested at `now_ms`.
std::string NewBackupId(int64_t now_ms);

}  // namespace monotable::backup
