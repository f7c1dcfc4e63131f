// Cost per pattern and per write use case, item sizes and item collections (checks.h).
//
// Reads: GetItem rounds one item up to 4 KB; Query and Scan sum the sizes of the items they read
// (expected or not: a filter drops items after they are paid for) and round once per 1 MB page;
// eventually consistent reads cost half. Writes: each item rounds up to 1 KB, twice in a
// transaction; every index the item is in adds an arm (model/capacity's IndexWriteUnits: insert,
// removal, same key or key change), by the index's projected size, never doubled.
#include <algorithm>
#include <cmath>

#include "model/capacity.h"
#include "workbench/checks.h"

namespace monotable::workbench {
namespace {

constexpr double kPage = 1024.0 * 1024.0;
constexpr size_t kMaxItem = 400 * 1024;
constexpr double kMaxCollection = 10.0 * 1024 * 1024 * 1024;

void CostPattern(CheckContext& ctx, const AccessPattern& p, PatternPlan& plan) {
  const TableDef& table = ctx.model.tables[p.table];
  ReadMode mode = p.consistent_read ? ReadMode::kStrong : ReadMode::kEventual;
  double bytes = 0, items = 0, returned = 0;
  for (const auto& match : plan.matches) {
    const EntitySizes& s = ctx.sizes.at(match.entity);
    size_t size = p.index.empty() ? s.typical : s.index_entry.at(p.index);
    bytes += match.items * static_cast<double>(size);
    items += match.items;
    if (match.expected) returned += match.items;
  }
  if (plan.operation == "GetItem") {
    const EntitySizes& s = ctx.sizes.at(p.entities[0]);
    plan.items_read = plan.items_returned = 1;
    plan.pages = 1;
    plan.rcu_per_call = ReadUnits(s.typical, mode);
  } else {
    if (p.limit && items > static_cast<double>(*p.limit)) {
      double scale = static_cast<double>(*p.limit) / items;
      bytes *= scale;
      returned *= scale;
      items = static_cast<double>(*p.limit);
    }
    double full_pages = std::floor(bytes / kPage);
    double rest = bytes - full_pages * kPage;
    plan.pages = full_pages + (rest > 0 || full_pages == 0 ? 1 : 0);
    plan.rcu_per_call = full_pages * SummedReadUnits(static_cast<size_t>(kPage), mode) +
                        (rest > 0 || full_pages == 0 ? SummedReadUnits(static_cast<size_t>(rest), mode) : 0);
    plan.items_read = items;
    plan.items_returned = returned;
  }
  // A sharded key: one request per shard, each as above.
  plan.rcu_per_call *= static_cast<double>(plan.fan_out);
  plan.pages *= static_cast<double>(plan.fan_out);
  plan.items_read *= static_cast<double>(plan.fan_out);
  plan.items_returned *= static_cast<double>(plan.fan_out);
  plan.rcu_per_second = plan.rcu_per_call * p.rps;
  if (plan.operation == "Query" && plan.pages / static_cast<double>(plan.fan_out) > 1) {
    ctx.Add("cost.paginated", Severity::kWarning, "pattern", p.name,
            "one call reads about " + Figure(items) + " items (" + Figure(bytes / kPage) + " MB), over " +
                Figure(plan.pages) + " pages of 1 MB: each page is a round trip",
            "set a limit and page on demand, or narrow the key condition (a sort-key range)");
  }
  (void)table;
}

void CostWrite(CheckContext& ctx, const WriteUseCase& w, WritePlan& plan) {
  plan.write = w.name;
  for (const auto& item : w.items) {
    const EntityDef& e = *ctx.model.FindEntity(item.entity);
    const TableDef& table = ctx.model.tables[e.table];
    const EntitySizes& s = ctx.sizes.at(e.name);
    plan.items += static_cast<long long>(item.count);
    double base = WriteUnits(s.typical, w.transactional);
    plan.arms.push_back({table.name, e.name, base * item.count});
    for (const auto& index : table.indexes) {
      size_t entry = s.index_entry.at(index.name);
      if (entry == 0) continue;
      IndexEntryChange change;
      if (item.action == "put") {
        change.new_size = entry;
      } else if (item.action == "delete") {
        change.old_size = entry;
      } else {
        change.old_size = change.new_size = entry;
        bool key_change = false, projected_change = item.changes.empty();
        for (const auto& attr : item.changes) {
          for (const KeyAttribute* k : {&index.partition_key, index.sort_key ? &*index.sort_key : nullptr}) {
            const KeyTemplate* t = k ? e.Key(k->name) : nullptr;
            if (!t) continue;
            auto vars = t->Variables();
            if (k->name == attr || std::find(vars.begin(), vars.end(), attr) != vars.end()) key_change = true;
          }
          if (index.projection == ProjectionKind::kAll ||
              std::find(index.include.begin(), index.include.end(), attr) != index.include.end()) {
            projected_change = true;
          }
        }
        change.same_key = !key_change;
        change.identical = !key_change && !projected_change;
      }
      double units = IndexWriteUnits(change) * item.count;
      if (units > 0) plan.arms.push_back({table.name + "/" + index.name, e.name, units});
    }
  }
  for (const auto& arm : plan.arms) plan.wcu_per_call += arm.wcu;
  plan.wcu_per_second = plan.wcu_per_call * w.rps;
}

void CheckItemSizes(CheckContext& ctx) {
  for (const auto& e : ctx.model.entities) {
    const EntitySizes& s = ctx.sizes.at(e.name);
    if (s.largest <= kMaxItem && s.typical <= kMaxItem) continue;
    std::string biggest;
    size_t biggest_size = 0;
    for (const auto& a : e.attributes) {
      size_t guess = static_cast<size_t>(std::max<int64_t>(a.max_size, a.size));
      if (a.max_items) guess = static_cast<size_t>(*a.max_items * (a.item_size > 0 ? a.item_size : 16));
      if (guess > biggest_size) biggest_size = guess, biggest = a.name;
    }
    ctx.Add("cost.item-too-large", Severity::kError, "entity", e.name,
            "its largest item is about " + Figure(static_cast<double>(std::max(s.largest, s.typical)) / 1024) +
                " KB, past DynamoDB's 400 KB item limit (the write is rejected)",
            "move " + (biggest.empty() ? std::string("the large attribute") : biggest) +
                " out of the item: one item per element in the same collection, or the payload in S3 with its "
                "key in the item");
  }
}

void CheckCollections(CheckContext& ctx) {
  const Model& m = ctx.model;
  for (size_t t = 0; t < m.tables.size(); ++t) {
    const TableDef& table = m.tables[t];
    bool has_lsi = std::any_of(table.indexes.begin(), table.indexes.end(), [](const IndexDef& i) { return !i.global; });
    if (!has_lsi) continue;
    std::map<std::string, std::pair<double, std::string>> collections;  // partition template -> bytes, entities
    for (const auto& e : m.entities) {
      if (e.table != t) continue;
      const EntitySizes& s = ctx.sizes.at(e.name);
      const KeyTemplate& pk = *e.Key(table.partition_key.name);
      double per_partition = e.per_partition ? *e.per_partition : e.count / TemplateCardinality(m, e, pk);
      double bytes = static_cast<double>(s.typical);
      for (const auto& i : table.indexes)
        if (!i.global) bytes += static_cast<double>(s.index_entry.at(i.name));
      auto& c = collections[pk.Text()];
      c.first += per_partition * bytes;
      c.second += (c.second.empty() ? "" : ", ") + e.name;
    }
    for (const auto& [pk, c] : collections) {
      if (c.first <= kMaxCollection) continue;
      ctx.Add("cost.item-collection-too-large", Severity::kError, "table", table.name,
              "the item collection " + table.partition_key.name + " = \"" + pk + "\" (" + c.second + ") holds about " +
                  Figure(c.first / (1024.0 * 1024 * 1024)) +
                  " GB with its local index entries; a table with a local secondary index refuses writes to a "
                  "collection past 10 GB",
              "spread the collection over more partition values (a shard or date suffix), or replace the local "
              "indexes with global ones (no size limit per partition)");
    }
  }
}

}  // namespace

void CheckCosts(CheckContext& ctx) {
  for (size_t i = 0; i < ctx.model.patterns.size(); ++i) {
    PatternPlan& plan = ctx.report.patterns[i];
    if (plan.served) CostPattern(ctx, ctx.model.patterns[i], plan);
  }
  for (const auto& w : ctx.model.writes) {
    WritePlan plan;
    CostWrite(ctx, w, plan);
    ctx.report.writes.push_back(std::move(plan));
  }
  CheckItemSizes(ctx);
  CheckCollections(ctx);
}

}  // namespace monotable::workbench
