// DeleteTable: drops a table and all its items and index entries; refused under deletion protection.
// A table with PITR enabled first gets a SYSTEM backup (backup/backup_service.h), as on AWS.
// Answers with the trimmed description AWS gives (no key schema, definitions or indexes).
#include "api/ops/operations.h"
#include "api/request_fields.h"
#include "api/table_json.h"
#include "backup/backup_service.h"

namespace monotable::api {
namespace {

constexpr const char* kShape = R"({
  "TableName": {"type": "String", "required": true, "tableName": true, "regex": "[a-zA-Z0-9_.-]+"}
})";

Status Run(OperationContext& ctx) {
  std::string name = TableNameOf(ctx.request);
  auto handle = ctx.db.catalog().Find(name);
  if (!handle) return Status::NotFound("Requested resource not found: Table: " + name + " not found");
  if (handle->description->deletion_protection) {
    return Status::Validation(
        "Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.");
  }
  // A table with PITR enabled leaves a SYSTEM backup of its last state, as on AWS.
  if (ctx.backups && ctx.backups->load_status().ok() && ctx.backups->pitr().Find(*handle->description)) {
    MT_RETURN_IF_ERROR(ctx.backups->CreateSystemBackup(*handle).status());
  }
  int64_t count = handle->stats->item_count, bytes = handle->stats->size_bytes;
  MT_ASSIGN_OR_RETURN(TableDescription dropped, ctx.db.catalog().Drop(name));
  table::TableStats stats;
  stats.item_count = count;
  stats.size_bytes = bytes;
  ctx.out.StartObject();
  ctx.out.Key("TableDescription");
  WriteTableDescription(ctx.out, ctx.identity, dropped, &stats, "DELETING", DescriptionView::kDeleted);
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kDeleteTable{"DeleteTable", kShape, nullptr, Run};

}  // namespace monotable::api
