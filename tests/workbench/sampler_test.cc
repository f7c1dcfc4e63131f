// Sample data: every generated key has its template's shape, the data keeps the model's
// proportions, and item i can be rebuilt from the seed (what `model verify` relies on).
#include "workbench/sampler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "workbench/language.h"
#include "workbench/parser.h"

namespace monotable::workbench {
namespace {

TEST(Sampler, GeneratedKeysMatchTheirTemplatesInEveryExample) {
  int checked = 0;
  for (const auto& file : std::filesystem::directory_iterator(MONOTABLE_SOURCE_DIR "/examples/models")) {
    auto model = LoadModelFile(file.path().string());
    ASSERT_TRUE(model.ok()) << file.path() << ": " << model.status().message();
    Sampler sampler(*model, 500, 0, 7);
    for (const auto& e : model->entities) {
      for (int64_t i = 0; i < std::min<int64_t>(50, sampler.Items(e)); ++i) {
        PoolIndexes idx = sampler.ItemIndexes(e, i);
        for (const auto& [attr, t] : e.keys) {
          std::string value = sampler.Render(t, e, idx);
          EXPECT_TRUE(TemplateMatches(t, e, value)) << file.path() << " " << e.name << "." << attr << " = " << value;
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 500);
}

TEST(Sampler, ScalesTheModelAndRebuildsItems) {
  auto model = ParseModel(R"(
version: 1
tables: [{name: T, partitionKey: PK, sortKey: SK}]
entities:
  User: {count: 1000, keys: {PK: "USER#{userId}", SK: "PROFILE"}}
  Post:
    count: 100000
    keys: {PK: "USER#{userId}", SK: "POST#{at:iso8601}#{postId}"}
    attributes: {kind: {type: string, values: [A, B, C]}}
)");
  ASSERT_TRUE(model.ok()) << model.status().message();
  Sampler a(*model, 2000, 0, 11);
  const EntityDef& user = *model->FindEntity("User");
  const EntityDef& post = *model->FindEntity("Post");
  EXPECT_EQ(a.Items(post), 2000);
  EXPECT_EQ(a.Items(user), 20);               // 1,000 x 2,000 / 100,000
  EXPECT_EQ(a.PoolSize(post, "userId"), 20);  // posts point at the seeded users
  EXPECT_EQ(a.PoolSize(post, "kind"), 3);     // small enumerations stay whole
  Sampler b(*model, 2000, 0, 11);
  for (int64_t i : {0, 5, 1999}) EXPECT_EQ(a.ItemIndexes(post, i), b.ItemIndexes(post, i));
  EXPECT_EQ(a.Render(*post.Key("SK"), post, a.ItemIndexes(post, 3)).substr(0, 5), "POST#");
  std::string json = a.ItemJson(user, a.ItemIndexes(user, 4));
  EXPECT_NE(json.find("\"PK\":{\"S\":\"USER#u4\"}"), std::string::npos) << json;
}

TEST(Sampler, ANumberKeysPlaceholderWithoutAnAttributeIsANumber) {
  auto model = ParseModel(R"(
version: 1
tables:
  - name: T
    partitionKey: PK
    sortKey: SK
    localSecondaryIndexes: [{name: byDue, sortKey: {name: dueAt, type: N}}]
entities:
  Loan: {keys: {PK: "MEMBER#{memberId}", SK: "LOAN#{loanId}", dueAt: "{dueAt}"}}
)");
  ASSERT_TRUE(model.ok()) << model.status().message();
  Sampler s(*model, 10, 0, 3);
  const EntityDef& loan = *model->FindEntity("Loan");
  PoolIndexes idx = s.ItemIndexes(loan, 2);
  std::string due = s.Render(*loan.Key("dueAt"), loan, idx);
  EXPECT_FALSE(due.empty());
  EXPECT_TRUE(std::all_of(due.begin(), due.end(), [](char c) { return c >= '0' && c <= '9'; })) << due;
  std::string json = s.ItemJson(loan, idx);
  EXPECT_NE(json.find("\"dueAt\":{\"N\":\"" + due + "\"}"), std::string::npos) << json;
  EXPECT_EQ(s.Render(*loan.Key("SK"), loan, idx).substr(0, 6), "LOAN#l");  // strings stay ids
}

}  // namespace
}  // namespace monotable::workbench
