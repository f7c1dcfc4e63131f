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

// How an ExportArn / ImportArn (`kind` "export" or "import") compares with this server's ARNs:
// not shaped arn:...:table/<name>/<kind>/<id> at all, another account's, another region's, or ours.
enum class TransferArnKind { kMalformed, kOtherAccount, kOtherRegion, kOurs };
TransferArnKind ClassifyTransferArn(const ServerIdentity& identity, std::string_view arn, std::string_view kind);

}  // namespace monotable::api
