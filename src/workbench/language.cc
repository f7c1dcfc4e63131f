#include "workbench/language.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace monotable::workbench {
namespace {

CharClass Chars(std::string_view chars) {
  CharClass c;
  for (unsigned char ch : chars) c.set(ch);
  return c;
}

CharClass AllBut(std::string_view excluded) {
  CharClass c;
  c.set();
  for (unsigned char ch : excluded) c.reset(ch);
  return c;
}

CharClass Range(char from, char to) {
  CharClass c;
  for (int ch = from; ch <= to; ++ch) c.set(static_cast<unsigned char>(ch));
  return c;
}

VarShape Fixed(std::string_view chars, int width) { return {Chars(chars), width, width, width}; }

VarShape TimestampShape(std::string_view format) {
  if (format == "iso8601") return Fixed("0123456789-:TZ", 20);
  if (format == "iso8601ms") return Fixed("0123456789-:.TZ", 24);
  if (format == "iso8601-offset") return Fixed("0123456789-:T+", 25);
  if (format == "date") return Fixed("0123456789-", 10);
  if (format == "epoch") return Fixed("0123456789", 10);
  if (format == "epoch-ms") return Fixed("0123456789", 13);
  return {AllBut("#"), 1, -1, 24};
}

}  // namespace

VarShape ShapeOf(const TemplateSegment& p, const EntityDef& entity) {
  const AttributeDef* attr = entity.FindAttribute(p.text);
  int pad = 0;
  ParseTemplateFormat(p.format, &pad);
  if (pad > 0) return Fixed("0123456789", pad);
  if (p.format == "iso8601" || p.format == "iso8601ms" || p.format == "date" || p.format == "epoch" ||
      p.format == "epoch-ms") {
    return TimestampShape(p.format);
  }
  VarShape shape{AllBut("#"), 1, -1, 16};
  if (attr) {
    switch (attr->kind) {
      case AttrKind::kNumber:
        if (attr->shards > 0) {
          int width = static_cast<int>(std::to_string(attr->shards - 1).size());
          shape = {Range('0', '9'), 1, width, width};
        } else {
          shape = {Chars("0123456789-.E"), 1, 40, static_cast<int>(attr->digits > 0 ? attr->digits : 6)};
        }
        break;
      case AttrKind::kTimestamp:
        shape = TimestampShape(attr->format);
        break;
      case AttrKind::kBoolean:
        shape = {Chars("truefals"), 4, 5, 4};
        break;
      default:
        if (attr->any_chars) shape.chars.set();
        if (attr->size > 0) shape.typical = static_cast<int>(attr->size);
        if (attr->length)
          shape = {shape.chars, static_cast<int>(*attr->length), static_cast<int>(*attr->length),
                   static_cast<int>(*attr->length)};
        if (attr->letter_case == "lower") shape.chars &= ~Range('A', 'Z');
        if (attr->letter_case == "upper") shape.chars &= ~Range('a', 'z');
        break;
    }
    if (!attr->values.empty()) {
      CharClass c;
      size_t lo = SIZE_MAX, hi = 0;
      for (const auto& v : attr->values) {
        c |= Chars(v);
        lo = std::min(lo, v.size());
        hi = std::max(hi, v.size());
      }
      shape = {c, static_cast<int>(lo), static_cast<int>(hi), static_cast<int>(hi)};
    }
  }
  if (p.format == "lower") shape.chars &= ~Range('A', 'Z');
  if (p.format == "upper") shape.chars &= ~Range('a', 'z');
  return shape;
}

Language TemplateLanguage(const KeyTemplate& t, const EntityDef& entity) {
  Language lang;
  for (const auto& s : t.segments) {
    if (!s.variable) {
      for (unsigned char ch : s.text) {
        CharClass c;
        c.set(ch);
        lang.push_back({c, 1, 1});
      }
    } else {
      VarShape shape = ShapeOf(s, entity);
      lang.push_back({shape.chars, shape.min, shape.max});
    }
  }
  return lang;
}

Language PrefixLanguage(const KeyTemplate& t, const EntityDef& entity) {
  Language lang = TemplateLanguage(t, entity);
  CharClass any;
  any.set();
  lang.push_back({any, 0, -1});
  return lang;
}

size_t TypicalLength(const KeyTemplate& t, const EntityDef& entity) {
  size_t n = 0;
  for (const auto& s : t.segments) n += s.variable ? static_cast<size_t>(ShapeOf(s, entity).typical) : s.text.size();
  return n;
}

bool TemplateMatches(const KeyTemplate& t, const EntityDef& entity, std::string_view value) {
  Language literal;
  for (unsigned char ch : value) {
    CharClass c;
    c.set(ch);
    literal.push_back({c, 1, 1});
  }
  return Intersects(TemplateLanguage(t, entity), literal);
}

bool Intersects(const Language& a, const Language& b) {
  // Product automaton over (token, count) pairs; unbounded tokens count up to their minimum only.
  using State = std::tuple<size_t, int, size_t, int>;
  std::set<State> seen;
  std::vector<State> todo{{0, 0, 0, 0}};
  auto push = [&](State s) {
    if (seen.insert(s).second) todo.push_back(s);
  };
  while (!todo.empty()) {
    auto [ia, ca, ib, cb] = todo.back();
    todo.pop_back();
    if (ia == a.size() && ib == b.size()) return true;
    // Leave a token whose minimum is met.
    if (ia < a.size() && ca >= a[ia].min) push({ia + 1, 0, ib, cb});
    if (ib < b.size() && cb >= b[ib].min) push({ia, ca, ib + 1, 0});
    // Consume one character in both.
    if (ia < a.size() && ib < b.size() && (a[ia].max < 0 || ca < a[ia].max) && (b[ib].max < 0 || cb < b[ib].max) &&
        (a[ia].chars & b[ib].chars).any()) {
      int na = a[ia].max < 0 ? std::min(ca + 1, std::max(a[ia].min, 1)) : ca + 1;
      int nb = b[ib].max < 0 ? std::min(cb + 1, std::max(b[ib].min, 1)) : cb + 1;
      push({ia, na, ib, nb});
    }
  }
  return false;
}

}  // namespace monotable::workbench
