#include "expr/parser.h"

#include <algorithm>
#include <string>
#include <utility>

#include "expr/parser_internal.h"
#include "expr/reserved_words.h"

namespace monotable::expr {
namespace internal {

ParserBase::ParserBase(std::string_view text, ParsedExpression& out)
    : text_(text), tokens_(Tokenize(text)), out_(out) {}

const Token& ParserBase::Peek(size_t ahead) const {
  const size_t i = std::min(pos_ + ahead, tokens_.size() - 1);
  return tokens_[i];
}

bool ParserBase::Fail() {
  if (!failed_) {
    failed_ = true;
    error_index_ = std::min(pos_, tokens_.size() - 1);
  }
  return false;
}

bool ParserBase::Expect(TokenType type) {
  if (Peek().type != type) return Fail();
  Next();
  return true;
}

bool ParserBase::Enter() {
  if (++depth_ > kMaxNestingDepth) return Fail();
  return true;
}

uint32_t ParserBase::NameSlot(std::string_view ref) {
  auto& refs = out_.name_refs;
  auto it = std::find(refs.begin(), refs.end(), ref);
  if (it != refs.end()) return static_cast<uint32_t>(it - refs.begin());
  refs.emplace_back(ref);
  return static_cast<uint32_t>(refs.size() - 1);
}

uint32_t ParserBase::ValueSlot(std::string_view ref) {
  auto& refs = out_.value_refs;
  auto it = std::find(refs.begin(), refs.end(), ref);
  if (it != refs.end()) return static_cast<uint32_t>(it - refs.begin());
  refs.emplace_back(ref);
  return static_cast<uint32_t>(refs.size() - 1);
}

bool ParserBase::ParsePath(Path& path) {
  const Token& tok = Peek();
  if (!IsNameToken(tok)) return Fail();
  PathElement e;
  e.pos = tok.begin;
  e.text = std::string(tok.text);
  if (tok.type == TokenType::kNameRef) {
    e.kind = PathElement::Kind::kNameRef;
    e.slot = NameSlot(tok.text);
  }
  Next();
  path.elements.push_back(std::move(e));
  return ParsePathTail(path);
}

bool ParserBase::ParsePathTail(Path& path) {
  while (true) {
    if (At(TokenType::kDot)) {
      Next();
      const Token& tok = Peek();
      if (!IsNameToken(tok)) return Fail();
      PathElement e;
      e.pos = tok.begin;
      e.text = std::string(tok.text);
      if (tok.type == TokenType::kNameRef) {
        e.kind = PathElement::Kind::kNameRef;
        e.slot = NameSlot(tok.text);
      }
      Next();
      path.elements.push_back(std::move(e));
    } else if (At(TokenType::kLBracket)) {
      Next();
      const Token& tok = Peek();
      // List indexes are non-negative 32-bit; anything longer is refused like a bad token.
      if (tok.type != TokenType::kNumber || tok.text.size() > 10) return Fail();
      const uint64_t value = std::stoull(std::string(tok.text));
      if (value > 0x7fffffffULL) return Fail();
      PathElement e;
      e.kind = PathElement::Kind::kIndex;
      e.slot = static_cast<uint32_t>(value);
      e.pos = tok.begin;
      Next();
      if (!Expect(TokenType::kRBracket)) return false;
      path.elements.push_back(std::move(e));
    } else {
      return true;
    }
  }
}

namespace {

bool IsComparatorToken(TokenType t) {
  return t == TokenType::kEq || t == TokenType::kNe || t == TokenType::kLt || t == TokenType::kLe ||
         t == TokenType::kGt || t == TokenType::kGe;
}

Comparator ToComparator(TokenType t) {
  switch (t) {
    case TokenType::kNe: return Comparator::kNe;
    case TokenType::kLt: return Comparator::kLt;
    case TokenType::kLe: return Comparator::kLe;
    case TokenType::kGt: return Comparator::kGt;
    case TokenType::kGe: return Comparator::kGe;
    default: return Comparator::kEq;
  }
}

// Either a condition or an operand: what a parenthesized group turns out to hold.
struct Term {
  bool is_condition = false;
  Condition cond;
  Operand op;
};

class ConditionParser : public ParserBase {
 public:
  using ParserBase::ParserBase;

