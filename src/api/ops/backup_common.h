// What the backup, PITR and restore operations share: backup ARNs, the BackupDetails /
// BackupDescription / BackupSummary / ContinuousBackupsDescription JSON, the restore overrides,
// their request shapes and the answer of a restore.
#pragma once

#include <optional>
#include <string>

#include "api/operation.h"
#include "backup/backup_service.h"

namespace monotable::api {

// arn:aws:dynamodb:REGION:ACCOUNT:table/TABLE/backup/ID
std::string BackupArn(const ServerIdentity& identity, const backup::BackupRecord& backup);
// The backup an ARN names, or BackupNotFoundException "Backup not found: ARN".
// The id in a BackupArn, or the ValidationException / AccessDeniedException AWS answers for an
// ARN that is not one of this account's backup ARNs (ack-api-quirks DDB-BACKUP-012, DDB-TABLE-442).
Result<std::string> BackupIdOf(const ServerIdentity& identity, std::string_view arn);

Result<backup::BackupRecord> FindBackup(OperationContext& ctx, std::string_view arn);
// The service, or an internal error when the server was built without one.
Result<backup::BackupService*> Backups(OperationContext& ctx);

void WriteBackupDetails(JsonWriter& w, const ServerIdentity& identity, const backup::BackupRecord& backup);
void WriteBackupDescription(JsonWriter& w, const ServerIdentity& identity, const backup::BackupRecord& backup);
void WriteBackupSummary(JsonWriter& w, const ServerIdentity& identity, const backup::BackupRecord& backup);
// The ContinuousBackupsDescription object of a table (PITR enabled when `pitr` is set).
void WriteContinuousBackups(JsonWriter& w, backup::BackupService& service,
                            const std::optional<backup::PitrRecord>& pitr);
void WriteTimestamp(JsonWriter& w, std::string_view key, int64_t ms);

// A time as AWS quotes it in error messages: "2026-10-08T23:16:33Z" (whole seconds, UTC).
std::string IsoSeconds(int64_t ms);

// The shape members of the restore overrides (after a leading comma-free list of other members).
std::string RestoreOverrideShapes();
// Reads the overrides of a checked request.
backup::RestoreOverrides ReadRestoreOverrides(const rapidjson::Value& request);
// Answers a restore that was asked to start: its error (TableAlreadyExistsException worded as AWS
// words it when the target appeared meanwhile), or the new table's TableDescription with its
// RestoreSummary (SourceBackupArn only for a restore from a backup: pass "" otherwise).
Status AnswerRestore(OperationContext& ctx, const Result<TableDescription>& created, const std::string& target,
                     std::string_view source_backup_arn, std::string_view source_table_arn, int64_t restore_ms);

}  // namespace monotable::api
