// Sort-key order hazards (checks.h): where a pattern relies on sort-key order (an `order`, a
// `limit` or a range condition), every placeholder its inputs do not fix decides that order, and
// string sort keys order bytewise: numbers must be zero-padded, times ISO-8601 UTC with one
// precision, mixed-case text normalised.
#include <algorithm>
#include <set>

#include "workbench/checks.h"

namespace monotable::workbench {
namespace {

bool FixedTimeFormat(const std::string& f) {
  return f == "iso8601" || f == "iso8601ms" || f == "date" || f == "epoch" || f == "epoch-ms";
}

}  // namespace

void CheckSortOrder(CheckContext& ctx) {
  const Model& m = ctx.model;
  std::set<std::string> reported;  // entity/attribute/code once
  for (const auto& p : m.patterns) {
    if (p.operation != Operation::kQuery) continue;
    bool range = p.key_condition && p.key_condition->sort_op != SortOp::kNone &&
                 p.key_condition->sort_op != SortOp::kEq && p.key_condition->sort_op != SortOp::kBeginsWith;
    if (p.order.empty() && !p.limit && !range) continue;
    const TableDef& table = m.tables[p.table];
    const IndexDef* index = p.index.empty() ? nullptr : table.FindIndex(p.index);
    IndexKeyNames names = KeyNamesOf(table, index);
    if (!names.sort || names.sort->type == 'N') continue;
    for (const auto& name : p.entities) {
      const EntityDef& e = *m.FindEntity(name);
      EntityKeys k = KeysOn(e, table, index);
      if (!k.indexed || !k.sort) continue;
      for (const auto& seg : k.sort->segments) {
        if (!seg.variable || std::find(p.inputs.begin(), p.inputs.end(), seg.text) != p.inputs.end()) continue;
        const AttributeDef* a = e.FindAttribute(seg.text);
        if (!a) continue;
        std::string where = "in " + names.sort->name + " \"" + k.sort->Text() + "\" of " + e.name + ", ";
        auto add = [&](const std::string& code, Severity s, const std::string& msg, const std::string& fix) {
          if (!reported.insert(e.name + "/" + seg.text + "/" + code).second) return;
          ctx.Add(code, s, "pattern", p.name, where + msg, fix);
        };
        bool padded = seg.format.rfind("pad", 0) == 0;
        if (a->kind == AttrKind::kNumber && !padded && !a->length && a->shards == 0) {
          add("order.number-not-padded", Severity::kError,
              "{" + seg.text +
                  "} is a number written without zero-padding, and string keys sort bytewise: 9 sorts "
                  "after 10 and " +
                  p.name + " returns them out of order",
              "write it zero-padded to one width, {" + seg.text + ":pad" +
                  std::to_string(std::max<int64_t>(a->digits, 8)) + "}, or make the sort key a number (N) attribute");
        } else if (a->kind == AttrKind::kTimestamp && !FixedTimeFormat(seg.format) && !FixedTimeFormat(a->format)) {
          add("order.time-not-utc", Severity::kError,
              "{" + seg.text + "} is a time " +
                  (a->format == "iso8601-offset" ? std::string("with a UTC offset") : "without a declared UTC format") +
                  ": 2024-01-15T10:00:00-03:00 and 2024-01-15T13:00:00Z are one instant but sort apart",
              "write times as ISO-8601 UTC with one precision everywhere: {" + seg.text + ":iso8601}");
        } else if (a->kind == AttrKind::kString && a->letter_case == "mixed" && seg.format != "lower" &&
                   seg.format != "upper") {
          add("order.mixed-case", Severity::kWarning,
              "{" + seg.text +
                  "} is mixed-case text, and bytewise order puts every capital before every small "
                  "letter (\"Zoe\" before \"adam\")",
              "sort on a normalised copy: {" + seg.text + ":lower}");
        }
      }
    }
  }
}

}  // namespace monotable::workbench
