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
extern const Operation kTransactWriteItems;
extern const Operation kTransactGetItems;
extern const Operation kBatchGetItem;

const std::vector<const Operation*>& AllOperations();

}  // namespace monotable::api
