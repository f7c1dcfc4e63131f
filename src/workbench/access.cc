// Access patterns: the request that serves each pattern, or why none can (checks.h, PlanAccessPatterns).
//
// A pattern without keyCondition gets one derived from its entities' templates: the partition
// template they share, and on the sort key the longest prefix its inputs can build (equality when
// complete). Every entity in the same index is then matched against the condition: an expected
// entity it cannot return, or an unexpected one it also returns (a filter would be needed, or a
// begins_with prefix bleeds into another entity or hierarchy level), is a finding.
#include <algorithm>
#include <cmath>

#include "workbench/checks.h"
#include "workbench/language.h"

namespace monotable::workbench {
namespace {

const char* OperationName(Operation op) {
  switch (op) {
    case Operation::kGetItem:
      return "GetItem";
    case Operation::kQuery:
      return "Query";
    case Operation::kScan:
      return "Scan";
  }
  return "Query";
}

bool Known(const std::vector<std::string>& known, const std::string& v) {
  return std::find(known.begin(), known.end(), v) != known.end();
}

std::string Quote(const KeyTemplate& t) { return "\"" + t.Text() + "\""; }

// Can an item whose sort key `entity_sort` builds satisfy the sort condition?
bool SortMatches(const KeyConditionDef& c, const EntityDef& context, const KeyTemplate* entity_sort,
                 const EntityDef& entity) {
  if (c.sort_op == SortOp::kNone || !entity_sort) return true;
  Language item = TemplateLanguage(*entity_sort, entity);
  switch (c.sort_op) {
    case SortOp::kEq:
      return Intersects(TemplateLanguage(c.sort_values[0], context), item);
    case SortOp::kBeginsWith:
      return Intersects(PrefixLanguage(c.sort_values[0], context), item);
    case SortOp::kBetween: {
      KeyTemplate common = KeyTemplate::CommonPrefix(c.sort_values[0], c.sort_values[1]);
      return common.Empty() || Intersects(PrefixLanguage(common, context), item);
    }
    default: {
      // Ranges: compare literal prefixes; an item whose prefix shares the bound's can match.
      std::string bound = c.sort_values[0].LiteralPrefix();
      std::string own = entity_sort->LiteralPrefix();
      size_t n = std::min(bound.size(), own.size());
      if (bound.compare(0, n, own, 0, n) == 0) return true;
      bool greater = own.compare(0, n, bound, 0, n) > 0;
      return (c.sort_op == SortOp::kGt || c.sort_op == SortOp::kGe) ? greater : !greater;
    }
  }
}

std::string SortExpression(const std::string& name, SortOp op) {
  switch (op) {
    case SortOp::kEq:
      return name + " = :sk";
    case SortOp::kBeginsWith:
      return "begins_with(" + name + ", :sk)";
    case SortOp::kBetween:
      return name + " BETWEEN :sk1 AND :sk2";
    case SortOp::kLt:
      return name + " < :sk";
    case SortOp::kLe:
      return name + " <= :sk";
    case SortOp::kGt:
      return name + " > :sk";
    case SortOp::kGe:
      return name + " >= :sk";
    case SortOp::kNone:
      break;
  }
  return "";
}

// A prefix shared by several entities is cut after its last delimiter: "P" of PROFILE and POST#
// says nothing, "ORDER#" of ORDER#{id} and ORDER#{id}#ITEM#{n} does.
void TrimToDelimiter(KeyTemplate& t) {
  while (!t.segments.empty() && !t.segments.back().variable) {
    std::string& text = t.segments.back().text;
    size_t cut = text.find_last_of("#|/:_-.");
    if (cut != std::string::npos && cut + 1 == text.size()) return;
    if (cut == std::string::npos) {
      t.segments.pop_back();
    } else {
      text.resize(cut + 1);
      return;
    }
  }
}

class PatternPlanner {
 public:
  PatternPlanner(CheckContext& ctx, const AccessPattern& p)
      : ctx_(ctx),
        m_(ctx.model),
        p_(p),
        table_(m_.tables[p.table]),
        index_(p.index.empty() ? nullptr : table_.FindIndex(p.index)),
        names_(KeyNamesOf(table_, index_)),
        context_(*m_.FindEntity(p.entities[0])) {}

