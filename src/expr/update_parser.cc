// UpdateExpression grammar (see parser.h) and its text-only checks: reserved words, unknown
// functions, condition functions, nested list_append, repeated sections, in DynamoDB's priority
// order (after the operator count and path depth limits).
#include <algorithm>
#include <string>
#include <utility>

#include "expr/parser_internal.h"
#include "expr/reserved_words.h"

namespace monotable::expr::internal {
namespace {

class UpdateParser : public ParserBase {
 public:
  using ParserBase::ParserBase;

  bool Parse() {
    do {
      if (!ParseSection()) return false;
    } while (!At(TokenType::kEof));
    return true;
  }

  const std::string& repeated_section() const { return repeated_section_; }

 private:
  bool IsKeywordToken(const Token& t) const override {
    return t.IsKeyword("SET") || t.IsKeyword("REMOVE") || t.IsKeyword("ADD") || t.IsKeyword("DELETE");
  }

  bool ParseSection() {
    const Token& tok = Peek();
    UpdateActionKind kind;
    std::string_view name;
    if (tok.IsKeyword("SET")) {
      kind = UpdateActionKind::kSet;
      name = "SET";
    } else if (tok.IsKeyword("REMOVE")) {
      kind = UpdateActionKind::kRemove;
      name = "REMOVE";
    } else if (tok.IsKeyword("ADD")) {
      kind = UpdateActionKind::kAdd;
      name = "ADD";
    } else if (tok.IsKeyword("DELETE")) {
      kind = UpdateActionKind::kDelete;
      name = "DELETE";
    } else {
      return Fail();
    }
    Next();
    const auto index = static_cast<size_t>(kind);
    if (seen_[index] && repeated_section_.empty()) repeated_section_ = name;
    seen_[index] = true;
    while (true) {
      UpdateAction action;
      action.kind = kind;
      if (!ParsePath(action.path)) return false;
      if (kind == UpdateActionKind::kSet) {
        if (!Expect(TokenType::kEq)) return false;
        if (!ParseSetValue(action.value)) return false;
      } else if (kind == UpdateActionKind::kAdd || kind == UpdateActionKind::kDelete) {
        const Token& v = Peek();
        if (v.type != TokenType::kValueRef) return Fail();
        action.value.kind = OperandKind::kValue;
        action.value.name = std::string(v.text);
        action.value.value_slot = ValueSlot(v.text);
        action.value.pos = v.begin;
        Next();
      }
      out_.actions.push_back(std::move(action));
      if (!At(TokenType::kComma)) return true;
      Next();
    }
  }

  // value | '(' value ')', value := opnd [('+'|'-') opnd], opnd := '(' operand ')' | operand.
  bool ParseSetValue(Operand& out) {
    if (At(TokenType::kLParen)) {
      Next();
      Operand first;
      if (!ParseOpnd(first)) return false;
      if (At(TokenType::kPlus) || At(TokenType::kMinus)) {
        if (!ParseArithmetic(std::move(first), out)) return false;
        return Expect(TokenType::kRParen);
      }
      if (!Expect(TokenType::kRParen)) return false;
      // "(a)" was either the whole value in parentheses or the first operand of "(a) + b".
      if (At(TokenType::kPlus) || At(TokenType::kMinus)) return ParseArithmetic(std::move(first), out);
      out = std::move(first);
      return true;
    }
    Operand first;
    if (!ParseOperand(first)) return false;
    if (At(TokenType::kPlus) || At(TokenType::kMinus)) return ParseArithmetic(std::move(first), out);
    out = std::move(first);
    return true;
  }

  bool ParseArithmetic(Operand first, Operand& out) {
    out = Operand{};
    out.kind = At(TokenType::kPlus) ? OperandKind::kPlus : OperandKind::kMinus;
    out.pos = Peek().begin;
    Next();
    CountOperator();
    Operand second;
    if (!ParseOpnd(second)) return false;
    out.args.push_back(std::move(first));
    out.args.push_back(std::move(second));
    return true;
  }

  bool ParseOpnd(Operand& op) {
    if (!At(TokenType::kLParen)) return ParseOperand(op);
    Next();
    if (!ParseOperand(op)) return false;
    ++op.parens;
    return Expect(TokenType::kRParen);
  }

  bool ParseOperand(Operand& op) {
    return ParseOperandAtom(op, [this](Operand& arg) { return ParseOpnd(arg); });
  }

  bool seen_[4] = {false, false, false, false};
  std::string repeated_section_;
};

bool IsConditionFunction(std::string_view name) {
  return name == "attribute_exists" || name == "attribute_not_exists" || name == "attribute_type" ||
         name == "begins_with" || name == "contains" || name == "size";
}

struct UpdateTextErrors {
  std::string reserved;
  std::string unknown_function;
  std::string condition_function;  // known, but only allowed in conditions
  std::string misused_function;    // list_append directly inside list_append

  void Path(const struct Path& path) {
    if (!reserved.empty()) return;
    for (const auto& e : path.elements) {
      if (e.kind == PathElement::Kind::kName && IsReservedWord(e.text)) {
        reserved = e.text;
        return;
      }
    }
  }
  void Walk(const Operand& op) {
    if (op.kind == OperandKind::kPath) {
      Path(op.path);
      return;
    }
    for (const auto& arg : op.args) Walk(arg);
    if (op.kind != OperandKind::kFunction) return;
    if (op.name == "list_append") {
      for (const auto& arg : op.args) {
        if (misused_function.empty() && arg.kind == OperandKind::kFunction && arg.name == "list_append") {
          misused_function = arg.name;
        }
      }
    } else if (IsConditionFunction(op.name)) {
      if (condition_function.empty()) condition_function = op.name;
    } else if (op.name != "if_not_exists" && unknown_function.empty()) {
      unknown_function = op.name;
    }
  }
};

}  // namespace

bool ParseUpdateInto(std::string_view text, ParsedExpression& out, std::string& error) {
  UpdateParser parser(text, out);
  if (!parser.Parse()) {
    error = parser.ErrorDetail();
    return false;
  }
  error = LimitErrorDetail(out, parser.operators());
  if (!error.empty()) return false;
  UpdateTextErrors errors;
  for (const auto& action : out.actions) {
    errors.Path(action.path);
    if (action.kind == UpdateActionKind::kSet) errors.Walk(action.value);
  }
  if (!errors.reserved.empty()) {
    out.early_error = "Attribute name is a reserved keyword; reserved keyword: " + errors.reserved;
  } else if (!errors.unknown_function.empty()) {
    out.early_error = "Invalid function name; function: " + errors.unknown_function;
  } else if (!errors.condition_function.empty()) {
    out.early_error = "The function is not allowed in an update expression; function: " + errors.condition_function;
  } else if (!errors.misused_function.empty()) {
    out.early_error =
        "The function is not allowed to be used this way in an expression; function: " + errors.misused_function;
  } else if (!parser.repeated_section().empty()) {
    out.early_error = "The \"" + parser.repeated_section() + "\" section can only be used once in an update expression;";
  }
  return true;
}

}  // namespace monotable::expr::internal
