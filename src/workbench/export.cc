#include "workbench/export.h"

#include <set>
#include <sstream>

#include "workbench/nosql_workbench.h"
#include "workbench/onetable.h"

namespace monotable::workbench {
namespace {

// A double-quoted string for YAML, HCL and TypeScript alike (JSON escaping).
std::string Q(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string Identifier(const std::string& name) {
  std::string id;
  for (char c : name)
    if (std::isalnum(static_cast<unsigned char>(c))) id += c;
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0]))) id = "T" + id;
  return id;
}

std::vector<KeyAttribute> Definitions(const TableDef& t) {
  std::vector<KeyAttribute> out;
  std::set<std::string> seen;
  auto add = [&](const KeyAttribute& k) {
    if (seen.insert(k.name).second) out.push_back(k);
  };
  add(t.partition_key);
  if (t.sort_key) add(*t.sort_key);
  for (const auto& i : t.indexes) {
    add(i.partition_key);
    if (i.sort_key) add(*i.sort_key);
  }
  return out;
}

const char* ProjectionName(const IndexDef& i) {
  return i.projection == ProjectionKind::kAll        ? "ALL"
         : i.projection == ProjectionKind::kKeysOnly ? "KEYS_ONLY"
                                                     : "INCLUDE";
}

std::string CloudFormation(const Model& m) {
  std::ostringstream o;
  o << "AWSTemplateFormatVersion: \"2010-09-09\"\n";
  o << "Description: " << Q("DynamoDB tables of the model " + m.name + " (monotable model export)") << "\n";
  o << "Resources:\n";
  auto keys = [&](const std::string& indent, const KeyAttribute& pk, const std::optional<KeyAttribute>& sk) {
    o << indent << "KeySchema:\n";
    o << indent << "  - AttributeName: " << Q(pk.name) << "\n" << indent << "    KeyType: HASH\n";
    if (sk) o << indent << "  - AttributeName: " << Q(sk->name) << "\n" << indent << "    KeyType: RANGE\n";
  };
  for (const auto& t : m.tables) {
    o << "  " << Identifier(t.name) << "Table:\n";
    o << "    Type: AWS::DynamoDB::Table\n";
    o << "    Properties:\n";
    o << "      TableName: " << Q(t.name) << "\n";
    o << "      BillingMode: PAY_PER_REQUEST\n";
    o << "      AttributeDefinitions:\n";
    for (const auto& k : Definitions(t)) {
      o << "        - AttributeName: " << Q(k.name) << "\n          AttributeType: " << k.type << "\n";
    }
    keys("      ", t.partition_key, t.sort_key);
    for (bool global : {true, false}) {
      bool any = false;
      for (const auto& i : t.indexes) any = any || i.global == global;
      if (!any) continue;
      o << "      " << (global ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes") << ":\n";
      for (const auto& i : t.indexes) {
        if (i.global != global) continue;
        o << "        - IndexName: " << Q(i.name) << "\n";
        keys("          ", i.partition_key, i.sort_key);
        o << "          Projection:\n            ProjectionType: " << ProjectionName(i) << "\n";
        if (i.projection == ProjectionKind::kInclude) {
          o << "            NonKeyAttributes:\n";
          for (const auto& a : i.include) o << "              - " << Q(a) << "\n";
        }
      }
    }
  }
  return o.str();
}

std::string Terraform(const Model& m) {
  std::ostringstream o;
  o << "# DynamoDB tables of the model " << m.name << " (monotable model export)\n";
  for (const auto& t : m.tables) {
    o << "\nresource \"aws_dynamodb_table\" \"" << Identifier(t.name) << "\" {\n";
    o << "  name         = " << Q(t.name) << "\n";
    o << "  billing_mode = \"PAY_PER_REQUEST\"\n";
    o << "  hash_key     = " << Q(t.partition_key.name) << "\n";
    if (t.sort_key) o << "  range_key    = " << Q(t.sort_key->name) << "\n";
    for (const auto& k : Definitions(t)) {
      o << "\n  attribute {\n    name = " << Q(k.name) << "\n    type = \"" << k.type << "\"\n  }\n";
    }
    for (const auto& i : t.indexes) {
      o << "\n  " << (i.global ? "global_secondary_index" : "local_secondary_index") << " {\n";
      o << "    name            = " << Q(i.name) << "\n";
      if (i.global) o << "    hash_key        = " << Q(i.partition_key.name) << "\n";
      if (i.sort_key) o << "    range_key       = " << Q(i.sort_key->name) << "\n";
      o << "    projection_type = \"" << ProjectionName(i) << "\"\n";
      if (i.projection == ProjectionKind::kInclude) {
        o << "    non_key_attributes = [";
        for (size_t a = 0; a < i.include.size(); ++a) o << (a ? ", " : "") << Q(i.include[a]);
        o << "]\n";
      }
      o << "  }\n";
    }
    o << "}\n";
  }
  return o.str();
}

std::string Cdk(const Model& m) {
  std::ostringstream o;
  auto type = [](char t) {
    return t == 'N'   ? "dynamodb.AttributeType.NUMBER"
           : t == 'B' ? "dynamodb.AttributeType.BINARY"
                      : "dynamodb.AttributeType.STRING";
  };
  auto attr = [&](const KeyAttribute& k) { return "{ name: " + Q(k.name) + ", type: " + type(k.type) + " }"; };
  auto projection = [&](const IndexDef& i) {
    std::string s = "projectionType: dynamodb.ProjectionType." + std::string(ProjectionName(i));
    if (i.projection == ProjectionKind::kInclude) {
      s += ", nonKeyAttributes: [";
      for (size_t a = 0; a < i.include.size(); ++a) s += (a ? ", " : "") + Q(i.include[a]);
      s += "]";
    }
    return s;
  };
  std::string cls = Identifier(m.name.empty() ? "Model" : m.name);
  cls[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(cls[0])));
  o << "// DynamoDB tables of the model " << m.name << " (monotable model export)\n";
  o << "import { Construct } from 'constructs';\n";
  o << "import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';\n\n";
  o << "export class " << cls << "Tables extends Construct {\n";
  for (const auto& t : m.tables) o << "  readonly " << Identifier(t.name) << ": dynamodb.TableV2;\n";
  o << "\n  constructor(scope: Construct, id: string) {\n    super(scope, id);\n";
  for (const auto& t : m.tables) {
    o << "    this." << Identifier(t.name) << " = new dynamodb.TableV2(this, " << Q(Identifier(t.name)) << ", {\n";
    o << "      tableName: " << Q(t.name) << ",\n";
    o << "      partitionKey: " << attr(t.partition_key) << ",\n";
    if (t.sort_key) o << "      sortKey: " << attr(*t.sort_key) << ",\n";
    o << "      billing: dynamodb.Billing.onDemand(),\n";
    for (bool global : {true, false}) {
      bool any = false;
      for (const auto& i : t.indexes) any = any || i.global == global;
      if (!any) continue;
      o << "      " << (global ? "globalSecondaryIndexes" : "localSecondaryIndexes") << ": [\n";
      for (const auto& i : t.indexes) {
        if (i.global != global) continue;
        o << "        { indexName: " << Q(i.name);
        if (global) o << ", partitionKey: " << attr(i.partition_key);
        if (i.sort_key) o << ", sortKey: " << attr(*i.sort_key);
        o << ", " << projection(i) << " },\n";
      }
      o << "      ],\n";
    }
    o << "    });\n";
  }
  o << "  }\n}\n";
  return o.str();
}

}  // namespace

Result<std::string> ExportModel(const Model& model, const std::string& format) {
  if (format == "cloudformation") return CloudFormation(model);
  if (format == "terraform") return Terraform(model);
  if (format == "cdk") return Cdk(model);
  if (format == "nosql-workbench") return ExportNoSqlWorkbench(model);
  if (format == "onetable") {
    if (model.tables.size() != 1) {
      return Status::Validation("a OneTable schema describes one table; this model has " +
                                std::to_string(model.tables.size()));
    }
    return ExportOneTable(model, 0);
  }
  return Status::Validation("unknown export format \"" + format +
                            "\" (cloudformation, terraform, cdk, nosql-workbench, onetable)");
}

}  // namespace monotable::workbench
