// OneTable schemas (the JSON schema of the dynamodb-onetable library, format onetable:1.x):
// `version`, `format`, `indexes` ({primary: {hash, sort}, GSI1: {hash, sort, project}, LS1:
// {sort, type: "local"}}), `models` ({Entity: {field: {type, value: "USER#${userId}"}}}).
//
// Contract:
// - ExportOneTable(model, table) writes the entities of one table as OneTable models: key fields
//   with their templates as `value` (placeholders become ${name}, padN becomes OneTable's zero
//   padding ${name:N:0}; other formats such as iso8601 have no OneTable equivalent and are dropped), the other attributes with OneTable types
//   (string, number, boolean, date, array, object, set, binary), and the table's indexes (project
//   all / keys / [attributes], local indexes with type "local"). Format "onetable:1.1.0".
// - ImportOneTable(text, table_name) builds a one-table model from such a schema: the primary and
//   secondary indexes, each model an entity whose key templates come from the key fields' `value`
//   (${name} -> {name}, ${name:N} and ${name:N:0} -> {name:padN}); a key field without a value becomes "{field}". Invalid JSON or a schema
//   without indexes.primary.hash or models is a Validation status naming the place. The other
//   fields are attributes as the items hold them: types case-insensitive, `map: "other"` renames,
//   `map: "data.x"` packs into the map attribute `data`, `generate: ulid|uuid` fixes the length,
//   dates are ISO strings or epoch milliseconds by params.isoDates; every entity also gets the
//   type field OneTable writes (params.typeField, default _type, its one value the model's name)
//   and, with params.timestamps, the created and updated fields (createdField, updatedField).
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "workbench/model.h"

namespace monotable::workbench {

std::string ExportOneTable(const Model& model, size_t table);
Result<Model> ImportOneTable(std::string_view text, const std::string& table_name);

}  // namespace monotable::workbench