  bool Parse(Condition& out) {
    if (!ParseOr(out)) return false;
    if (!At(TokenType::kEof)) return Fail();
    return true;
  }

 private:
  bool IsKeywordToken(const Token& t) const override {
    return t.IsKeyword("AND") || t.IsKeyword("OR") || t.IsKeyword("NOT") || t.IsKeyword("BETWEEN") ||
           t.IsKeyword("IN");
  }

  bool ParseOr(Condition& out) {
    Condition first;
    if (!ParseNot(first)) return false;
    return ParseOrRest(std::move(first), out);
  }

  // Continues an OR chain whose first NOT-level operand is already parsed.
  bool ParseOrRest(Condition first, Condition& out) {
    Condition left;
    if (!ParseAndRest(std::move(first), left)) return false;
    if (!Peek().IsKeyword("OR")) {
      out = std::move(left);
      return true;
    }
    Condition node;
    node.kind = ConditionKind::kOr;
    node.pos = left.pos;
    node.children.push_back(std::move(left));
    while (Peek().IsKeyword("OR")) {
      Next();
      Condition next;
      if (!ParseAnd(next)) return false;
      node.children.push_back(std::move(next));
    }
    out = std::move(node);
    return true;
  }

  bool ParseAnd(Condition& out) {
    Condition first;
    if (!ParseNot(first)) return false;
    return ParseAndRest(std::move(first), out);
  }

  bool ParseAndRest(Condition first, Condition& out) {
    if (!Peek().IsKeyword("AND")) {
      out = std::move(first);
      return true;
    }
    Condition node;
    node.kind = ConditionKind::kAnd;
    node.pos = first.pos;
    node.children.push_back(std::move(first));
    while (Peek().IsKeyword("AND")) {
      Next();
      Condition next;
      if (!ParseNot(next)) return false;
      node.children.push_back(std::move(next));
    }
    out = std::move(node);
    return true;
  }

  bool ParseNot(Condition& out) {
    if (!Peek().IsKeyword("NOT")) return ParseSimple(out);
    const uint32_t pos = Peek().begin;
    Next();
    if (!Enter()) return false;
    Condition inner;
    if (!ParseNot(inner)) return false;
    Leave();
    out = Condition{};
    out.kind = ConditionKind::kNot;
    out.pos = pos;
    out.children.push_back(std::move(inner));
    return true;
  }

  bool ParseSimple(Condition& out) {
    Term term;
    if (!ParsePrimary(term)) return false;
    if (term.is_condition) {
      out = std::move(term.cond);
      return true;
    }
    return ParseComparisonRest(std::move(term.op), out);
  }

  bool StartsComparison() const {
    const Token& t = Peek();
    return IsComparatorToken(t.type) || t.IsKeyword("BETWEEN") || t.IsKeyword("IN");
  }

  bool ParseComparisonRest(Operand lhs, Condition& out) {
    out = Condition{};
    out.pos = lhs.pos;
    const Token& tok = Peek();
    if (IsComparatorToken(tok.type)) {
      out.kind = ConditionKind::kCompare;
      out.comparator = ToComparator(tok.type);
      Next();
      Operand rhs;
      if (!ParseOperandParens(rhs)) return false;
      out.operands.push_back(std::move(lhs));
      out.operands.push_back(std::move(rhs));
      return true;
    }
    if (tok.IsKeyword("BETWEEN")) {
      out.kind = ConditionKind::kBetween;
      Next();
      Operand lo;
      Operand hi;
      if (!ParseOperandParens(lo)) return false;
      if (!Peek().IsKeyword("AND")) return Fail();
      Next();
      if (!ParseOperandParens(hi)) return false;
      out.operands.push_back(std::move(lhs));
      out.operands.push_back(std::move(lo));
      out.operands.push_back(std::move(hi));
      return true;
    }
    if (tok.IsKeyword("IN")) {
      out.kind = ConditionKind::kIn;
      Next();
      if (!Expect(TokenType::kLParen)) return false;
      out.operands.push_back(std::move(lhs));
      while (true) {
        Operand item;
        if (!ParseOperandParens(item)) return false;
        out.operands.push_back(std::move(item));
        if (!At(TokenType::kComma)) break;
        Next();
      }
      return Expect(TokenType::kRParen);
    }
    if (lhs.kind == OperandKind::kFunction) {
      out.kind = ConditionKind::kFunction;
      out.operands.push_back(std::move(lhs));
      return true;
    }
    return Fail();
  }

