// DynamoDB's TableDescription JSON for DescribeTable, CreateTable, DeleteTable, UpdateTable.
#pragma once

#include <functional>

#include "api/operation.h"
#include "table/catalog.h"

namespace monotable::api {

// Which members a TableDescription carries. DeleteTable's answer (kDeleted) leaves out
// AttributeDefinitions, KeySchema, CreationDateTime and the secondary indexes, as AWS does
// (ScyllaDB's test_table.py::test_delete_table_description[_with_si], run against AWS).
enum class DescriptionView { kFull, kDeleted };

// Writes the TableDescription object (the value, not the "TableDescription" key).
// `status` overrides the stored status (CreateTable says CREATING, DeleteTable DELETING).
// `extra`, when given, writes further members (DescribeTable's RestoreSummary).
void WriteTableDescription(JsonWriter& w, const ServerIdentity& identity, const TableDescription& table,
                           const table::TableStats* stats, std::string_view status = {},
                           DescriptionView view = DescriptionView::kFull,
                           const std::function<void(JsonWriter&)>& extra = nullptr);

std::string StreamArn(const ServerIdentity& identity, const TableDescription& table);

// Parts of a TableDescription that other descriptions repeat (a backup's SourceTableDetails and
// SourceTableFeatureDetails): the KeySchema list, a Projection object, and the SSEDescription
// member (written only when the table has SSE enabled).
void WriteKeySchema(JsonWriter& w, const std::vector<KeyElement>& keys);
void WriteProjection(JsonWriter& w, const Projection& p);
// An index object's first members: IndexName, KeySchema and Projection.
void WriteIndexIdentity(JsonWriter& w, const IndexDescription& index);
void WriteSseDescription(JsonWriter& w, const ServerIdentity& identity, const TableDescription& table);

}  // namespace monotable::api
