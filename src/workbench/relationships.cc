// Relationships (checks.h): a many-to-many needs its edge readable from both sides (an edge item
// in each node's partition, or an index that inverts the edge); both edge items should be
// written by one use case; lists, sets and counted maps embedded in an item need a bound.
#include <algorithm>

#include "workbench/checks.h"

namespace monotable::workbench {
namespace {

// Is some edge item in the partition the node's own items use (table or any GSI)?
bool Reachable(const Model& m, const EntityDef& node, const std::vector<std::string>& edges) {
  const TableDef& table = m.tables[node.table];
  const std::string node_pk = node.Key(table.partition_key.name)->Text();
  for (const auto& name : edges) {
    const EntityDef& edge = *m.FindEntity(name);
    const TableDef& edge_table = m.tables[edge.table];
    if (edge_table.name != table.name) continue;
    if (edge.Key(edge_table.partition_key.name)->Text() == node_pk) return true;
    for (const auto& index : edge_table.indexes) {
      const KeyTemplate* pk = edge.Key(index.partition_key.name);
      if (index.global && pk && pk->Text() == node_pk) return true;
    }
  }
  return false;
}

}  // namespace

void CheckRelationships(CheckContext& ctx) {
  const Model& m = ctx.model;
  for (const auto& r : m.relationships) {
    if (r.type != "many-to-many") continue;
    for (size_t side = 0; side < 2; ++side) {
      const EntityDef& node = *m.FindEntity(r.between[side]);
      const EntityDef& other = *m.FindEntity(r.between[1 - side]);
      if (Reachable(m, node, r.edges)) continue;
      const TableDef& table = m.tables[node.table];
      std::string pk = node.Key(table.partition_key.name)->Text();
      std::string other_pk = other.Key(m.tables[other.table].partition_key.name)->Text();
      ctx.Add("relationship.missing-reverse-edge", Severity::kError, "relationship", r.name,
              "the " + other.name + "s of a " + node.name + " cannot be read: no edge item sits in " + node.name +
                  "'s partition \"" + pk + "\", so that direction returns nothing (or needs a Scan)",
              "write the reverse edge too (" + table.partition_key.name + " = \"" + pk + "\", " +
                  (table.sort_key ? table.sort_key->name : std::string("SK")) + " = \"" + other_pk +
                  "\") in the same TransactWriteItems, or add a GSI that inverts the edge (its partition key = the "
                  "edge's sort key)");
    }
    if (r.edges.size() >= 2) {
      for (const auto& w : m.writes) {
        bool some = false, all = true;
        for (const auto& edge : r.edges) {
          bool has = std::any_of(w.items.begin(), w.items.end(), [&](const WriteItem& i) { return i.entity == edge; });
          some = some || has;
          all = all && has;
        }
        if (some && !all) {
          ctx.Add("relationship.edges-written-apart", Severity::kWarning, "write", w.name,
                  "it writes one edge of " + r.name +
                      " but not its reverse: if the second write fails or is "
                      "forgotten, one direction silently misses the edge",
                  "write every edge item of " + r.name +
                      " in this use case, in one TransactWriteItems "
                      "(transactional: true)");
        }
      }
    }
  }
  for (const auto& e : m.entities) {
    for (const auto& name : ctx.sizes.at(e.name).unbounded) {
      ctx.Add("relationship.unbounded-list", Severity::kWarning, "entity", e.name,
              e.name + "." + name +
                  " is a list embedded in the item with no maxItems: it grows with the data, every "
                  "read and write of " +
                  e.name + " pays for all of it, and the item fails at 400 KB",
              "store each element as its own item in " + e.name +
                  "'s collection (same partition key, a sort-key "
                  "prefix per element type) and Query it, or declare maxItems if the list is truly bounded");
    }
  }
}

}  // namespace monotable::workbench
