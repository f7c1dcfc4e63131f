// BackupService's exports and imports (backup_service.h): records, and the jobs that run them.
#include <algorithm>
#include <cstdio>

#include "backup/backup_service.h"
#include "backup/dynamodb_json.h"
#include "backup/ion_text.h"
#include "backup/table_loader.h"
#include "model/item_codec.h"
#include "changelog/keys.h"

namespace monotable::backup {
namespace {

using Emit = std::function<Status(std::string_view line, int64_t bytes)>;

Status FullLines(PitrLog& pitr_log, const TableDescription& table, const PitrRecord& pitr, int64_t at_ms, bool ion,
                 const Emit& emit) {
  return pitr_log.ForEachItemAt(table, pitr, at_ms, [&](std::string_view bytes) -> Status {
    MT_ASSIGN_OR_RETURN(Item item, DecodeItem(bytes));
    return emit(ion ? IonItemLine(item) : ItemLine(item), static_cast<int64_t>(ItemSize(item)));
  });
}

// {"Metadata":{"WriteTime":{"N":"<microseconds>"}},"Keys":{...},"OldImage":{...},"NewImage":{...}}
Status ChangeLines(PitrLog& pitr_log, const TableDescription& table, const PitrRecord& pitr, const ExportRecord& r,
                   const Emit& emit) {
  bool old_images = r.view_type != "NEW_IMAGE";
  return pitr_log.ForEachChange(
      table, pitr, r.from_ms, r.to_ms,
      [&](const PitrLog::Change& change) -> Status {
        std::optional<Item> before, after;
        if (change.before) {
          MT_ASSIGN_OR_RETURN(before, DecodeItem(*change.before));
        }
        if (change.after) {
          MT_ASSIGN_OR_RETURN(after, DecodeItem(*change.after));
        }
        const Item& any = after ? *after : *before;
        bool ion = r.format == "ION";
        auto image = [&](const Item& item) { return ion ? IonValue(item) : ItemJson(item); };
        std::string micros = std::to_string(change.write_ms * 1000);
        std::string line = ion ? "{Metadata:{WriteTime:" + micros + "},Keys:" + image(table::ExtractKey(table, any))
                               : "{\"Metadata\":{\"WriteTime\":{\"N\":\"" + micros +
                                     "\"}},\"Keys\":" + image(table::ExtractKey(table, any));
        if (after) line += (ion ? ",NewImage:" : ",\"NewImage\":") + image(*after);
        if (before && old_images) line += (ion ? ",OldImage:" : ",\"OldImage\":") + image(*before);
        line += "}";
        int64_t bytes = static_cast<int64_t>((after ? ItemSize(*after) : 0) + (before ? ItemSize(*before) : 0));
        return emit(line, bytes);
      });
}

const char* const kNoStore =
    "No export location: start the server with --export-dir DIR or --s3-endpoint URL";

// ExportDescription/ImportDescription's FailureCode for a failed transfer.
std::string FailureCode(const Status& st, const char* otherwise) {
  if (st.code() == ErrorCode::kResourceNotFound) return "S3NoSuchBucket";
  if (st.code() == ErrorCode::kAccessDenied) return "S3AccessDenied";
  return otherwise;
}

}  // namespace

Status BackupService::LoadTransfers() {
  std::vector<ExportRecord> exports;
  std::vector<ImportRecord> imports;
  MT_RETURN_IF_ERROR(ScanSystemRecords(db_.store(), ExportKeysBegin(), ExportKeysEnd(), [&](std::string_view value) {
    MT_ASSIGN_OR_RETURN(ExportRecord r, DecodeExport(value));
    exports.push_back(std::move(r));
    return Status::Ok();
  }));
  MT_RETURN_IF_ERROR(ScanSystemRecords(db_.store(), ImportKeysBegin(), ImportKeysEnd(), [&](std::string_view value) {
    MT_ASSIGN_OR_RETURN(ImportRecord r, DecodeImport(value));
    imports.push_back(std::move(r));
    return Status::Ok();
  }));
  // Work cut short by a stop did not finish: FAILED (the caller runs it again).
  for (auto& r : exports) {
    if (r.status == "IN_PROGRESS") {
      r.status = "FAILED";
      r.failure_code = "InternalServerError";
      r.failure_message = "The server stopped during the export";
      r.end_ms = clock_();
      MT_RETURN_IF_ERROR(PutExport(r));
    }
    std::lock_guard lock(transfers_mu_);
    exports_[r.export_arn] = r;
  }
  for (auto& r : imports) {
    if (r.status == "IN_PROGRESS") {
      r.status = "FAILED";
      r.failure_code = "InternalServerError";
      r.failure_message = "The server stopped during the import";
      r.end_ms = clock_();
      MT_RETURN_IF_ERROR(PutImport(r));
    }
    std::lock_guard lock(transfers_mu_);
    imports_[r.import_arn] = r;
  }
  return Status::Ok();
}

Status BackupService::PutExport(const ExportRecord& r) {
  MT_RETURN_IF_ERROR(PutSystemRecord(db_.store(), ExportKey(r.id), EncodeExport(r)));
  std::lock_guard lock(transfers_mu_);
  exports_[r.export_arn] = r;
  return Status::Ok();
}

Status BackupService::PutImport(const ImportRecord& r) {
  MT_RETURN_IF_ERROR(PutSystemRecord(db_.store(), ImportKey(r.id), EncodeImport(r)));
  std::lock_guard lock(transfers_mu_);
  imports_[r.import_arn] = r;
  return Status::Ok();
}

std::optional<ExportRecord> BackupService::FindExport(std::string_view arn) const {
  std::lock_guard lock(transfers_mu_);
  auto it = exports_.find(arn);
  if (it == exports_.end()) return std::nullopt;
  return it->second;
}

std::vector<ExportRecord> BackupService::Exports() const {
  std::vector<ExportRecord> out;
  {
    std::lock_guard lock(transfers_mu_);
    for (const auto& [arn, r] : exports_) out.push_back(r);
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return out;
}

std::optional<ImportRecord> BackupService::FindImport(std::string_view arn) const {
  std::lock_guard lock(transfers_mu_);
  auto it = imports_.find(arn);
  if (it == imports_.end()) return std::nullopt;
  return it->second;
}

std::vector<ImportRecord> BackupService::Imports() const {
  std::vector<ImportRecord> out;
  {
    std::lock_guard lock(transfers_mu_);
    for (const auto& [arn, r] : imports_) out.push_back(r);
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return out;
}

Result<ExportRecord> BackupService::Export(std::shared_ptr<const table::TableHandle> source, const PitrRecord& pitr,
                                           ExportRecord record) {
  MT_RETURN_IF_ERROR(load_status_);
  record.id = NewBackupId(clock_());
  record.export_arn = record.table_arn + "/export/" + record.id;
  record.status = "IN_PROGRESS";
  record.start_ms = clock_();
  MT_RETURN_IF_ERROR(PutExport(record));
  // The items are read when the job runs (pitr.h: the history keeps them as of export_ms).
  Enqueue([this, source, pitr, record]() mutable {
    Status st = !store_ ? Status::NotFound(kNoStore)
                        : WriteExport(*store_, record, [&](const Emit& emit) {
                        MT_RETURN_IF_ERROR(record.export_type == "INCREMENTAL_EXPORT"
                                               ? ChangeLines(*pitr_, *source->description, pitr, record, emit)
                                               : FullLines(*pitr_, *source->description, pitr, record.export_ms,
                                                           record.format == "ION", emit));
                        return SourceKept(*source);  // before the manifest: no complete-looking export
                      });
    record.end_ms = clock_();
    if (st.ok()) {
      record.status = "COMPLETED";
    } else {
      record.status = "FAILED";
      record.failure_code = FailureCode(st, "UnknownError");
      record.failure_message = st.message();
      std::fprintf(stderr, "monotable: export %s failed: %s\n", record.export_arn.c_str(), st.message().c_str());
    }
    if (Status put = PutExport(record); !put.ok()) {
      std::fprintf(stderr, "monotable: recording export %s failed: %s\n", record.export_arn.c_str(),
                   put.message().c_str());
    }
  });
  return record;
}

Result<ImportRecord> BackupService::Import(TableDescription plan, ImportRecord record,
                                           const std::function<void(ImportRecord&, const TableDescription&)>& name_it) {
  MT_RETURN_IF_ERROR(load_status_);
  auto created = db_.catalog().Create(std::move(plan));
  if (!created.ok()) return created.status();
  record.id = NewBackupId(clock_());
  record.table_id = created->table_id;
  record.table_name = created->name;
  name_it(record, *created);
  record.status = "IN_PROGRESS";
  record.start_ms = clock_();
  // While the import runs the table is being created (Importing()), as a restore's is.
  if (Status st = PutImport(record); !st.ok()) {
    (void)db_.catalog().Drop(created->name);
    return st;
  }
  {
    std::lock_guard lock(restores_mu_);
    importing_.insert(created->table_id);
  }
  Enqueue([this, record, table = *created]() mutable {
    auto handle = db_.catalog().Find(table.name);
    Status st = handle && handle->description->table_id == table.table_id
                    ? Status::Ok()
                    : Status::NotFound("the table being imported into was dropped");
    if (st.ok() && !store_) st = Status::NotFound(kNoStore);
    if (st.ok()) {
      TableLoader loader(db_, handle);
      int64_t added = 0;
      st = ReadImport(
          *store_, record, table,
          [&](const Item& item) {
            // DescribeImport shows the counts as they grow (persisted only at the end).
            if (++added % 5000 == 0) {
              std::lock_guard lock(transfers_mu_);
              imports_[record.import_arn] = record;
            }
            return loader.Add(item);
          },
          [&](const std::string& where, const std::string& why) {
            std::fprintf(stderr, "monotable: import %s: %s: %s\n", record.import_arn.c_str(), where.c_str(),
                         why.c_str());
          });
      if (st.ok()) st = loader.Finish();
    }
    record.end_ms = clock_();
    if (st.ok()) {
      record.status = "COMPLETED";
    } else {
      record.status = "FAILED";
      record.failure_code = FailureCode(st, "InternalServerError");
      record.failure_message = st.message();
      std::fprintf(stderr, "monotable: import %s failed: %s\n", record.import_arn.c_str(), st.message().c_str());
    }
    {
      std::lock_guard lock(restores_mu_);
      importing_.erase(table.table_id);
    }
    if (Status put = PutImport(record); !put.ok()) {
      std::fprintf(stderr, "monotable: recording import %s failed: %s\n", record.import_arn.c_str(),
                   put.message().c_str());
    }
  });
  return record;
}

}  // namespace monotable::backup
