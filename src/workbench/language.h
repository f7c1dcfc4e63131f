// Template languages: the set of strings a key template can produce, and whether two such sets meet.
//
// Contract:
// - ShapeOf(placeholder, entity) tells the characters, the length range and the typical length of
//   the values a placeholder renders, from its format (iso8601: 20 characters of 0-9 - : T Z, padN:
//   N digits, ...) or else from the attribute's definition (enumerated values, `length`, kind,
//   case; strings never contain '#' unless the attribute says `chars: any`). An attribute the
//   entity does not define is a string.
// - A Language is a sequence of tokens (a character class repeated min..max times, max -1 for
//   unbounded); TemplateLanguage builds it for a template, PrefixLanguage for "begins with it".
// - Intersects(a, b) is exact for these languages: true iff one string belongs to both.
#pragma once

#include <bitset>
#include <string_view>
#include <vector>

#include "workbench/model.h"

namespace monotable::workbench {

using CharClass = std::bitset<256>;

struct VarShape {
  CharClass chars;
  int min = 1;
  int max = -1;      // -1: unbounded
  int typical = 16;  // bytes of a typical value (item size estimates)
  bool fixed_width() const { return max >= 0 && min == max; }
};

struct LangToken {
  CharClass chars;
  int min = 1;
  int max = 1;  // -1: unbounded
};
using Language = std::vector<LangToken>;

VarShape ShapeOf(const TemplateSegment& placeholder, const EntityDef& entity);
Language TemplateLanguage(const KeyTemplate& t, const EntityDef& entity);
// Strings that begin with something `t` produces.
Language PrefixLanguage(const KeyTemplate& t, const EntityDef& entity);
bool Intersects(const Language& a, const Language& b);
// Does the concrete key value `value` belong to what `t` produces?
bool TemplateMatches(const KeyTemplate& t, const EntityDef& entity, std::string_view value);
// Bytes of a typical value of the template (literals plus typical placeholder lengths).
size_t TypicalLength(const KeyTemplate& t, const EntityDef& entity);

}  // namespace monotable::workbench
