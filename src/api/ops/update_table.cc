// UpdateTable: billing mode, provisioned throughput, table class, deletion protection, streams.
// GlobalSecondaryIndexUpdates are handled in api/gsi_updates.cc.
#include "api/gsi_updates.h"
#include "api/ops/operations.h"
#include "api/request_fields.h"
#include "api/table_json.h"
#include "api/table_request.h"

namespace monotable::api {
namespace {

std::string ShapeText() {
  std::string throughput = R"({"type": "FieldStruct<ProvisionedThroughput>", "children": {
      "WriteCapacityUnits": {"type": "Long", "notNull": true, "greaterThanOrEqual": 1},
      "ReadCapacityUnits": {"type": "Long", "notNull": true, "greaterThanOrEqual": 1}}})";
  std::string index_name = R"({"type": "String", "notNull": true, "regex": "[a-zA-Z0-9_.-]+",
      "lengthGreaterThanOrEqual": 3, "lengthLessThanOrEqual": 255})";
  return R"({
  "TableName": {"type": "String", "required": true, "tableName": true, "regex": "[a-zA-Z0-9_.-]+"},
  "ProvisionedThroughput": )" +
         throughput + R"(,
  "BillingMode": {"type": "String", "enum": ["PROVISIONED", "PAY_PER_REQUEST"]},
  "AttributeDefinitions": {"type": "List", "children": {"type": "ValueStruct<AttributeDefinition>", "children": {
    "AttributeName": {"type": "String", "notNull": true, "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 255},
    "AttributeType": {"type": "String", "notNull": true, "enum": ["B", "N", "S"]}}}},
  "GlobalSecondaryIndexUpdates": {"type": "List", "children": {"type": "ValueStruct<GlobalSecondaryIndexUpdate>",
    "children": {
      "Update": {"type": "FieldStruct<UpdateGlobalSecondaryIndexAction>", "children": {
        "IndexName": )" +
         index_name + R"(, "ProvisionedThroughput": )" + throughput + R"(}},
      "Create": {"type": "FieldStruct<CreateGlobalSecondaryIndexAction>", "children": {
        "IndexName": )" +
         index_name + R"(,
        "KeySchema": {"type": "List", "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 8,
          "children": {"type": "ValueStruct<KeySchemaElement>", "children": {
            "AttributeName": {"type": "String", "notNull": true, "lengthGreaterThanOrEqual": 1,
                              "lengthLessThanOrEqual": 255},
            "KeyType": {"type": "String", "notNull": true, "enum": ["HASH", "RANGE"]}}}},
        "Projection": {"type": "FieldStruct<Projection>", "children": {
          "ProjectionType": {"type": "String", "enum": ["ALL", "INCLUDE", "KEYS_ONLY"]},
          "NonKeyAttributes": {"type": "List", "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 20,
                               "children": {"type": "String", "lengthGreaterThanOrEqual": 1,
                                            "lengthLessThanOrEqual": 255}}}},
        "ProvisionedThroughput": )" +
         throughput + R"(}},
      "Delete": {"type": "FieldStruct<DeleteGlobalSecondaryIndexAction>", "children": {
        "IndexName": )" +
         index_name + R"(}}}}},
  "StreamSpecification": {"type": "FieldStruct<StreamSpecification>", "children": {
    "StreamEnabled": {"type": "Boolean", "notNull": true},
    "StreamViewType": {"type": "String", "enum": ["NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY"]}}},
  "SSESpecification": {"type": "FieldStruct<SSESpecification>", "children": {
    "Enabled": "Boolean", "SSEType": {"type": "String", "enum": ["AES256", "KMS"]}, "KMSMasterKeyId": "String"}},
  "TableClass": {"type": "String", "enum": ["STANDARD", "STANDARD_INFREQUENT_ACCESS"]},
  "DeletionProtectionEnabled": "Boolean"
})";
}

Status Invalid(const std::string& m) { return Status::Validation("One or more parameter values were invalid: " + m); }

Status Validate(OperationContext& ctx) {
  const auto& req = ctx.request;
  const rapidjson::Value* gsi_updates = Member(req, "GlobalSecondaryIndexUpdates");
  if (!Member(req, "ProvisionedThroughput") && !Member(req, "BillingMode") && !Member(req, "StreamSpecification") &&
      (!gsi_updates || gsi_updates->Empty()) && !Member(req, "SSESpecification") && !Member(req, "TableClass") &&
      !Member(req, "DeletionProtectionEnabled")) {
    // AWS's current list (ack-api-quirks' DynamoDB error catalogue, recorded live in 2026).
    return Status::Validation(
        "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates, "
        "SSESpecification, ReplicaUpdates, MultiAccountReplicaReady, ReplicaTransitRoleArn, MultiRegionConsistency, "
        "DeletionProtectionEnabled, OnDemandThroughput, WarmThroughput or TableClass is required");
  }
  if (StringOr(req, "BillingMode", "") == "PROVISIONED" && !Member(req, "ProvisionedThroughput")) {
    return Invalid("ProvisionedThroughput must be specified when BillingMode is PROVISIONED");
  }
  if (const auto* t = Member(req, "ProvisionedThroughput")) {
    for (const char* which : {"ReadCapacityUnits", "WriteCapacityUnits"}) {
      int64_t units = IntMember(*t, which).value_or(0);
      if (units > 1000000000000LL) {
        return Status::Validation("Given value " + std::to_string(units) + " for " + which + " is out of bounds");
      }
    }
  }
  MT_RETURN_IF_ERROR(ValidateGsiUpdates(req));
  return Status::Ok();
}

Status Run(OperationContext& ctx) {
  const auto& req = ctx.request;
  std::string name = TableNameOf(req);
  double now = NowEpochSeconds();
  bool updating = false;  // a change AWS applies in the background (the answer says UPDATING)
  // A new GSI needs a key space; allocated before the catalog lock (an unused one costs nothing).
  std::optional<uint32_t> new_index_prefix;
  if (const auto* updates = Member(req, "GlobalSecondaryIndexUpdates")) {
    for (const auto& u : updates->GetArray()) {
      if (!Member(u, "Create")) continue;
      MT_ASSIGN_OR_RETURN(new_index_prefix, ctx.db.catalog().NewKeyPrefix());
    }
  }
  TableDescription before, table;
  GsiChange gsi_change;
  // The whole change is one read-modify-write of the description, so concurrent control-plane
  // changes (TTL, tags, index builds) are never lost.
  auto previous = ctx.db.catalog().Modify(name, [&](TableDescription& described) -> Status {
    before = described;
    table = described;

    bool on_demand = table.billing_mode == BillingMode::kPayPerRequest;
    std::string_view billing = StringOr(req, "BillingMode", "");
    bool will_be_on_demand = billing.empty() ? on_demand : billing == "PAY_PER_REQUEST";
    const rapidjson::Value* throughput = Member(req, "ProvisionedThroughput");
    if (throughput && will_be_on_demand) {
      return Invalid(
          "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
    }
    if (throughput) {
      Throughput wanted = ReadThroughput(throughput);
      Throughput& current = table.throughput;
      if (!on_demand && wanted.read_units == current.read_units && wanted.write_units == current.write_units) {
        return Status::Validation(
            "The provisioned throughput for the table will not change. The requested value equals the current value. "
            "Current ReadCapacityUnits provisioned for the table: " +
            std::to_string(current.read_units) + ". Requested ReadCapacityUnits: " + std::to_string(wanted.read_units) +
            ". Current WriteCapacityUnits provisioned for the table: " + std::to_string(current.write_units) +
            ". Requested WriteCapacityUnits: " + std::to_string(wanted.write_units) +
            ". Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.");
      }
      if (!on_demand) {
        updating = true;
        if (wanted.read_units > current.read_units || wanted.write_units > current.write_units)
          current.last_increase = now;
        if (wanted.read_units < current.read_units || wanted.write_units < current.write_units) {
          current.last_decrease = now;
          ++current.decreases_today;
        }
      }
      current.read_units = wanted.read_units;
      current.write_units = wanted.write_units;
    }
    if (will_be_on_demand != on_demand) {
      updating = true;
      table.billing_mode = will_be_on_demand ? BillingMode::kPayPerRequest : BillingMode::kProvisioned;
      if (will_be_on_demand) table.billing_mode_changed = now;
      table.billing_mode_given = true;
    }
    if (auto table_class = StringMember(req, "TableClass")) table.table_class = std::string(*table_class);
    if (auto protection = BoolMember(req, "DeletionProtectionEnabled")) table.deletion_protection = *protection;
    if (const auto* sse = Member(req, "SSESpecification")) {
      table.sse_enabled = BoolMember(*sse, "Enabled").value_or(true);
      table.kms_master_key = std::string(StringOr(*sse, "KMSMasterKeyId", table.kms_master_key));
    }
    if (const auto* stream = Member(req, "StreamSpecification")) {
      // AWS's words (ack-api-quirks' DynamoDB error catalogue, recorded live in 2026).
      bool enable = BoolMember(*stream, "StreamEnabled").value_or(false);
      if (enable && !Member(*stream, "StreamViewType")) {
        return Status::Validation(
            "One or more parameter values were invalid: If stream is being enabled then UpdateViewType is required");
      }
      if (!enable && Member(*stream, "StreamViewType")) {
        return Status::Validation(
            "One or more parameter values were invalid: If stream is being disabled, then "
            "UpdateViewType must not be specified");
      }
      if (enable && table.stream.enabled) {
        return Status::Validation("Table already has an enabled stream: TableName: " + table.name);
      }
      if (!enable && !table.stream.enabled) {
        return Status::Validation("Table has no stream to disable: TableName: " + table.name);
      }
      table.stream.enabled = enable;
      if (enable) {
        table.stream.view_type = std::string(StringOr(*stream, "StreamViewType", ""));
        table.stream.label = StreamLabel(now);
      }
    }
    MT_RETURN_IF_ERROR(ApplyGsiUpdates(ctx, table, new_index_prefix, gsi_change));
    described = table;
    return Status::Ok();
  });
  if (!previous.ok()) return previous.status();
  if (gsi_change.created) ctx.db.index_builder().StartBackfill(name, *gsi_change.created, *previous);
  if (gsi_change.dropped_prefix) ctx.db.index_builder().StartDrop(*gsi_change.dropped_prefix, *previous);
  // Capacity and billing changes are applied at once (DescribeTable shows them, ACTIVE), but the
  // answer reads as AWS's does while the change is in progress: UPDATING, with the provisioned
  // capacity and the count of decreases still those from before the change.
  TableDescription shown = table;
  if (updating && before.billing_mode == BillingMode::kProvisioned && shown.billing_mode == BillingMode::kProvisioned) {
    shown.throughput.read_units = before.throughput.read_units;
    shown.throughput.write_units = before.throughput.write_units;
    shown.throughput.decreases_today = before.throughput.decreases_today;
  }
  ctx.out.StartObject();
  ctx.out.Key("TableDescription");
  auto handle = ctx.db.catalog().Find(name);
  WriteTableDescription(ctx.out, ctx.identity, shown, handle ? handle->stats.get() : nullptr,
                        updating ? "UPDATING" : "");
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kUpdateTable{"UpdateTable", ShapeText, Validate, Run};

}  // namespace monotable::api
