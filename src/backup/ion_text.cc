#include "backup/ion_text.h"

#include <cctype>

#include "common/base64.h"

namespace monotable::backup {
namespace {

bool PlainSymbol(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '$') return false;
  }
  // Keywords would read back as values.
  return s != "true" && s != "false" && s != "null" && s != "nan";
}

void Escaped(std::string& out, std::string_view s, char quote) {
  out.push_back(quote);
  for (unsigned char c : s) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c == static_cast<unsigned char>(quote)) {
          out.push_back('\\');
          out.push_back(static_cast<char>(c));
        } else if (c < 0x20 || c == 0x7f) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\x%02x", c);
          out += buffer;
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  out.push_back(quote);
}

void Symbol(std::string& out, std::string_view s) {
  if (PlainSymbol(s))
    out += s;
  else
    Escaped(out, s, '\'');
}

std::string Decimal(const Number& n) {
  std::string text = n.ToString();
  if (text.find('.') == std::string::npos) text.push_back('.');
  return text;
}

void Write(std::string& out, const AttributeValue& v) {
  switch (v.type()) {
    case AttrType::kS:
      Escaped(out, v.s(), '"');
      break;
    case AttrType::kN:
      out += Decimal(v.n());
      break;
    case AttrType::kB:
      out += "{{" + Base64Encode(v.bytes()) + "}}";
      break;
    case AttrType::kBool:
      out += v.boolean() ? "true" : "false";
      break;
    case AttrType::kNull:
      out += "null";
      break;
    case AttrType::kL:
      out.push_back('[');
      for (size_t i = 0; i < v.l().size(); ++i) {
        if (i) out.push_back(',');
        Write(out, v.l()[i]);
      }
      out.push_back(']');
      break;
    case AttrType::kM: {
      out.push_back('{');
      bool first = true;
      for (const auto& [k, e] : v.m()) {
        if (!first) out.push_back(',');
        first = false;
        Symbol(out, k);
        out.push_back(':');
        Write(out, e);
      }
      out.push_back('}');
      break;
    }
    case AttrType::kSS:
    case AttrType::kBS: {
      out += v.type() == AttrType::kSS ? "$dynamodb_SS::[" : "$dynamodb_BS::[";
      const auto& members = v.string_set();
      for (size_t i = 0; i < members.size(); ++i) {
        if (i) out.push_back(',');
        if (v.type() == AttrType::kSS)
          Escaped(out, members[i], '"');
        else
          out += "{{" + Base64Encode(members[i]) + "}}";
      }
      out.push_back(']');
      break;
    }
    case AttrType::kNS: {
      out += "$dynamodb_NS::[";
      const auto& members = v.number_set();
      for (size_t i = 0; i < members.size(); ++i) {
        if (i) out.push_back(',');
        out += Decimal(members[i]);
      }
      out.push_back(']');
      break;
    }
  }
}

// A recursive-descent reader of one line.
class Reader {
 public:
  explicit Reader(std::string_view text) : s_(text) {}

  Result<Item> ReadLine() {
    Skip();
    if (Eat(kIonVersionMarker)) Skip();
    if (AtEnd()) return Status(ErrorCode::kResourceNotFound, "no value");
    if (!Eat("{")) return Bad("an Ion line must hold an {Item:...} struct");
    Skip();
    MT_ASSIGN_OR_RETURN(std::string field, ReadSymbol());
    if (field != "Item") return Bad("the struct's field must be Item");
    Skip();
    if (!Eat(":")) return Bad("expected ':'");
    MT_ASSIGN_OR_RETURN(AttributeValue item, ReadValue(1));
    if (item.type() != AttrType::kM) return Bad("Item must be a struct");
    Skip();
    if (!Eat("}")) return Bad("expected '}'");
    Skip();
    if (!AtEnd()) return Bad("unexpected text after the struct");
    return std::move(item.m());
  }

