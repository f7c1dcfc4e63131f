// Lexer, parser AST shape, reserved words, parse cache.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "expr/cache.h"
#include "expr/lexer.h"
#include "expr/parser.h"
#include "expr/reserved_words.h"

namespace monotable::expr {
namespace {

std::string Types(std::string_view text) {
  std::string out;
  for (const Token& t : Tokenize(text)) {
    if (!out.empty()) out += " ";
    out += std::string(t.text) + "/" + std::to_string(static_cast<int>(t.type));
  }
  return out;
}

TEST(Lexer, Tokens) {
  auto tokens = Tokenize("a.b[12] <> #x,:v<=>=(é)_ # :");
  std::vector<TokenType> types;
  std::vector<std::string> texts;
  for (const auto& t : tokens) {
    types.push_back(t.type);
    texts.emplace_back(t.text);
  }
  EXPECT_EQ(texts, (std::vector<std::string>{"a", ".", "b", "[", "12", "]", "<>", "#x", ",", ":v", "<=", ">=", "(",
                                             "é", ")", "_", "#", ":", "<EOF>"}));
  EXPECT_EQ(types, (std::vector<TokenType>{TokenType::kName, TokenType::kDot, TokenType::kName, TokenType::kLBracket,
                                           TokenType::kNumber, TokenType::kRBracket, TokenType::kNe, TokenType::kNameRef,
                                           TokenType::kComma, TokenType::kValueRef, TokenType::kLe, TokenType::kGe,
                                           TokenType::kLParen, TokenType::kUnknown, TokenType::kRParen,
                                           TokenType::kUnknown, TokenType::kUnknown, TokenType::kUnknown, TokenType::kEof}));
  EXPECT_EQ(tokens.back().begin, 29u);  // "é" is two bytes
  EXPECT_TRUE(Tokenize("aNd")[0].IsKeyword("AND"));
  EXPECT_FALSE(Tokenize("andy")[0].IsKeyword("AND"));
  EXPECT_EQ(Tokenize("\xff").size(), 2u);       // a malformed byte is one unknown token
  EXPECT_EQ(Tokenize("\xe2\x82").size(), 3u);   // truncated sequence: byte by byte
  EXPECT_EQ(Tokenize("").size(), 1u);
  EXPECT_FALSE(Types("a1_b2 9x").empty());
}

TEST(Lexer, SyntaxErrorNearRule) {
  const std::string text = "SET MyStr = myNum Mystr2 myNum2";
  auto tokens = Tokenize(text);
  EXPECT_EQ(SyntaxErrorDetail(text, tokens, 4), R"(Syntax error; token: "Mystr2", near: "myNum Mystr2 myNum2")");
  EXPECT_EQ(SyntaxErrorDetail(text, tokens, 0), R"(Syntax error; token: "SET", near: "SET MyStr")");
  EXPECT_EQ(SyntaxErrorDetail(text, tokens, 6), R"(Syntax error; token: "<EOF>", near: "myNum2")");
  const std::string trailing = "a = ";
  EXPECT_EQ(SyntaxErrorDetail(trailing, Tokenize(trailing), 2), R"(Syntax error; token: "<EOF>", near: "= ")");
}

TEST(ReservedWords, CaseInsensitiveAndComplete) {
  EXPECT_EQ(ReservedWordCount(), 573u);
  for (const char* w : {"size", "SIZE", "Status", "abort", "zone", "ABSOLUTE", "between", "in", "value", "data", "name"}) {
    EXPECT_TRUE(IsReservedWord(w)) << w;
  }
  for (const char* w : {"banana", "remove", "sizes", "", "attribute_exists", "contains", "begins_with", "pk"}) {
    EXPECT_FALSE(IsReservedWord(w)) << w;
  }
}

TEST(Parser, PrecedenceAndShape) {
  auto p = ParseExpression(ExpressionKind::kCondition, "a = :a OR NOT b = :b AND c IN (:c, :d) OR d BETWEEN :x AND :y");
  ASSERT_TRUE(p.ok()) << p.status().message();
  const Condition& root = *p->condition;
  ASSERT_EQ(root.kind, ConditionKind::kOr);
  ASSERT_EQ(root.children.size(), 3u);
  EXPECT_EQ(root.children[0].kind, ConditionKind::kCompare);
  ASSERT_EQ(root.children[1].kind, ConditionKind::kAnd);
  EXPECT_EQ(root.children[1].children[0].kind, ConditionKind::kNot);
  EXPECT_EQ(root.children[1].children[1].kind, ConditionKind::kIn);
  EXPECT_EQ(root.children[1].children[1].operands.size(), 3u);
  EXPECT_EQ(root.children[2].kind, ConditionKind::kBetween);
  EXPECT_EQ(p->value_refs, (std::vector<std::string>{":a", ":b", ":c", ":d", ":x", ":y"}));
  EXPECT_TRUE(p->early_error.empty());
}

TEST(Parser, SlotsAreSharedPerDistinctReference) {
  auto p = ParseExpression(ExpressionKind::kUpdate, "SET #a = :v, #b.#a = :v + :w REMOVE #b[2]");
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->name_refs, (std::vector<std::string>{"#a", "#b"}));
  EXPECT_EQ(p->value_refs, (std::vector<std::string>{":v", ":w"}));
  ASSERT_EQ(p->actions.size(), 3u);
  EXPECT_EQ(p->actions[1].value.kind, OperandKind::kPlus);
  EXPECT_EQ(p->actions[2].kind, UpdateActionKind::kRemove);
  EXPECT_EQ(p->actions[2].path.elements[1].kind, PathElement::Kind::kIndex);
  EXPECT_EQ(p->actions[2].path.elements[1].slot, 2u);
}

TEST(Parser, KeywordsAreNotNamesInTheirKind) {
  EXPECT_FALSE(ParseExpression(ExpressionKind::kCondition, "and = :v").ok());
  EXPECT_TRUE(ParseExpression(ExpressionKind::kCondition, "remove = :v").ok());
  EXPECT_FALSE(ParseExpression(ExpressionKind::kUpdate, "SET remove = :v").ok());
  EXPECT_TRUE(ParseExpression(ExpressionKind::kUpdate, "SET #and = :v").ok());
  // A reserved word is parsed, then reported by the binder with priority.
  auto p = ParseExpression(ExpressionKind::kProjection, "and, or");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->early_error, "Attribute name is a reserved keyword; reserved keyword: and");
}

