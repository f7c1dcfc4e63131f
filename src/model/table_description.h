// TableDescription: everything the server knows about a table's definition, in model types.
//
// Contract: plain data. The catalog (src/table) persists and validates it; the API layer turns
// it into DynamoDB's TableDescription JSON. Key attributes are S, N or B. `key_prefix` is the
// engine key space of the table (and each index has its own), assigned once and never reused.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/attribute_value.h"

namespace monotable {

enum class KeyRole { kHash, kRange };

struct KeyElement {
  std::string name;
  KeyRole role = KeyRole::kHash;
};

struct AttributeDefinition {
  std::string name;
  AttrType type = AttrType::kS;  // kS, kN or kB
};

enum class ProjectionType { kAll, kKeysOnly, kInclude };

struct Projection {
  ProjectionType type = ProjectionType::kAll;
  std::vector<std::string> non_key_attributes;
};

struct Throughput {
  int64_t read_units = 0;
  int64_t write_units = 0;
  double last_increase = 0;  // epoch seconds, 0 when never
  double last_decrease = 0;
  int64_t decreases_today = 0;
};

struct IndexDescription {
  std::string name;
  bool global = true;
  uint32_t key_prefix = 0;
  std::vector<KeyElement> key_schema;
  Projection projection;
  Throughput throughput;  // GSIs of PROVISIONED tables
  std::string status = "ACTIVE";
  bool backfilling = false;
};

enum class BillingMode { kProvisioned, kPayPerRequest };

struct StreamSettings {
  bool enabled = false;
  std::string view_type;  // KEYS_ONLY, NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES
  std::string label;      // latest stream label, kept after disabling
  uint32_t key_prefix = 0;  // change-log key space of the stream named by `label` (the catalog assigns it)
};

struct TimeToLiveSettings {
  bool enabled = false;
  std::string attribute;     // the expiry attribute while enabled
  uint32_t key_prefix = 0;   // expiry index key space while enabled
  bool backfilling = false;  // items written before TTL was enabled are still being indexed
  double changed = 0;        // epoch seconds of the last UpdateTimeToLive, 0 when never
};

struct TableDescription {
  std::string name;
  std::string table_id;  // UUID
  uint32_t key_prefix = 0;
  double creation_time = 0;  // epoch seconds with fraction
  std::vector<AttributeDefinition> attribute_definitions;
  std::vector<KeyElement> key_schema;  // HASH then optional RANGE
  BillingMode billing_mode = BillingMode::kProvisioned;
  double billing_mode_changed = 0;
  bool billing_mode_given = true;  // false: created without BillingMode (AWS then omits BillingModeSummary)
  Throughput throughput;
  std::string table_class = "STANDARD";
  bool deletion_protection = false;
  bool sse_enabled = false;
  std::string sse_type;        // KMS when enabled
  std::string kms_master_key;  // as given
  StreamSettings stream;
  TimeToLiveSettings ttl;
  std::vector<IndexDescription> global_indexes;
  std::vector<IndexDescription> local_indexes;
  std::vector<std::pair<std::string, std::string>> tags;
  std::string status = "ACTIVE";

  const std::string& hash_key() const { return key_schema[0].name; }
  const std::string* range_key() const { return key_schema.size() > 1 ? &key_schema[1].name : nullptr; }
  std::optional<AttrType> AttributeType(std::string_view attribute) const {
    for (const auto& d : attribute_definitions) {
      if (d.name == attribute) return d.type;
    }
    return std::nullopt;
  }
  const IndexDescription* FindIndex(std::string_view index_name) const {
    for (const auto& i : global_indexes) if (i.name == index_name) return &i;
    for (const auto& i : local_indexes) if (i.name == index_name) return &i;
    return nullptr;
  }
};

}  // namespace monotable
