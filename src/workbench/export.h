// Model export to infrastructure as code: the tables and indexes of a model, on-demand billing.
//
// Contract: ExportModel(model, format) returns the text of one of
// - "cloudformation": a YAML template, one AWS::DynamoDB::Table resource per table (logical id:
//   the table name without non-alphanumerics + "Table"), AttributeDefinitions for every key
//   attribute, KeySchema, GlobalSecondaryIndexes / LocalSecondaryIndexes with their Projection;
// - "terraform": one aws_dynamodb_table resource per table (hash_key, range_key, attribute
//   blocks, global_secondary_index / local_secondary_index blocks with projection_type and
//   non_key_attributes);
// - "cdk": a TypeScript construct (aws-cdk-lib) with one dynamodb.TableV2 per table
//   (partitionKey, sortKey, billing on demand, globalSecondaryIndexes, localSecondaryIndexes);
// - "nosql-workbench": a NoSQL Workbench data model with facets and sample data
//   (workbench/nosql_workbench.h);
// - "onetable": a OneTable schema (workbench/onetable.h) of the model's only table;
// or a Validation status for another format name (or onetable with several tables). Names are written as given (the
// parser keeps them free of quotes' special meaning by quoting every string).
#pragma once

#include <string>

#include "common/status.h"
#include "workbench/model.h"

namespace monotable::workbench {

Result<std::string> ExportModel(const Model& model, const std::string& format);

}  // namespace monotable::workbench