  PatternPlan Plan() {
    plan_.pattern = p_.name;
    plan_.operation = OperationName(p_.operation);
    plan_.table = table_.name;
    plan_.index = p_.index;
    if (index_ && index_->global && p_.consistent_read) {
      Error("pattern.consistent-read-on-gsi",
            "a global secondary index serves eventually consistent reads only; ConsistentRead=true on " + index_->name +
                " is rejected",
            "read the table itself when the read must be strongly consistent, or drop consistentRead");
    }
    if (p_.operation == Operation::kScan) return PlanScan();
    for (const auto& name : p_.entities) {
      const EntityDef& e = *m_.FindEntity(name);
      if (!KeysOn(e, table_, index_).indexed) {
        std::string missing = names_.partition->name + (names_.sort ? " and " + names_.sort->name : "");
        Error("pattern.entity-not-in-index",
              e.name + " has no template for " + missing + ", so none of its items are in " +
                  TargetName(table_, index_) + " (a sparse index holds only items that have its keys)",
              "add keys." + names_.partition->name + (names_.sort ? " and keys." + names_.sort->name : "") + " to " +
                  e.name + ", or read " + e.name + " from the table or another index");
        return plan_;
      }
    }
    if (p_.operation == Operation::kGetItem && index_) {
      Error("pattern.get-on-index", "GetItem reads the table only, never an index",
            "make it a Query on " + index_->name + " with Limit=1, or key the table so GetItem can read it");
      return plan_;
    }
    if (p_.operation == Operation::kGetItem && p_.entities.size() > 1) {
      Error("pattern.get-several-entities", "GetItem returns one item, and this pattern expects several entity types",
            "make it a Query over the item collection the entities share");
      return plan_;
    }
    if (!BuildCondition()) return plan_;
    if (!CheckBuildable()) return plan_;
    MatchEntities();
    WriteRequest();
    plan_.served = true;
    return plan_;
  }

 private:
  void Error(std::string code, std::string message, std::string fix, Severity s = Severity::kError) {
    ctx_.Add(std::move(code), s, "pattern", p_.name, std::move(message), std::move(fix));
  }

  std::vector<std::string> KnownForPartition() const {
    std::vector<std::string> known = p_.inputs;
    for (const auto& name : p_.entities) {
      const EntityDef& e = *m_.FindEntity(name);
      for (const auto& a : e.attributes)
        if (a.shards > 0) known.push_back(a.name);
    }
    return known;
  }

  PatternPlan PlanScan() {
    plan_.served = true;
    for (const auto& e : m_.entities) {
      if (e.table != p_.table || !KeysOn(e, table_, index_).indexed) continue;
      bool expected = Known(p_.entities, e.name);
      plan_.matches.push_back({e.name, expected, e.count});
    }
    std::string what = index_ ? "every item of index " + index_->name : "every item of table " + table_.name;
    Error("pattern.scan", "needs a Scan: it reads " + what + " on each call",
          "give it a key: a GSI whose partition key is built from the pattern's inputs (" +
              (p_.inputs.empty() ? std::string("none declared") : p_.inputs[0]) +
              "...), or a sparse index that holds only the items it wants; accept pattern.scan only for rare jobs");
    if (index_) plan_.options.push_back("IndexName=" + index_->name);
    return plan_;
  }

  bool BuildCondition() {
    if (p_.key_condition) {
      cond_ = *p_.key_condition;
      return true;
    }
    const KeyTemplate* partition = nullptr;
    std::vector<const KeyTemplate*> sorts;
    for (const auto& name : p_.entities) {
      EntityKeys k = KeysOn(*m_.FindEntity(name), table_, index_);
      if (partition && partition->Text() != k.partition->Text()) {
        Error("pattern.mixed-partitions",
              "its entities build " + names_.partition->name + " differently (" + Quote(*partition) + " vs " +
                  Quote(*k.partition) + " for " + name + "); one Query reads one partition",
              "give them one partition template on " + TargetName(table_, index_) +
                  " (an item collection), or split the pattern in two");
        return false;
      }
      partition = k.partition;
      sorts.push_back(k.sort);
    }
    cond_.partition = *partition;
    if (!names_.sort) return true;
    KeyTemplate common;
    bool all_complete = true;
    for (size_t i = 0; i < sorts.size(); ++i) {
      bool complete = false;
      KeyTemplate prefix = sorts[i]->BuildablePrefix(p_.inputs, &complete);
      all_complete = all_complete && complete;
      common = i == 0 ? prefix : KeyTemplate::CommonPrefix(common, prefix);
    }
    if (sorts.size() > 1) TrimToDelimiter(common);
    if (common.Empty()) return true;
    cond_.sort_op = sorts.size() == 1 && all_complete ? SortOp::kEq : SortOp::kBeginsWith;
    cond_.sort_values = {common};
    return true;
  }

