#include "backup/restore_plan.h"

#include <algorithm>
#include <set>

namespace monotable::backup {
namespace {

Status Invalid(const std::string& m) { return Status::Validation("One or more parameter values were invalid: " + m); }

// The texts AWS answers for restore overrides (ack-api-quirks DDB-TABLE-273, DDB-TABLE-442).
Status InvalidRequest(const std::string& m) { return Status::Validation("Invalid Request: " + m); }

Status NoSuchIndex(const std::string& name) {
  return InvalidRequest("Index " + name +
                        " does not match a secondary index that existed in the source table and cannot be created "
                        "during the restore operation");
}

bool SameKeys(const std::vector<KeyElement>& a, const std::vector<KeyElement>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].name != b[i].name || a[i].role != b[i].role) return false;
  }
  return true;
}

Result<std::vector<IndexDescription>> PickIndexes(const std::vector<IndexDescription>& source,
                                                  const std::vector<IndexDescription>& wanted, bool global) {
  std::vector<IndexDescription> out;
  std::set<std::string> seen;
  for (const auto& w : wanted) {
    auto it = std::find_if(source.begin(), source.end(), [&](const IndexDescription& s) { return s.name == w.name; });
    if (it == source.end() || !SameKeys(it->key_schema, w.key_schema)) return NoSuchIndex(w.name);
    if (!seen.insert(w.name).second) return Invalid("Duplicate index name: " + w.name);
    IndexDescription index = *it;
    index.projection = w.projection;
    if (w.throughput.read_units > 0) index.throughput = w.throughput;
    index.status = "ACTIVE";
    index.backfilling = false;
    out.push_back(std::move(index));
  }
  return out;
}

}  // namespace

Result<TableDescription> PlanRestore(const TableDescription& source, const std::string& target_name,
                                     const RestoreOverrides& overrides) {
  TableDescription t;
  t.name = target_name;
  t.key_schema = source.key_schema;
  t.billing_mode = overrides.billing_mode.value_or(source.billing_mode);
  t.billing_mode_given = true;
  t.table_class = source.table_class;
  t.throughput = source.throughput;
  t.throughput.last_increase = t.throughput.last_decrease = 0;
  t.throughput.decreases_today = 0;
  bool on_demand = t.billing_mode == BillingMode::kPayPerRequest;
  if (overrides.throughput) {
    if (overrides.billing_mode == BillingMode::kPayPerRequest) {
      return InvalidRequest("Cannot override ProvisionedThroughput if BillingMode is overridden to PAY_PER_REQUEST");
    }
    if (on_demand) return InvalidRequest("Cannot override ProvisionedThroughput unless BillingMode is PROVISIONED");
    t.throughput.read_units = overrides.throughput->read_units;
    t.throughput.write_units = overrides.throughput->write_units;
  }
  if (overrides.billing_mode == BillingMode::kProvisioned && !overrides.throughput) {
    return InvalidRequest("Must override ProvisionedThroughput if BillingMode is overridden to PROVISIONED");
  }
  if (!on_demand && (t.throughput.read_units <= 0 || t.throughput.write_units <= 0)) {
    return Invalid("ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED");
  }
  if (on_demand) t.throughput.read_units = t.throughput.write_units = 0;

  if (overrides.global_indexes) {
    for (const auto& w : *overrides.global_indexes) {
      if (overrides.billing_mode == BillingMode::kPayPerRequest && w.throughput.read_units > 0) {
        return InvalidRequest(
            "Cannot override ProvisionedThroughput if BillingMode is overridden to PAY_PER_REQUEST "
            "for index " +
            w.name);
      }
    }
    MT_ASSIGN_OR_RETURN(t.global_indexes, PickIndexes(source.global_indexes, *overrides.global_indexes, true));
  } else {
    t.global_indexes = source.global_indexes;
  }
  if (overrides.local_indexes) {
    MT_ASSIGN_OR_RETURN(t.local_indexes, PickIndexes(source.local_indexes, *overrides.local_indexes, false));
  } else {
    t.local_indexes = source.local_indexes;
  }
  for (auto& index : t.global_indexes) {
    index.status = "ACTIVE";
    index.backfilling = false;
    if (on_demand) {
      index.throughput = {};
    } else if (index.throughput.read_units <= 0 || index.throughput.write_units <= 0) {
      // An on-demand source's indexes take the table's throughput when restored as PROVISIONED.
      index.throughput.read_units = t.throughput.read_units;
      index.throughput.write_units = t.throughput.write_units;
    }
  }
  std::set<std::string> used;
  for (const auto& k : t.key_schema) used.insert(k.name);
  for (const auto* list : {&t.global_indexes, &t.local_indexes}) {
    for (const auto& index : *list) {
      for (const auto& k : index.key_schema) used.insert(k.name);
    }
  }
  for (const auto& d : source.attribute_definitions) {
    if (used.count(d.name)) t.attribute_definitions.push_back(d);
  }
  if (overrides.sse_enabled) {
    t.sse_enabled = *overrides.sse_enabled;
    t.sse_type = t.sse_enabled ? "KMS" : "";
    t.kms_master_key = t.sse_enabled ? overrides.kms_master_key : "";
  } else {
    t.sse_enabled = source.sse_enabled;
    t.sse_type = source.sse_type;
    t.kms_master_key = source.kms_master_key;
  }
  return t;
}

}  // namespace monotable::backup
