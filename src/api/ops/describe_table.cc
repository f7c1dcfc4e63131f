// DescribeTable: the complete TableDescription of one table.
#include "api/ops/backup_common.h"
#include "api/ops/operations.h"
#include "api/request_fields.h"
#include "api/table_json.h"

namespace monotable::api {
namespace {

constexpr const char* kShape = R"({
  "TableName": {"type": "String", "required": true, "tableName": true, "regex": "[a-zA-Z0-9_.-]+"}
})";

Status Run(OperationContext& ctx) {
  std::string name = TableNameOf(ctx.request);
  auto handle = ctx.db.catalog().Find(name);
  if (!handle) return Status::NotFound("Requested resource not found: Table: " + name + " not found");
  // A restored table: its RestoreSummary, and CREATING while its items are still being loaded.
  std::optional<backup::RestoreRecord> restore;
  if (ctx.backups) restore = ctx.backups->RestoreOf(handle->description->table_id);
  bool importing = ctx.backups && ctx.backups->Importing(handle->description->table_id);
  ctx.out.StartObject();
  ctx.out.Key("Table");
  if (!restore) {
    WriteTableDescription(ctx.out, ctx.identity, *handle->description, handle->stats.get(),
                          importing ? "CREATING" : "");
  } else {
    WriteTableDescription(ctx.out, ctx.identity, *handle->description, handle->stats.get(),
                          restore->in_progress ? "CREATING" : "", DescriptionView::kFull, [&](JsonWriter& w) {
                            w.Key("RestoreSummary");
                            w.StartObject();
                            if (!restore->source_backup_arn.empty()) {
                              WriteString(w, "SourceBackupArn", restore->source_backup_arn);
                            }
                            WriteString(w, "SourceTableArn", restore->source_table_arn);
                            WriteTimestamp(w, "RestoreDateTime", restore->restore_ms);
                            w.Key("RestoreInProgress");
                            w.Bool(restore->in_progress);
                            w.EndObject();
                          });
  }
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kDescribeTable{"DescribeTable", kShape, nullptr, Run};

}  // namespace monotable::api
