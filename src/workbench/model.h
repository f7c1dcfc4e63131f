// Workbench model: a single-table design as plain data (tables, entities, access patterns, writes).
//
// Contract: what ParseModel (parser.h) builds from a model file, format version 1, documented in
// docs/workbench/model-format.md. Plain data, already validated by the parser: every name a
// pattern, write or relationship refers to exists, every entity has a template for each key
// attribute of its table, every index a pattern names exists on its table, and `table` indexes
// into Model::tables. Hints the file leaves out keep the defaults written here.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "workbench/key_template.h"

namespace monotable::workbench {

struct KeyAttribute {
  std::string name;
  char type = 'S';  // 'S', 'N' or 'B'
};

enum class ProjectionKind { kAll, kKeysOnly, kInclude };

struct IndexDef {
  std::string name;
  bool global = true;
  KeyAttribute partition_key;  // an LSI's is the table's
  std::optional<KeyAttribute> sort_key;
  ProjectionKind projection = ProjectionKind::kAll;
  std::vector<std::string> include;  // kInclude's non-key attributes
};

struct TableDef {
  std::string name;
  KeyAttribute partition_key;
  std::optional<KeyAttribute> sort_key;
  std::vector<IndexDef> indexes;  // GSIs then LSIs, in file order

  const IndexDef* FindIndex(const std::string& index) const {
    for (const auto& i : indexes)
      if (i.name == index) return &i;
    return nullptr;
  }
};

enum class AttrKind { kString, kNumber, kBinary, kBoolean, kTimestamp, kList, kMap, kSet };

struct AttributeDef {
  std::string name;
  AttrKind kind = AttrKind::kString;
  int64_t size = 0;                    // typical bytes of a string/binary/map (0: default 16)
  int64_t max_size = 0;                // largest bytes (0: same as size)
  int64_t digits = 0;                  // numbers: typical digits (0: default 6)
  std::optional<int64_t> length;       // strings: every value has exactly this many characters
  std::optional<int64_t> cardinality;  // distinct values over the entity's items (nullopt: one per item)
  std::vector<std::string> values;     // enumerated values (cardinality = their count)
  int64_t shards = 0;                  // > 0: a write-shard suffix 0..shards-1, chosen by the writer
  std::string format;                  // timestamps: iso8601, iso8601-offset, epoch, epoch-ms, date
  std::string letter_case;             // "mixed", "upper", "lower" or "" (unknown)
  bool any_chars = false;              // values may contain '#' (default: they do not)
  std::optional<int64_t> max_items;    // list/set/map: the most elements; nullopt: unbounded
  int64_t items = 0;                   // list/set/map: typical elements (0: max_items or 4)
  int64_t item_size = 0;               // list/set/map: bytes per element (0: default 16)
};

struct EntityDef {
  std::string name;
  size_t table = 0;                         // index into Model::tables
  double count = 1000;                      // items of this type
  std::optional<double> per_partition;      // items per base partition (default: derived)
  std::map<std::string, KeyTemplate> keys;  // key attribute -> template
  std::vector<AttributeDef> attributes;     // file order
  std::vector<std::string> accept;          // finding codes accepted deliberately

  const AttributeDef* FindAttribute(const std::string& attribute) const {
    for (const auto& a : attributes)
      if (a.name == attribute) return &a;
    return nullptr;
  }
  const KeyTemplate* Key(const std::string& attribute) const {
    auto it = keys.find(attribute);
    return it == keys.end() ? nullptr : &it->second;
  }
};

enum class Operation { kGetItem, kQuery, kScan };
enum class SortOp { kNone, kEq, kBeginsWith, kBetween, kLt, kLe, kGt, kGe };

struct KeyConditionDef {
  std::optional<KeyTemplate> partition;  // equality value
  SortOp sort_op = SortOp::kNone;
  std::vector<KeyTemplate> sort_values;  // one, two for kBetween
};

struct AccessPattern {
  std::string name;
  std::string description;
  Operation operation = Operation::kQuery;
  size_t table = 0;
  std::string index;  // "" = the table itself
  std::vector<std::string> inputs;
  std::optional<KeyConditionDef> key_condition;  // nullopt: derived from the entities' templates
  std::string order;                             // "asc", "desc" or ""
  std::optional<int64_t> limit;
  std::optional<double> items;  // expected items per call (range conditions)
  bool consistent_read = false;
  std::vector<std::string> entities;
  double rps = 0;
  std::vector<std::string> accept;
};

struct WriteItem {
  std::string entity;
  double count = 1;                  // items of this entity per call
  std::string action = "put";        // put, update, delete
  std::vector<std::string> changes;  // update: the attributes it changes
};

struct WriteUseCase {
  std::string name;
  double rps = 0;
  bool transactional = false;
  std::vector<WriteItem> items;
  std::vector<std::string> accept;
};

struct Relationship {
  std::string name;
  std::string type;                  // "many-to-many" (the only one checked), "one-to-many"
  std::vector<std::string> between;  // two entity names
  std::vector<std::string> edges;    // the entities that carry the edge
  std::vector<std::string> accept;
};

struct Model {
  int version = 1;
  std::string name;
  std::vector<TableDef> tables;
  std::vector<EntityDef> entities;
  std::vector<AccessPattern> patterns;
  std::vector<WriteUseCase> writes;
  std::vector<Relationship> relationships;

  const EntityDef* FindEntity(const std::string& entity) const {
    for (const auto& e : entities)
      if (e.name == entity) return &e;
    return nullptr;
  }
};

}  // namespace monotable::workbench
