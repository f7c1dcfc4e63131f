// DynamoDB-Toolbox DTO import: tables, entities, key templates, warnings for what code computes.
#include "workbench/dynamodb_toolbox.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "workbench/check.h"
#include "workbench/nosql_workbench.h"
#include "workbench/parser.h"

namespace monotable::workbench {
namespace {

// Written here in the shape DynamoDB-Toolbox v2's table.build(TableDTO) / entity.build(EntityDTO) give.
std::string Fixture(const std::string& name) {
  std::ifstream in(MONOTABLE_SOURCE_DIR "/tests/workbench/models/dynamodb-toolbox/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Result<ToolboxImport> ImportFixtures() {
  return ImportDynamoDbToolbox({{"table.json", Fixture("table.json")}, {"entities.json", Fixture("entities.json")}},
                               "Default");
}

const Finding* Warning(const ToolboxImport& r, const std::string& code, const std::string& entity,
                       const std::string& text) {
  for (const auto& f : r.findings)
    if (f.code == code && f.subject == entity && f.message.find(text) != std::string::npos &&
        f.severity == Severity::kWarning)
      return &f;
  return nullptr;
}

TEST(DynamoDbToolbox, TableDtoGivesKeysAndIndexes) {
  auto r = ImportFixtures();
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->model.tables.size(), 1u);
  const TableDef& t = r->model.tables[0];
  EXPECT_EQ(t.name, "Shop");
  EXPECT_EQ(t.partition_key.name, "pk");
  ASSERT_TRUE(t.sort_key);
  EXPECT_EQ(t.sort_key->name, "sk");
  ASSERT_EQ(t.indexes.size(), 2u);
  EXPECT_EQ(t.indexes[0].name, "byEmail");
  EXPECT_TRUE(t.indexes[0].global);
  EXPECT_EQ(t.indexes[0].partition_key.name, "gsi1pk");
  EXPECT_EQ(t.indexes[1].name, "byCreated");
  EXPECT_FALSE(t.indexes[1].global);
  EXPECT_EQ(t.indexes[1].partition_key.name, "pk");
  EXPECT_EQ(t.indexes[1].sort_key->type, 'N');
}

TEST(DynamoDbToolbox, EntityKeysFromPrefixesDefaultsAndSavedAs) {
  auto r = ImportFixtures();
  ASSERT_TRUE(r.ok()) << r.status().message();
  const EntityDef* c = r->model.FindEntity("Customer");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->Key("pk")->Text(), "CUSTOMER#{customerId}");  // prefix transformer, savedAs pk
  EXPECT_EQ(c->Key("sk")->Text(), "PROFILE");                // keyDefault value
  EXPECT_EQ(c->Key("gsi1pk")->Text(), "{email}");            // savedAs an index key
  EXPECT_EQ(c->Key("gsi1sk")->Text(), "{gsi1sk}");           // linked: placeholder + warning
  EXPECT_NE(Warning(*r, "import.key-template", "Customer", "gsi1sk"), nullptr);
  EXPECT_EQ(c->Key("lsi1sk"), nullptr);  // Customer writes no lsi1sk: not in that index
  EXPECT_EQ(c->FindAttribute("tier")->values, (std::vector<std::string>{"free", "pro"}));
  EXPECT_EQ(c->FindAttribute("tags")->kind, AttrKind::kSet);
  EXPECT_EQ(c->FindAttribute("address")->kind, AttrKind::kMap);
  EXPECT_EQ(c->FindAttribute("email"), nullptr);  // stored as gsi1pk, a key
  EXPECT_NE(Warning(*r, "import.unmapped", "Customer", "extra"), nullptr);
  // The entity attribute (entityAttributeSavedAs) holds the entity's name; timestamps: true.
  EXPECT_EQ(c->FindAttribute("_et")->values, std::vector<std::string>{"Customer"});
  EXPECT_EQ(c->FindAttribute("_ct")->kind, AttrKind::kTimestamp);
  EXPECT_EQ(c->FindAttribute("_md")->format, "iso8601ms");
}

TEST(DynamoDbToolbox, ComputedKeysKeepPlaceholdersAndWarn) {
  auto r = ImportFixtures();
  ASSERT_TRUE(r.ok()) << r.status().message();
  const EntityDef* o = r->model.FindEntity("Order");
  ASSERT_NE(o, nullptr);
  // pk/sk appended hidden by EntityDTO: computeKey builds them in code.
  EXPECT_EQ(o->Key("pk")->Text(), "{pk}");
  EXPECT_EQ(o->Key("sk")->Text(), "{sk}");
  EXPECT_NE(Warning(*r, "import.key-template", "Order", "key attribute pk"), nullptr);
  EXPECT_NE(Warning(*r, "import.key-template", "Order", "key attribute sk"), nullptr);
  EXPECT_EQ(o->Key("lsi1sk")->Text(), "{createdAt}");
  EXPECT_EQ(o->FindAttribute("total")->kind, AttrKind::kNumber);
  EXPECT_NE(o->FindAttribute("createdOn"), nullptr);  // timestamps.created.savedAs
  EXPECT_EQ(o->FindAttribute("_md"), nullptr);        // modified: false
  EXPECT_EQ(Warning(*r, "import.key-template", "Customer", "key attribute pk"), nullptr);
}

TEST(DynamoDbToolbox, ImportedModelParsesAndChecks) {
  auto r = ImportFixtures();
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto back = ParseModel(ModelToJson(r->model));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->FindEntity("Customer")->Key("pk")->Text(), "CUSTOMER#{customerId}");
  EXPECT_EQ(back->FindEntity("Order")->FindAttribute("_et")->values, std::vector<std::string>{"Order"});
  EXPECT_FALSE(RunChecks(*back).Failed());
}

