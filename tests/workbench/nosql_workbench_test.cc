// NoSQL Workbench models: import (templates inferred from facets and sample data), export, round trip.
#include "workbench/nosql_workbench.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "workbench/check.h"
#include "workbench/parser.h"

namespace monotable::workbench {
namespace {

// Written here in the documented shape of a NoSQL Workbench export (DataModel, KeyAttributes,
// NonKeyAttributes, GlobalSecondaryIndexes, TableFacets with KeyAttributeAlias and TableData).
const char* kShop = R"({
  "ModelName": "Shop Model",
  "DataModel": [{
    "TableName": "Shop",
    "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"},
                      "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
    "NonKeyAttributes": [{"AttributeName": "email", "AttributeType": "S"}, {"AttributeName": "total", "AttributeType": "N"},
                         {"AttributeName": "lines", "AttributeType": "L"}, {"AttributeName": "GSI1PK", "AttributeType": "S"}],
    "GlobalSecondaryIndexes": [{"IndexName": "GSI1",
                                "KeyAttributes": {"PartitionKey": {"AttributeName": "GSI1PK", "AttributeType": "S"}},
                                "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["total"]}}],
    "TableFacets": [
      {"FacetName": "Customer", "KeyAttributeAlias": {"PartitionKeyAlias": "CustomerId", "SortKeyAlias": "Profile"},
       "TableData": [{"PK": {"S": "CUSTOMER#c1"}, "SK": {"S": "PROFILE"}, "email": {"S": "a@x"}},
                     {"PK": {"S": "CUSTOMER#c22"}, "SK": {"S": "PROFILE"}, "email": {"S": "b@x"}}],
       "NonKeyAttributes": ["email"]},
      {"FacetName": "Order", "KeyAttributeAlias": {"PartitionKeyAlias": "CustomerId", "SortKeyAlias": "OrderId"},
       "TableData": [{"PK": {"S": "CUSTOMER#c1"}, "SK": {"S": "ORDER#2024#o1"}, "GSI1PK": {"S": "ORDER#o1"}, "total": {"N": "5"}},
                     {"PK": {"S": "CUSTOMER#c2"}, "SK": {"S": "ORDER#2023#o2"}, "GSI1PK": {"S": "ORDER#o2"}, "total": {"N": "7"}}],
       "NonKeyAttributes": ["total", "lines"]},
      {"FacetName": "Note", "KeyAttributeAlias": {"PartitionKeyAlias": "NoteId", "SortKeyAlias": "Rev"},
       "NonKeyAttributes": []}
    ]
  }]
})";

TEST(NoSqlWorkbench, ImportInfersTemplatesFromSampleData) {
  auto m = ImportNoSqlWorkbench(kShop);
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->name, "shopModel");
  ASSERT_EQ(m->tables.size(), 1u);
  ASSERT_EQ(m->tables[0].indexes.size(), 1u);
  EXPECT_EQ(m->tables[0].indexes[0].projection, ProjectionKind::kInclude);
  EXPECT_EQ(m->tables[0].indexes[0].include, std::vector<std::string>{"total"});
  const EntityDef* customer = m->FindEntity("Customer");
  ASSERT_NE(customer, nullptr);
  EXPECT_EQ(customer->Key("PK")->Text(), "CUSTOMER#{customerId}");
  EXPECT_EQ(customer->Key("SK")->Text(), "PROFILE");
  const EntityDef* order = m->FindEntity("Order");
  EXPECT_EQ(order->Key("SK")->Text(), "ORDER#{orderId}");  // ORDER#2024#o1, ORDER#2023#o2 share "ORDER#"
  EXPECT_EQ(order->Key("GSI1PK")->Text(), "ORDER#{gsi1pk}");
  EXPECT_EQ(order->FindAttribute("total")->kind, AttrKind::kNumber);
  EXPECT_EQ(order->FindAttribute("lines")->kind, AttrKind::kList);
  const EntityDef* note = m->FindEntity("Note");
  EXPECT_EQ(note->Key("PK")->Text(), "{noteId}");  // no sample data: the alias names the placeholder
  EXPECT_EQ(customer->Key("GSI1PK"), nullptr);     // no GSI1PK in its samples: not in the index
  // What it prints is a model this tool reads.
  auto back = ParseModel(ModelToJson(*m));
  ASSERT_TRUE(back.ok()) << back.status().message() << "\n" << ModelToJson(*m);
  EXPECT_EQ(back->FindEntity("Order")->Key("SK")->Text(), "ORDER#{orderId}");
}

