#include "workbench/diff.h"

#include <algorithm>
#include <map>
#include <set>

#include "workbench/check.h"
#include "workbench/checks.h"

namespace monotable::workbench {
namespace {

const TableDef* FindTable(const Model& m, const std::string& name) {
  for (const auto& t : m.tables)
    if (t.name == name) return &t;
  return nullptr;
}

std::string KeyText(const KeyAttribute& pk, const std::optional<KeyAttribute>& sk) {
  return pk.name + ":" + pk.type + (sk ? " " + sk->name + ":" + sk->type : "");
}

std::string IndexText(const IndexDef& i) {
  std::string s = std::string(i.global ? "GSI " : "LSI ") + KeyText(i.partition_key, i.sort_key) + " ";
  s += i.projection == ProjectionKind::kAll        ? "ALL"
       : i.projection == ProjectionKind::kKeysOnly ? "KEYS_ONLY"
                                                   : "INCLUDE";
  for (const auto& a : i.include) s += " " + a;
  return s;
}

void DiffTables(const Model& a, const Model& b, ModelDiff& d) {
  for (const auto& t : b.tables) {
    const TableDef* old = FindTable(a, t.name);
    if (!old) {
      d.entries.push_back({"table", t.name, "added", "create it (model apply)", 0});
      continue;
    }
    if (KeyText(old->partition_key, old->sort_key) != KeyText(t.partition_key, t.sort_key)) {
      d.entries.push_back({"table", t.name, "rebuild",
                           "primary key " + KeyText(old->partition_key, old->sort_key) + " -> " +
                               KeyText(t.partition_key, t.sort_key) + ": a new table, every item copied over",
                           0});
    }
    for (const auto& i : t.indexes) {
      const IndexDef* before = old->FindIndex(i.name);
      std::string target = t.name + "/" + i.name;
      if (!before) {
        d.entries.push_back({"index", target, "added",
                             i.global ? "UpdateTable Create (backfills online)"
                                      : "a local index exists only from CreateTable: the table must be rebuilt",
                             0});
      } else if (IndexText(*before) != IndexText(i)) {
        d.entries.push_back({"index", target, "rebuild",
                             IndexText(*before) + " -> " + IndexText(i) + ": delete the index and create it again", 0});
      }
    }
    for (const auto& i : old->indexes) {
      if (!t.FindIndex(i.name))
        d.entries.push_back({"index", t.name + "/" + i.name, "removed", "UpdateTable Delete", 0});
    }
  }
  for (const auto& t : a.tables) {
    if (!FindTable(b, t.name)) d.entries.push_back({"table", t.name, "removed", "its items are no longer modelled", 0});
  }
}

bool IsTableKey(const TableDef& t, const std::string& attr) {
  return t.partition_key.name == attr || (t.sort_key && t.sort_key->name == attr);
}

void DiffEntities(const Model& a, const Model& b, ModelDiff& d) {
  for (const auto& e : b.entities) {
    const EntityDef* old = a.FindEntity(e.name);
    if (!old) {
      d.entries.push_back({"entity", e.name, "added", "", 0});
      continue;
    }
    const TableDef& table = b.tables[e.table];
    std::set<std::string> attrs;
    for (const auto& [k, t] : e.keys) attrs.insert(k);
    for (const auto& [k, t] : old->keys) attrs.insert(k);
    std::vector<std::string> rewrite, backfill, stale;
    for (const auto& attr : attrs) {
      const KeyTemplate* before = old->Key(attr);
      const KeyTemplate* after = e.Key(attr);
      if (before && after && before->Text() == after->Text()) continue;
      std::string change = attr + " " + (before ? "\"" + before->Text() + "\"" : std::string("(none)")) + " -> " +
                           (after ? "\"" + after->Text() + "\"" : std::string("(none)"));
      if (IsTableKey(table, attr))
        rewrite.push_back(change);
      else if (after)
        backfill.push_back(change);
      else
        stale.push_back(change);
    }
    auto join = [](const std::vector<std::string>& v) {
      std::string s;
      for (const auto& x : v) s += (s.empty() ? "" : "; ") + x;
      return s;
    };
    if (!rewrite.empty()) {
      d.entries.push_back({"entity", e.name, "rewrite",
                           join(rewrite) + ": every item moves to a new key (put the new item, delete the old)",
                           old->count});
    }
    if (!backfill.empty()) {
      d.entries.push_back({"entity", e.name, "backfill",
                           join(backfill) + ": existing items lack the new index key values (update each item)",
                           old->count});
    }
    if (!stale.empty()) {
      d.entries.push_back(
          {"entity", e.name, "stale",
           join(stale) + ": existing items keep the attribute and stay in the index until it is removed", old->count});
    }
  }
  for (const auto& e : a.entities) {
    if (!b.FindEntity(e.name)) d.entries.push_back({"entity", e.name, "removed", "", e.count});
  }
}

std::set<std::string> ErrorCodes(const CheckReport& r, const std::string& pattern) {
  std::set<std::string> codes;
  for (const auto& f : r.findings) {
    if (f.subject_kind == "pattern" && f.subject == pattern && f.severity == Severity::kError && !f.accepted) {
      codes.insert(f.code);
    }
  }
  return codes;
}

std::string Request(const PatternPlan& p) {
  std::string s = p.operation + " " + p.table + (p.index.empty() ? "" : "/" + p.index) + " " + p.key_condition;
  for (const auto& [k, v] : p.values) s += " " + k + "=\"" + v + "\"";
  return s;
}

void DiffPatterns(const Model& a, const Model& b, ModelDiff& d) {
  CheckReport before = RunChecks(a);
  CheckReport after = RunChecks(b);
  std::map<std::string, const PatternPlan*> old_plans;
  for (const auto& p : before.patterns) old_plans[p.pattern] = &p;
  for (const auto& p : after.patterns) {
    std::set<std::string> now = ErrorCodes(after, p.pattern);
    auto it = old_plans.find(p.pattern);
    std::string codes;
    if (it == old_plans.end()) {
      for (const auto& c : now) codes += (codes.empty() ? "" : ", ") + c;
      if (!now.empty() || !p.served)
        d.entries.push_back({"pattern", p.pattern, "fails", "a new pattern with " + codes, 0});
      else
        d.entries.push_back({"pattern", p.pattern, "added", Request(p), 0});
      continue;
    }
    std::set<std::string> was = ErrorCodes(before, p.pattern);
    for (const auto& c : now)
      if (!was.count(c)) codes += (codes.empty() ? "" : ", ") + c;
    if ((it->second->served && !p.served) || !codes.empty()) {
      d.entries.push_back({"pattern", p.pattern, "breaks",
                           (p.served ? std::string("new findings: ") : "no longer served: ") + codes, 0});
    } else if (p.served && Request(*it->second) != Request(p)) {
      d.entries.push_back({"pattern", p.pattern, "changed", Request(*it->second) + "  ->  " + Request(p), 0});
    }
  }
  for (const auto& p : before.patterns) {
    bool kept = std::any_of(after.patterns.begin(), after.patterns.end(),
                            [&](const PatternPlan& q) { return q.pattern == p.pattern; });
    if (!kept) d.entries.push_back({"pattern", p.pattern, "removed", "", 0});
  }
}

}  // namespace

ModelDiff DiffModels(const Model& before, const Model& after) {
  ModelDiff d;
  DiffTables(before, after, d);
  DiffEntities(before, after, d);
  DiffPatterns(before, after, d);
  return d;
}

}  // namespace monotable::workbench