TEST(DynamoDbToolbox, EntityDtoAloneNamesItsTable) {
  // An EntityDTO of the older shape (entityAttribute option, no tableName): the table takes the
  // default name; entityAttribute false adds no entity attribute.
  auto r = ImportDynamoDbToolbox({{"e.json", R"({
    "entityName": "Note",
    "entityAttribute": false,
    "schema": {"type": "schema", "attributes": {
      "noteId": {"type": "number", "key": true, "required": "always", "savedAs": "id"},
      "body": {"type": "string"}}},
    "table": {"partitionKey": {"name": "id", "type": "number"}, "entityAttributeSavedAs": "_et"}
  })"}},
                                 "Notes");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->model.tables[0].name, "Notes");
  EXPECT_EQ(r->model.tables[0].partition_key.type, 'N');
  EXPECT_EQ(r->model.entities[0].Key("id")->Text(), "{noteId}");
  EXPECT_EQ(r->model.entities[0].FindAttribute("_et"), nullptr);
  EXPECT_TRUE(r->findings.empty());
  EXPECT_TRUE(ParseModel(ModelToJson(r->model)).ok());
}

TEST(DynamoDbToolbox, RejectsWhatIsNoDto) {
  EXPECT_FALSE(ImportDynamoDbToolbox({{"a", "["}}, "T").ok());
  auto none = ImportDynamoDbToolbox({{"a.json", R"({"models": {}})"}}, "T");
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("a.json"), std::string::npos) << none.status().message();
  auto bad_type = ImportDynamoDbToolbox({{"t", R"({"partitionKey": {"name": "pk", "type": "boolean"}})"}}, "T");
  ASSERT_FALSE(bad_type.ok());
  EXPECT_NE(bad_type.status().message().find("partitionKey.type"), std::string::npos);
  auto clash =
      ImportDynamoDbToolbox({{"t1", R"({"tableName": "X", "partitionKey": {"name": "pk", "type": "string"}})"},
                             {"t2", R"({"tableName": "X", "partitionKey": {"name": "id", "type": "string"}})"}},
                            "T");
  EXPECT_FALSE(clash.ok());
  auto local_without_sort = ImportDynamoDbToolbox(
      {{"t", R"({"partitionKey": {"name": "pk", "type": "string"}, "indexes": {"l": {"type": "local"}}})"}}, "T");
  EXPECT_FALSE(local_without_sort.ok());
  EXPECT_FALSE(ImportDynamoDbToolbox({}, "T").ok());
  auto not_object = ImportDynamoDbToolbox({{"e", R"({"entityName": "A", "schema": {"attributes": {"pk": 5}},
                 "table": {"partitionKey": {"name": "pk", "type": "string"}}})"}},
                                          "T");
  ASSERT_FALSE(not_object.ok());
  EXPECT_NE(not_object.status().message().find("attributes.pk"), std::string::npos) << not_object.status().message();
}