TEST(NoSqlWorkbench, ImportRejectsWhatIsNotAModel) {
  EXPECT_FALSE(ImportNoSqlWorkbench("{").ok());
  EXPECT_FALSE(ImportNoSqlWorkbench("{\"ModelName\": \"x\"}").ok());
  auto no_key = ImportNoSqlWorkbench(R"({"DataModel": [{"TableName": "T"}]})");
  ASSERT_FALSE(no_key.ok());
  EXPECT_NE(no_key.status().message().find("DataModel[T]"), std::string::npos) << no_key.status().message();
}

TEST(NoSqlWorkbench, ExportThenImportKeepsTheDesign) {
  auto original = LoadModelFile(MONOTABLE_SOURCE_DIR "/examples/models/saas.yaml");
  ASSERT_TRUE(original.ok());
  auto imported = ImportNoSqlWorkbench(ExportNoSqlWorkbench(*original));
  ASSERT_TRUE(imported.ok()) << imported.status().message();
  ASSERT_EQ(imported->entities.size(), original->entities.size());
  for (const auto& e : original->entities) {
    const EntityDef* back = imported->FindEntity(e.name);
    ASSERT_NE(back, nullptr) << e.name;
    EXPECT_EQ(back->Key("PK")->Text(), e.Key("PK")->Text()) << e.name;
    EXPECT_EQ(back->Key("SK")->Text(), e.Key("SK")->Text()) << e.name;
    for (const auto& [attr, t] : e.keys) EXPECT_NE(back->Key(attr), nullptr) << e.name << "." << attr;
  }
  ASSERT_EQ(imported->tables[0].indexes.size(), 2u);
  EXPECT_EQ(imported->tables[0].indexes[1].projection, ProjectionKind::kKeysOnly);
  EXPECT_FALSE(RunChecks(*imported).Failed());
}

