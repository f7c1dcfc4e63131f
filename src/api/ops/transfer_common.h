// What the export and import operations share: the ExportDescription / ImportTableDescription
// JSON and the lookups by ARN.
#pragma once

#include "api/operation.h"
#include "backup/backup_service.h"

namespace monotable::api {

void WriteExportDescription(JsonWriter& w, const backup::ExportRecord& r);
void WriteImportDescription(JsonWriter& w, const backup::ImportRecord& r);
// ImportSummary of ListImports.
void WriteImportSummary(JsonWriter& w, const backup::ImportRecord& r);

}  // namespace monotable::api
