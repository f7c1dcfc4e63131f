// Key templates: how an entity builds a key attribute's value, e.g. "ORDER#{createdAt:iso8601}#{orderId}".
//
// Contract:
// - A template is literal text with placeholders `{attribute}` or `{attribute:format}`; `{{` and
//   `}}` stand for literal braces. Formats: iso8601 (UTC, seconds: 2024-01-15T10:00:00Z),
//   iso8601ms (UTC, milliseconds), date (2024-01-15), epoch (10 digits), epoch-ms (13 digits),
//   padN (a number zero-padded to N digits, N 1..38), lower, upper. Anything else is an error.
// - ParseKeyTemplate never throws; an unclosed or empty placeholder, an unknown format or an
//   empty template is a Validation status naming the problem.
// - Text() gives the template back as written (canonical: braces re-escaped); two templates with
//   the same Text() build the same values from the same attributes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace monotable::workbench {

struct TemplateSegment {
  bool variable = false;
  std::string text;    // the literal, or the attribute name of a placeholder
  std::string format;  // placeholders only; "" when none
};

struct KeyTemplate {
  std::vector<TemplateSegment> segments;

  std::string Text() const;
  // The attribute names of the placeholders, in order, without repeats.
  std::vector<std::string> Variables() const;
  bool IsStatic() const { return Variables().empty(); }
  // The leading segments up to (excluding) the first placeholder whose attribute is not in
  // `known`; `complete` tells whether every segment was taken.
  KeyTemplate BuildablePrefix(const std::vector<std::string>& known, bool* complete) const;
  // The longest common leading part of two templates (segment-wise; literals by characters).
  static KeyTemplate CommonPrefix(const KeyTemplate& a, const KeyTemplate& b);
  bool Empty() const { return segments.empty(); }
  bool EndsWithVariable() const { return !segments.empty() && segments.back().variable; }
  // The literal text before the first placeholder.
  std::string LiteralPrefix() const;
};

Result<KeyTemplate> ParseKeyTemplate(std::string_view text);
// A valid format name (see the contract); padN's width in *pad_width, else 0.
bool ParseTemplateFormat(std::string_view format, int* pad_width);

}  // namespace monotable::workbench
