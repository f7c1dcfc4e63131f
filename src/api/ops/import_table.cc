// ImportTable: a new table (TableCreationParameters) filled from the objects under an S3 prefix
// of the object store (`serve --export-dir` or `--s3-endpoint`), in DYNAMODB_JSON ({"Item":...} lines, as exports write
// them), Amazon Ion or CSV, uncompressed, GZIP or ZSTD (backup/export_import.h). Answers
// IN_PROGRESS with the table CREATING; lines that make no valid item are counted in ErrorCount and
// logged on stderr (AWS logs them to CloudWatch), the others imported. A ClientToken makes the
// request idempotent.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>

#include "api/ops/backup_common.h"
#include "api/ops/operations.h"
#include "api/ops/transfer_common.h"
#include "api/request_fields.h"
#include "api/table_request.h"
#include "model/json_writer.h"

namespace monotable::api {
namespace {

std::string ShapeText() {
  std::string keys = R"({"type": "List", "notNull": true, "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 2,
      "children": {"type": "ValueStruct<KeySchemaElement>", "children": {
        "AttributeName": {"type": "String", "notNull": true, "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 255},
        "KeyType": {"type": "String", "notNull": true, "enum": ["HASH", "RANGE"]}}}})";
  std::string throughput = R"({"type": "FieldStruct<ProvisionedThroughput>", "children": {
      "WriteCapacityUnits": {"type": "Long", "notNull": true, "greaterThanOrEqual": 1},
      "ReadCapacityUnits": {"type": "Long", "notNull": true, "greaterThanOrEqual": 1}}})";
  std::string projection = R"({"type": "FieldStruct<Projection>", "notNull": true, "children": {
      "ProjectionType": {"type": "String", "enum": ["ALL", "INCLUDE", "KEYS_ONLY"]},
      "NonKeyAttributes": {"type": "List", "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 20,
                           "children": {"type": "String", "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 255}}}})";
  return R"({
  "ClientToken": {"type": "String", "regex": "[^$]+"},
  "S3BucketSource": {"type": "FieldStruct<S3BucketSource>", "required": true, "children": {
    "S3BucketOwner": {"type": "String", "regex": "[0-9]{12}"},
    "S3Bucket": {"type": "String", "notNull": true, "lengthLessThanOrEqual": 255,
                 "regex": "[a-z0-9A-Z]+[\\.\\-\\w]*[a-z0-9A-Z]+"},
    "S3KeyPrefix": {"type": "String", "lengthLessThanOrEqual": 1024}}},
  "InputFormat": {"type": "String", "required": true, "enum": ["DYNAMODB_JSON", "ION", "CSV"]},
  "InputFormatOptions": {"type": "FieldStruct<InputFormatOptions>", "children": {
    "Csv": {"type": "FieldStruct<CsvOptions>", "children": {
      "Delimiter": {"type": "String", "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 1, "regex": "[,;:|\\t ]"},
      "HeaderList": {"type": "List", "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 255,
                     "children": {"type": "String", "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 65536}}}}}},
  "InputCompressionType": {"type": "String", "enum": ["GZIP", "ZSTD", "NONE"]},
  "TableCreationParameters": {"type": "FieldStruct<TableCreationParameters>", "required": true, "children": {
    "TableName": {"type": "String", "notNull": true, "lengthGreaterThanOrEqual": 3, "lengthLessThanOrEqual": 255,
                  "regex": "[a-zA-Z0-9_.-]+"},
    "AttributeDefinitions": {"type": "List", "notNull": true, "children": {
      "type": "ValueStruct<AttributeDefinition>", "children": {
        "AttributeName": {"type": "String", "notNull": true, "lengthGreaterThanOrEqual": 1, "lengthLessThanOrEqual": 255},
        "AttributeType": {"type": "String", "notNull": true, "enum": ["B", "N", "S"]}}}},
    "KeySchema": )" +
         keys + R"(,
    "BillingMode": {"type": "String", "enum": ["PROVISIONED", "PAY_PER_REQUEST"]},
    "ProvisionedThroughput": )" +
         throughput + R"(,
    "SSESpecification": {"type": "FieldStruct<SSESpecification>", "children": {
      "Enabled": "Boolean", "SSEType": {"type": "String", "enum": ["AES256", "KMS"]}, "KMSMasterKeyId": "String"}},
    "GlobalSecondaryIndexes": {"type": "List", "children": {"type": "ValueStruct<GlobalSecondaryIndex>", "children": {
      "KeySchema": )" +
         keys + R"(, "Projection": )" + projection + R"(,
      "IndexName": {"type": "String", "notNull": true, "regex": "[a-zA-Z0-9_.-]+",
                    "lengthGreaterThanOrEqual": 3, "lengthLessThanOrEqual": 255},
      "ProvisionedThroughput": )" +
         throughput + R"(}}}}}
})";
}

Status Invalid(const std::string& m) { return Status::Validation("One or more parameter values were invalid: " + m); }

Status Validate(OperationContext& ctx) {
  const auto& req = ctx.request;
  std::string_view format = StringOr(req, "InputFormat", "");
  if (Member(req, "InputFormatOptions") && format != "CSV") {
    // DDB-IMPORT-009 (ack-api-quirks, AWS 2026-10).
    return Status::Validation(
        "Invalid Request: Unsupported InputFormatOptions for the given input format: " + std::string(format) + ".");
  }
  const auto& source = *Member(req, "S3BucketSource");
  if (!backup::SafeLocation(StringOr(source, "S3Bucket", ""), StringOr(source, "S3KeyPrefix", ""))) {
    return Status::Validation("S3KeyPrefix may not contain a '..' segment");
  }
  const auto& params = *Member(req, "TableCreationParameters");
  std::vector<std::string> defined;
  for (const auto& d : Member(params, "AttributeDefinitions")->GetArray()) {
    defined.emplace_back(StringOr(d, "AttributeName", ""));
  }
  auto check_keys = [&](const rapidjson::Value& schema) -> Status {
    const auto& ks = schema.GetArray();
    if (StringOr(ks[0], "KeyType", "") != "HASH") {
      return Status::Validation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
    }
    if (ks.Size() > 1 && StringOr(ks[1], "KeyType", "") != "RANGE") {
      return Status::Validation("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
    }
    for (const auto& k : ks) {
      std::string name(StringOr(k, "AttributeName", ""));
      if (std::find(defined.begin(), defined.end(), name) == defined.end()) {
        return Invalid("Some index key attributes are not defined in AttributeDefinitions");
      }
    }
    return Status::Ok();
  };
  MT_RETURN_IF_ERROR(check_keys(*Member(params, "KeySchema")));
  bool on_demand = StringOr(params, "BillingMode", "PROVISIONED") == "PAY_PER_REQUEST";
  if (on_demand && Member(params, "ProvisionedThroughput")) {
    return Invalid(
        "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
  }
  if (!on_demand && !Member(params, "ProvisionedThroughput")) {
    return Invalid("ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED");
  }
  if (const auto* gsis = Member(params, "GlobalSecondaryIndexes")) {
    for (const auto& index : gsis->GetArray()) {
      MT_RETURN_IF_ERROR(check_keys(*Member(index, "KeySchema")));
      std::string name(StringOr(index, "IndexName", ""));
      if (!on_demand && !Member(index, "ProvisionedThroughput")) {
        return Invalid("ProvisionedThroughput is not specified for index: " + name);
      }
      if (on_demand && Member(index, "ProvisionedThroughput")) {
        return Invalid("ProvisionedThroughput should not be specified for index: " + name +
                       " when BillingMode is PAY_PER_REQUEST");
      }
    }
  }
  return Status::Ok();
}

Status Run(OperationContext& ctx) {
  MT_ASSIGN_OR_RETURN(backup::BackupService * service, Backups(ctx));
  const auto& req = ctx.request;
  const auto& params = *Member(req, "TableCreationParameters");
  TableDescription t;
  t.name = std::string(StringOr(params, "TableName", ""));
  for (const auto& d : Member(params, "AttributeDefinitions")->GetArray()) {
    std::string_view type = StringOr(d, "AttributeType", "S");
    t.attribute_definitions.push_back({std::string(StringOr(d, "AttributeName", "")), type == "N"   ? AttrType::kN
                                                                                      : type == "B" ? AttrType::kB
                                                                                                    : AttrType::kS});
  }
  t.key_schema = ReadKeySchema(*Member(params, "KeySchema"));
  t.billing_mode = StringOr(params, "BillingMode", "PROVISIONED") == "PAY_PER_REQUEST" ? BillingMode::kPayPerRequest
                                                                                       : BillingMode::kProvisioned;
  t.billing_mode_given = Member(params, "BillingMode") != nullptr;
  t.throughput = ReadThroughput(Member(params, "ProvisionedThroughput"));
  if (const auto* gsis = Member(params, "GlobalSecondaryIndexes")) {
    for (const auto& index : gsis->GetArray()) t.global_indexes.push_back(ReadIndex(index, true));
  }
  if (const auto* sse = Member(params, "SSESpecification")) {
    t.sse_enabled = BoolMember(*sse, "Enabled").value_or(false);
    t.sse_type = t.sse_enabled ? "KMS" : "";
    t.kms_master_key = std::string(StringOr(*sse, "KMSMasterKeyId", ""));
  }

  backup::ImportRecord r;
  const auto& source = *Member(req, "S3BucketSource");
  r.bucket = std::string(StringOr(source, "S3Bucket", ""));
  r.bucket_owner = std::string(StringOr(source, "S3BucketOwner", ""));
  r.key_prefix = std::string(StringOr(source, "S3KeyPrefix", ""));
  r.input_format = std::string(StringOr(req, "InputFormat", ""));
  r.compression = std::string(StringOr(req, "InputCompressionType", "NONE"));
  if (const auto* options = Member(req, "InputFormatOptions")) {
    if (const auto* csv = Member(*options, "Csv")) {
      r.csv_delimiter = std::string(StringOr(*csv, "Delimiter", ","));
      if (const auto* headers = Member(*csv, "HeaderList")) {
        for (const auto& h : headers->GetArray()) r.csv_headers.emplace_back(h.GetString(), h.GetStringLength());
      }
    }
  }
  r.client_token = std::string(StringOr(req, "ClientToken", ""));
  {
    rapidjson::StringBuffer buffer;
    model::JsonWriter w(buffer);
    params.Accept(w);
    r.creation_parameters.assign(buffer.GetString(), buffer.GetSize());
  }
  if (!r.client_token.empty()) {
    for (const auto& e : service->Imports()) {
      if (e.client_token != r.client_token) continue;
      bool same = e.bucket == r.bucket && e.key_prefix == r.key_prefix && e.input_format == r.input_format &&
                  e.creation_parameters == r.creation_parameters;
      if (!same) {
        return Status(ErrorCode::kImportConflict,
                      "Import conflict: Duplicate request detected with conflicting parameters");
      }
      ctx.out.StartObject();
      ctx.out.Key("ImportTableDescription");
      WriteImportDescription(ctx.out, e);
      ctx.out.EndObject();
      return Status::Ok();
    }
  }
  if (ctx.db.catalog().Find(t.name)) return Status::InUse("Table already exists: " + t.name);
  auto started =
      service->Import(std::move(t), std::move(r), [&](backup::ImportRecord& rec, const TableDescription& table) {
        rec.table_arn = TableArn(ctx.identity, table.name);
        rec.import_arn = rec.table_arn + "/import/" + rec.id;
      });
  if (!started.ok()) {
    if (started.status().code() == ErrorCode::kResourceInUse) {
      return Status::InUse("Table already exists: " + std::string(StringOr(params, "TableName", "")));
    }
    return started.status();
  }
  ctx.out.StartObject();
  ctx.out.Key("ImportTableDescription");
  WriteImportDescription(ctx.out, *started);
  ctx.out.EndObject();
  return Status::Ok();
}

}  // namespace

const Operation kImportTable{"ImportTable", ShapeText, Validate, Run};

}  // namespace monotable::api
