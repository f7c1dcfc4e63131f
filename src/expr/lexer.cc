#include "expr/lexer.h"

#include <cctype>

namespace monotable::expr {
namespace {

bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsNameChar(char c) { return IsAlpha(c) || IsDigit(c) || c == '_'; }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Length of the UTF-8 sequence starting at text[i] (1 for a malformed lead byte).
size_t Utf8Length(std::string_view text, size_t i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  size_t len = 1;
  if (lead >= 0xF0 && lead <= 0xF4) {
    len = 4;
  } else if (lead >= 0xE0) {
    len = 3;
  } else if (lead >= 0xC2 && lead <= 0xDF) {
    len = 2;
  }
  if (i + len > text.size()) return 1;
  for (size_t k = 1; k < len; ++k) {
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return 1;
  }
  return len;
}

}  // namespace

bool Token::IsKeyword(std::string_view upper_keyword) const {
  if (type != TokenType::kName || text.size() != upper_keyword.size()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(text[i])) != upper_keyword[i]) return false;
  }
  return true;
}

std::vector<Token> Tokenize(std::string_view text) {
  std::vector<Token> tokens;
  tokens.reserve(text.size() / 2 + 2);
  size_t i = 0;
  auto push = [&](TokenType type, size_t begin, size_t end) {
    tokens.push_back(Token{type, static_cast<uint32_t>(begin), static_cast<uint32_t>(end),
                           text.substr(begin, end - begin)});
  };
  while (i < text.size()) {
    const char c = text[i];
    const size_t begin = i;
    if (IsSpace(c)) {
      ++i;
      continue;
    }
    if (IsAlpha(c)) {
      while (i < text.size() && IsNameChar(text[i])) ++i;
      push(TokenType::kName, begin, i);
      continue;
    }
    if (IsDigit(c)) {
      while (i < text.size() && IsDigit(text[i])) ++i;
      push(TokenType::kNumber, begin, i);
      continue;
    }
    if (c == '#' || c == ':') {
      ++i;
      while (i < text.size() && IsNameChar(text[i])) ++i;
      if (i - begin == 1) {
        push(TokenType::kUnknown, begin, i);
      } else {
        push(c == '#' ? TokenType::kNameRef : TokenType::kValueRef, begin, i);
      }
      continue;
    }
    TokenType type = TokenType::kUnknown;
    size_t len = 1;
    switch (c) {
      case '(': type = TokenType::kLParen; break;
      case ')': type = TokenType::kRParen; break;
      case '[': type = TokenType::kLBracket; break;
      case ']': type = TokenType::kRBracket; break;
      case ',': type = TokenType::kComma; break;
      case '.': type = TokenType::kDot; break;
      case '=': type = TokenType::kEq; break;
      case '+': type = TokenType::kPlus; break;
      case '-': type = TokenType::kMinus; break;
      case '<':
        if (i + 1 < text.size() && text[i + 1] == '=') {
          type = TokenType::kLe;
          len = 2;
        } else if (i + 1 < text.size() && text[i + 1] == '>') {
          type = TokenType::kNe;
          len = 2;
        } else {
          type = TokenType::kLt;
        }
        break;
      case '>':
        if (i + 1 < text.size() && text[i + 1] == '=') {
          type = TokenType::kGe;
          len = 2;
        } else {
          type = TokenType::kGt;
        }
        break;
      default:
        len = (static_cast<unsigned char>(c) >= 0x80) ? Utf8Length(text, i) : 1;
        break;
    }
    i += len;
    push(type, begin, i);
  }
  tokens.push_back(Token{TokenType::kEof, static_cast<uint32_t>(text.size()),
                         static_cast<uint32_t>(text.size()), "<EOF>"});
  return tokens;
}

std::string SyntaxErrorDetail(std::string_view text, const std::vector<Token>& tokens, size_t index) {
  if (index >= tokens.size()) index = tokens.size() - 1;
  const Token& tok = tokens[index];
  const size_t from = index > 0 ? tokens[index - 1].begin : tok.begin;
  size_t to = text.size();
  if (tok.type != TokenType::kEof) {
    to = (index + 1 < tokens.size() && tokens[index + 1].type != TokenType::kEof) ? tokens[index + 1].end
                                                                                  : tok.end;
  }
  std::string out = "Syntax error; token: \"";
  out.append(tok.text);
  out.append("\", near: \"");
  out.append(text.substr(from, to - from));
  out.push_back('"');
  return out;
}

}  // namespace monotable::expr
