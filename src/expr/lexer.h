// Lexer: splits expression text into tokens, and renders DynamoDB's syntax-error detail.
//
// Contract:
// - Tokenize() never fails: characters that start no token become one kUnknown token each (a whole
//   UTF-8 sequence for non-ASCII), so the parser reports them as "Syntax error; token: ...". The
//   result always ends with one kEof token whose text is "<EOF>" and which sits at text.size().
// - Names are [A-Za-z][A-Za-z0-9_]* (DynamoDB refuses a leading '_'); "#" and ":" must be followed by
//   at least one [A-Za-z0-9_] to form a name/value reference, else they are kUnknown tokens.
//   Keywords (AND, SET, ...) are plain kName tokens; the parser decides, case-insensitively.
// - Whitespace is space, tab, CR and LF.
// - SyntaxErrorDetail(text, tokens, i) is DynamoDB's message for a parse that stopped at tokens[i]:
//   `Syntax error; token: "<tok>", near: "<prev tok .. next tok>"`, where near runs from the start of
//   the previous token (or of the offending token when it is the first) to the end of the next one
//   (or to the end of the text when the offending token is the end).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace monotable::expr {

enum class TokenType : uint8_t {
  kName,
  kNameRef,   // #name
  kValueRef,  // :value
  kNumber,    // [0-9]+
  kLParen,
  kRParen,
  kLBracket,
  kRBracket,
  kComma,
  kDot,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kPlus,
  kMinus,
  kUnknown,
  kEof,
};

struct Token {
  TokenType type = TokenType::kEof;
  uint32_t begin = 0;
  uint32_t end = 0;
  std::string_view text;  // a view into the tokenized text ("<EOF>" for kEof)

  // Case-insensitive keyword test for kName tokens.
  bool IsKeyword(std::string_view upper_keyword) const;
};

std::vector<Token> Tokenize(std::string_view text);

std::string SyntaxErrorDetail(std::string_view text, const std::vector<Token>& tokens, size_t index);

}  // namespace monotable::expr
