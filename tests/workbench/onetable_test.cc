// OneTable schemas: import (value templates -> key templates), export, round trip.
#include "workbench/onetable.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "workbench/check.h"
#include "workbench/nosql_workbench.h"
#include "workbench/parser.h"

namespace monotable::workbench {
namespace {

// Written here in the documented shape of a OneTable schema.
const char* kSchema = R"({
  "version": "0.1.0",
  "format": "onetable:1.1.0",
  "indexes": {
    "primary": {"hash": "pk", "sort": "sk"},
    "gs1": {"hash": "gs1pk", "sort": "gs1sk", "project": ["name"]},
    "ls1": {"sort": "ls1sk", "type": "local", "project": "keys"}
  },
  "params": {"isoDates": true},
  "models": {
    "Account": {
      "pk": {"type": "string", "value": "account#${id}"},
      "sk": {"type": "string", "value": "account#"},
      "id": {"type": "string"},
      "name": {"type": "string"},
      "gs1pk": {"type": "string", "value": "account-name#${name}"},
      "gs1sk": {"type": "string", "value": "account#"}
    },
    "User": {
      "pk": {"type": "string", "value": "account#${accountId}"},
      "sk": {"type": "string", "value": "user#${email}"},
      "gs1pk": {"type": "string", "value": "rank#${accountId}"},
      "gs1sk": {"type": "string", "value": "balance#${balance:10}#${email:4:x}"},
      "ls1sk": {"type": "string", "value": "user-created#${created}"},
      "accountId": {"type": "string"},
      "email": {"type": "string"},
      "role": {"type": "string", "enum": ["user", "admin"]},
      "created": {"type": "date"},
      "balance": {"type": "number"}
    }
  }
})";

TEST(OneTable, ImportKeepsIndexesAndValueTemplates) {
  auto m = ImportOneTable(kSchema, "Accounts");
  ASSERT_TRUE(m.ok()) << m.status().message();
  const TableDef& t = m->tables[0];
  EXPECT_EQ(t.name, "Accounts");
  EXPECT_EQ(t.partition_key.name, "pk");
  ASSERT_EQ(t.indexes.size(), 2u);
  EXPECT_TRUE(t.indexes[0].global);
  EXPECT_EQ(t.indexes[0].include, std::vector<std::string>{"name"});
  EXPECT_FALSE(t.indexes[1].global);
  EXPECT_EQ(t.indexes[1].partition_key.name, "pk");
  EXPECT_EQ(t.indexes[1].projection, ProjectionKind::kKeysOnly);
  const EntityDef* user = m->FindEntity("User");
  ASSERT_NE(user, nullptr);
  EXPECT_EQ(user->Key("sk")->Text(), "user#{email}");
  EXPECT_EQ(user->Key("ls1sk")->Text(), "user-created#{created}");
  EXPECT_EQ(user->FindAttribute("created")->kind, AttrKind::kTimestamp);
  EXPECT_EQ(user->FindAttribute("role")->values.size(), 2u);
  EXPECT_EQ(m->FindEntity("Account")->Key("sk")->Text(), "account#");
  // ${x:10} pads with zeros (padN); another pad character has no equivalent and is dropped.
  EXPECT_EQ(user->Key("gs1sk")->Text(), "balance#{balance:pad10}#{email}");
}

TEST(OneTable, ImportRejectsWhatIsNotASchema) {
  EXPECT_FALSE(ImportOneTable("[", "T").ok());
  EXPECT_FALSE(ImportOneTable(R"({"models": {}})", "T").ok());
  auto no_sort = ImportOneTable(R"({"indexes": {"primary": {"hash": "pk", "sort": "sk"}},
                                   "models": {"A": {"pk": {"type": "string", "value": "a#${x}"}}}})",
                                "T");
  ASSERT_FALSE(no_sort.ok());
  EXPECT_NE(no_sort.status().message().find("models.A"), std::string::npos) << no_sort.status().message();
}