  bool CheckBuildable() {
    std::vector<std::string> known = KnownForPartition();
    std::vector<std::string> missing;
    for (const auto& v : cond_.partition->Variables())
      if (!Known(known, v)) missing.push_back(v);
    for (const auto& t : cond_.sort_values) {
      for (const auto& v : t.Variables())
        if (!Known(p_.inputs, v) && !Known(missing, v)) missing.push_back(v);
    }
    std::string inputs;
    for (const auto& i : p_.inputs) inputs += (inputs.empty() ? "" : ", ") + i;
    if (inputs.empty()) inputs = "none";
    if (!missing.empty()) {
      std::string list;
      for (const auto& v : missing) list += (list.empty() ? "" : ", ") + v;
      Error("pattern.key-not-buildable",
            "the key condition needs " + list + ", which the pattern's inputs (" + inputs + ") do not give (" +
                names_.partition->name + " = " + Quote(*cond_.partition) + ")",
            "add " + list +
                " to inputs if the caller knows it, or serve the pattern from an index keyed by what the "
                "caller knows (" +
                inputs + ")");
      return false;
    }
    if (p_.operation == Operation::kGetItem && names_.sort && cond_.sort_op != SortOp::kEq) {
      const KeyTemplate* sort = KeysOn(context_, table_, index_).sort;
      bool complete = false;
      sort->BuildablePrefix(p_.inputs, &complete);
      std::string need;
      for (const auto& v : sort->Variables())
        if (!Known(p_.inputs, v)) need += (need.empty() ? "" : ", ") + v;
      Error("pattern.key-not-buildable",
            "GetItem needs the whole key, and " + names_.sort->name + " = " + Quote(*sort) + " needs " + need +
                ", which the inputs (" + inputs + ") do not give",
            "add " + need + " to inputs, or make it a Query on the prefix the inputs can build");
      return false;
    }
    for (const auto& v : cond_.partition->Variables()) {
      if (Known(p_.inputs, v)) continue;
      for (const auto& name : p_.entities) {
        if (const AttributeDef* a = ShardAttribute(*m_.FindEntity(name), v)) {
          plan_.fan_out *= a->shards;
          plan_.shard_variables.push_back(v);
          break;
        }
      }
    }
    return true;
  }

  double ItemsMatched(const EntityDef& e, const EntityKeys& k, bool expected) const {
    double partitions = TemplateCardinality(m_, e, *k.partition);
    double in_partition = (!index_ && e.per_partition) ? *e.per_partition : e.count / partitions;
    double items = in_partition;
    if ((cond_.sort_op == SortOp::kEq || cond_.sort_op == SortOp::kBeginsWith) && k.sort) {
      double narrowing = 1;
      for (const auto& v : cond_.sort_values[0].Variables()) {
        auto pv = cond_.partition->Variables();
        if (std::find(pv.begin(), pv.end(), v) == pv.end()) narrowing *= Cardinality(m_, e, v);
      }
      items = in_partition / std::min(narrowing, std::max(1.0, in_partition));
      if (cond_.sort_op == SortOp::kEq) items = std::min(items, 1.0);
    }
    if (expected && p_.items && cond_.sort_op != SortOp::kEq) items = *p_.items / p_.entities.size();
    return expected ? std::max(items, 1.0) : items;
  }