 private:
  static Status Bad(const std::string& m) { return Status::Validation("Invalid Ion: " + m); }
  bool AtEnd() const { return i_ >= s_.size(); }
  char Peek() const { return AtEnd() ? '\0' : s_[i_]; }
  bool Eat(std::string_view t) {
    if (s_.substr(i_, t.size()) != t) return false;
    i_ += t.size();
    return true;
  }
  void Skip() {
    while (!AtEnd() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }

  Result<std::string> ReadQuoted(char quote) {
    ++i_;
    std::string out;
    while (true) {
      if (AtEnd()) return Bad("unterminated string");
      char c = s_[i_++];
      if (c == quote) return out;
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (AtEnd()) return Bad("unterminated escape");
      char e = s_[i_++];
      switch (e) {
        case 'n':
          out.push_back('\n');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 't':
          out.push_back('\t');
          break;
        case '0':
          out.push_back('\0');
          break;
        case '\\':
        case '"':
        case '\'':
        case '/':
          out.push_back(e);
          break;
        case 'x':
        case 'u':
        case 'U': {
          size_t n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
          if (i_ + n > s_.size()) return Bad("short escape");
          uint32_t cp = 0;
          for (size_t k = 0; k < n; ++k) {
            char h = s_[i_++];
            if (!std::isxdigit(static_cast<unsigned char>(h))) return Bad("bad escape");
            cp = cp * 16 + static_cast<uint32_t>(
                               std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (std::tolower(h) - 'a' + 10));
          }
          if (cp > 0x10FFFF) return Bad("bad code point");
          if (cp < 0x80)
            out.push_back(static_cast<char>(cp));
          else if (cp < 0x800)
            out += {static_cast<char>(0xC0 | (cp >> 6)), static_cast<char>(0x80 | (cp & 0x3F))};
          else if (cp < 0x10000)
            out += {static_cast<char>(0xE0 | (cp >> 12)), static_cast<char>(0x80 | ((cp >> 6) & 0x3F)),
                    static_cast<char>(0x80 | (cp & 0x3F))};
          else
            out += {static_cast<char>(0xF0 | (cp >> 18)), static_cast<char>(0x80 | ((cp >> 12) & 0x3F)),
                    static_cast<char>(0x80 | ((cp >> 6) & 0x3F)), static_cast<char>(0x80 | (cp & 0x3F))};
          break;
        }
        default:
          return Bad("unknown escape");
      }
    }
  }

  Result<std::string> ReadSymbol() {
    if (Peek() == '\'') return ReadQuoted('\'');
    if (Peek() == '"') return ReadQuoted('"');  // a struct field may be a string
    size_t start = i_;
    while (!AtEnd() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_' || s_[i_] == '$')) ++i_;
    if (start == i_) return Bad("expected a symbol");
    return std::string(s_.substr(start, i_ - start));
  }

  Result<Number> ReadNumber() {
    size_t start = i_;
    if (Peek() == '-' || Peek() == '+') ++i_;
    while (!AtEnd() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.' || s_[i_] == '_' ||
                        ((s_[i_] == '+' || s_[i_] == '-') && i_ > start &&
                         (std::tolower(s_[i_ - 1]) == 'e' || std::tolower(s_[i_ - 1]) == 'd')))) {
      ++i_;
    }
    // Ion writes a decimal's exponent with d (1.5d3) and a float's with e; both are N here.
    std::string text;
    for (char c : s_.substr(start, i_ - start)) {
      if (c == '_') continue;
      char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      text.push_back(lower == 'd' ? 'e' : lower);
    }
    if (size_t dot = text.find(".e"); dot != std::string::npos) text.erase(dot, 1);  // 2.e3 -> 2e3
    if (!text.empty() && text.back() == '.') text.pop_back();
    auto n = Number::Parse(text);
    if (!n.ok()) return Bad("bad number " + std::string(s_.substr(start, i_ - start)));
    return std::move(n).value();
  }

  Result<AttributeValue> ReadValue(int depth) {
    if (depth > 32) return Bad("nested too deeply");
    Skip();
    // Annotations: name::value (only DynamoDB's set annotations mean anything here).
    std::string annotation;
    size_t save = i_;
    if (Peek() == '$' || Peek() == '\'' || std::isalpha(static_cast<unsigned char>(Peek()))) {
      auto symbol = ReadSymbol();
      Skip();
      if (symbol.ok() && Eat("::")) {
        annotation = *symbol;
        Skip();
      } else {
        i_ = save;
      }
    }
    char c = Peek();
    if (!annotation.empty()) {
      if (c != '[') return Bad("an annotated value must be a list");
      bool ss = annotation == "$dynamodb_SS", ns = annotation == "$dynamodb_NS", bs = annotation == "$dynamodb_BS";
      if (!ss && !ns && !bs) return Bad("unknown annotation " + annotation);
      MT_ASSIGN_OR_RETURN(AttributeValue list, ReadValue(depth));
      std::vector<std::string> strings;
      std::vector<Number> numbers;
      for (auto& e : list.l()) {
        AttrType want = ss ? AttrType::kS : ns ? AttrType::kN : AttrType::kB;
        if (e.type() != want) return Bad("a set member of the wrong type");
        if (ns)
          numbers.push_back(e.n());
        else
          strings.push_back(e.s());
      }
      if (list.l().empty()) return Bad("an empty set");
      AttributeValue set = ss   ? AttributeValue::SS(std::move(strings))
                           : bs ? AttributeValue::BS(std::move(strings))
                                : AttributeValue::NS(std::move(numbers));
      size_t n = ns ? set.number_set().size() : set.string_set().size();
      for (size_t i = 1; i < n; ++i) {
        if (ns ? set.number_set()[i] == set.number_set()[i - 1] : set.string_set()[i] == set.string_set()[i - 1]) {
          return Bad("a set with duplicates");
        }
      }
      return set;
    }
    if (c == '"') {
      MT_ASSIGN_OR_RETURN(std::string s, ReadQuoted('"'));
      return AttributeValue::S(std::move(s));
    }
    if (Eat("{{")) {
      size_t end = s_.find("}}", i_);
      if (end == std::string_view::npos) return Bad("unterminated blob");
      std::string text;
      for (char b : s_.substr(i_, end - i_)) {
        if (!std::isspace(static_cast<unsigned char>(b))) text.push_back(b);
      }
      i_ = end + 2;
      if (!IsCanonicalBase64(text)) return Bad("bad blob");
      return AttributeValue::B(Base64Decode(text));
    }
    if (c == '{') {
      ++i_;
      AttributeValue::Map map;
      Skip();
      if (Eat("}")) return AttributeValue::M(std::move(map));
      while (true) {
        Skip();
        MT_ASSIGN_OR_RETURN(std::string name, ReadSymbol());
        Skip();
        if (!Eat(":")) return Bad("expected ':'");
        MT_ASSIGN_OR_RETURN(AttributeValue v, ReadValue(depth + 1));
        if (name.empty()) return Bad("an empty field name");
        map.insert_or_assign(std::move(name), std::move(v));
        Skip();
        if (Eat("}")) return AttributeValue::M(std::move(map));
        if (!Eat(",")) return Bad("expected ',' or '}'");
      }
    }
    if (c == '[') {
      ++i_;
      AttributeValue::List list;
      Skip();
      if (Eat("]")) return AttributeValue::L(std::move(list));
      while (true) {
        MT_ASSIGN_OR_RETURN(AttributeValue v, ReadValue(depth + 1));
        list.push_back(std::move(v));
        Skip();
        if (Eat("]")) return AttributeValue::L(std::move(list));
        if (!Eat(",")) return Bad("expected ',' or ']'");
      }
    }
    if (c == '-' || c == '+' || std::isdigit(static_cast<unsigned char>(c))) {
      MT_ASSIGN_OR_RETURN(Number n, ReadNumber());
      return AttributeValue::N(std::move(n));
    }
    if (Eat("true")) return AttributeValue::Bool(true);
    if (Eat("false")) return AttributeValue::Bool(false);
    if (Eat("null")) {
      if (Eat(".")) {
        while (std::isalpha(static_cast<unsigned char>(Peek()))) ++i_;
      }
      return AttributeValue::Null();
    }
    return Bad("unexpected value");
  }

  std::string_view s_;
  size_t i_ = 0;
};

}  // namespace

std::string IonValue(const Item& item) {
  std::string out;
  Write(out, AttributeValue::M(item));
  return out;
}

std::string IonItemLine(const Item& item) {
  std::string out = "{Item:";
  Write(out, AttributeValue::M(item));
  out.push_back('}');
  return out;
}

Result<Item> IonItemFromLine(std::string_view line) { return Reader(line).ReadLine(); }

}  // namespace monotable::backup