TEST(Cache, ReturnsTheSameOutcomeAndCachesErrors) {
  ExpressionCache cache(16, 4);
  auto a = cache.GetOrParse(ExpressionKind::kCondition, "a = :v");
  auto b = cache.GetOrParse(ExpressionKind::kCondition, std::string("a = ") + ":v");
  EXPECT_EQ(a.get(), b.get());
  auto f = cache.GetOrParse(ExpressionKind::kFilter, "a = :v");
  EXPECT_NE(a.get(), f.get());
  auto bad = cache.GetOrParse(ExpressionKind::kFilter, "a = ");
  EXPECT_FALSE(bad->status.ok());
  EXPECT_EQ(bad.get(), cache.GetOrParse(ExpressionKind::kFilter, "a = ").get());
  EXPECT_EQ(cache.hits(), 2u);
  EXPECT_EQ(cache.misses(), 3u);
  EXPECT_EQ(cache.size(), 3u);
  std::string huge(5000, ' ');
  EXPECT_FALSE(cache.GetOrParse(ExpressionKind::kFilter, huge)->status.ok());
  EXPECT_EQ(cache.size(), 3u);
}

TEST(Cache, IsBoundedAndKeepsRecentlyUsedEntries) {
  ExpressionCache cache(8, 1);
  auto hot = cache.GetOrParse(ExpressionKind::kCondition, "hot = :v");
  for (int i = 0; i < 100; ++i) {
    cache.GetOrParse(ExpressionKind::kCondition, "a" + std::to_string(i) + " = :v");
    EXPECT_EQ(cache.GetOrParse(ExpressionKind::kCondition, "hot = :v").get(), hot.get()) << i;
    EXPECT_LE(cache.size(), 8u);
  }
  // An evicted entry handed out earlier stays valid.
  auto early = ParseUncached(ExpressionKind::kCondition, "a0 = :v");
  EXPECT_TRUE(early->status.ok());
  EXPECT_EQ(early->parsed.text, "a0 = :v");
}

TEST(Cache, ConcurrentUse) {
  ExpressionCache cache(64, 8);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 2000; ++i) {
        const int k = (i * 7 + t) % 150;
        const std::string text = "attr" + std::to_string(k) + " = :v" + std::to_string(k);
        auto outcome = cache.GetOrParse(ExpressionKind::kFilter, text);
        if (!outcome->status.ok() || outcome->parsed.text != text) failures.fetch_add(1);
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_LE(cache.size(), 64u);
  EXPECT_GT(cache.hits(), 0u);
}

}  // namespace
}  // namespace monotable::expr
