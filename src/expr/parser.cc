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

// The condition grammar. Nodes are built in place (a child is appended to its parent and parsed
// into directly), so a recursion level keeps no AST node on the stack: the deepest inputs the 4 KB
// limit allows (thousands of open parentheses or nested calls) need only a few hundred KB of stack.
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
    if (!ParseNot(out)) return false;
    return ParseOrRest(out);
  }

  // Continues an OR chain whose first NOT-level operand is already parsed into `out`.
  bool ParseOrRest(Condition& out) {
    if (!ParseAndRest(out)) return false;
    if (!Peek().IsKeyword("OR")) return true;
    Wrap(ConditionKind::kOr, out);
    while (Peek().IsKeyword("OR")) {
      Next();
      CountOperator();
      if (!ParseAnd(out.children.emplace_back())) return false;
    }
    return true;
  }

  bool ParseAnd(Condition& out) {
    if (!ParseNot(out)) return false;
    return ParseAndRest(out);
  }

  // Continues an AND chain whose first NOT-level operand is already parsed into `out`.
  bool ParseAndRest(Condition& out) {
    if (!Peek().IsKeyword("AND")) return true;
    Wrap(ConditionKind::kAnd, out);
    while (Peek().IsKeyword("AND")) {
      Next();
      CountOperator();
      if (!ParseNot(out.children.emplace_back())) return false;
    }
    return true;
  }

  // Turns `node` into a kind node (AND / OR) whose first child is what `node` was.
  static void Wrap(ConditionKind kind, Condition& node) {
    Condition first = std::move(node);
    node = Condition{};
    node.kind = kind;
    node.pos = first.pos;
    node.children.push_back(std::move(first));
  }

  bool ParseNot(Condition& out) {
    if (!Peek().IsKeyword("NOT")) return ParseSimple(out);
    out.kind = ConditionKind::kNot;
    out.pos = Peek().begin;
    Next();
    CountOperator();
    if (!Enter()) return false;
    if (!ParseNot(out.children.emplace_back())) return false;
    Leave();
    return true;
  }

  bool ParseSimple(Condition& out) {
    bool is_condition = false;
    if (!ParsePrimary(out, is_condition)) return false;
    if (is_condition) return true;
    return ParseComparisonRest(out);
  }

  bool StartsComparison() const {
    const Token& t = Peek();
    return IsComparatorToken(t.type) || t.IsKeyword("BETWEEN") || t.IsKeyword("IN");
  }

  // `out` holds only its left operand (operands[0]); parses the rest of the comparison, BETWEEN,
  // IN, or takes a lone function call as the condition.
  bool ParseComparisonRest(Condition& out) {
    out.pos = out.operands[0].pos;
    const Token& tok = Peek();
    if (IsComparatorToken(tok.type)) {
      out.kind = ConditionKind::kCompare;
      out.comparator = ToComparator(tok.type);
      Next();
      CountOperator();
      return ParseOperandParens(out.operands.emplace_back());
    }
    if (tok.IsKeyword("BETWEEN")) {
      out.kind = ConditionKind::kBetween;
      Next();
      CountOperator();
      if (!ParseOperandParens(out.operands.emplace_back())) return false;
      if (!Peek().IsKeyword("AND")) return Fail();
      Next();
      return ParseOperandParens(out.operands.emplace_back());
    }
    if (tok.IsKeyword("IN")) {
      out.kind = ConditionKind::kIn;
      Next();
      CountOperator();
      if (!Expect(TokenType::kLParen)) return false;
      while (true) {
        if (!ParseOperandParens(out.operands.emplace_back())) return false;
        if (!At(TokenType::kComma)) break;
        Next();
      }
      return Expect(TokenType::kRParen);
    }
    if (out.operands[0].kind == OperandKind::kFunction) {
      out.kind = ConditionKind::kFunction;
      return true;
    }
    return Fail();
  }

  // '(' group | operand. `out` is fresh. A group may hold a condition (is_condition: `out` is that
  // condition) or an operand; an operand ends up as out.operands[0], the rest of `out` untouched.
  bool ParsePrimary(Condition& out, bool& is_condition) {
    if (!At(TokenType::kLParen)) {
      is_condition = false;
      return ParseOperandAtom(out.operands.emplace_back());
    }
    Next();
    if (!Enter()) return false;
    if (!ParseParenContent(out, is_condition)) return false;
    if (!Expect(TokenType::kRParen)) return false;
    Leave();
    if (is_condition) {
      NoteParens(++out.parens);
      return true;
    }
    Operand& op = out.operands[0];
    NoteParens(++op.parens);
    if (op.kind == OperandKind::kPath && (At(TokenType::kDot) || At(TokenType::kLBracket))) {
      if (!ParsePathTail(op.path)) return false;
      op.parens = 0;
    }
    return true;
  }

  bool ParseParenContent(Condition& out, bool& is_condition) {
    if (Peek().IsKeyword("NOT")) {
      if (!ParseNot(out)) return false;
    } else {
      bool item_is_condition = false;
      if (!ParsePrimary(out, item_is_condition)) return false;
      if (!item_is_condition) {
        if (StartsComparison()) {
          if (!ParseComparisonRest(out)) return false;
        } else if (At(TokenType::kRParen)) {
          is_condition = false;  // a parenthesized operand; the caller decides what it is
          return true;
        } else if (out.operands[0].kind == OperandKind::kFunction) {
          out.kind = ConditionKind::kFunction;
          out.pos = out.operands[0].pos;
        } else {
          return Fail();
        }
      }
    }
    is_condition = true;
    return ParseOrRest(out);
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
    return ParserBase::ParseOperandAtom(op, [this](Operand& arg) { return ParseOperandParens(arg); });
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

bool IsUpdateFunction(std::string_view name) { return name == "if_not_exists" || name == "list_append"; }

struct TextErrors {
  std::string unknown_function;
  std::string update_function;  // if_not_exists / list_append, known but not allowed in a condition
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
  if (IsUpdateFunction(op.name)) {
    if (errors.update_function.empty()) errors.update_function = op.name;
  } else if (errors.unknown_function.empty() &&
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

// Element count of the first path (in text order) deeper than kMaxPathDepth, or 0.
size_t TooDeep(const Path& path) { return path.elements.size() > kMaxPathDepth ? path.elements.size() : 0; }

size_t TooDeep(const Operand& op) {
  if (op.kind == OperandKind::kPath) return TooDeep(op.path);
  for (const auto& arg : op.args) {
    if (size_t n = TooDeep(arg)) return n;
  }
  return 0;
}

size_t TooDeep(const Condition& c) {
  for (const auto& child : c.children) {
    if (size_t n = TooDeep(child)) return n;
  }
  for (const auto& op : c.operands) {
    if (size_t n = TooDeep(op)) return n;
  }
  return 0;
}

std::string Prefix(ExpressionKind kind) {
  std::string p = "Invalid ";
  p.append(ExpressionKindName(kind));
  p.append(": ");
  return p;
}

}  // namespace

std::string LimitErrorDetail(const ParsedExpression& parsed, int operators) {
  if (operators > kMaxOperators) {
    // DynamoDB stops counting at the first operator over the limit, so the count is always 301.
    return "The expression contains too many operators; operator count: " + std::to_string(kMaxOperators + 1);
  }
  size_t levels = 0;
  if (parsed.condition) levels = TooDeep(*parsed.condition);
  for (size_t i = 0; levels == 0 && i < parsed.projection.size(); ++i) levels = TooDeep(parsed.projection[i]);
  for (size_t i = 0; levels == 0 && i < parsed.actions.size(); ++i) {
    levels = TooDeep(parsed.actions[i].path);
    if (levels == 0 && parsed.actions[i].kind == UpdateActionKind::kSet) levels = TooDeep(parsed.actions[i].value);
  }
  if (levels == 0) return {};
  return "The document path has too many nesting levels; nesting levels: " + std::to_string(levels);
}

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
    std::string error;
    if (!ParseUpdateInto(out.text, out, error)) return Status::Validation(Prefix(kind) + error);
    return out;
  }
  if (kind == ExpressionKind::kProjection) {
    ProjectionParser parser(out.text, out);
    if (!parser.Parse(out.projection)) return Status::Validation(Prefix(kind) + parser.ErrorDetail());
    if (std::string limit = LimitErrorDetail(out, 0); !limit.empty()) {
      return Status::Validation(Prefix(kind) + limit);
    }
    TextErrors errors;
    for (const auto& path : out.projection) errors.Reserved(path);
    if (!errors.reserved.empty()) {
      out.early_error = "Attribute name is a reserved keyword; reserved keyword: " + errors.reserved;
    }
    return out;
  }
  ConditionParser parser(out.text, out);
  out.condition.emplace();
  Condition& cond = *out.condition;
  if (!parser.Parse(cond)) return Status::Validation(Prefix(kind) + parser.ErrorDetail());
  if (std::string limit = LimitErrorDetail(out, parser.operators()); !limit.empty()) {
    return Status::Validation(Prefix(kind) + limit);
  }
  TextErrors errors;
  WalkCondition(cond, errors);
  if (parser.redundant_parens()) {
    out.early_error = "The expression has redundant parentheses;";
  } else if (!errors.unknown_function.empty()) {
    out.early_error = "Invalid function name; function: " + errors.unknown_function;
  } else if (!errors.update_function.empty()) {
    out.early_error = "The function is not allowed in a condition expression; function: " + errors.update_function;
  } else if (!errors.misused_function.empty()) {
    out.early_error =
        "The function is not allowed to be used this way in an expression; function: " + errors.misused_function;
  } else if (!errors.reserved.empty()) {
    out.early_error = "Attribute name is a reserved keyword; reserved keyword: " + errors.reserved;
  }
  return out;
}

}  // namespace monotable::expr