// A full export in NoSQL Workbench 3.x's shape (ModelMetadata, two tables, facets with and without
// their own TableData, the table's TableData, GSIs with INCLUDE and KEYS_ONLY, BillingMode,
// ProvisionedCapacitySettings, DataAccess), written by hand: tests/workbench/models/nosql-workbench.
TEST(NoSqlWorkbench, ImportsAFullExport) {
  std::ifstream in(MONOTABLE_SOURCE_DIR "/tests/workbench/models/nosql-workbench/online-shop.json");
  std::stringstream text;
  text << in.rdbuf();
  auto m = ImportNoSqlWorkbench(text.str());
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->name, "onlineShop");
  ASSERT_EQ(m->tables.size(), 2u);
  const TableDef& shop = m->tables[0];
  ASSERT_EQ(shop.indexes.size(), 2u);
  EXPECT_EQ(shop.indexes[0].projection, ProjectionKind::kInclude);
  EXPECT_EQ(shop.indexes[0].include, (std::vector<std::string>{"status", "orderTotal"}));
  EXPECT_EQ(shop.indexes[1].projection, ProjectionKind::kKeysOnly);
  EXPECT_FALSE(shop.indexes[1].sort_key.has_value());
  auto key = [&](const char* entity, const char* attr) {
    const EntityDef* e = m->FindEntity(entity);
    if (!e) return std::string("(no entity)");
    return e->Key(attr) ? e->Key(attr)->Text() : std::string("(no key)");
  };
  EXPECT_EQ(key("Customer", "PK"), "CUSTOMER#{customerId}");
  EXPECT_EQ(key("Customer", "SK"), "PROFILE");
  EXPECT_EQ(key("Customer", "GSI2PK"), "EMAIL#{email}");            // the e-mail attribute's value
  EXPECT_EQ(key("Order", "SK"), "ORDER#{orderDateAndId}");
  EXPECT_EQ(key("Order", "GSI1PK"), "CUSTOMER#{customerId}");       // PK's value: PK's placeholder
  EXPECT_EQ(key("Order", "GSI1SK"), "STATUS#{gsi1sk}");
  EXPECT_EQ(key("OrderItem", "PK"), "ORDER#{orderId}");
  EXPECT_EQ(key("OrderItem", "SK"), "ITEM#{productId}");
  EXPECT_EQ(key("Product", "SK"), "DETAILS");
  // Address and Review have no TableData of their own: their items are the table's.
  EXPECT_EQ(key("Address", "PK"), "CUSTOMER#{customerId}");
  EXPECT_EQ(key("Address", "SK"), "ADDRESS#{addressName}");
  EXPECT_EQ(key("Review", "PK"), "PRODUCT#{productId}");  // both reviews of one product: still an id
  EXPECT_EQ(key("Review", "SK"), "REVIEW#{reviewDateAndCustomer}");
  EXPECT_EQ(m->FindEntity("Address")->Key("GSI1PK"), nullptr);
  // Sessions has no facets: one entity named after the table.
  EXPECT_EQ(key("Sessions", "sessionId"), "{sessionId}");
  EXPECT_EQ(m->FindEntity("Sessions")->FindAttribute("cart")->kind, AttrKind::kList);
  EXPECT_EQ(m->FindEntity("Customer")->FindAttribute("marketingOptIn")->kind, AttrKind::kBoolean);
  EXPECT_EQ(m->FindEntity("Product")->FindAttribute("categories")->kind, AttrKind::kSet);
  EXPECT_EQ(m->FindEntity("Order")->FindAttribute("shippingAddress")->kind, AttrKind::kMap);
  EXPECT_EQ(m->entities.size(), 7u);
  // No two entities can write the same key, and the model passes the checks.
  auto report = RunChecks(*m);
  EXPECT_FALSE(report.Failed());
  auto back = ParseModel(ModelToJson(*m));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->entities.size(), 7u);
}


// Shapes found in real public exports (issue 42), written here by hand with other content.

// A root item repeats its id in both keys (PK = SK = "SHELF#s1"): one id, one placeholder.
// An index key whose suffix equals the primary key's under another prefix ("DRIVER#7" beside
// "TRIP#7") is another kind of id that the samples happen to share: its own placeholder.
TEST(NoSqlWorkbench, OneIdInBothKeysButNotAcrossPrefixes) {
  auto m = ImportNoSqlWorkbench(R"({"ModelName": "Depot", "DataModel": [{
    "TableName": "Depot",
    "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"},
                      "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
    "GlobalSecondaryIndexes": [{"IndexName": "ByDriver",
      "KeyAttributes": {"PartitionKey": {"AttributeName": "DriverKey", "AttributeType": "S"}},
      "Projection": {"ProjectionType": "ALL"}}],
    "TableFacets": [
      {"FacetName": "Shelf", "KeyAttributeAlias": {"PartitionKeyAlias": "ShelfId", "SortKeyAlias": "Self"},
       "TableData": [{"PK": {"S": "SHELF#s1"}, "SK": {"S": "SHELF#s1"}},
                     {"PK": {"S": "SHELF#s20"}, "SK": {"S": "SHELF#s20"}}], "NonKeyAttributes": []},
      {"FacetName": "Trip", "KeyAttributeAlias": {"PartitionKeyAlias": "TripId", "SortKeyAlias": "Leg"},
       "TableData": [{"PK": {"S": "TRIP#7"}, "SK": {"S": "LEG#1"}, "DriverKey": {"S": "DRIVER#7"}},
                     {"PK": {"S": "TRIP#8"}, "SK": {"S": "LEG#2"}, "DriverKey": {"S": "DRIVER#8"}}],
       "NonKeyAttributes": ["DriverKey"]}]}]})");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->FindEntity("Shelf")->Key("PK")->Text(), "SHELF#{shelfId}");
  EXPECT_EQ(m->FindEntity("Shelf")->Key("SK")->Text(), "SHELF#{shelfId}");
  EXPECT_EQ(m->FindEntity("Trip")->Key("PK")->Text(), "TRIP#{tripId}");
  EXPECT_EQ(m->FindEntity("Trip")->Key("DriverKey")->Text(), "DRIVER#{driverKey}");
}