  void MatchEntities() {
    Language partition = TemplateLanguage(*cond_.partition, context_);
    std::vector<std::string> bleeding;
    for (const auto& e : m_.entities) {
      if (e.table != p_.table) continue;
      EntityKeys k = KeysOn(e, table_, index_);
      if (!k.indexed) continue;
      bool expected = Known(p_.entities, e.name);
      bool match = Intersects(partition, TemplateLanguage(*k.partition, e)) && SortMatches(cond_, context_, k.sort, e);
      if (expected && !match) {
        Error("pattern.entity-not-matched",
              "the key condition cannot return " + e.name + " (" + names_.partition->name + " " + Quote(*k.partition) +
                  (k.sort ? ", " + names_.sort->name + " " + Quote(*k.sort) : "") + ")",
              "make the key condition match " + e.name + "'s templates, or drop it from the pattern's entities");
        continue;
      }
      if (!match) continue;
      double items = ItemsMatched(e, k, expected);
      plan_.matches.push_back({e.name, expected, items});
      if (!expected) {
        bleeding.push_back(e.name + " (" + (k.sort ? Quote(*k.sort) : Quote(*k.partition)) + ", ~" + Figure(items) +
                           " per call)");
      }
    }
    if (!bleeding.empty()) {
      std::string list;
      for (const auto& b : bleeding) list += (list.empty() ? "" : ", ") + b;
      if (cond_.sort_op == SortOp::kNone) {
        Error("pattern.filter-needed",
              names_.partition->name + " = " + Quote(*cond_.partition) + " also reads " + list +
                  "; picking the expected entities needs a FilterExpression, and a filter pays for every item it "
                  "drops",
              "give the expected entities a sort-key prefix no other entity in that partition has, and query "
              "begins_with on it (or move the other entities to their own partition or index)");
      } else {
        Error("key.prefix-bleed",
              "the sort-key condition " + SortExpression(names_.sort->name, cond_.sort_op) +
                  " with :sk = " + Quote(cond_.sort_values[0]) + " also matches " + list,
              "give every entity and hierarchy level its own prefix that ends in a delimiter (ORDER# vs ORDERITEM#, "
              "MODULE#{id}# vs MODULE#{id}#LESSON#), so no prefix is the start of another");
      }
    }
    if (cond_.sort_op == SortOp::kBeginsWith && cond_.sort_values[0].EndsWithVariable()) {
      const TemplateSegment& last = cond_.sort_values[0].segments.back();
      if (!ShapeOf(last, context_).fixed_width()) {
        Error("key.prefix-bleed",
              "begins_with(" + names_.sort->name + ", " + Quote(cond_.sort_values[0]) + ") ends in {" + last.text +
                  "}, so for " + last.text + "=1 it also matches the items of " + last.text + "=10, 11, 100...",
              "end the prefix (and the templates it reads) with a delimiter: " + Quote(cond_.sort_values[0]) +
                  " + \"#\", or give " + last.text + " a fixed width (padN, length)");
      }
    }
  }

  void WriteRequest() {
    const std::string& pk = names_.partition->name;
    plan_.names.push_back({"#pk", pk});
    plan_.expression = "#pk = :pk";
    if (cond_.sort_op != SortOp::kNone) {
      plan_.names.push_back({"#sk", names_.sort->name});
      plan_.expression += " AND " + SortExpression("#sk", cond_.sort_op);
      static const char* kOps[] = {"", "=", "begins_with", "BETWEEN", "<", "<=", ">", ">="};
      plan_.sort_operator = kOps[static_cast<int>(cond_.sort_op)];
    }
    plan_.partition_template = cond_.partition->Text();
    plan_.values.push_back({":pk", cond_.partition->Text()});
    if (p_.operation == Operation::kGetItem) {
      plan_.key_condition = pk + " = :pk";
      if (names_.sort) {
        plan_.key_condition += ", " + names_.sort->name + " = :sk";
        plan_.values.push_back({":sk", cond_.sort_values[0].Text()});
      }
      if (p_.consistent_read) plan_.options.push_back("ConsistentRead=true");
      return;
    }
    plan_.key_condition = pk + " = :pk";
    if (cond_.sort_op != SortOp::kNone) {
      plan_.key_condition += " AND " + SortExpression(names_.sort->name, cond_.sort_op);
      if (cond_.sort_op == SortOp::kBetween) {
        plan_.values.push_back({":sk1", cond_.sort_values[0].Text()});
        plan_.values.push_back({":sk2", cond_.sort_values[1].Text()});
      } else {
        plan_.values.push_back({":sk", cond_.sort_values[0].Text()});
      }
    }
    if (index_) plan_.options.insert(plan_.options.begin(), "IndexName=" + index_->name);
    if (p_.order == "desc") plan_.options.push_back("ScanIndexForward=false");
    if (p_.limit) plan_.options.push_back("Limit=" + std::to_string(*p_.limit));
    if (p_.consistent_read) plan_.options.push_back("ConsistentRead=true");
  }

  CheckContext& ctx_;
  const Model& m_;
  const AccessPattern& p_;
  const TableDef& table_;
  const IndexDef* index_;
  IndexKeyNames names_;
  const EntityDef& context_;  // the first expected entity: describes the inputs' placeholders
  KeyConditionDef cond_;
  PatternPlan plan_;
};

}  // namespace

void PlanAccessPatterns(CheckContext& ctx) {
  for (const auto& p : ctx.model.patterns) ctx.report.patterns.push_back(PatternPlanner(ctx, p).Plan());
}

}  // namespace monotable::workbench
