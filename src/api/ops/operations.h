// The dispatch table: every operation the server answers, one file each in this folder.
#pragma once

#include <vector>

#include "api/operation.h"

namespace monotable::api {

extern const Operation kCreateTable;
extern const Operation kDescribeTable;
extern const Operation kListTables;
extern const Operation kDeleteTable;
extern const Operation kUpdateTable;
extern const Operation kDescribeEndpoints;
extern const Operation kDescribeLimits;
extern const Operation kPutItem;
extern const Operation kGetItem;
extern const Operation kDeleteItem;
extern const Operation kBatchWriteItem;
extern const Operation kScan;
extern const Operation kQuery;
extern const Operation kUpdateItem;
extern const Operation kTransactWriteItems;
extern const Operation kTransactGetItems;
extern const Operation kBatchGetItem;
// PartiQL (src/api/partiql/).
extern const Operation kExecuteStatement;
extern const Operation kBatchExecuteStatement;
extern const Operation kExecuteTransaction;

extern const Operation kUpdateTimeToLive;
extern const Operation kDescribeTimeToLive;
extern const Operation kTagResource;
extern const Operation kUntagResource;
extern const Operation kListTagsOfResource;
// Backups and point-in-time recovery (src/backup).
extern const Operation kCreateBackup;
extern const Operation kDescribeBackup;
extern const Operation kListBackups;
extern const Operation kDeleteBackup;
extern const Operation kRestoreTableFromBackup;
extern const Operation kUpdateContinuousBackups;
extern const Operation kDescribeContinuousBackups;
extern const Operation kRestoreTableToPointInTime;
// Export and import (src/backup/export_import.h).
extern const Operation kExportTableToPointInTime;
extern const Operation kDescribeExport;
extern const Operation kListExports;
extern const Operation kImportTable;
extern const Operation kDescribeImport;
extern const Operation kListImports;

// DynamoDB Streams (X-Amz-Target DynamoDBStreams_20120810.<Operation>).
extern const Operation kListStreams;
extern const Operation kDescribeStream;
extern const Operation kGetShardIterator;
extern const Operation kGetRecords;

const std::vector<const Operation*>& AllOperations();
const std::vector<const Operation*>& StreamOperations();

// The ResourceArn checks the tag operations share (tag_resource.cc), in DynamoDB's order: a missing
// or non-ARN ResourceArn, then (after TagResource's Tags check) whether it is a table ARN.
Status CheckResourceArn(OperationContext& ctx, std::string_view action);
Result<std::string> TableOfResourceArn(OperationContext& ctx);
// Whether a tag key or value holds only letters, digits and white space of any script (non-ASCII
// characters are accepted as such), plus _ . : / = + - @.
bool ValidTagText(std::string_view s);
// The Tags of TagResource and CreateTable: characters, the reserved "aws:" prefix, repeated keys.
Status CheckTags(const rapidjson::Value& tags);
constexpr size_t kMaxTagsPerTable = 50;

}  // namespace monotable::api