// A key attribute named with a '#' ("Kind#When") and no alias names a placeholder without it; an
// index key only one sample item has ("Ada") is a value, not a constant, unless it reads as a
// marker in capitals ("ARCHIVE").
TEST(NoSqlWorkbench, PlaceholderNamesAndSingleSamples) {
  auto m = ImportNoSqlWorkbench(R"({"ModelName": "Lab", "DataModel": [{
    "TableName": "Lab",
    "KeyAttributes": {"PartitionKey": {"AttributeName": "Sample", "AttributeType": "S"},
                      "SortKey": {"AttributeName": "Kind#When", "AttributeType": "S"}},
    "NonKeyAttributes": [{"AttributeName": "Reviewer", "AttributeType": "S"},
                         {"AttributeName": "Shelf", "AttributeType": "S"}],
    "GlobalSecondaryIndexes": [
      {"IndexName": "ByReviewer", "KeyAttributes": {"PartitionKey": {"AttributeName": "Reviewer", "AttributeType": "S"}},
       "Projection": {"ProjectionType": "ALL"}},
      {"IndexName": "ByShelf", "KeyAttributes": {"PartitionKey": {"AttributeName": "Shelf", "AttributeType": "S"}},
       "Projection": {"ProjectionType": "ALL"}}],
    "TableData": [
      {"Sample": {"S": "x1"}, "Kind#When": {"S": "DRY#2021-01-01"}},
      {"Sample": {"S": "x2"}, "Kind#When": {"S": "WET#2021-02-01"}, "Reviewer": {"S": "Ada"}, "Shelf": {"S": "ARCHIVE"}},
      {"Sample": {"S": "x3"}, "Kind#When": {"S": "DRY#2021-03-01"}}]}]})");
  ASSERT_TRUE(m.ok()) << m.status().message();
  const EntityDef& e = m->entities[0];
  EXPECT_EQ(e.Key("Kind#When")->Text(), "{kindWhen}");
  EXPECT_EQ(e.Key("Reviewer")->Text(), "{reviewer}");
  EXPECT_EQ(e.Key("Shelf")->Text(), "ARCHIVE");
  EXPECT_TRUE(ParseModel(ModelToJson(*m)).ok()) << ModelToJson(*m);

  // A name repeated by the samples is one value, not a marker: two posts on one board.
  auto board = ImportNoSqlWorkbench(R"({"ModelName": "Board", "DataModel": [{
    "TableName": "Post",
    "KeyAttributes": {"PartitionKey": {"AttributeName": "Board", "AttributeType": "S"},
                      "SortKey": {"AttributeName": "Title", "AttributeType": "S"}},
    "TableData": [{"Board": {"S": "Garden Club"}, "Title": {"S": "Tomatoes"}},
                  {"Board": {"S": "Garden Club"}, "Title": {"S": "Hedges"}}]}]})");
  ASSERT_TRUE(board.ok()) << board.status().message();
  EXPECT_EQ(board->entities[0].Key("Board")->Text(), "{board}");
}

