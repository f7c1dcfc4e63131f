#include "api/ops/operations.h"

namespace monotable::api {

const std::vector<const Operation*>& AllOperations() {
  static const std::vector<const Operation*> kAll = {
      &kCreateTable, &kDescribeTable,     &kListTables,      &kDeleteTable, &kUpdateTable,
      &kDescribeEndpoints, &kDescribeLimits, &kPutItem, &kGetItem, &kDeleteItem, &kBatchWriteItem, &kScan, &kQuery, &kUpdateItem, &kTransactWriteItems, &kTransactGetItems, &kBatchGetItem,
      &kExecuteStatement, &kBatchExecuteStatement, &kExecuteTransaction,
      &kUpdateTimeToLive, &kDescribeTimeToLive, &kTagResource, &kUntagResource, &kListTagsOfResource,
      &kCreateBackup, &kDescribeBackup, &kListBackups, &kDeleteBackup, &kRestoreTableFromBackup,
      &kUpdateContinuousBackups, &kDescribeContinuousBackups, &kRestoreTableToPointInTime,
      &kExportTableToPointInTime, &kDescribeExport, &kListExports, &kImportTable, &kDescribeImport, &kListImports,
  };
  return kAll;
}

const std::vector<const Operation*>& StreamOperations() {
  static const std::vector<const Operation*> kAll = {&kListStreams, &kDescribeStream, &kGetShardIterator, &kGetRecords};
  return kAll;
}

}  // namespace monotable::api