  // '(' group | operand, where the group may hold a condition or an operand.
  bool ParsePrimary(Term& term) {
    if (!At(TokenType::kLParen)) {
      term.is_condition = false;
      return ParseOperandAtom(term.op);
    }
    Next();
    if (!Enter()) return false;
    if (!ParseParenContent(term)) return false;
    if (!Expect(TokenType::kRParen)) return false;
    Leave();
    if (term.is_condition) {
      NoteParens(++term.cond.parens);
      return true;
    }
    NoteParens(++term.op.parens);
    if (term.op.kind == OperandKind::kPath && (At(TokenType::kDot) || At(TokenType::kLBracket))) {
      if (!ParsePathTail(term.op.path)) return false;
      term.op.parens = 0;
    }
    return true;
  }

  bool ParseParenContent(Term& term) {
    Condition first;
    if (Peek().IsKeyword("NOT")) {
      if (!ParseNot(first)) return false;
    } else {
      Term item;
      if (!ParsePrimary(item)) return false;
      if (item.is_condition) {
        first = std::move(item.cond);
      } else if (StartsComparison()) {
        if (!ParseComparisonRest(std::move(item.op), first)) return false;
      } else if (At(TokenType::kRParen)) {
        term = std::move(item);  // a parenthesized operand; the caller decides what it is
        return true;
      } else if (item.op.kind == OperandKind::kFunction) {
        first.kind = ConditionKind::kFunction;
        first.pos = item.op.pos;
        first.operands.push_back(std::move(item.op));
      } else {
        return Fail();
      }
    }
    term.is_condition = true;
    return ParseOrRest(std::move(first), term.cond);
  }

  // Operand positions: '(' operand ')' [path tail] | atom. Conditions are not allowed here.
  bool ParseOperandParens(Operand& op) {
    if (!At(TokenType::kLParen)) return ParseOperandAtom(op);
    Next();
    if (!Enter()) return false;
    if (!ParseOperandParens(op)) return false;
    if (!Expect(TokenType::kRParen)) return false;
    Leave();
    NoteParens(++op.parens);
    if (op.kind == OperandKind::kPath && (At(TokenType::kDot) || At(TokenType::kLBracket))) {
      if (!ParsePathTail(op.path)) return false;
      op.parens = 0;
    }
    return true;
  }

  bool ParseOperandAtom(Operand& op) {
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
        Operand arg;
        if (!ParseOperandParens(arg)) return false;
        op.args.push_back(std::move(arg));
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
};

class ProjectionParser : public ParserBase {
 public:
  using ParserBase::ParserBase;

  bool Parse(std::vector<Path>& out) {
    while (true) {
      Path path;
      if (!ParsePath(path)) return false;
      out.push_back(std::move(path));
      if (!At(TokenType::kComma)) break;
      Next();
    }
    if (!At(TokenType::kEof)) return Fail();
    return true;
  }

 private:
  bool IsKeywordToken(const Token&) const override { return false; }
};

// ---- Text-only semantic errors (DynamoDB reports them after a successful parse) ----

constexpr std::string_view kConditionFunctions[] = {"attribute_exists", "attribute_not_exists", "attribute_type",
                                                   "begins_with", "contains", "size"};

struct TextErrors {
  std::string unknown_function;
  std::string misused_function;
  std::string reserved;

