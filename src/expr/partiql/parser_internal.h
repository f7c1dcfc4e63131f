// Internal to the PartiQL parser (parser.cc: statements, expr_parser.cc: expressions and paths).
//
// Contract: one Parser per statement text; it walks the token vector once. Every method returns a
// Status (or Result) carrying the first error, with DynamoDB's wording (see parser.h).
#pragma once

#include <string_view>
#include <vector>

#include "expr/partiql/ast.h"
#include "expr/partiql/lexer.h"

namespace monotable::expr::partiql::internal {

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  Result<partiql::Statement> Run();

 private:
  // Statements (parser.cc).
  Status Select(partiql::Statement& s);
  Status Insert(partiql::Statement& s);
  Status Update(partiql::Statement& s);
  Status Delete(partiql::Statement& s);
  Status Source(partiql::Statement& s, bool select);
  Status NoAlias();
  Status Where(partiql::Statement& s);
  Status OrderBy(partiql::Statement& s);
  Status ReturningClause(partiql::Statement& s);

  // Expressions (expr_parser.cc), lowest precedence first.
  Result<Expr> Expression();
  Result<Expr> Or();
  Result<Expr> And();
  Result<Expr> Not();
  Result<Expr> Predicate();
  Result<Expr> Additive();
  Result<Expr> Primary();
  Result<Expr> Collection(TokenKind close, ExprKind kind);
  Result<Expr> TupleLiteral();
  Result<Expr> Call();
  Result<Expr> InRight(Expr left, bool negated);
  Result<Expr> IsRight(Expr left);
  // A document path starting at the current token (a name), with its . and [] steps.
  Result<Path> PathExpr();
  Status PathSteps(Path& path);

  // The error for a token found where an expression term should start.
  Status TermError(const Token& t) const;
  // After an infix operator: EOF means a missing right-hand side.
  Status RightHandSide() const;

  const Token& Peek(size_t ahead = 0) const {
    size_t i = pos_ + ahead;
    return i < tokens_.size() ? tokens_[i] : tokens_.back();
  }
  const Token& Next() { return tokens_[pos_ < tokens_.size() - 1 ? pos_++ : pos_]; }
  bool At(TokenKind kind) const { return Peek().kind == kind; }
  bool AtKeyword(std::string_view keyword) const { return Peek().Is(keyword); }
  bool Accept(TokenKind kind) {
    if (!At(kind)) return false;
    Next();
    return true;
  }
  bool AcceptKeyword(std::string_view keyword) {
    if (!AtKeyword(keyword)) return false;
    Next();
    return true;
  }

  // RAII depth guard for recursive productions.
  class Depth {
   public:
    explicit Depth(Parser& p) : p_(p) { ++p_.depth_; }
    ~Depth() { --p_.depth_; }
    bool TooDeep() const { return p_.depth_ > kMaxNestingDepth; }

   private:
    Parser& p_;
  };

  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
  uint32_t parameters_ = 0;
};

}  // namespace monotable::expr::partiql::internal
