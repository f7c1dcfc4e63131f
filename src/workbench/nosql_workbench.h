// NoSQL Workbench data models (the JSON NoSQL Workbench for DynamoDB imports and exports: ModelName,
// DataModel[] with TableName, KeyAttributes, NonKeyAttributes, GlobalSecondaryIndexes,
// TableFacets[] and TableData[]).
//
// Contract:
// - ImportNoSqlWorkbench(text) builds a model: each DataModel table with its key attributes and
//   GSIs (projection kept), each facet an entity of its table. A facet's key template is inferred
//   from the sample items (its TableData, else the table's TableData whose keys the facet's alias
//   describes): the literal prefix all sample values share, cut after its last '#', then a
//   placeholder named after the alias ("USER#{userId}"); all values equal and without a digit ->
//   that literal (a marker such as PROFILE); no samples -> "{alias}". A facet without sample items
//   of its own gets the table's TableData items whose non-key attributes it lists (each item going
//   to the facet listing the fewest attributes that covers it); a table without facets is one
//   entity named after the table. An index key whose variable part equals, in every sample, another
//   key's variable part or a non-key attribute's value takes that placeholder or attribute name
//   (GSI1PK "CUSTOMER#{customerId}", GSI2PK "EMAIL#{email}"). Non-key attributes keep their types
//   (S string, N number, BOOL boolean, L list, M map, SS/NS/BS set, B binary). Access patterns are
//   not in the format: none imported.
//   Malformed input is a Validation status naming the place; never throws.
// - ExportNoSqlWorkbench(model) writes every table as a DataModel entry and every entity as a
//   facet whose aliases are its key templates, with a few generated sample items per entity
//   (workbench/sampler.h) as TableData so NoSQL Workbench shows the design with data.
// - ModelToJson(model) writes a model's tables and entities in this tool's format (version 1),
//   what `monotable model import` prints (attribute kinds, formats, fixed lengths, letter case and
//   enumerated values kept).
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "workbench/model.h"

namespace monotable::workbench {

Result<Model> ImportNoSqlWorkbench(std::string_view text);
std::string ExportNoSqlWorkbench(const Model& model);
std::string ModelToJson(const Model& model);

}  // namespace monotable::workbench
