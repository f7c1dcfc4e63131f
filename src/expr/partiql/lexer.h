// PartiQL lexer: splits a DynamoDB PartiQL statement into tokens.
//
// Contract:
// - Tokenize() returns the tokens followed by one kEof token at text.size(), or a kValidation
//   Status "Statement wasn't well formed, can't be processed: " with an empty detail, which is
//   what DynamoDB answers for text its lexer cannot read: an unterminated string, quoted name or
//   block comment, a character that starts no token ('#', '~', '@', ...), a number whose exponent
//   does not fit a 32-bit integer.
// - Bare identifiers are [A-Za-z_$][A-Za-z0-9_$]*; keywords are ordinary kIdentifier tokens
//   (the parser decides, case-insensitively, see keywords.h). "..." is a kQuotedIdentifier and
//   '...' a kString; a doubled quote inside either stands for one quote. `text` holds the
//   unescaped contents of strings and quoted names and the raw text of everything else.
// - Numbers are digits with an optional fraction and exponent (1, 1.5, .5, 5., 1e3, 1.5E-3); a
//   leading '-' is a separate kMinus token. Digits running into letters are an error.
// - Comments `-- ...` (to the end of the line) and `/* ... */` and whitespace separate tokens.
// - `begin` is the token's byte offset; `end` the offset just past it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace monotable::expr::partiql {

enum class TokenKind : uint8_t {
  kIdentifier,
  kQuotedIdentifier,
  kString,
  kNumber,
  kParameter,  // ?
  kLParen,
  kRParen,
  kLBracket,
  kRBracket,
  kLBrace,
  kRBrace,
  kBagOpen,   // <<
  kBagClose,  // >>
  kComma,
  kDot,
  kColon,
  kSemicolon,
  kStar,
  kPlus,
  kMinus,
  kSlash,
  kPercent,
  kConcat,  // ||
  kEq,
  kNe,  // <> or !=
  kLt,
  kLe,
  kGt,
  kGe,
  kEof,
};

struct Token {
  TokenKind kind = TokenKind::kEof;
  std::string text;
  uint32_t begin = 0;
  uint32_t end = 0;

  // Case-insensitive keyword test of a bare identifier.
  bool Is(std::string_view keyword) const;
};

// "Statement wasn't well formed, can't be processed: <detail>".
Status Malformed(std::string_view detail);

Result<std::vector<Token>> Tokenize(std::string_view text);

}  // namespace monotable::expr::partiql