// A model without sample data (TableData and TableFacets empty): the index keys the table lists
// are placeholders of its one entity, so the entity is in those indexes and keeps the attributes.
TEST(NoSqlWorkbench, WithoutSampleDataListedIndexKeysArePlaceholders) {
  auto m = ImportNoSqlWorkbench(R"({"ModelName": "Clinic", "DataModel": [{
    "TableName": "Clinic",
    "KeyAttributes": {"PartitionKey": {"AttributeName": "pk", "AttributeType": "S"},
                      "SortKey": {"AttributeName": "sk", "AttributeType": "S"}},
    "NonKeyAttributes": [{"AttributeName": "ward", "AttributeType": "S"}, {"AttributeName": "admittedOn", "AttributeType": "S"},
                         {"AttributeName": "notes", "AttributeType": "S"}],
    "TableFacets": [], "TableData": [],
    "GlobalSecondaryIndexes": [
      {"IndexName": "ByWard", "KeyAttributes": {"PartitionKey": {"AttributeName": "ward", "AttributeType": "S"},
                                                 "SortKey": {"AttributeName": "admittedOn", "AttributeType": "S"}},
       "Projection": {"ProjectionType": "ALL"}},
      {"IndexName": "Inverted", "KeyAttributes": {"PartitionKey": {"AttributeName": "sk", "AttributeType": "S"},
                                                   "SortKey": {"AttributeName": "pk", "AttributeType": "S"}},
       "Projection": {"ProjectionType": "ALL"}}]}]})");
  ASSERT_TRUE(m.ok()) << m.status().message();
  const EntityDef& e = m->entities[0];
  ASSERT_NE(e.Key("ward"), nullptr);
  EXPECT_EQ(e.Key("ward")->Text(), "{ward}");
  EXPECT_EQ(e.Key("admittedOn")->Text(), "{admittedOn}");
  EXPECT_EQ(e.Key("pk")->Text(), "{pk}");
  ASSERT_NE(e.FindAttribute("notes"), nullptr);
  EXPECT_EQ(e.FindAttribute("ward"), nullptr);  // a key now, not a plain attribute
  EXPECT_TRUE(ParseModel(ModelToJson(*m)).ok()) << ModelToJson(*m);
}


