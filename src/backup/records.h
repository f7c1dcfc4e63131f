// Records of the backup subsystem, persisted in the engine's system key space, and their codecs.
//
// Layout (system key space 0, beside the catalog's 'T'/'P'/'C', the streams' 'S' and the
// idempotency tokens' 'K'/'k'):
//   [0000]['B'][backup id]        -> BackupRecord JSON (an on-demand backup)
//   [0000]['H'][table prefix u32] -> PitrRecord JSON (point-in-time recovery of one table)
//   [0000]['R'][table id]         -> RestoreRecord JSON (how a restored table came to be)
// A backup's items live in their own engine key space (BackupRecord::data_prefix) at
// [data_prefix][the item's key without its table prefix] -> the item as stored (item codec).
//
// Contract: Decode(Encode(r)) == r; Decode never crashes on bad bytes (kCorruption); unknown
// members are ignored so that older servers read newer records.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

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

std::string BackupKey(std::string_view id);
std::string BackupKeysBegin();
std::string BackupKeysEnd();
std::string PitrKey(uint32_t table_prefix);
std::string PitrKeysBegin();
std::string PitrKeysEnd();
std::string RestoreKey(std::string_view table_id);
std::string RestoreKeysBegin();
std::string RestoreKeysEnd();

std::string EncodeBackup(const BackupRecord& r);
Result<BackupRecord> DecodeBackup(std::string_view json);
std::string EncodePitr(const PitrRecord& r);
Result<PitrRecord> DecodePitr(std::string_view json);
std::string EncodeRestore(const RestoreRecord& r);
Result<RestoreRecord> DecodeRestore(std::string_view json);

// A new backup id for a backup requested at `now_ms`.
std::string NewBackupId(int64_t now_ms);

}  // namespace monotable::backup
