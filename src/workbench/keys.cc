// Key collisions: two entity types whose templates can build the same primary key (checks.h).
//
// Items of different types then overwrite each other: a PutItem of one replaces the other
// silently. Only the table's own key must be unique; index keys may repeat.
#include "workbench/checks.h"
#include "workbench/language.h"

namespace monotable::workbench {
namespace {

std::string Upper(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}

}  // namespace

void CheckKeyCollisions(CheckContext& ctx) {
  const Model& m = ctx.model;
  for (size_t i = 0; i < m.entities.size(); ++i) {
    for (size_t j = i + 1; j < m.entities.size(); ++j) {
      const EntityDef& a = m.entities[i];
      const EntityDef& b = m.entities[j];
      if (a.table != b.table) continue;
      const TableDef& table = m.tables[a.table];
      EntityKeys ka = KeysOn(a, table, nullptr);
      EntityKeys kb = KeysOn(b, table, nullptr);
      if (!Intersects(TemplateLanguage(*ka.partition, a), TemplateLanguage(*kb.partition, b))) continue;
      if (ka.sort && !Intersects(TemplateLanguage(*ka.sort, a), TemplateLanguage(*kb.sort, b))) continue;
      std::string key_name = table.sort_key ? table.sort_key->name : table.partition_key.name;
      std::string key_a = "\"" + ka.partition->Text() + "\"" + (ka.sort ? " / \"" + ka.sort->Text() + "\"" : "");
      std::string key_b = "\"" + kb.partition->Text() + "\"" + (kb.sort ? " / \"" + kb.sort->Text() + "\"" : "");
      ctx.Add("key.collision", Severity::kError, "entity", b.name,
              b.name + " (" + key_b + ") and " + a.name + " (" + key_a + ") can build the same primary key in " +
                  table.name + ": a write of one silently replaces the other",
              "start " + b.name + "'s " + key_name + " with a literal prefix no other entity uses (\"" + Upper(b.name) +
                  "#" + (kb.sort ? kb.sort : kb.partition)->Text() +
                  "\"), or constrain the placeholders (values, "
                  "length, chars) so their values cannot meet");
    }
  }
}

}  // namespace monotable::workbench