// Real exports without facets keep every entity in the table's TableData, told apart by an
// attribute ("EntityType", "type"): one entity per value, each with its own templates and only
// the indexes its items have keys for. A placeholder takes an attribute's name when one attribute
// alone matches the samples, or when the prefix names one of several ("OWNER#": ownerId, not
// garageId); two that still tie (vin and slot under "CAR#") leave it unnamed.
TEST(NoSqlWorkbench, WithoutFacetsATypeAttributeSplitsTheEntities) {
  auto m = ImportNoSqlWorkbench(R"({"ModelName": "Garage", "DataModel": [{
    "TableName": "Garage",
    "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"},
                      "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
    "NonKeyAttributes": [{"AttributeName": "kind", "AttributeType": "S"}, {"AttributeName": "GSI1PK", "AttributeType": "S"}],
    "GlobalSecondaryIndexes": [{"IndexName": "ByPlate",
      "KeyAttributes": {"PartitionKey": {"AttributeName": "GSI1PK", "AttributeType": "S"}},
      "Projection": {"ProjectionType": "ALL"}}],
    "TableData": [
      {"PK": {"S": "OWNER#1"}, "SK": {"S": "PROFILE"}, "kind": {"S": "owner"}, "ownerId": {"S": "1"}, "garageId": {"S": "1"}},
      {"PK": {"S": "OWNER#2"}, "SK": {"S": "PROFILE"}, "kind": {"S": "owner"}, "ownerId": {"S": "2"}, "garageId": {"S": "2"}},
      {"PK": {"S": "OWNER#1"}, "SK": {"S": "CAR#7"}, "kind": {"S": "car"}, "vin": {"S": "7"}, "slot": {"S": "7"},
       "plate": {"S": "AB1"}, "GSI1PK": {"S": "PLATE#AB1"}},
      {"PK": {"S": "OWNER#2"}, "SK": {"S": "CAR#9"}, "kind": {"S": "car"}, "vin": {"S": "9"}, "slot": {"S": "9"},
       "plate": {"S": "XY2"}, "GSI1PK": {"S": "PLATE#XY2"}}]}]})");
  ASSERT_TRUE(m.ok()) << m.status().message();
  ASSERT_EQ(m->entities.size(), 2u);
  const EntityDef* owner = m->FindEntity("owner");
  const EntityDef* car = m->FindEntity("car");
  ASSERT_NE(owner, nullptr);
  ASSERT_NE(car, nullptr);
  EXPECT_EQ(owner->Key("PK")->Text(), "OWNER#{ownerId}");
  EXPECT_EQ(owner->Key("SK")->Text(), "PROFILE");
  EXPECT_EQ(owner->Key("GSI1PK"), nullptr);  // no owner has it: not in ByPlate
  EXPECT_EQ(car->Key("SK")->Text(), "CAR#{sk}");
  EXPECT_EQ(car->Key("GSI1PK")->Text(), "PLATE#{plate}");
  EXPECT_EQ(owner->FindAttribute("kind")->values, std::vector<std::string>{"owner"});
  EXPECT_EQ(car->FindAttribute("kind")->values, std::vector<std::string>{"car"});
  EXPECT_EQ(car->FindAttribute("ownerId"), nullptr);
  EXPECT_NE(car->FindAttribute("plate"), nullptr);
  EXPECT_FALSE(RunChecks(*m).Failed());
  EXPECT_TRUE(ParseModel(ModelToJson(*m)).ok()) << ModelToJson(*m);

  // A `type` that every item has under one key shape is data of one entity.
  auto bank = ImportNoSqlWorkbench(R"({"ModelName": "Bank", "DataModel": [{
    "TableName": "Accounts",
    "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}},
    "TableData": [{"PK": {"S": "ACCT#1"}, "type": {"S": "checking"}},
                  {"PK": {"S": "ACCT#2"}, "type": {"S": "savings"}},
                  {"PK": {"S": "ACCT#3"}, "type": {"S": "checking"}}]}]})");
  ASSERT_TRUE(bank.ok()) << bank.status().message();
  ASSERT_EQ(bank->entities.size(), 1u);
  EXPECT_EQ(bank->entities[0].name, "Accounts");
}


// The export writes each facet's key templates as its aliases and sample items from the sampler,
// whose values for a placeholder {pk} and an attribute "price" coincide ("p0", "p1"...): the alias
// template stands, the samples do not rename it.
TEST(NoSqlWorkbench, AnAliasThatIsATemplateIsNotRenamedAfterTheSamples) {
  auto original = ParseModel(R"({"version": 1, "tables": [{"name": "Shop", "partitionKey": "PK", "sortKey": "SK"}],
    "entities": {"Product": {"keys": {"PK": "p#{pk}", "SK": "p#{pk}"}, "attributes": {"price": {"type": "string"}}},
                 "Part": {"keys": {"PK": "p#{pk}", "SK": "part#{serial}"}, "attributes": {"size": {"type": "string"}}}}})");
  ASSERT_TRUE(original.ok()) << original.status().message();
  auto imported = ImportNoSqlWorkbench(ExportNoSqlWorkbench(*original));
  ASSERT_TRUE(imported.ok()) << imported.status().message();
  EXPECT_EQ(imported->FindEntity("Product")->Key("PK")->Text(), "p#{pk}");
  EXPECT_EQ(imported->FindEntity("Product")->Key("SK")->Text(), "p#{pk}");
  EXPECT_EQ(imported->FindEntity("Part")->Key("SK")->Text(), "part#{serial}");
}

}  // namespace
}  // namespace monotable::workbench
