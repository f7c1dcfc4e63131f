// Internal to src/expr: the token cursor and document-path grammar shared by the condition,
// projection and update parsers. Not part of the public API.
//
// Contract: parse functions return false after recording the first syntax error (the token where
// parsing stopped); once failed, nothing else is recorded. There is no backtracking, so the first
// failure is the furthest one, which is the token DynamoDB names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "expr/ast.h"
#include "expr/lexer.h"

namespace monotable::expr::internal {

class ParserBase {
 public:
  ParserBase(std::string_view text, ParsedExpression& out);
  virtual ~ParserBase() = default;

  bool failed() const { return failed_; }
  std::string ErrorDetail() const { return SyntaxErrorDetail(text_, tokens_, error_index_); }
  bool redundant_parens() const { return redundant_parens_; }
  // Operators seen (comparators, AND, OR, NOT, BETWEEN, IN, + and -); see kMaxOperators.
  int operators() const { return operators_; }

 protected:
  // Tokens that can never be attribute or function names in this kind of expression.
  virtual bool IsKeywordToken(const Token& token) const = 0;

  const Token& Peek(size_t ahead = 0) const;
  const Token& Next() { return tokens_[pos_ < tokens_.size() - 1 ? pos_++ : pos_]; }
  bool At(TokenType type) const { return Peek().type == type; }
  bool Fail();  // records a syntax error at the current token; returns false
  bool Expect(TokenType type);
  bool Enter();  // one more nesting level; fails past kMaxNestingDepth
  void Leave() { --depth_; }
  void NoteParens(uint8_t parens) {
    if (parens >= 2) redundant_parens_ = true;
  }
  void CountOperator() { ++operators_; }

  uint32_t NameSlot(std::string_view ref);
  uint32_t ValueSlot(std::string_view ref);

  bool IsNameToken(const Token& token) const {
    return token.type == TokenType::kNameRef || (token.type == TokenType::kName && !IsKeywordToken(token));
  }
  // An operand atom shared by conditions and updates: a :value, a function call whose arguments
  // `parse_arg` reads, or a path.
  template <typename ParseArg>
  bool ParseOperandAtom(Operand& op, ParseArg&& parse_arg) {
    const Token& tok = Peek();
    op.pos = tok.begin;
    if (tok.type == TokenType::kValueRef) {
      op.kind = OperandKind::kValue;
      op.name = std::string(tok.text);
      op.value_slot = ValueSlot(tok.text);
      Next();
      return true;
    }
    if (tok.type == TokenType::kName && !IsKeywordToken(tok) && Peek(1).type == TokenType::kLParen) {
      op.kind = OperandKind::kFunction;
      op.name = std::string(tok.text);
      Next();
      Next();
      if (!Enter()) return false;
      while (true) {
        if (!parse_arg(op.args.emplace_back())) return false;
        if (!At(TokenType::kComma)) break;
        Next();
      }
      if (!Expect(TokenType::kRParen)) return false;
      Leave();
      return true;
    }
    op.kind = OperandKind::kPath;
    return ParsePath(op.path);
  }
  bool ParsePath(Path& path);      // name or #ref, then the tail
  bool ParsePathTail(Path& path);  // ('.' name | '[' digits ']')*

  std::string_view text_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
  bool failed_ = false;
  size_t error_index_ = 0;
  bool redundant_parens_ = false;
  int operators_ = 0;
  ParsedExpression& out_;
};

// The limits DynamoDB checks once an expression parsed, before any other semantic error: more than
// kMaxOperators operators, then the first path (in text order) deeper than kMaxPathDepth. Returns
// the detail (without the "Invalid <kind>: " prefix), or "" when within the limits.
std::string LimitErrorDetail(const ParsedExpression& parsed, int operators);

// Update expressions live in update_parser.cc. Fills out.actions and out.early_error; on failure
// `error` holds the detail (syntax or limit error) without the "Invalid UpdateExpression: " prefix.
bool ParseUpdateInto(std::string_view text, ParsedExpression& out, std::string& error);

}  // namespace monotable::expr::internal
