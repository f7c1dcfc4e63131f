// DynamoDB's TableDescription JSON for DescribeTable, CreateTable, DeleteTable, UpdateTable.
#pragma once

#include "api/operation.h"
#include "table/catalog.h"

namespace monotable::api {

// Writes the TableDescription object (the value, not the "TableDescription" key).
// `status` overrides the stored status (CreateTable says CREATING, DeleteTable DELETING).
void WriteTableDescription(JsonWriter& w, const ServerIdentity& identity, const TableDescription& table,
                           const table::TableStats* stats, std::string_view status = {});

std::string StreamArn(const ServerIdentity& identity, const TableDescription& table);

}  // namespace monotable::api