TEST(OneTable, PaddingSurvivesTheRoundTrip) {
  auto original = LoadModelFile(MONOTABLE_SOURCE_DIR "/examples/models/leaderboard.yaml");
  ASSERT_TRUE(original.ok());
  std::string schema = ExportOneTable(*original, 0);
  EXPECT_NE(schema.find("RATING#${rating:8:0}#${playerId}"), std::string::npos) << schema;
  auto back = ImportOneTable(schema, "Game");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->FindEntity("Score")->Key("LBSK")->Text(), "RATING#{rating:pad8}#{playerId}");
}

TEST(OneTable, ExportThenImportKeepsTheDesign) {
  auto original = LoadModelFile(MONOTABLE_SOURCE_DIR "/examples/models/adjacency.yaml");
  ASSERT_TRUE(original.ok());
  std::string schema = ExportOneTable(*original, 0);
  EXPECT_NE(schema.find("\"value\": \"GROUP#${groupId}\""), std::string::npos) << schema;
  auto back = ImportOneTable(schema, "Social");
  ASSERT_TRUE(back.ok()) << back.status().message();
  for (const auto& e : original->entities) {
    for (const auto& [attr, t] : e.keys) {
      ASSERT_NE(back->FindEntity(e.name), nullptr);
      EXPECT_EQ(back->FindEntity(e.name)->Key(attr)->Text(), t.Text()) << e.name << "." << attr;
    }
  }
  EXPECT_EQ(back->entities.size(), original->entities.size());
}

// A full schema in the shape OneTable documents (format onetable:1.1.0: indexes with project all,
// a list and keys, a local index, params with isoDates, timestamps and typeField, fields with
// generate, validate, enum, default, hidden, crypt, map, nested object and array schemas, a TTL),
// written by hand: tests/workbench/models/onetable.
TEST(OneTable, ImportsAFullSchema) {
  std::ifstream in(MONOTABLE_SOURCE_DIR "/tests/workbench/models/onetable/saas-crm.json");
  std::stringstream text;
  text << in.rdbuf();
  auto m = ImportOneTable(text.str(), "Crm");
  ASSERT_TRUE(m.ok()) << m.status().message();
  const TableDef& t = m->tables[0];
  ASSERT_EQ(t.indexes.size(), 3u);
  EXPECT_EQ(t.indexes[0].projection, ProjectionKind::kAll);
  EXPECT_EQ(t.indexes[1].projection, ProjectionKind::kInclude);
  EXPECT_EQ(t.indexes[2].projection, ProjectionKind::kKeysOnly);
  EXPECT_FALSE(t.indexes[2].global);
  EXPECT_EQ(t.indexes[2].partition_key.name, "pk");
  ASSERT_EQ(m->entities.size(), 4u);
  const EntityDef* user = m->FindEntity("User");
  const EntityDef* invoice = m->FindEntity("Invoice");
  const EntityDef* account = m->FindEntity("Account");
  ASSERT_TRUE(user && invoice && account);
  EXPECT_EQ(user->Key("ls1sk")->Text(), "user-role#{role}#{email}");
  EXPECT_EQ(invoice->Key("gs2sk")->Text(), "invoice#{number:pad10}");
  EXPECT_EQ(invoice->Key("ls1sk")->Text(), "invoice-date#{date}");
  EXPECT_EQ(account->Key("gs1sk")->Text(), "account#");
  // name and phone are packed into the map `data`; the item holds no `name` attribute.
  ASSERT_NE(user->FindAttribute("data"), nullptr);
  EXPECT_EQ(user->FindAttribute("data")->kind, AttrKind::kMap);
  EXPECT_EQ(user->FindAttribute("name"), nullptr);
  EXPECT_EQ(user->FindAttribute("phone"), nullptr);
  EXPECT_EQ(account->FindAttribute("id")->length, 26);  // generate: ulid
  EXPECT_EQ(account->FindAttribute("id")->letter_case, "upper");
  EXPECT_EQ(m->FindEntity("Session")->FindAttribute("token")->length, 36);  // generate: uuid
  EXPECT_EQ(invoice->FindAttribute("date")->format, "iso8601");             // params.isoDates
  EXPECT_EQ(invoice->FindAttribute("lines")->kind, AttrKind::kList);
  EXPECT_EQ(account->FindAttribute("address")->kind, AttrKind::kMap);
  EXPECT_EQ(invoice->FindAttribute("status")->values.size(), 4u);
  // What OneTable writes into every item: the type field and the timestamps.
  EXPECT_EQ(invoice->FindAttribute("_type")->values, std::vector<std::string>{"Invoice"});
  EXPECT_EQ(invoice->FindAttribute("createdAt")->kind, AttrKind::kTimestamp);
  EXPECT_EQ(invoice->FindAttribute("updatedAt")->format, "iso8601");
  EXPECT_FALSE(RunChecks(*m).Failed());
  // The model file it prints reads back with the same attributes.
  auto back = ParseModel(ModelToJson(*m));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->FindEntity("Account")->FindAttribute("id")->length, 26);
  EXPECT_EQ(back->FindEntity("User")->FindAttribute("data")->kind, AttrKind::kMap);
}

