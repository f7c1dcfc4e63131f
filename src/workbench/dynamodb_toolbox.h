// DynamoDB-Toolbox v2 DTOs: the JSON `table.build(TableDTO)` and `entity.build(EntityDTO)` write.
//
// TableDTO: {tableName? (older: name), partitionKey: {name, type}, sortKey?, indexes?: {NAME:
// {type: "global", partitionKey, sortKey?} | {type: "local", sortKey}}, entityAttributeSavedAs}
// with key types "string" | "number" | "binary".
// EntityDTO: {entityName (newer: name), schema: {type, attributes: {NAME: AttributeDTO}},
// entityAttributeName?/entityAttributeHidden? (older: entityAttribute: bool | {name, hidden}),
// timestamps?: bool | {created, modified: bool | {name, savedAs, hidden}}, table: TableDTO}.
// AttributeDTO: {type: any|null|boolean|number|string|binary|set|list|map|record|anyOf, key?,
// savedAs?, required?, hidden?, enum?, transform? ({transformerId: "prefix", prefix, delimiter} |
// {transformerId: "suffix", suffix, delimiter} | {transformerId: "pipe", transformers: [...]}),
// keyDefault/putDefault ({defaulterId: "value", value} | {defaulterId: "custom"}),
// keyLink/putLink ({linkerId: "custom"})}.
//
// Contract:
// - ImportDynamoDbToolbox(texts, table_name) reads one or more such files (each a DTO object or an
//   array of them; an object with `schema` is an entity, one with `partitionKey` a table) and builds
//   a model: each table with its keys and indexes (projection ALL: the DTO carries none), each
//   entity on the table its `table` names (a TableDTO with the same name completes it, e.g. with
//   indexes), its attributes under their stored names (savedAs), kinds from the DTO types, string
//   enums as values, the entity attribute (entityAttributeSavedAs, default `_et`, unless disabled)
//   with the entity name as its one value, timestamps (`_ct`/`_md` or their savedAs) as iso8601ms.
// - Key templates: a key attribute given by the caller becomes "{name}" (with prefix and suffix
//   transformers, alone or piped, "PREFIX#{name}#SUFFIX"), a constant default becomes that literal.
//   An anyOf whose alternatives share one primitive type is that type, its values the union of
//   their enums. What the DTO cannot say (a key
//   computed by code: computeKey, a custom link or default; a key attribute the entity lacks) keeps a
//   placeholder template and adds a warning finding `import.key-template` naming the entity and
//   attribute; other unmapped things (type any/anyOf/null, custom transformers) add
//   `import.unmapped` warnings. A table named nowhere takes table_name.
// - Invalid JSON, an object that is no DTO, a key type other than string/number/binary, or two
//   DTOs giving one table different keys is a Validation status naming the file and place.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "workbench/findings.h"
#include "workbench/model.h"

namespace monotable::workbench {

struct ToolboxImport {
  Model model;
  std::vector<Finding> findings;  // warnings: what the DTOs could not say
};

struct ToolboxFile {
  std::string name;  // for messages
  std::string text;
};

Result<ToolboxImport> ImportDynamoDbToolbox(const std::vector<ToolboxFile>& files, const std::string& table_name);

}  // namespace monotable::workbench
