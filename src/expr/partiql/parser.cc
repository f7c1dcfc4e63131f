// Statement productions of the PartiQL parser (see parser.h for the grammar).
#include "expr/partiql/parser.h"

#include "expr/partiql/keywords.h"
#include "expr/partiql/parser_internal.h"

namespace monotable::expr::partiql {

namespace internal {
namespace {

bool IsName(const Token& t) {
  return t.kind == TokenKind::kQuotedIdentifier || (t.kind == TokenKind::kIdentifier && !IsReservedWord(t.text));
}

}  // namespace

Result<partiql::Statement> Parser::Run() {
  partiql::Statement s;
  Status st;
  if (AcceptKeyword("SELECT")) {
    st = Select(s);
  } else if (AcceptKeyword("INSERT")) {
    st = Insert(s);
  } else if (AcceptKeyword("UPDATE")) {
    st = Update(s);
  } else if (AcceptKeyword("DELETE")) {
    st = Delete(s);
  } else if (AtKeyword("EXISTS") && Peek(1).kind == TokenKind::kLParen) {
    Next();
    Next();
    if (!AcceptKeyword("SELECT")) return TermError(Peek());
    st = Select(s);
    if (st.ok() && !Accept(TokenKind::kRParen)) st = TermError(Peek());
    s.kind = StatementKind::kExists;
  } else {
    return Malformed("Expected data manipulation");
  }
  MT_RETURN_IF_ERROR(st);
  Accept(TokenKind::kSemicolon);
  if (!At(TokenKind::kEof)) return Malformed("Unexpected token after expression");
  s.parameter_count = parameters_;
  return s;
}

Status Parser::Source(partiql::Statement& s, bool select) {
  const Token& t = Peek();
  if (t.kind != TokenKind::kQuotedIdentifier && t.kind != TokenKind::kIdentifier) {
    return select ? TermError(t) : Malformed("Expected identifier for simple path");
  }
  if (t.kind == TokenKind::kIdentifier && IsReservedWord(t.text)) {
    return select ? TermError(t) : Malformed("Expected identifier for simple path");
  }
  s.table = Next().text;
  if (s.table.empty()) return Status::Validation("Path component cannot be an empty string");
  if (Accept(TokenKind::kDot)) {
    const Token& index = Peek();
    if (index.kind != TokenKind::kQuotedIdentifier && index.kind != TokenKind::kIdentifier) return TermError(index);
    s.index = Next().text;
    if (s.index->empty()) return Status::Validation("Path component cannot be an empty string");
    if (At(TokenKind::kDot)) return Status::Validation("A path may contain at most 2 components in the FROM clause");
  }
  if (At(TokenKind::kLBracket))
    return Status::Validation("Invalid path dot component in this operation, expecting either an IDENTIFIER or STAR.");
  return Status::Ok();
}

// A table alias ("FROM t x", "FROM t AS x") is refused with a message of its own.
Status Parser::NoAlias() {
  if (AtKeyword("AS") || IsName(Peek())) return Status::Validation("Aliasing is not supported");
  return Status::Ok();
}

Status Parser::Where(partiql::Statement& s) {
  if (!AcceptKeyword("WHERE")) return Status::Ok();
  MT_ASSIGN_OR_RETURN(Expr where, Expression());
  s.where = std::move(where);
  return Status::Ok();
}

Status Parser::Select(partiql::Statement& s) {
  s.kind = StatementKind::kSelect;
  if (AtKeyword("VALUE") || AtKeyword("PIVOT")) {
    return Status::Validation("Select projection doesn't support value or pivot keywords");
  }
  if (AtKeyword("DISTINCT")) return Status::Validation("Unsupported operation: DISTINCT");
  AcceptKeyword("ALL");
  bool star = false;
  do {
    if (At(TokenKind::kStar)) {
      Next();
      star = true;
      continue;
    }
    const Token& t = Peek();
    if (t.kind == TokenKind::kIdentifier && Peek(1).kind == TokenKind::kLParen) {
      return Status::Validation("Unsupported operation: function call " + t.text + " in the select clause");
    }
    if (!IsName(t)) return TermError(t);
    MT_ASSIGN_OR_RETURN(Path path, PathExpr());
    if (AtKeyword("AS") || IsName(Peek())) return Status::Validation("Aliasing is not supported");
    s.projection.push_back(std::move(path));
  } while (Accept(TokenKind::kComma));
  if (star && !s.projection.empty()) {
    return Status::Validation("Other attributes should not be present in the projection when '*' is used.");
  }
  s.select_star = star;
  if (!AcceptKeyword("FROM")) {
    if (At(TokenKind::kEof)) return Malformed("Unexpected term");
    return Malformed("Unexpected token after expression");
  }
  MT_RETURN_IF_ERROR(Source(s, true));
  MT_RETURN_IF_ERROR(NoAlias());
  MT_RETURN_IF_ERROR(Where(s));
  if (AtKeyword("GROUP")) return Status::Validation("Unsupported clause: GROUP BY");
  if (AtKeyword("HAVING")) return Status::Validation("Unsupported clause: HAVING");
  MT_RETURN_IF_ERROR(OrderBy(s));
  if (AtKeyword("LIMIT")) return Status::Validation("Unsupported clause: LIMIT");
  if (AtKeyword("OFFSET")) return Status::Validation("Unsupported clause: OFFSET");
  return Status::Ok();
}

Status Parser::OrderBy(partiql::Statement& s) {
  if (!AtKeyword("ORDER")) return Status::Ok();
  Next();
  if (!AcceptKeyword("BY")) return TermError(Peek());
  do {
    const Token& t = Peek();
    if (!IsName(t)) return TermError(t);
    OrderItem item;
    MT_ASSIGN_OR_RETURN(item.path, PathExpr());
    if (AcceptKeyword("DESC")) {
      item.descending = true;
    } else {
      AcceptKeyword("ASC");
    }
    s.order_by.push_back(std::move(item));
  } while (Accept(TokenKind::kComma));
  return Status::Ok();
}

Status Parser::Insert(partiql::Statement& s) {
  s.kind = StatementKind::kInsert;
  if (!AcceptKeyword("INTO")) return TermError(Peek());
  MT_RETURN_IF_ERROR(Source(s, false));
  if (s.index) return Status::Validation("FROM clause may only contain a single table name");
  if (AtKeyword("VALUES") || At(TokenKind::kBagOpen)) {
    return Status::Validation(
        "Unsupported operation: Inserting multiple items in a single statement is not supported, use "
        "\"INSERT INTO tableName VALUE item\" instead");
  }
  if (!AcceptKeyword("VALUE")) return Malformed("Unexpected token after expression");
  MT_RETURN_IF_ERROR(RightHandSide());
  MT_ASSIGN_OR_RETURN(Expr value, Expression());
  s.value = std::move(value);
  if (AtKeyword("RETURNING")) return Status::Validation("RETURNING is not supported in INSERT");
  return Status::Ok();
}

Status Parser::Update(partiql::Statement& s) {
  s.kind = StatementKind::kUpdate;
  MT_RETURN_IF_ERROR(Source(s, false));
  MT_RETURN_IF_ERROR(NoAlias());
  bool any = false;
  while (true) {
    if (AcceptKeyword("SET")) {
      do {
        const Token& t = Peek();
        if (!IsName(t)) return TermError(t);
        UpdateClause clause;
        MT_ASSIGN_OR_RETURN(clause.target, PathExpr());
        if (!Accept(TokenKind::kEq)) return TermError(Peek());
        MT_RETURN_IF_ERROR(RightHandSide());
        MT_ASSIGN_OR_RETURN(clause.value, Expression());
        s.updates.push_back(std::move(clause));
      } while (Accept(TokenKind::kComma));
    } else if (AcceptKeyword("REMOVE")) {
      do {
        const Token& t = Peek();
        if (!IsName(t)) return TermError(t);
        UpdateClause clause;
        clause.remove = true;
        MT_ASSIGN_OR_RETURN(clause.target, PathExpr());
        s.updates.push_back(std::move(clause));
      } while (Accept(TokenKind::kComma));
    } else {
      break;
    }
    any = true;
  }
  if (!any) {
    if (AtKeyword("ADD") || AtKeyword("DELETE")) {
      return Status::Validation("Only SET and REMOVE are supported in update expressions at this time");
    }
    return TermError(Peek());
  }
  MT_RETURN_IF_ERROR(Where(s));
  return ReturningClause(s);
}

Status Parser::Delete(partiql::Statement& s) {
  s.kind = StatementKind::kDelete;
  if (!AcceptKeyword("FROM")) return Malformed("Expected identifier for simple path");
  MT_RETURN_IF_ERROR(Source(s, false));
  MT_RETURN_IF_ERROR(NoAlias());
  MT_RETURN_IF_ERROR(Where(s));
  return ReturningClause(s);
}

Status Parser::ReturningClause(partiql::Statement& s) {
  if (!AcceptKeyword("RETURNING")) return Status::Ok();
  Returning r;
  if (AcceptKeyword("ALL")) {
    r.all = true;
  } else if (AcceptKeyword("MODIFIED")) {
    r.all = false;
  } else {
    return TermError(Peek());
  }
  if (AcceptKeyword("NEW")) {
    r.new_image = true;
  } else if (AcceptKeyword("OLD")) {
    r.new_image = false;
  } else {
    return TermError(Peek());
  }
  if (!Accept(TokenKind::kStar)) {
    return Status::Validation("Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause");
  }
  if (At(TokenKind::kComma)) {
    return Status::Validation("Invalid syntax with multiple returning elements in RETURNING clause");
  }
  s.returning = r;
  return Status::Ok();
}

}  // namespace internal

Result<Statement> ParseStatement(std::string_view text) {
  MT_ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(text));
  internal::Parser parser(std::move(tokens));
  return parser.Run();
}

}  // namespace monotable::expr::partiql
