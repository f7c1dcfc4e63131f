#include "api/table_json.h"

#include <algorithm>

#include "api/request_fields.h"

namespace monotable::api {

void WriteKeySchema(JsonWriter& w, const std::vector<KeyElement>& keys) {
  w.StartArray();
  for (const auto& k : keys) {
    w.StartObject();
    WriteString(w, "AttributeName", k.name);
    WriteString(w, "KeyType", k.role == KeyRole::kHash ? "HASH" : "RANGE");
    w.EndObject();
  }
  w.EndArray();
}

void WriteProjection(JsonWriter& w, const Projection& p) {
  w.StartObject();
  WriteString(w, "ProjectionType",
              p.type == ProjectionType::kAll ? "ALL" : p.type == ProjectionType::kKeysOnly ? "KEYS_ONLY" : "INCLUDE");
  if (p.type == ProjectionType::kInclude) {
    w.Key("NonKeyAttributes");
    w.StartArray();
    for (const auto& a : p.non_key_attributes) w.String(a.data(), static_cast<rapidjson::SizeType>(a.size()));
    w.EndArray();
  }
  w.EndObject();
}

void WriteSseDescription(JsonWriter& w, const ServerIdentity& identity, const TableDescription& table) {
  if (!table.sse_enabled) return;
  w.Key("SSEDescription");
  w.StartObject();
  WriteString(w, "Status", "ENABLED");
  WriteString(w, "SSEType", "KMS");
  WriteString(w, "KMSMasterKeyArn",
              table.kms_master_key.empty()
                  ? "arn:aws:kms:" + identity.region + ":" + identity.account + ":key/aws-dynamodb"
                  : table.kms_master_key);
  w.EndObject();
}

void WriteIndexIdentity(JsonWriter& w, const IndexDescription& index) {
  WriteString(w, "IndexName", index.name);
  w.Key("KeySchema");
  WriteKeySchema(w, index.key_schema);
  w.Key("Projection");
  WriteProjection(w, index.projection);
}

namespace {

void WriteThroughput(JsonWriter& w, const Throughput& t, bool on_demand) {
  w.StartObject();
  if (t.last_increase > 0) {
    w.Key("LastIncreaseDateTime");
    w.Double(t.last_increase);
  }
  if (t.last_decrease > 0) {
    w.Key("LastDecreaseDateTime");
    w.Double(t.last_decrease);
  }
  w.Key("NumberOfDecreasesToday");
  w.Int64(t.decreases_today);
  w.Key("ReadCapacityUnits");
  w.Int64(on_demand ? 0 : t.read_units);
  w.Key("WriteCapacityUnits");
  w.Int64(on_demand ? 0 : t.write_units);
  w.EndObject();
}

// A table still being created reports its global indexes as CREATING too.
void WriteIndexes(JsonWriter& w, const ServerIdentity& identity, const TableDescription& table,
                  const std::vector<IndexDescription>& indexes, bool global, std::string_view table_status) {
  w.StartArray();
  for (const auto& index : indexes) {
    w.StartObject();
    WriteIndexIdentity(w, index);
    if (global) {
      WriteString(w, "IndexStatus", table_status == "CREATING" ? std::string_view("CREATING")
                                                                : std::string_view(index.status));
      if (index.backfilling) {
        w.Key("Backfilling");
        w.Bool(true);
      }
      w.Key("ProvisionedThroughput");
      WriteThroughput(w, index.throughput, table.billing_mode == BillingMode::kPayPerRequest);
    }
    w.Key("IndexSizeBytes");
    w.Int64(0);
    w.Key("ItemCount");
    w.Int64(0);
    WriteString(w, "IndexArn", TableArn(identity, table.name) + "/index/" + index.name);
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace

std::string StreamArn(const ServerIdentity& identity, const TableDescription& table) {
  return TableArn(identity, table.name) + "/stream/" + table.stream.label;
}

void WriteTableDescription(JsonWriter& w, const ServerIdentity& identity, const TableDescription& table,
                           const table::TableStats* stats, std::string_view status, DescriptionView view,
                           const std::function<void(JsonWriter&)>& extra) {
  bool on_demand = table.billing_mode == BillingMode::kPayPerRequest;
  bool full = view == DescriptionView::kFull;
  w.StartObject();
  if (full) {
    w.Key("AttributeDefinitions");
    w.StartArray();
    for (const auto& d : table.attribute_definitions) {
      w.StartObject();
      WriteString(w, "AttributeName", d.name);
      WriteString(w, "AttributeType", AttrTypeName(d.type));
      w.EndObject();
    }
    w.EndArray();
  }
  WriteString(w, "TableName", table.name);
  if (full) {
    w.Key("KeySchema");
    WriteKeySchema(w, table.key_schema);
  }
  WriteString(w, "TableStatus", status.empty() ? std::string_view(table.status) : status);
  if (full) {
    w.Key("CreationDateTime");
    w.Double(table.creation_time);
  }
  w.Key("ProvisionedThroughput");
  WriteThroughput(w, table.throughput, on_demand);
  // While the start's background walk runs, a table's figures are partial (catalog.h): never below 0.
  w.Key("TableSizeBytes");
  w.Int64(stats ? std::max<int64_t>(stats->size_bytes.load(), 0) : 0);
  w.Key("ItemCount");
  w.Int64(stats ? std::max<int64_t>(stats->item_count.load(), 0) : 0);
  WriteString(w, "TableArn", TableArn(identity, table.name));
  WriteString(w, "TableId", table.table_id);
  if (table.billing_mode_given || table.billing_mode_changed > 0) {
    w.Key("BillingModeSummary");
    w.StartObject();
    WriteString(w, "BillingMode", on_demand ? "PAY_PER_REQUEST" : "PROVISIONED");
    if (table.billing_mode_changed > 0 || on_demand) {
      w.Key("LastUpdateToPayPerRequestDateTime");
      w.Double(table.billing_mode_changed > 0 ? table.billing_mode_changed : table.creation_time);
    }
    w.EndObject();
  }
  if (full && !table.local_indexes.empty()) {
    w.Key("LocalSecondaryIndexes");
    WriteIndexes(w, identity, table, table.local_indexes, false, status);
  }
  if (full && !table.global_indexes.empty()) {
    w.Key("GlobalSecondaryIndexes");
    WriteIndexes(w, identity, table, table.global_indexes, true, status);
  }
  if (table.stream.enabled) {
    w.Key("StreamSpecification");
    w.StartObject();
    w.Key("StreamEnabled");
    w.Bool(true);
    WriteString(w, "StreamViewType", table.stream.view_type);
    w.EndObject();
  }
  if (!table.stream.label.empty()) {
    WriteString(w, "LatestStreamLabel", table.stream.label);
    WriteString(w, "LatestStreamArn", StreamArn(identity, table));
  }
  WriteSseDescription(w, identity, table);
  if (table.table_class != "STANDARD") {
    w.Key("TableClassSummary");
    w.StartObject();
    WriteString(w, "TableClass", table.table_class);
    w.EndObject();
  }
  if (extra) extra(w);
  w.Key("DeletionProtectionEnabled");
  w.Bool(table.deletion_protection);
  w.EndObject();
}

}  // namespace monotable::api
