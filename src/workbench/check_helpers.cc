// Helpers the check families share (checks.h).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "workbench/checks.h"

namespace monotable::workbench {

IndexKeyNames KeyNamesOf(const TableDef& table, const IndexDef* index) {
  if (!index) return {&table.partition_key, table.sort_key ? &*table.sort_key : nullptr};
  return {&index->partition_key, index->sort_key ? &*index->sort_key : nullptr};
}

EntityKeys KeysOn(const EntityDef& entity, const TableDef& table, const IndexDef* index) {
  IndexKeyNames names = KeyNamesOf(table, index);
  EntityKeys keys;
  keys.partition = entity.Key(names.partition->name);
  keys.sort = names.sort ? entity.Key(names.sort->name) : nullptr;
  keys.indexed = keys.partition && (!names.sort || keys.sort);
  return keys;
}

const AttributeDef* ShardAttribute(const EntityDef& entity, const std::string& attribute) {
  const AttributeDef* a = entity.FindAttribute(attribute);
  return a && a->shards > 0 ? a : nullptr;
}

double Cardinality(const Model& model, const EntityDef& entity, const std::string& attribute) {
  auto hinted = [&](const EntityDef& e) -> double {
    const AttributeDef* a = e.FindAttribute(attribute);
    if (!a) return 0;
    if (!a->values.empty()) return static_cast<double>(a->values.size());
    if (a->shards > 0) return static_cast<double>(a->shards);
    if (a->cardinality) return static_cast<double>(*a->cardinality);
    return 0;
  };
  if (double h = hinted(entity); h > 0) return h;
  for (const auto& e : model.entities) {
    if (double h = hinted(e); h > 0) return h;
  }
  double smallest = 0;
  for (const auto& e : model.entities) {
    for (const auto& [name, t] : e.keys) {
      auto vars = t.Variables();
      if (std::find(vars.begin(), vars.end(), attribute) != vars.end()) {
        smallest = smallest == 0 ? e.count : std::min(smallest, e.count);
      }
    }
  }
  return smallest > 0 ? smallest : entity.count;
}

double TemplateCardinality(const Model& model, const EntityDef& entity, const KeyTemplate& t) {
  double product = 1;
  for (const auto& v : t.Variables()) product *= Cardinality(model, entity, v);
  return std::max(1.0, std::min(product, entity.count));
}

std::string TargetName(const TableDef& table, const IndexDef* index) {
  return index ? table.name + "/" + index->name : table.name;
}

std::string Figure(double v) {
  char buf[64];
  if (v != 0 && std::fabs(v) < 10 && std::fabs(v - std::round(v)) > 1e-9) {
    std::snprintf(buf, sizeof buf, "%.2g", v);
    if (std::fabs(v) >= 1) std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%.0f", std::round(v));
  std::string digits = buf, out;
  size_t start = digits[0] == '-' ? 1 : 0;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > start && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace monotable::workbench