TEST(DynamoDbToolbox, EveryTruncationIsAnErrorNotACrash) {
  std::string text = Fixture("entities.json");
  std::string table = Fixture("table.json");
  ASSERT_GT(text.size(), 100u);
  for (size_t n = 0; n < text.size(); n += 7) {
    auto r = ImportDynamoDbToolbox({{"t", table}, {"e", text.substr(0, n)}}, "T");
    EXPECT_FALSE(r.ok()) << n;
  }
  // Values of the wrong JSON type in every place of the shape.
  for (const char* bad :
       {R"({"entityName": 1, "schema": {}, "table": {}})",
        R"({"entityName": "A", "schema": [], "table": {"partitionKey": {"name": "pk", "type": "string"}}})",
        R"({"entityName": "A", "schema": {"attributes": {}}, "table": 3})", R"({"partitionKey": "pk"})",
        R"({"partitionKey": {"name": "pk", "type": "string"}, "indexes": [1]})",
        R"({"partitionKey": {"name": "pk", "type": "string"}, "indexes": {"g": 1}})",
        R"({"partitionKey": {"name": "pk", "type": "string"}, "indexes": {"g": {"type": "global"}}})", R"([1, 2])",
        R"("x")"}) {
    EXPECT_FALSE(ImportDynamoDbToolbox({{"x", bad}}, "T").ok()) << bad;
  }
  // Odd but well-formed option values are ignored, not trusted.
  auto odd = ImportDynamoDbToolbox({{"e", R"({"entityName": "A", "timestamps": 7, "entityAttribute": "x",
    "schema": {"attributes": {"pk": {"type": "string", "key": true, "keyDefault": 3, "transform": "p", "enum": "e"}}},
    "table": {"partitionKey": {"name": "pk", "type": "string"}}})"}},
                                   "T");
  ASSERT_TRUE(odd.ok()) << odd.status().message();
  EXPECT_TRUE(ParseModel(ModelToJson(odd->model)).ok());
}

// DynamoDB-Toolbox 2.7's DTOs as written by hand from its dto actions (schema type "item",
// entityAttribute {name, hidden}, timestamps with names and savedAs, prefix, suffix and pipe
// transformers, record, list of maps, anyOf, number enums, a TableDTO with two GSIs and an LSI in
// the same array): tests/workbench/models/dynamodb-toolbox-v2.7.
TEST(DynamoDbToolbox, ImportsVersion27Dtos) {
  std::ifstream in(MONOTABLE_SOURCE_DIR "/tests/workbench/models/dynamodb-toolbox-v2.7/library.json");
  std::stringstream text;
  text << in.rdbuf();
  auto r = ImportDynamoDbToolbox({{"library.json", text.str()}}, "Default");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->findings.empty()) << r->findings[0].message;  // nothing the DTOs cannot say
  const Model& m = r->model;
  ASSERT_EQ(m.tables.size(), 1u);
  ASSERT_EQ(m.tables[0].indexes.size(), 3u);
  EXPECT_EQ(m.tables[0].indexes[2].sort_key->type, 'N');
  EXPECT_FALSE(m.tables[0].indexes[2].global);
  auto key = [&](const char* entity, const char* attr) {
    const EntityDef* e = m.FindEntity(entity);
    return e && e->Key(attr) ? e->Key(attr)->Text() : std::string("(none)");
  };
  EXPECT_EQ(key("Author", "PK"), "AUTHOR#{authorId}");
  EXPECT_EQ(key("Author", "SK"), "PROFILE");
  EXPECT_EQ(key("Book", "SK"), "EDITION#{edition}#META");  // pipe(prefix, suffix)
  EXPECT_EQ(key("Book", "GSI1PK"), "AUTHOR#{authorId}");
  EXPECT_EQ(key("Book", "isbn"), "{isbn}");
  EXPECT_EQ(key("Loan", "dueAt"), "{dueAt}");
  const EntityDef* loan = m.FindEntity("Loan");
  EXPECT_EQ(loan->FindAttribute("status")->values, (std::vector<std::string>{"open", "closed"}));  // anyOf
  EXPECT_EQ(loan->FindAttribute("fine")->values, (std::vector<std::string>{"0", "1", "5"}));
  EXPECT_EQ(loan->FindAttribute("_et"), nullptr);  // entityAttribute: false
  const EntityDef* author = m.FindEntity("Author");
  EXPECT_EQ(author->FindAttribute("_et")->values, std::vector<std::string>{"Author"});
  EXPECT_EQ(author->FindAttribute("links")->kind, AttrKind::kMap);  // record
  EXPECT_EQ(author->FindAttribute("_ct")->kind, AttrKind::kTimestamp);
  EXPECT_EQ(m.FindEntity("Book")->FindAttribute("chapters")->kind, AttrKind::kList);
  EXPECT_FALSE(RunChecks(m).Failed());
}


// A TableDTO alone (as the toolbox's own DTO tests build them, issue 42): the import still gives
// the table, and warns that the model file has no entity yet.
TEST(DynamoDbToolbox, TableDtoAloneWarnsThatThereIsNoEntity) {
  auto r = ImportDynamoDbToolbox({{"t.json", R"({"tableName": "Ledger", "partitionKey": {"name": "id", "type": "string"},
                                                 "entityAttributeSavedAs": "_et"})"}},
                                 "Table");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->model.tables.size(), 1u);
  EXPECT_TRUE(r->model.entities.empty());
  ASSERT_EQ(r->findings.size(), 1u);
  EXPECT_EQ(r->findings[0].code, "import.no-entity");
  EXPECT_EQ(r->findings[0].subject, "Ledger");
  EXPECT_EQ(r->findings[0].severity, Severity::kWarning);
}

}  // namespace
}  // namespace monotable::workbench
