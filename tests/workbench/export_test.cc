// Exports: CloudFormation (read back as YAML), Terraform and CDK text for a model's tables.
#include "workbench/export.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "workbench/parser.h"

namespace monotable::workbench {
namespace {

Model Ecommerce() {
  auto m = LoadModelFile(MONOTABLE_SOURCE_DIR "/examples/models/ecommerce.yaml");
  EXPECT_TRUE(m.ok()) << m.status().message();
  return *m;
}

TEST(Export, CloudFormationTemplate) {
  auto text = ExportModel(Ecommerce(), "cloudformation");
  ASSERT_TRUE(text.ok());
  YAML::Node doc = YAML::Load(*text);
  YAML::Node props = doc["Resources"]["StoreTable"]["Properties"];
  EXPECT_EQ(doc["Resources"]["StoreTable"]["Type"].as<std::string>(), "AWS::DynamoDB::Table");
  EXPECT_EQ(props["TableName"].as<std::string>(), "Store");
  EXPECT_EQ(props["BillingMode"].as<std::string>(), "PAY_PER_REQUEST");
  EXPECT_EQ(props["AttributeDefinitions"].size(), 6u);  // PK SK GSI1PK GSI1SK GSI2PK GSI2SK
  EXPECT_EQ(props["KeySchema"][1]["KeyType"].as<std::string>(), "RANGE");
  ASSERT_EQ(props["GlobalSecondaryIndexes"].size(), 2u);
  YAML::Node gsi2 = props["GlobalSecondaryIndexes"][1];
  EXPECT_EQ(gsi2["IndexName"].as<std::string>(), "GSI2");
  EXPECT_EQ(gsi2["Projection"]["ProjectionType"].as<std::string>(), "INCLUDE");
  EXPECT_EQ(gsi2["Projection"]["NonKeyAttributes"][2].as<std::string>(), "stock");
  EXPECT_FALSE(props["LocalSecondaryIndexes"]);
}

TEST(Export, TerraformAndCdk) {
  auto tf = ExportModel(Ecommerce(), "terraform");
  ASSERT_TRUE(tf.ok());
  EXPECT_NE(tf->find("resource \"aws_dynamodb_table\" \"Store\" {"), std::string::npos) << *tf;
  EXPECT_NE(tf->find("range_key    = \"SK\""), std::string::npos);
  EXPECT_NE(tf->find("non_key_attributes = [\"name\", \"priceCents\", \"stock\"]"), std::string::npos) << *tf;
  auto cdk = ExportModel(Ecommerce(), "cdk");
  ASSERT_TRUE(cdk.ok());
  EXPECT_NE(cdk->find("new dynamodb.TableV2(this, \"Store\""), std::string::npos) << *cdk;
  EXPECT_NE(cdk->find("{ indexName: \"GSI1\", partitionKey: { name: \"GSI1PK\", type: dynamodb.AttributeType.STRING }"),
            std::string::npos)
      << *cdk;
  EXPECT_FALSE(ExportModel(Ecommerce(), "pulumi").ok());
}

TEST(Export, LocalIndexes) {
  auto m = ParseModel(R"(
version: 1
tables: [{name: ev-log, partitionKey: PK, sortKey: {name: SK, type: N}, localSecondaryIndexes: [{name: L1, sortKey: LSK, projection: KEYS_ONLY}]}]
entities: {A: {keys: {PK: "A", SK: "{n}", LSK: "x"}, attributes: {n: number}}}
)");
  ASSERT_TRUE(m.ok()) << m.status().message();
  YAML::Node props = YAML::Load(*ExportModel(*m, "cloudformation"))["Resources"]["evlogTable"]["Properties"];
  ASSERT_EQ(props["LocalSecondaryIndexes"].size(), 1u);
  EXPECT_EQ(props["LocalSecondaryIndexes"][0]["KeySchema"][0]["AttributeName"].as<std::string>(), "PK");
  EXPECT_EQ(props["AttributeDefinitions"][1]["AttributeType"].as<std::string>(), "N");
  auto tf = ExportModel(*m, "terraform");
  EXPECT_NE(tf->find("local_secondary_index {\n    name            = \"L1\"\n    range_key       = \"LSK\""),
            std::string::npos)
      << *tf;
}

}  // namespace
}  // namespace monotable::workbench
