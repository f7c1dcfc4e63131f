#include "workbench/key_template.h"

#include <gtest/gtest.h>

#include "workbench/language.h"
#include "workbench/parser.h"

namespace monotable::workbench {
namespace {

TEST(KeyTemplate, ParsesLiteralsPlaceholdersAndFormats) {
  auto t = ParseKeyTemplate("ORDER#{createdAt:iso8601}#{orderId}");
  ASSERT_TRUE(t.ok()) << t.status().message();
  ASSERT_EQ(t->segments.size(), 4u);
  EXPECT_FALSE(t->segments[0].variable);
  EXPECT_EQ(t->segments[0].text, "ORDER#");
  EXPECT_TRUE(t->segments[1].variable);
  EXPECT_EQ(t->segments[1].text, "createdAt");
  EXPECT_EQ(t->segments[1].format, "iso8601");
  EXPECT_EQ(t->Text(), "ORDER#{createdAt:iso8601}#{orderId}");
  EXPECT_EQ(t->Variables(), (std::vector<std::string>{"createdAt", "orderId"}));
  EXPECT_EQ(t->LiteralPrefix(), "ORDER#");
}

TEST(KeyTemplate, RejectsBadTemplates) {
  EXPECT_FALSE(ParseKeyTemplate("").ok());
  EXPECT_FALSE(ParseKeyTemplate("USER#{id").ok());
  EXPECT_FALSE(ParseKeyTemplate("USER#{}").ok());
  EXPECT_FALSE(ParseKeyTemplate("USER#}").ok());
  auto bad = ParseKeyTemplate("R#{rating:pad}");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("unknown format"), std::string::npos);
  EXPECT_TRUE(ParseKeyTemplate("R#{rating:pad8}").ok());
  EXPECT_FALSE(ParseKeyTemplate("R#{rating:pad39}").ok());
  auto braces = ParseKeyTemplate("A{{B}}");
  ASSERT_TRUE(braces.ok());
  EXPECT_EQ(braces->segments[0].text, "A{B}");
  EXPECT_EQ(braces->Text(), "A{{B}}");
}

TEST(KeyTemplate, BuildableAndCommonPrefixes) {
  auto t = *ParseKeyTemplate("ORDER#{orderId}#ITEM#{itemId}");
  bool complete = true;
  EXPECT_EQ(t.BuildablePrefix({"orderId"}, &complete).Text(), "ORDER#{orderId}#ITEM#");
  EXPECT_FALSE(complete);
  EXPECT_EQ(t.BuildablePrefix({"orderId", "itemId"}, &complete).Text(), t.Text());
  EXPECT_TRUE(complete);
  EXPECT_EQ(t.BuildablePrefix({}, &complete).Text(), "ORDER#");
  auto u = *ParseKeyTemplate("ORDER#{orderId}");
  EXPECT_EQ(KeyTemplate::CommonPrefix(t, u).Text(), "ORDER#{orderId}");
  EXPECT_EQ(KeyTemplate::CommonPrefix(*ParseKeyTemplate("PROFILE"), *ParseKeyTemplate("POST#")).Text(), "P");
}

EntityDef Entity() {
  EntityDef e;
  e.name = "E";
  AttributeDef rating;
  rating.name = "rating";
  rating.kind = AttrKind::kNumber;
  e.attributes.push_back(rating);
  return e;
}

bool Meet(const std::string& a, const std::string& b, bool prefix_a = false) {
  EntityDef e = Entity();
  auto ta = *ParseKeyTemplate(a);
  auto tb = *ParseKeyTemplate(b);
  return Intersects(prefix_a ? PrefixLanguage(ta, e) : TemplateLanguage(ta, e), TemplateLanguage(tb, e));
}

TEST(Language, IntersectionIsExactForTemplates) {
  EXPECT_TRUE(Meet("USER#{userId}", "USER#{id}"));
  EXPECT_FALSE(Meet("USER#{userId}", "ORDER#{id}"));
  EXPECT_FALSE(Meet("ORDER#", "ORDERITEM#{id}", true));  // the delimiter keeps them apart
  EXPECT_TRUE(Meet("ORDER", "ORDERITEM#{id}", true));    // without it the prefix bleeds
  EXPECT_TRUE(Meet("MODULE#", "MODULE#{m}#LESSON#{l}", true));
  EXPECT_FALSE(Meet("MODULE#{m}#", "MODULE#{x}", true));  // ids have no '#'
  EXPECT_TRUE(Meet("{a}", "{b}#{c}") == false);           // '#' only from a literal
  EXPECT_TRUE(Meet("{a}#{b}", "X#Y"));
  EXPECT_FALSE(Meet("T#{t:iso8601}", "T#2024"));  // iso8601 is 20 characters
  EXPECT_TRUE(Meet("T#{t:iso8601}", "T#2024-01-15T10:00:00Z"));
  EXPECT_FALSE(Meet("R#{rating:pad4}", "R#12345"));
  EXPECT_TRUE(Meet("R#{rating}", "R#12345"));
  EXPECT_FALSE(Meet("R#{rating}", "R#abc"));  // numbers render digits
}

}  // namespace
}  // namespace monotable::workbench
