#include "workbench/key_template.h"

#include <algorithm>

namespace monotable::workbench {

bool ParseTemplateFormat(std::string_view format, int* pad_width) {
  *pad_width = 0;
  static const char* kNames[] = {"iso8601", "iso8601ms", "date", "epoch", "epoch-ms", "lower", "upper"};
  for (const char* n : kNames)
    if (format == n) return true;
  if (format.size() > 3 && format.substr(0, 3) == "pad") {
    int width = 0;
    for (char c : format.substr(3)) {
      if (c < '0' || c > '9') return false;
      width = width * 10 + (c - '0');
      if (width > 38) return false;
    }
    if (width < 1) return false;
    *pad_width = width;
    return true;
  }
  return false;
}

Result<KeyTemplate> ParseKeyTemplate(std::string_view text) {
  KeyTemplate t;
  std::string literal;
  auto flush = [&] {
    if (!literal.empty()) t.segments.push_back({false, std::move(literal), ""});
    literal.clear();
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '{' && i + 1 < text.size() && text[i + 1] == '{') {
      literal += '{';
      ++i;
    } else if (c == '}' && i + 1 < text.size() && text[i + 1] == '}') {
      literal += '}';
      ++i;
    } else if (c == '}') {
      return Status::Validation("template \"" + std::string(text) +
                                "\": '}' without '{' (write }} for a literal brace)");
    } else if (c == '{') {
      size_t close = text.find('}', i);
      if (close == std::string_view::npos) {
        return Status::Validation("template \"" + std::string(text) + "\": '{' is not closed");
      }
      std::string_view inner = text.substr(i + 1, close - i - 1);
      std::string_view name = inner, format;
      if (size_t colon = inner.find(':'); colon != std::string_view::npos) {
        name = inner.substr(0, colon);
        format = inner.substr(colon + 1);
      }
      if (name.empty() || name.find('{') != std::string_view::npos) {
        return Status::Validation("template \"" + std::string(text) + "\": empty placeholder name");
      }
      int width = 0;
      if (!format.empty() && !ParseTemplateFormat(format, &width)) {
        return Status::Validation("template \"" + std::string(text) + "\": unknown format \"" + std::string(format) +
                                  "\" (iso8601, iso8601ms, date, epoch, epoch-ms, padN, lower, upper)");
      }
      flush();
      t.segments.push_back({true, std::string(name), std::string(format)});
      i = close;
    } else {
      literal += c;
    }
  }
  flush();
  if (t.segments.empty()) return Status::Validation("a key template must not be empty");
  return t;
}

std::string KeyTemplate::Text() const {
  std::string out;
  for (const auto& s : segments) {
    if (s.variable) {
      out += '{' + s.text + (s.format.empty() ? "" : ":" + s.format) + '}';
    } else {
      for (char c : s.text) {
        if (c == '{' || c == '}') out += c;
        out += c;
      }
    }
  }
  return out;
}

std::vector<std::string> KeyTemplate::Variables() const {
  std::vector<std::string> out;
  for (const auto& s : segments) {
    if (s.variable && std::find(out.begin(), out.end(), s.text) == out.end()) out.push_back(s.text);
  }
  return out;
}

KeyTemplate KeyTemplate::BuildablePrefix(const std::vector<std::string>& known, bool* complete) const {
  KeyTemplate out;
  for (const auto& s : segments) {
    if (s.variable && std::find(known.begin(), known.end(), s.text) == known.end()) {
      if (complete) *complete = false;
      return out;
    }
    out.segments.push_back(s);
  }
  if (complete) *complete = true;
  return out;
}

KeyTemplate KeyTemplate::CommonPrefix(const KeyTemplate& a, const KeyTemplate& b) {
  KeyTemplate out;
  for (size_t i = 0; i < a.segments.size() && i < b.segments.size(); ++i) {
    const auto& x = a.segments[i];
    const auto& y = b.segments[i];
    if (x.variable != y.variable) break;
    if (x.variable) {
      if (x.text != y.text || x.format != y.format) break;
      out.segments.push_back(x);
      continue;
    }
    size_t n = 0;
    while (n < x.text.size() && n < y.text.size() && x.text[n] == y.text[n]) ++n;
    if (n > 0) out.segments.push_back({false, x.text.substr(0, n), ""});
    if (n < x.text.size() || n < y.text.size()) break;
  }
  return out;
}

std::string KeyTemplate::LiteralPrefix() const {
  if (segments.empty() || segments[0].variable) return "";
  return segments[0].text;
}

}  // namespace monotable::workbench
