// The definition of a table restored from a backup or to a point in time: the source table's
// definition with the overrides RestoreTableFromBackup / RestoreTableToPointInTime allow.
//
// Contract: PlanRestore() copies the key schema, attribute definitions, billing mode, throughput,
// secondary indexes, table class and encryption of the source; it leaves out what AWS does not
// restore (stream, TTL, tags, deletion protection). An index override list replaces the source's
// indexes of that kind and may only name indexes the source has, with the same key schema (some
// or all may be left out); definitions no key schema uses any more are dropped. Refusals are
// ValidationExceptions with AWS's wording where it is known.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/table_description.h"

namespace monotable::backup {

struct RestoreOverrides {
  std::optional<BillingMode> billing_mode;
  std::optional<Throughput> throughput;
  std::optional<std::vector<IndexDescription>> global_indexes;
  std::optional<std::vector<IndexDescription>> local_indexes;
  // SSESpecificationOverride: enabled (KMS) or not, with an optional key.
  std::optional<bool> sse_enabled;
  std::string kms_master_key;
};

Result<TableDescription> PlanRestore(const TableDescription& source, const std::string& target_name,
                                     const RestoreOverrides& overrides);

}  // namespace monotable::backup