  void Reserved(const Path& path) {
    if (!reserved.empty()) return;
    for (const auto& e : path.elements) {
      if (e.kind == PathElement::Kind::kName && IsReservedWord(e.text)) {
        reserved = e.text;
        return;
      }
    }
  }
  void Misused(const Operand& op) {
    if (misused_function.empty() && op.kind == OperandKind::kFunction && op.name != "size") {
      misused_function = op.name;
    }
  }
};

void WalkConditionOperand(const Operand& op, TextErrors& errors) {
  if (op.kind == OperandKind::kPath) {
    errors.Reserved(op.path);
    return;
  }
  if (op.kind != OperandKind::kFunction) return;
  for (const auto& arg : op.args) WalkConditionOperand(arg, errors);
  if (errors.unknown_function.empty() &&
      std::find(std::begin(kConditionFunctions), std::end(kConditionFunctions), op.name) ==
          std::end(kConditionFunctions)) {
    errors.unknown_function = op.name;
  }
  for (const auto& arg : op.args) errors.Misused(arg);
}

void WalkCondition(const Condition& c, TextErrors& errors) {
  if (!c.IsLeaf()) {
    for (const auto& child : c.children) WalkCondition(child, errors);
    return;
  }
  for (const auto& op : c.operands) WalkConditionOperand(op, errors);
  if (c.kind == ConditionKind::kFunction) {
    if (errors.misused_function.empty() && c.operands[0].name == "size") errors.misused_function = "size";
  } else {
    for (const auto& op : c.operands) errors.Misused(op);
  }
}

std::string Prefix(ExpressionKind kind) {
  std::string p = "Invalid ";
  p.append(ExpressionKindName(kind));
  p.append(": ");
  return p;
}

}  // namespace
}  // namespace internal

Result<ParsedExpression> ParseExpression(ExpressionKind kind, std::string_view text) {
  using namespace internal;  // NOLINT(google-build-using-namespace)
  if (text.size() > kMaxExpressionBytes) {
    return Status::Validation(Prefix(kind) +
                              "Expression size has exceeded the maximum allowed size; expression size: " +
                              std::to_string(text.size()));
  }
  if (std::all_of(text.begin(), text.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; })) {
    return Status::Validation(Prefix(kind) + "The expression can not be empty;");
  }
  ParsedExpression out;
  out.kind = kind;
  out.text = std::string(text);

  if (kind == ExpressionKind::kUpdate) {
    std::string syntax_error;
    if (!ParseUpdateInto(out.text, out, syntax_error)) return Status::Validation(Prefix(kind) + syntax_error);
    return out;
  }
  if (kind == ExpressionKind::kProjection) {
    ProjectionParser parser(out.text, out);
    if (!parser.Parse(out.projection)) return Status::Validation(Prefix(kind) + parser.ErrorDetail());
    TextErrors errors;
    for (const auto& path : out.projection) errors.Reserved(path);
    if (!errors.reserved.empty()) {
      out.early_error = "Attribute name is a reserved keyword; reserved keyword: " + errors.reserved;
    }
    return out;
  }
  ConditionParser parser(out.text, out);
  Condition cond;
  if (!parser.Parse(cond)) return Status::Validation(Prefix(kind) + parser.ErrorDetail());
  TextErrors errors;
  WalkCondition(cond, errors);
  if (parser.redundant_parens()) {
    out.early_error = "The expression has redundant parentheses;";
  } else if (!errors.unknown_function.empty()) {
    out.early_error = "Invalid function name; function: " + errors.unknown_function;
  } else if (!errors.misused_function.empty()) {
    out.early_error =
        "The function is not allowed to be used this way in an expression; function: " + errors.misused_function;
  } else if (!errors.reserved.empty()) {
    out.early_error = "Attribute name is a reserved keyword; reserved keyword: " + errors.reserved;
  }
  out.condition = std::move(cond);
  return out;
}

}  // namespace monotable::expr
