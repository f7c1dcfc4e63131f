#include "expr/partiql/lexer.h"

#include <cctype>

namespace monotable::expr::partiql {
namespace {

bool IdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool IdentPart(char c) { return IdentStart(c) || std::isdigit(static_cast<unsigned char>(c)); }
bool Digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Reads a quoted run starting at text[i] (the opening quote); doubled quotes are one quote.
bool ReadQuoted(std::string_view text, size_t& i, std::string& out) {
  char quote = text[i++];
  while (i < text.size()) {
    char c = text[i++];
    if (c != quote) {
      out.push_back(c);
      continue;
    }
    if (i < text.size() && text[i] == quote) {
      out.push_back(quote);
      ++i;
      continue;
    }
    return true;
  }
  return false;
}

// Digits, fraction and exponent; false when the exponent does not fit a 32-bit integer or the
// number runs into letters.
bool ReadNumber(std::string_view text, size_t& i) {
  while (i < text.size() && Digit(text[i])) ++i;
  int64_t fraction_digits = 0;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && Digit(text[i])) ++i, ++fraction_digits;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    size_t j = i + 1;
    if (j < text.size() && (text[j] == '+' || text[j] == '-')) ++j;
    if (j < text.size() && Digit(text[j])) {
      size_t digits_begin = j;
      while (j < text.size() && Digit(text[j])) ++j;
      std::string_view exponent = text.substr(digits_begin, j - digits_begin);
      while (exponent.size() > 1 && exponent.front() == '0') exponent.remove_prefix(1);
      if (exponent.size() > 10 || (exponent.size() == 10 && exponent > "2147483647")) return false;
      // The decimal's scale (fraction digits less the exponent) must fit a 32-bit integer too.
      int64_t value = std::stoll(std::string(exponent));
      if (text[digits_begin - 1] == '-') value = -value;
      int64_t scale = fraction_digits - value;
      if (scale > 2147483647LL || scale < -2147483648LL) return false;
      i = j;
    }
  }
  return i >= text.size() || !IdentPart(text[i]);
}

}  // namespace

bool Token::Is(std::string_view keyword) const {
  if (kind != TokenKind::kIdentifier || text.size() != keyword.size()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(text[i])) != std::toupper(static_cast<unsigned char>(keyword[i]))) {
      return false;
    }
  }
  return true;
}

Status Malformed(std::string_view detail) {
  return Status::Validation("Statement wasn't well formed, can't be processed: " + std::string(detail));
}

Result<std::vector<Token>> Tokenize(std::string_view text) {
  std::vector<Token> tokens;
  size_t i = 0;
  auto add = [&](TokenKind kind, size_t begin, size_t end, std::string value) {
    tokens.push_back({kind, std::move(value), static_cast<uint32_t>(begin), static_cast<uint32_t>(end)});
  };
  auto punct = [&](TokenKind kind, size_t length) {
    add(kind, i, i + length, std::string(text.substr(i, length)));
    i += length;
  };
  while (i < text.size()) {
    char c = text[i];
    char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
    } else if (c == '-' && next == '-') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '/' && next == '*') {
      size_t close = text.find("*/", i + 2);
      if (close == std::string_view::npos) return Malformed("");
      i = close + 2;
    } else if (c == '\'' || c == '"') {
      size_t begin = i;
      std::string value;
      if (!ReadQuoted(text, i, value)) return Malformed("");
      add(c == '\'' ? TokenKind::kString : TokenKind::kQuotedIdentifier, begin, i, std::move(value));
    } else if (Digit(c) || (c == '.' && Digit(next))) {
      size_t begin = i;
      if (!ReadNumber(text, i)) return Malformed("");
      add(TokenKind::kNumber, begin, i, std::string(text.substr(begin, i - begin)));
    } else if (IdentStart(c)) {
      size_t begin = i;
      while (i < text.size() && IdentPart(text[i])) ++i;
      add(TokenKind::kIdentifier, begin, i, std::string(text.substr(begin, i - begin)));
    } else if (c == '<' && next == '<') {
      punct(TokenKind::kBagOpen, 2);
    } else if (c == '>' && next == '>') {
      punct(TokenKind::kBagClose, 2);
    } else if (c == '<' && next == '>') {
      punct(TokenKind::kNe, 2);
    } else if (c == '!' && next == '=') {
      punct(TokenKind::kNe, 2);
    } else if (c == '<' && next == '=') {
      punct(TokenKind::kLe, 2);
    } else if (c == '>' && next == '=') {
      punct(TokenKind::kGe, 2);
    } else if (c == '|' && next == '|') {
      punct(TokenKind::kConcat, 2);
    } else {
      TokenKind kind;
      switch (c) {
        case '?':
          kind = TokenKind::kParameter;
          break;
        case '(':
          kind = TokenKind::kLParen;
          break;
        case ')':
          kind = TokenKind::kRParen;
          break;
        case '[':
          kind = TokenKind::kLBracket;
          break;
        case ']':
          kind = TokenKind::kRBracket;
          break;
        case '{':
          kind = TokenKind::kLBrace;
          break;
        case '}':
          kind = TokenKind::kRBrace;
          break;
        case ',':
          kind = TokenKind::kComma;
          break;
        case '.':
          kind = TokenKind::kDot;
          break;
        case ':':
          kind = TokenKind::kColon;
          break;
        case ';':
          kind = TokenKind::kSemicolon;
          break;
        case '*':
          kind = TokenKind::kStar;
          break;
        case '+':
          kind = TokenKind::kPlus;
          break;
        case '-':
          kind = TokenKind::kMinus;
          break;
        case '/':
          kind = TokenKind::kSlash;
          break;
        case '%':
          kind = TokenKind::kPercent;
          break;
        case '=':
          kind = TokenKind::kEq;
          break;
        case '<':
          kind = TokenKind::kLt;
          break;
        case '>':
          kind = TokenKind::kGt;
          break;
        default:
          return Malformed("");
      }
      punct(kind, 1);
    }
  }
  add(TokenKind::kEof, text.size(), text.size(), "");
  return tokens;
}

}  // namespace monotable::expr::partiql