TEST(OneTable, WithoutParamsTheTypeFieldIsStillWrittenAndDatesAreEpochMilliseconds) {
  auto m = ImportOneTable(R"({"indexes": {"primary": {"hash": "pk"}},
                              "models": {"Event": {"pk": {"type": "String", "value": "event#${id}"},
                                                   "id": {"type": "String"}, "at": {"type": "Date"}}}})",
                          "Events");
  ASSERT_TRUE(m.ok()) << m.status().message();
  const EntityDef& e = m->entities[0];
  EXPECT_EQ(e.FindAttribute("at")->kind, AttrKind::kTimestamp);  // type names in any case
  EXPECT_EQ(e.FindAttribute("at")->format, "epoch-ms");
  EXPECT_EQ(e.FindAttribute("_type")->values, std::vector<std::string>{"Event"});
  EXPECT_EQ(e.FindAttribute("created"), nullptr);  // no timestamps without params.timestamps
}


// Found on real schemas (issue 42): OneTable writes the model's name into the type field, so
// `${_type}` in a key value is that name, a literal, not an input. Read as a placeholder it made
// every pattern on such keys unbuildable and hid the single partition of `${_type}#`.
TEST(OneTable, TheTypeFieldInAKeyValueIsTheModelName) {
  auto m = ImportOneTable(R"({"indexes": {"primary": {"hash": "pk", "sort": "sk"}},
                              "models": {
                                "Team": {"pk": {"type": "string", "value": "${_type}#${teamId}"},
                                         "sk": {"type": "string", "value": "${_type}#"},
                                         "teamId": {"type": "string"}},
                                "Member": {"pk": {"type": "string", "value": "${_type}#"},
                                           "sk": {"type": "string", "value": "${_type}#${memberId}#${_type}"},
                                           "memberId": {"type": "string"}}}})",
                          "Clubs");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->FindEntity("Team")->Key("pk")->Text(), "Team#{teamId}");
  EXPECT_EQ(m->FindEntity("Team")->Key("sk")->Text(), "Team#");
  EXPECT_EQ(m->FindEntity("Member")->Key("pk")->Text(), "Member#");
  EXPECT_EQ(m->FindEntity("Member")->Key("sk")->Text(), "Member#{memberId}#Member");

  // A schema naming its own type field: that name is replaced, `_type` is then an attribute.
  auto custom = ImportOneTable(R"({"indexes": {"primary": {"hash": "pk"}},
                                   "params": {"typeField": "kind"},
                                   "models": {"Note": {"pk": {"type": "string", "value": "${kind}:${_type}:${noteId}"},
                                                       "noteId": {"type": "string"}}}})",
                               "Notes");
  ASSERT_TRUE(custom.ok()) << custom.status().message();
  EXPECT_EQ(custom->entities[0].Key("pk")->Text(), "Note:{_type}:{noteId}");
}

}  // namespace
}  // namespace monotable::workbench
