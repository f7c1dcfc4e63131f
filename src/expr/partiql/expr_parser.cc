// Expression and path productions of the PartiQL parser (see parser.h for the grammar).
#include <cstdlib>

#include "expr/partiql/keywords.h"
#include "expr/partiql/parser_internal.h"

namespace monotable::expr::partiql::internal {
namespace {

bool IsOperatorToken(const Token& t) {
  switch (t.kind) {
    case TokenKind::kEq:
    case TokenKind::kNe:
    case TokenKind::kLt:
    case TokenKind::kLe:
    case TokenKind::kGt:
    case TokenKind::kGe:
    case TokenKind::kPlus:
    case TokenKind::kStar:
    case TokenKind::kSlash:
    case TokenKind::kPercent:
    case TokenKind::kConcat:
      return true;
    case TokenKind::kIdentifier:
      return t.Is("AND") || t.Is("OR") || t.Is("IS") || t.Is("LIKE") || t.Is("BETWEEN") || t.Is("IN");
    default:
      return false;
  }
}

std::optional<CompareOp> CompareOf(TokenKind kind) {
  switch (kind) {
    case TokenKind::kEq:
      return CompareOp::kEq;
    case TokenKind::kNe:
      return CompareOp::kNe;
    case TokenKind::kLt:
      return CompareOp::kLt;
    case TokenKind::kLe:
      return CompareOp::kLe;
    case TokenKind::kGt:
      return CompareOp::kGt;
    case TokenKind::kGe:
      return CompareOp::kGe;
    default:
      return std::nullopt;
  }
}

std::optional<ArithOp> ArithOf(TokenKind kind) {
  switch (kind) {
    case TokenKind::kPlus:
      return ArithOp::kAdd;
    case TokenKind::kMinus:
      return ArithOp::kSub;
    case TokenKind::kStar:
      return ArithOp::kMul;
    case TokenKind::kSlash:
      return ArithOp::kDiv;
    case TokenKind::kPercent:
      return ArithOp::kMod;
    case TokenKind::kConcat:
      return ArithOp::kConcat;
    default:
      return std::nullopt;
  }
}

Expr Binary(ExprKind kind, Expr left, Expr right) {
  Expr e;
  e.kind = kind;
  e.pos = left.pos;
  e.end = right.end;
  e.args.push_back(std::move(left));
  e.args.push_back(std::move(right));
  return e;
}

// Type names PartiQL accepts after IS (one or two words), mapped to what DynamoDB supports.
struct TypeName {
  std::string_view first;
  std::string_view second;  // "" for one-word names
  IsType type;
};
constexpr TypeName kTypeNames[] = {
    {"MISSING", "", IsType::kMissing},
    {"NULL", "", IsType::kNull},
    {"BOOLEAN", "", IsType::kBoolean},
    {"BOOL", "", IsType::kBoolean},
    {"STRING", "", IsType::kString},
    {"NUMERIC", "", IsType::kNumeric},
    {"BLOB", "", IsType::kBlob},
    {"STRUCT", "", IsType::kStruct},
    {"TUPLE", "", IsType::kStruct},
    {"LIST", "", IsType::kList},
    {"DOUBLE", "PRECISION", IsType::kOther},
    {"CHARACTER", "VARYING", IsType::kOther},
    {"INT", "", IsType::kOther},
    {"INT2", "", IsType::kOther},
    {"INT4", "", IsType::kOther},
    {"INT8", "", IsType::kOther},
    {"INTEGER", "", IsType::kOther},
    {"SMALLINT", "", IsType::kOther},
    {"INTEGER2", "", IsType::kOther},
    {"INTEGER4", "", IsType::kOther},
    {"INTEGER8", "", IsType::kOther},
    {"BIGINT", "", IsType::kOther},
    {"FLOAT", "", IsType::kOther},
    {"REAL", "", IsType::kOther},
    {"DECIMAL", "", IsType::kOther},
    {"DEC", "", IsType::kOther},
    {"CHAR", "", IsType::kOther},
    {"CHARACTER", "", IsType::kOther},
    {"VARCHAR", "", IsType::kOther},
    {"TIMESTAMP", "", IsType::kOther},
    {"DATE", "", IsType::kOther},
    {"TIME", "", IsType::kOther},
    {"CLOB", "", IsType::kOther},
    {"SYMBOL", "", IsType::kOther},
    {"SEXP", "", IsType::kOther},
    {"BAG", "", IsType::kOther},
    {"ANY", "", IsType::kOther},
};

}  // namespace

Status Parser::TermError(const Token& t) const {
  if (t.kind == TokenKind::kEof || t.kind == TokenKind::kSemicolon) return Malformed("Unexpected term");
  if (IsOperatorToken(t)) return Malformed("Unexpected operator");
  if (t.kind == TokenKind::kIdentifier && IsReservedWord(t.text)) return Malformed("Unexpected keyword");
  return Malformed("Unexpected term");
}

Status Parser::RightHandSide() const {
  if (At(TokenKind::kEof) || At(TokenKind::kSemicolon)) {
    return Malformed("Missing right-hand side expression of infix operator");
  }
  return Status::Ok();
}

Result<Expr> Parser::Expression() { return Or(); }

Result<Expr> Parser::Or() {
  Depth depth(*this);
  if (depth.TooDeep()) return Malformed("Expression nesting is too deep");
  MT_ASSIGN_OR_RETURN(Expr left, And());
  if (!AtKeyword("OR")) return left;
  Expr out;
  out.kind = ExprKind::kOr;
  out.pos = left.pos;
  out.args.push_back(std::move(left));
  while (AcceptKeyword("OR")) {
    MT_RETURN_IF_ERROR(RightHandSide());
    MT_ASSIGN_OR_RETURN(Expr right, And());
    out.args.push_back(std::move(right));
  }
  out.end = out.args.back().end;
  return out;
}

Result<Expr> Parser::And() {
  MT_ASSIGN_OR_RETURN(Expr left, Not());
  if (!AtKeyword("AND")) return left;
  Expr out;
  out.kind = ExprKind::kAnd;
  out.pos = left.pos;
  out.args.push_back(std::move(left));
  while (AcceptKeyword("AND")) {
    MT_RETURN_IF_ERROR(RightHandSide());
    MT_ASSIGN_OR_RETURN(Expr right, Not());
    out.args.push_back(std::move(right));
  }
  out.end = out.args.back().end;
  return out;
}

Result<Expr> Parser::Not() {
  if (!AtKeyword("NOT")) return Predicate();
  Depth depth(*this);
  if (depth.TooDeep()) return Malformed("Expression nesting is too deep");
  uint32_t pos = Next().begin;
  MT_ASSIGN_OR_RETURN(Expr operand, Not());
  Expr out;
  out.kind = ExprKind::kNot;
  out.pos = pos;
  out.end = operand.end;
  out.args.push_back(std::move(operand));
  return out;
}

Result<Expr> Parser::Predicate() {
  MT_ASSIGN_OR_RETURN(Expr left, Additive());
  if (auto op = CompareOf(Peek().kind)) {
    Next();
    MT_RETURN_IF_ERROR(RightHandSide());
    MT_ASSIGN_OR_RETURN(Expr right, Additive());
    Expr out = Binary(ExprKind::kCompare, std::move(left), std::move(right));
    out.compare = *op;
    return out;
  }
  bool negated = false;
  if (AtKeyword("NOT") && (Peek(1).Is("BETWEEN") || Peek(1).Is("IN") || Peek(1).Is("LIKE"))) {
    Next();
    negated = true;
  }
  if (AcceptKeyword("BETWEEN")) {
    MT_RETURN_IF_ERROR(RightHandSide());
    MT_ASSIGN_OR_RETURN(Expr low, Additive());
    if (!AcceptKeyword("AND")) return TermError(Peek());
    MT_RETURN_IF_ERROR(RightHandSide());
    MT_ASSIGN_OR_RETURN(Expr high, Additive());
    Expr out = Binary(ExprKind::kBetween, std::move(left), std::move(low));
    out.end = high.end;
    out.args.push_back(std::move(high));
    out.flag = negated;
    return out;
  }
  if (AcceptKeyword("IN")) return InRight(std::move(left), negated);
  if (AcceptKeyword("LIKE")) {
    MT_RETURN_IF_ERROR(RightHandSide());
    MT_ASSIGN_OR_RETURN(Expr pattern, Additive());
    Expr out = Binary(ExprKind::kLike, std::move(left), std::move(pattern));
    out.flag = negated;
    return out;
  }
  if (AcceptKeyword("IS")) return IsRight(std::move(left));
  return left;
}

Result<Expr> Parser::InRight(Expr left, bool negated) {
  MT_RETURN_IF_ERROR(RightHandSide());
  Expr out;
  out.kind = ExprKind::kIn;
  out.flag = negated;
  out.pos = left.pos;
  out.args.push_back(std::move(left));
  if (At(TokenKind::kLParen) || At(TokenKind::kLBracket)) {
    Depth depth(*this);
    if (depth.TooDeep()) return Malformed("Expression nesting is too deep");
    TokenKind close = At(TokenKind::kLParen) ? TokenKind::kRParen : TokenKind::kRBracket;
    Next();
    if (!At(close)) {
      do {
        MT_ASSIGN_OR_RETURN(Expr candidate, Expression());
        out.args.push_back(std::move(candidate));
      } while (Accept(TokenKind::kComma));
    }
    if (!At(close)) return TermError(Peek());
    out.end = Next().end;
    return out;
  }
  MT_ASSIGN_OR_RETURN(Expr candidates, Additive());
  out.end = candidates.end;
  out.args.push_back(std::move(candidates));
  return out;
}

Result<Expr> Parser::IsRight(Expr left) {
  Expr out;
  out.kind = ExprKind::kIs;
  out.pos = left.pos;
  out.flag = AcceptKeyword("NOT");
  const Token& t = Peek();
  if (t.kind != TokenKind::kIdentifier) return Malformed("Expected type name");
  for (const TypeName& name : kTypeNames) {
    if (!t.Is(name.first)) continue;
    if (!name.second.empty() && !Peek(1).Is(name.second)) continue;
    out.is_type = name.type;
    out.text = std::string(name.first) + (name.second.empty() ? "" : " " + std::string(name.second));
    Next();
    if (!name.second.empty()) Next();
    out.end = tokens_[pos_ - 1].end;
    out.args.push_back(std::move(left));
    return out;
  }
  return Malformed("Expected type name");
}

Result<Expr> Parser::Additive() {
  MT_ASSIGN_OR_RETURN(Expr left, Primary());
  int chain = 0;  // a chain a + b + c ... nests to the left: bound it like any other nesting
  while (auto op = ArithOf(Peek().kind)) {
    if (++chain > kMaxNestingDepth) return Malformed("Expression nesting is too deep");
    Next();
    MT_RETURN_IF_ERROR(RightHandSide());
    MT_ASSIGN_OR_RETURN(Expr right, Primary());
    Expr combined = Binary(ExprKind::kArith, std::move(left), std::move(right));
    combined.arith = *op;
    left = std::move(combined);
  }
  return left;
}

Result<Expr> Parser::Primary() {
  const Token& t = Peek();
  Expr e;
  e.pos = t.begin;
  e.end = t.end;
  switch (t.kind) {
    case TokenKind::kString:
      e.kind = ExprKind::kString;
      e.text = Next().text;
      return e;
    case TokenKind::kNumber:
      e.kind = ExprKind::kNumber;
      e.text = Next().text;
      return e;
    case TokenKind::kParameter:
      Next();
      e.kind = ExprKind::kParameter;
      e.param = parameters_++;
      return e;
    case TokenKind::kMinus:
    case TokenKind::kPlus: {
      bool minus = t.kind == TokenKind::kMinus;
      Next();
      if (At(TokenKind::kNumber)) {
        e.kind = ExprKind::kNumber;
        e.end = Peek().end;
        e.text = (minus ? "-" : "") + Next().text;
        return e;
      }
      Depth depth(*this);
      if (depth.TooDeep()) return Malformed("Expression nesting is too deep");
      MT_ASSIGN_OR_RETURN(Expr operand, Primary());
      if (!minus) return operand;
      Expr zero;
      zero.kind = ExprKind::kNumber;
      zero.text = "0";
      zero.pos = e.pos;
      Expr out = Binary(ExprKind::kArith, std::move(zero), std::move(operand));
      out.arith = ArithOp::kSub;
      return out;
    }
    case TokenKind::kLParen: {
      Next();
      MT_ASSIGN_OR_RETURN(Expr inner, Expression());
      if (!At(TokenKind::kRParen)) {
        if (At(TokenKind::kEof)) return Malformed("Unexpected term");
        return Malformed("Unexpected token after expression");
      }
      Next();
      return inner;
    }
    case TokenKind::kLBracket:
      return Collection(TokenKind::kRBracket, ExprKind::kList);
    case TokenKind::kBagOpen:
      return Collection(TokenKind::kBagClose, ExprKind::kBag);
    case TokenKind::kLBrace:
      return TupleLiteral();
    case TokenKind::kQuotedIdentifier: {
      MT_ASSIGN_OR_RETURN(e.path, PathExpr());
      e.kind = ExprKind::kPath;
      e.end = e.path.end;
      return e;
    }
    case TokenKind::kIdentifier: {
      if (Peek(1).kind == TokenKind::kLParen) return Call();
      if (t.Is("TRUE") || t.Is("FALSE")) {
        e.kind = ExprKind::kBool;
        e.flag = t.Is("TRUE");
        Next();
        return e;
      }
      if (t.Is("NULL") || t.Is("MISSING")) {
        e.kind = t.Is("NULL") ? ExprKind::kNull : ExprKind::kMissing;
        Next();
        return e;
      }
      if (IsOperatorToken(t) || IsReservedWord(t.text)) return TermError(t);
      MT_ASSIGN_OR_RETURN(e.path, PathExpr());
      e.kind = ExprKind::kPath;
      e.end = e.path.end;
      return e;
    }
    default:
      return TermError(t);
  }
}

Result<Expr> Parser::Collection(TokenKind close, ExprKind kind) {
  Depth depth(*this);
  if (depth.TooDeep()) return Malformed("Expression nesting is too deep");
  Expr e;
  e.kind = kind;
  e.pos = Next().begin;
  if (!At(close)) {
    do {
      MT_ASSIGN_OR_RETURN(Expr element, Expression());
      e.args.push_back(std::move(element));
    } while (Accept(TokenKind::kComma));
  }
  if (!At(close)) return TermError(Peek());
  e.end = Next().end;
  return e;
}

Result<Expr> Parser::TupleLiteral() {
  Depth depth(*this);
  if (depth.TooDeep()) return Malformed("Expression nesting is too deep");
  Expr e;
  e.kind = ExprKind::kTuple;
  e.pos = Next().begin;
  if (!At(TokenKind::kRBrace)) {
    do {
      MT_ASSIGN_OR_RETURN(Expr key, Expression());
      if (!Accept(TokenKind::kColon)) return TermError(Peek());
      MT_ASSIGN_OR_RETURN(Expr value, Expression());
      e.args.push_back(std::move(key));
      e.args.push_back(std::move(value));
    } while (Accept(TokenKind::kComma));
  }
  if (!At(TokenKind::kRBrace)) return TermError(Peek());
  e.end = Next().end;
  return e;
}

Result<Expr> Parser::Call() {
  Depth depth(*this);
  if (depth.TooDeep()) return Malformed("Expression nesting is too deep");
  Expr e;
  e.kind = ExprKind::kCall;
  e.pos = Peek().begin;
  e.text = Next().text;
  Next();  // '('
  if (!At(TokenKind::kRParen)) {
    do {
      if (At(TokenKind::kStar)) return Malformed("Unexpected operator");
      MT_ASSIGN_OR_RETURN(Expr arg, Expression());
      e.args.push_back(std::move(arg));
    } while (Accept(TokenKind::kComma));
  }
  if (!At(TokenKind::kRParen)) return TermError(Peek());
  e.end = Next().end;
  return e;
}

Result<Path> Parser::PathExpr() {
  Path path;
  const Token& first = Next();
  path.pos = first.begin;
  path.end = first.end;
  path.steps.push_back({PathStep::Kind::kName, first.text, 0});
  MT_RETURN_IF_ERROR(PathSteps(path));
  return path;
}

Status Parser::PathSteps(Path& path) {
  while (true) {
    if (At(TokenKind::kDot)) {
      Next();
      const Token& t = Peek();
      if (t.kind == TokenKind::kStar) return Status::Validation("Unpivot path component like a.*.b are not supported");
      if (t.kind != TokenKind::kIdentifier && t.kind != TokenKind::kQuotedIdentifier) return TermError(t);
      path.steps.push_back({PathStep::Kind::kName, Next().text, 0});
    } else if (At(TokenKind::kLBracket)) {
      Next();
      const Token& t = Peek();
      if (t.kind == TokenKind::kStar) {
        return Status::Validation("Wildcard path component like a[*].b are not supported");
      }
      if (t.kind == TokenKind::kString) {
        path.steps.push_back({PathStep::Kind::kName, Next().text, 0});
      } else if (t.kind == TokenKind::kNumber && t.text.find_first_not_of("0123456789") == std::string::npos) {
        if (t.text.size() > 9)
          return Status::Validation("List index is not within the allowable range; index: [" + t.text + "]");
        path.steps.push_back(
            {PathStep::Kind::kIndex, "", static_cast<uint32_t>(std::strtoul(t.text.c_str(), nullptr, 10))});
        Next();
      } else {
        return TermError(t);
      }
      if (!At(TokenKind::kRBracket)) return TermError(Peek());
      Next();
    } else {
      break;
    }
    path.end = tokens_[pos_ - 1].end;
  }
  return Status::Ok();
}

}  // namespace monotable::expr::partiql::internal
