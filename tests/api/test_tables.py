"""Control plane, part 1: CreateTable and DescribeTable (type errors, TableName rules, key schema,
throughput, LSI/GSI rules, descriptions). Part 2 (table ARNs, ListTables, DeleteTable, UpdateTable,
DescribeEndpoints, DescribeLimits) is test_table_lifecycle.py.

Validation messages and their order follow dynalite's test suite, which was recorded against AWS;
newer features (table ARNs as TableName, deletion protection, table classes) follow AWS today.
Requests that an SDK would refuse client-side go through raw HTTP (raw.call). The Debian botocore
predates DeletionProtectionEnabled, so that parameter is also sent raw.
"""
import re
import time
import uuid

import botocore.exceptions
import pytest

from conftest import unique_name
from table_helpers import *  # noqa: F401,F403 (helpers, constants and request builders)


@pytest.fixture(autouse=True)
def no_table_abc_left(server):
    yield
    check_no_table_abc_left(server)



# ---- serialization (type) errors -------------------------------------------------------------


@pytest.mark.parametrize("op", TABLE_OPS)
@pytest.mark.parametrize("value,message", [
    (123, "NUMBER_VALUE cannot be converted to String"),
    (1.5, "DECIMAL_VALUE cannot be converted to String"),
    (True, "TRUE_VALUE cannot be converted to String"),
    (False, "FALSE_VALUE cannot be converted to String"),
    (["a"], "Unrecognized collection type class java.lang.String"),
    ({"a": 1}, "Start of structure or map found where not expected"),
])
def test_table_name_type_errors(server, op, value, message):
    assert_serialization(server, op, {"TableName": value}, message)


@pytest.mark.parametrize("member,value,message", [
    ("AttributeDefinitions", "a", "Unexpected field type"),
    ("AttributeDefinitions", {}, "Start of structure or map found where not expected"),
    ("KeySchema", 5, "Unexpected field type"),
    ("LocalSecondaryIndexes", True, "Unexpected field type"),
    ("GlobalSecondaryIndexes", "x", "Unexpected field type"),
    ("ProvisionedThroughput", "a", "Unexpected field type"),
    ("ProvisionedThroughput", [], "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.ProvisionedThroughput"),
    ("BillingMode", 1, "NUMBER_VALUE cannot be converted to String"),
    ("Tags", {}, "Start of structure or map found where not expected"),
])
def test_create_table_member_type_errors(server, member, value, message):
    assert_serialization(server, "CreateTable", {"TableName": "abc", member: value}, message)


@pytest.mark.parametrize("path,value,message", [
    ("ProvisionedThroughput.ReadCapacityUnits", "1", "STRING_VALUE cannot be converted to Long"),
    ("ProvisionedThroughput.WriteCapacityUnits", True, "TRUE_VALUE cannot be converted to Long"),
    ("ProvisionedThroughput.WriteCapacityUnits", [], "Unrecognized collection type class java.lang.Long"),
    ("ProvisionedThroughput.ReadCapacityUnits", {}, "Start of structure or map found where not expected"),
    ("KeySchema.0", "a", "Unexpected value type in payload"),
    ("KeySchema.0", [], "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.KeySchemaElement"),
    ("KeySchema.0.KeyType", 1, "NUMBER_VALUE cannot be converted to String"),
    ("AttributeDefinitions.0", [], "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.AttributeDefinition"),
    ("AttributeDefinitions.0.AttributeType", False, "FALSE_VALUE cannot be converted to String"),
    ("LocalSecondaryIndexes.0", [], "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.LocalSecondaryIndex"),
    ("LocalSecondaryIndexes.0.Projection", "x", "Unexpected field type"),
    ("GlobalSecondaryIndexes.0.Projection.NonKeyAttributes.0", 2, "NUMBER_VALUE cannot be converted to String"),
    ("GlobalSecondaryIndexes.0.ProvisionedThroughput", [], "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.ProvisionedThroughput"),
])
def test_create_table_nested_type_errors(server, path, value, message):
    body = {"TableName": "abc"}
    node = body
    parts = path.split(".")
    for i, part in enumerate(parts[:-1]):
        nxt = [] if parts[i + 1].isdigit() else {}
        if part.isdigit():
            node.append(nxt)
        else:
            node[part] = nxt
        node = nxt
    if parts[-1].isdigit():
        node.append(value)
    else:
        node[parts[-1]] = value
    assert_serialization(server, "CreateTable", body, message)


def test_long_members_take_the_floor_of_decimals(server):
    # AWS coerces 1.9 to a Long 1, so the constraint sees 1 and the request goes through.
    name = unique_name()
    desc = ok(server, "CreateTable", {"TableName": name, "AttributeDefinitions": ad(("a", "S")), "KeySchema": HASH_A,
                                      "ProvisionedThroughput": {"ReadCapacityUnits": 1.9, "WriteCapacityUnits": 2.2}})
    assert desc["TableDescription"]["ProvisionedThroughput"] == {"NumberOfDecreasesToday": 0,
                                                                 "ReadCapacityUnits": 1, "WriteCapacityUnits": 2}


def test_list_tables_type_errors(server):
    assert_serialization(server, "ListTables", {"Limit": "1"}, "STRING_VALUE cannot be converted to Integer")
    assert_serialization(server, "ListTables", {"ExclusiveStartTableName": 5}, "NUMBER_VALUE cannot be converted to String")


# ---- TableName validation --------------------------------------------------------------------


@pytest.mark.parametrize("op", TABLE_OPS)
def test_missing_table_name(server, op):
    assert_validation(server, op, {}, "The parameter 'TableName' is required but was not present in the request")


@pytest.mark.parametrize("op", TABLE_OPS)
@pytest.mark.parametrize("name,failures", [
    ("ab", ["Member must have length greater than or equal to 3"]),
    ("a" * 256, ["Member must have length less than or equal to 255"]),
    ("", [f"Member must satisfy regular expression pattern: {PATTERN}",
          "Member must have length greater than or equal to 3"]),
    ("a;", [f"Member must satisfy regular expression pattern: {PATTERN}",
            "Member must have length greater than or equal to 3"]),
])
def test_table_name_length(server, op, name, failures):
    # AWS today answers a short name in the constraint framework's words, and reports only the
    # tableName constraints even when other members are bad too (dynamodb-conformance, recorded
    # against AWS in 2026: error-messages/createTable.test.ts, "Value 'ab' at 'tableName' failed to
    # satisfy constraint: Member must have length greater than or equal to 3";
    # validation-ordering/createTable.test.ts). The older "TableName must be at least 3 characters
    # long and at most 255 characters long" is gone.
    expected = [f"Value '{name}' at 'tableName' failed to satisfy constraint: {f}" for f in failures]
    assert_validation(server, op, {"TableName": name, "KeySchema": [], "AttributeDefinitions": []},
                      f"{len(expected)} validation error{'s' if len(expected) > 1 else ''} detected: "
                      + "; ".join(expected))


@pytest.mark.parametrize("op", ["DescribeTable", "DeleteTable", "UpdateTable"])
def test_table_name_pattern(server, op):
    assert_validations(server, op, {"TableName": "abc;"}, [
        f"Value 'abc;' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: {PATTERN}"])


def test_non_ascii_table_name_fails_the_pattern_not_the_length(server):
    # 200 characters (400 UTF-8 bytes): the length is counted in characters, so only the pattern fails.
    assert_validations(server, "DescribeTable", {"TableName": "é" * 200}, [
        f"Value '{'é' * 200}' at 'tableName' failed to satisfy constraint: "
        f"Member must satisfy regular expression pattern: {PATTERN}"])


@pytest.mark.parametrize("op", ["DescribeTable", "DeleteTable"])
def test_table_not_found(server, op):
    name = unique_name()
    assert error(server, op, {"TableName": name}) == (NOT_FOUND, f"Requested resource not found: Table: {name} not found")


def test_update_table_not_found(server):
    name = unique_name()
    assert error(server, "UpdateTable", {"TableName": name, "ProvisionedThroughput": PT1}) == (
        NOT_FOUND, f"Requested resource not found: Table: {name} not found")


def test_valid_name_characters(ddb):
    name = "Az09_.-" + uuid.uuid4().hex[:8]
    ddb.create_table(TableName=name, KeySchema=HASH_A, AttributeDefinitions=ad(("a", "S")),
                     BillingMode="PAY_PER_REQUEST")
    assert ddb.describe_table(TableName=name)["Table"]["TableName"] == name
    long_name = uuid.uuid4().hex + "x" * (255 - 32)
    ddb.create_table(TableName=long_name, KeySchema=HASH_A, AttributeDefinitions=ad(("a", "S")),
                     BillingMode="PAY_PER_REQUEST")
    assert ddb.describe_table(TableName=long_name)["Table"]["TableName"] == long_name
    ddb.delete_table(TableName=long_name)


# ---- CreateTable: constraint errors ----------------------------------------------------------


def test_create_null_members(server):
    assert_validations(server, "CreateTable", {"TableName": "abc"}, [null("attributeDefinitions"), null("keySchema")])
    # A bad name is reported on its own (dynamodb-conformance's validation-ordering/createTable.test.ts,
    # "invalid table name pattern reports only tableName").
    assert_validations(server, "CreateTable", {"TableName": "abc;"}, [
        f"Value 'abc;' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: {PATTERN}"])


def test_create_empty_attribute_definitions(server):
    assert_validations(server, "CreateTable", {"TableName": "abc", "AttributeDefinitions": []}, [null("keySchema")])


def test_create_empty_provisioned_throughput(server):
    assert_validations(server, "CreateTable", {"TableName": "abc", "AttributeDefinitions": [], "ProvisionedThroughput": {}}, [
        null("provisionedThroughput.writeCapacityUnits"),
        null("provisionedThroughput.readCapacityUnits"),
        null("keySchema")])


def test_create_low_throughput_and_empty_key_schema(server):
    assert_validations(server, "CreateTable", {
        "TableName": "abc", "AttributeDefinitions": [], "KeySchema": [],
        "ProvisionedThroughput": {"ReadCapacityUnits": -1, "WriteCapacityUnits": 0}}, [
        "Value '0' at 'provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: "
        "Member must have value greater than or equal to 1",
        "Value '-1' at 'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: "
        "Member must have value greater than or equal to 1",
        "Value '[]' at 'keySchema' failed to satisfy constraint: Member must have length greater than or equal to 1"])


def test_create_key_element_constraints(server):
    kind, message = error(server, "CreateTable", {
        "TableName": "abc", "AttributeDefinitions": [],
        "KeySchema": [{"KeyType": "HASH"}, {"AttributeName": "a"}, {"KeyType": "Woop", "AttributeName": "a"}],
        "ProvisionedThroughput": {"ReadCapacityUnits": 1000000000001, "WriteCapacityUnits": 1000000000001}})
    assert kind == VALIDATION
    parts = message.split("; ")
    assert parts[0].startswith("4 validation errors detected: Value '[")
    assert parts[0].endswith("]' at 'keySchema' failed to satisfy constraint: Member must have length less than or equal to 2")
    assert parts[1:] == [
        null("keySchema.1.member.attributeName"),
        null("keySchema.2.member.keyType"),
        "Value 'Woop' at 'keySchema.3.member.keyType' failed to satisfy constraint: "
        "Member must satisfy enum value set: [HASH, RANGE]"]


def test_create_attribute_definition_constraints(server):
    body = {"TableName": "abc", "AttributeDefinitions": [{}], "KeySchema": HASH_A, "ProvisionedThroughput": PT1}
    assert_validations(server, "CreateTable", body, [null("attributeDefinitions.1.member.attributeName"),
                                                     null("attributeDefinitions.1.member.attributeType")])
    for bad in ["SS", "a", "BOOL"]:
        body["AttributeDefinitions"] = ad(("b", bad))
        assert_validations(server, "CreateTable", body, [
            f"Value '{bad}' at 'attributeDefinitions.1.member.attributeType' failed to satisfy constraint: "
            "Member must satisfy enum value set: [B, N, S]"])


def test_create_billing_mode_enum(server):
    assert_validations(server, "CreateTable", {"TableName": "abc", "AttributeDefinitions": ad(("a", "S")),
                                               "KeySchema": HASH_A, "BillingMode": "ON_DEMAND"}, [
        "Value 'ON_DEMAND' at 'billingMode' failed to satisfy constraint: "
        "Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]"])


def test_create_table_class_enum(server):
    assert_validations(server, "CreateTable", {"TableName": "abc", "AttributeDefinitions": ad(("a", "S")),
                                               "KeySchema": HASH_A, "BillingMode": "PAY_PER_REQUEST",
                                               "TableClass": "GLACIER"}, [
        "Value 'GLACIER' at 'tableClass' failed to satisfy constraint: "
        "Member must satisfy enum value set: [STANDARD, STANDARD_INFREQUENT_ACCESS]"])


def test_create_key_attribute_name_too_long(server):
    name = "k" * 256
    assert_validations(server, "CreateTable", {"TableName": "abc", "AttributeDefinitions": ad((name, "S")),
                                               "KeySchema": ks((name, "HASH")), "BillingMode": "PAY_PER_REQUEST"}, [
        f"Value '{name}' at 'attributeDefinitions.1.member.attributeName' failed to satisfy constraint: "
        "Member must have length less than or equal to 255",
        f"Value '{name}' at 'keySchema.1.member.attributeName' failed to satisfy constraint: "
        "Member must have length less than or equal to 255"])


# ---- CreateTable: billing mode and throughput rules ------------------------------------------


def test_create_needs_throughput_when_provisioned(server):
    for extra in [{}, {"BillingMode": "PROVISIONED"}]:
        assert_validation(server, "CreateTable", {"TableName": "abc", "AttributeDefinitions": [],
                                                  "KeySchema": HASH_A, **extra},
                          INVALID + "ReadCapacityUnits and WriteCapacityUnits must both be specified when "
                                    "BillingMode is PROVISIONED")


def test_create_throughput_refused_when_on_demand(server):
    assert_validation(server, "CreateTable", {"TableName": "abc", "AttributeDefinitions": ad(("a", "S")),
                                              "KeySchema": HASH_A, "BillingMode": "PAY_PER_REQUEST",
                                              "ProvisionedThroughput": PT1},
                      INVALID + "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when "
                                "BillingMode is PAY_PER_REQUEST")


def test_create_negative_write_reported_before_high_read(server):
    assert_validations(server, "CreateTable", {
        "TableName": "abc", "AttributeDefinitions": [], "KeySchema": HASH_A,
        "ProvisionedThroughput": {"ReadCapacityUnits": 1000000000001, "WriteCapacityUnits": -1}}, [
        "Value '-1' at 'provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: "
        "Member must have value greater than or equal to 1"])


@pytest.mark.parametrize("read,write,message", [
    (1000000000001, 1000000000001, "Given value 1000000000001 for ReadCapacityUnits is out of bounds"),
    (1000000000000, 1000000000001, "Given value 1000000000001 for WriteCapacityUnits is out of bounds"),
])
def test_create_throughput_out_of_bounds(server, read, write, message):
    assert_validation(server, "CreateTable", {"TableName": "abc", "AttributeDefinitions": [], "KeySchema": HASH_A,
                                              "ProvisionedThroughput": {"ReadCapacityUnits": read,
                                                                        "WriteCapacityUnits": write}}, message)


def test_create_max_throughput_accepted(ddb, table_name):
    desc = ddb.create_table(TableName=table_name, KeySchema=HASH_A, AttributeDefinitions=ad(("a", "S")),
                            ProvisionedThroughput={"ReadCapacityUnits": 1000000000000,
                                                   "WriteCapacityUnits": 1000000000000})["TableDescription"]
    assert desc["ProvisionedThroughput"]["ReadCapacityUnits"] == 1000000000000


# ---- CreateTable: KeySchema / AttributeDefinitions agreement ---------------------------------


@pytest.mark.parametrize("defs,keys,message", [
    ([], [("a", "HASH"), ("a", "HASH")], "Invalid KeySchema: Some index key attribute have no definition"),
    ([("b", "S")], [("a", "HASH"), ("a", "HASH")], "Invalid KeySchema: Some index key attribute have no definition"),
    ([("b", "S")], [("a", "HASH"), ("b", "RANGE")], "Invalid KeySchema: Some index key attribute have no definition"),
    ([("a", "S")], [("a", "HASH"), ("a", "HASH")], "Invalid KeySchema: Some index key attribute have no definition"),
    ([("b", "S")], [("a", "HASH")],
     INVALID + "Some index key attributes are not defined in AttributeDefinitions. Keys: [a], AttributeDefinitions: [b]"),
    ([("a", "S"), ("b", "S")], [("a", "HASH"), ("a", "HASH")],
     "Both the Hash Key and the Range Key element in the KeySchema have the same name"),
    ([("a", "S"), ("b", "S")], [("a", "HASH"), ("a", "RANGE")],
     "Both the Hash Key and the Range Key element in the KeySchema have the same name"),
    ([("a", "S"), ("b", "S")], [("a", "HASH"), ("b", "HASH")],
     "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type"),
    ([("a", "S"), ("b", "S")], [("a", "RANGE"), ("b", "HASH")],
     "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"),
    ([("a", "S"), ("b", "S")], [("a", "RANGE"), ("b", "RANGE")],
     "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"),
    ([("a", "S")], [("a", "RANGE")], "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"),
    ([("a", "S"), ("c", "S"), ("b", "S")], [("a", "HASH"), ("b", "RANGE")],
     INVALID + "Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions"),
    ([("a", "S"), ("b", "S")], [("a", "HASH")],
     INVALID + "Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions"),
])
def test_create_key_schema_mismatches(server, defs, keys, message):
    assert_validation(server, "CreateTable", {"TableName": "abc", "AttributeDefinitions": ad(*defs),
                                              "KeySchema": ks(*keys), "ProvisionedThroughput": PT1}, message)


def test_create_unused_attribute_definition_with_index(server):
    assert_validation(server, "CreateTable", {
        "TableName": "abc", "AttributeDefinitions": ad(("a", "S"), ("b", "S"), ("c", "S")), "KeySchema": HASH_A,
        "BillingMode": "PAY_PER_REQUEST", "GlobalSecondaryIndexes": [gsi("gg1", ks(("b", "HASH")), throughput=None)]},
        INVALID + "Some AttributeDefinitions are not used. AttributeDefinitions: [a, b, c], keys used: [a, b]")


# ---- CreateTable: local secondary indexes ----------------------------------------------------




def test_lsi_empty_list(server):
    assert_validation(server, "CreateTable", create_lsi_body([], keys=HASH_A),
                      INVALID + "List of LocalSecondaryIndexes is empty")


def test_lsi_many_empty_indexes_report_ten_errors(server):
    expected = []
    for i in range(1, 5):
        expected += [null(f"localSecondaryIndexes.{i}.member.keySchema"),
                     null(f"localSecondaryIndexes.{i}.member.projection"),
                     null(f"localSecondaryIndexes.{i}.member.indexName")]
    assert_validations(server, "CreateTable", create_lsi_body([{}] * 9), expected[:10])


def test_lsi_bad_names(server):
    name = "a" * 256
    assert_validations(server, "CreateTable", create_lsi_body([
        {"IndexName": "h;", "KeySchema": [], "Projection": {}},
        {"IndexName": name, "KeySchema": HASH_A, "Projection": {}}], keys=HASH_A), [
        f"Value 'h;' at 'localSecondaryIndexes.1.member.indexName' failed to satisfy constraint: "
        f"Member must satisfy regular expression pattern: {PATTERN}",
        "Value 'h;' at 'localSecondaryIndexes.1.member.indexName' failed to satisfy constraint: "
        "Member must have length greater than or equal to 3",
        "Value '[]' at 'localSecondaryIndexes.1.member.keySchema' failed to satisfy constraint: "
        "Member must have length greater than or equal to 1",
        f"Value '{name}' at 'localSecondaryIndexes.2.member.indexName' failed to satisfy constraint: "
        "Member must have length less than or equal to 255"])


@pytest.mark.parametrize("table_keys,index,message", [
    (HASH_A, lsi("abc", ks(("c", "RANGE")), {}),
     INVALID + "Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex"),
    (HASH_A_RANGE_B, lsi("abc", ks(("c", "RANGE"), ("d", "RANGE")), {}),
     INVALID + "Some index key attributes are not defined in AttributeDefinitions. Keys: [c, d], AttributeDefinitions: [a, b]"),
    (HASH_A_RANGE_B, lsi("abc", ks(("a", "HASH"), ("c", "RANGE")), {}),
     INVALID + "Some index key attributes are not defined in AttributeDefinitions. Keys: [a, c], AttributeDefinitions: [a, b]"),
    (HASH_A_RANGE_B, lsi("abc", ks(("a", "RANGE")), {}), "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"),
    (HASH_A_RANGE_B, lsi("abc", ks(("a", "HASH"), ("a", "HASH")), {}),
     "Both the Hash Key and the Range Key element in the KeySchema have the same name"),
    (HASH_A_RANGE_B, lsi("abc", ks(("a", "HASH"), ("a", "RANGE")), {}),
     "Both the Hash Key and the Range Key element in the KeySchema have the same name"),
    (HASH_A_RANGE_B, lsi("abc", ks(("a", "HASH"), ("b", "HASH")), {}),
     "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type"),
    (HASH_A_RANGE_B, lsi("abc", ks(("b", "HASH")), {}),
     INVALID + "Index KeySchema does not have a range key for index: abc"),
    (HASH_A_RANGE_B, lsi("abc", ks(("b", "HASH"), ("a", "RANGE")), {}),
     INVALID + "Index KeySchema does not have the same leading hash key as table KeySchema for index: abc. "
               "index hash key: b, table hash key: a"),
    (HASH_A_RANGE_B, lsi("abc", HASH_A_RANGE_B, {}), INVALID + "Unknown ProjectionType: null"),
    (HASH_A_RANGE_B, lsi("abc", HASH_A_RANGE_B, {"NonKeyAttributes": ["a"]}), INVALID + "Unknown ProjectionType: null"),
    (HASH_A_RANGE_B, lsi("abc", HASH_A_RANGE_B, {"ProjectionType": "ALL", "NonKeyAttributes": ["a"]}),
     INVALID + "ProjectionType is ALL, but NonKeyAttributes is specified"),
    (HASH_A_RANGE_B, lsi("abc", HASH_A_RANGE_B, {"ProjectionType": "KEYS_ONLY", "NonKeyAttributes": ["a"]}),
     INVALID + "ProjectionType is KEYS_ONLY, but NonKeyAttributes is specified"),
])
def test_lsi_rules(server, table_keys, index, message):
    assert_validation(server, "CreateTable", create_lsi_body([index], keys=table_keys), message)


def test_lsi_projection_constraints(server):
    assert_validations(server, "CreateTable", create_lsi_body([
        lsi("abc", HASH_A_RANGE_B, {"NonKeyAttributes": [], "ProjectionType": "abc"})]), [
        "Value 'abc' at 'localSecondaryIndexes.1.member.projection.projectionType' failed to satisfy constraint: "
        "Member must satisfy enum value set: [ALL, INCLUDE, KEYS_ONLY]",
        "Value '[]' at 'localSecondaryIndexes.1.member.projection.nonKeyAttributes' failed to satisfy constraint: "
        "Member must have length greater than or equal to 1"])


def test_lsi_duplicate_names(server):
    assert_validation(server, "CreateTable", create_lsi_body([lsi("abc"), lsi("abc")]),
                      INVALID + "Duplicate index name: abc")


def test_lsi_seventh_empty_index_is_reported_by_shape(server):
    indexes = [lsi(n) for n in ["abc", "abd", "abe", "abf", "abg", "abh"]] + [{}]
    assert_validations(server, "CreateTable", create_lsi_body(indexes), [
        null("localSecondaryIndexes.7.member.keySchema"),
        null("localSecondaryIndexes.7.member.projection"),
        null("localSecondaryIndexes.7.member.indexName")])


def test_lsi_more_than_five(server):
    indexes = [lsi(n) for n in ["abc", "abd", "abe", "abf", "abg", "abh"]]
    assert_validation(server, "CreateTable", create_lsi_body(indexes),
                      INVALID + "Number of LocalSecondaryIndexes exceeds per-table limit of 5")


def test_lsi_and_gsi_share_a_name_space(server):
    body = create_lsi_body([lsi("abc")])
    body["GlobalSecondaryIndexes"] = [gsi("abc")]
    assert_validation(server, "CreateTable", body, INVALID + "Duplicate index name: abc")


# ---- CreateTable: global secondary indexes ---------------------------------------------------




def test_gsi_empty_list(server):
    assert_validation(server, "CreateTable", create_gsi_body([], keys=HASH_A),
                      INVALID + "List of GlobalSecondaryIndexes is empty")


def test_gsi_many_empty_indexes_report_ten_errors(server):
    expected = []
    for i in range(1, 5):
        expected += [null(f"globalSecondaryIndexes.{i}.member.keySchema"),
                     null(f"globalSecondaryIndexes.{i}.member.projection"),
                     null(f"globalSecondaryIndexes.{i}.member.indexName")]
    assert_validations(server, "CreateTable", create_gsi_body([{}] * 9), expected[:10])


def test_gsi_bad_names_and_throughput(server):
    name = "a" * 256
    assert_validations(server, "CreateTable", create_gsi_body([
        {"IndexName": "h;", "KeySchema": [], "Projection": {},
         "ProvisionedThroughput": {"ReadCapacityUnits": 0, "WriteCapacityUnits": 0}},
        {"IndexName": name, "KeySchema": HASH_A, "Projection": {}, "ProvisionedThroughput": {}}], keys=HASH_A), [
        f"Value 'h;' at 'globalSecondaryIndexes.1.member.indexName' failed to satisfy constraint: "
        f"Member must satisfy regular expression pattern: {PATTERN}",
        "Value 'h;' at 'globalSecondaryIndexes.1.member.indexName' failed to satisfy constraint: "
        "Member must have length greater than or equal to 3",
        "Value '0' at 'globalSecondaryIndexes.1.member.provisionedThroughput.writeCapacityUnits' failed to satisfy "
        "constraint: Member must have value greater than or equal to 1",
        "Value '0' at 'globalSecondaryIndexes.1.member.provisionedThroughput.readCapacityUnits' failed to satisfy "
        "constraint: Member must have value greater than or equal to 1",
        "Value '[]' at 'globalSecondaryIndexes.1.member.keySchema' failed to satisfy constraint: "
        "Member must have length greater than or equal to 1",
        f"Value '{name}' at 'globalSecondaryIndexes.2.member.indexName' failed to satisfy constraint: "
        "Member must have length less than or equal to 255",
        null("globalSecondaryIndexes.2.member.provisionedThroughput.writeCapacityUnits"),
        null("globalSecondaryIndexes.2.member.provisionedThroughput.readCapacityUnits")])


@pytest.mark.parametrize("table_keys,index,message", [
    (HASH_A, gsi("abc", ks(("c", "RANGE")), {}),
     INVALID + "Some index key attributes are not defined in AttributeDefinitions. Keys: [c], AttributeDefinitions: [a, b]"),
    (HASH_A_RANGE_B, gsi("abc", ks(("c", "RANGE"), ("d", "RANGE")), {}),
     INVALID + "Some index key attributes are not defined in AttributeDefinitions. Keys: [c, d], AttributeDefinitions: [a, b]"),
    (HASH_A_RANGE_B, gsi("abc", ks(("a", "RANGE")), {}), "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"),
    (HASH_A_RANGE_B, gsi("abc", ks(("a", "HASH"), ("a", "HASH")), {}),
     "Both the Hash Key and the Range Key element in the KeySchema have the same name"),
    # Two HASH attributes are a multi-attribute GSI partition key (2025): the projection is checked next.
    (HASH_A_RANGE_B, gsi("abc", ks(("a", "HASH"), ("b", "HASH")), {}), INVALID + "Unknown ProjectionType: null"),
    # A GSI may have only a hash key, or a different one from the table: the projection is checked next.
    (HASH_A_RANGE_B, gsi("abc", ks(("b", "HASH")), {}), INVALID + "Unknown ProjectionType: null"),
    (HASH_A_RANGE_B, gsi("abc", ks(("b", "HASH"), ("a", "RANGE")), {}), INVALID + "Unknown ProjectionType: null"),
    (HASH_A_RANGE_B, gsi("abc", HASH_A_RANGE_B, {"NonKeyAttributes": ["a"]}), INVALID + "Unknown ProjectionType: null"),
    (HASH_A_RANGE_B, gsi("abc", HASH_A_RANGE_B, {"ProjectionType": "ALL", "NonKeyAttributes": ["a"]}),
     INVALID + "ProjectionType is ALL, but NonKeyAttributes is specified"),
    (HASH_A_RANGE_B, gsi("abc", HASH_A_RANGE_B, {"ProjectionType": "KEYS_ONLY", "NonKeyAttributes": ["a"]}),
     INVALID + "ProjectionType is KEYS_ONLY, but NonKeyAttributes is specified"),
])
def test_gsi_rules(server, table_keys, index, message):
    assert_validation(server, "CreateTable", create_gsi_body([index], keys=table_keys), message)


def test_gsi_duplicate_names(server):
    assert_validation(server, "CreateTable", create_gsi_body([gsi("abc"), gsi("abc")]),
                      INVALID + "Duplicate index name: abc")


def test_gsi_seventh_empty_index_is_reported_by_shape(server):
    indexes = [gsi(n) for n in ["abc", "abd", "abe", "abf", "abg", "abh"]] + [{}]
    assert_validations(server, "CreateTable", create_gsi_body(indexes), [
        null("globalSecondaryIndexes.7.member.keySchema"),
        null("globalSecondaryIndexes.7.member.projection"),
        null("globalSecondaryIndexes.7.member.indexName")])


def test_gsi_more_than_twenty(server):
    indexes = [gsi(f"abc{i}") for i in range(21)]
    assert_validation(server, "CreateTable", create_gsi_body(indexes),
                      INVALID + "GlobalSecondaryIndex count exceeds the per-table limit of 20")


def test_gsi_twenty_accepted(ddb, table_name):
    indexes = [gsi(f"g{i:02d}", ks(("b", "HASH")), {"ProjectionType": "KEYS_ONLY"}, throughput=None) for i in range(20)]
    desc = ddb.create_table(TableName=table_name, AttributeDefinitions=AB, KeySchema=HASH_A,
                            BillingMode="PAY_PER_REQUEST", GlobalSecondaryIndexes=indexes)["TableDescription"]
    assert sorted(i["IndexName"] for i in desc["GlobalSecondaryIndexes"]) == [f"g{i:02d}" for i in range(20)]


def test_gsi_throughput_refused_when_on_demand(server):
    body = create_gsi_body([gsi("abc")], BillingMode="PAY_PER_REQUEST")
    del body["ProvisionedThroughput"]
    assert_validation(server, "CreateTable", body,
                      INVALID + "ProvisionedThroughput should not be specified for index: abc when BillingMode is "
                                "PAY_PER_REQUEST")


def test_gsi_throughput_required_when_provisioned(server):
    assert_validation(server, "CreateTable", create_gsi_body([gsi("abc", throughput=None)]),
                      # CreateTable's words (UpdateTable says "must be specified"; ack-api-quirks' catalogue).
                      INVALID + "ProvisionedThroughput is not specified for index: abc")


# ---- CreateTable / DescribeTable: the description --------------------------------------------


def test_create_basic_description(server):
    name = unique_name()
    before = time.time()
    desc = ok(server, "CreateTable", {"TableName": name, "AttributeDefinitions": ad(("a", "S")),
                                      "KeySchema": HASH_A, "ProvisionedThroughput": PT1})["TableDescription"]
    assert UUID4.match(desc.pop("TableId"))
    created = desc.pop("CreationDateTime")
    assert before - 5 < created < time.time() + 5
    assert desc == {
        "AttributeDefinitions": ad(("a", "S")),
        "TableName": name,
        "KeySchema": HASH_A,
        "TableStatus": "CREATING",
        "ProvisionedThroughput": {"NumberOfDecreasesToday": 0, "ReadCapacityUnits": 1, "WriteCapacityUnits": 1},
        "TableSizeBytes": 0,
        "ItemCount": 0,
        "TableArn": arn(name),
        "DeletionProtectionEnabled": False,
    }


def test_provisioned_table_without_billing_mode_has_no_summary(server):
    name = unique_name()
    desc = create_raw(server, name, BillingMode=None, ProvisionedThroughput=PT1)
    assert "BillingModeSummary" not in desc


def test_describe_matches_create_and_is_active(server):
    name = unique_name()
    created = ok(server, "CreateTable", {"TableName": name, "AttributeDefinitions": ad(("a", "S")),
                                         "KeySchema": HASH_A, "BillingMode": "PROVISIONED",
                                         "ProvisionedThroughput": {"ReadCapacityUnits": 3, "WriteCapacityUnits": 4}})
    created = created["TableDescription"]
    described = describe_raw(server, name)
    assert described["TableStatus"] == "ACTIVE"
    created["TableStatus"] = "ACTIVE"
    assert described == created
    assert described["BillingModeSummary"] == {"BillingMode": "PROVISIONED"}


def test_on_demand_description(server):
    name = unique_name()
    desc = create_raw(server, name)
    assert desc["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    assert desc["BillingModeSummary"]["LastUpdateToPayPerRequestDateTime"] == desc["CreationDateTime"]
    assert desc["ProvisionedThroughput"] == {"NumberOfDecreasesToday": 0, "ReadCapacityUnits": 0,
                                             "WriteCapacityUnits": 0}
    assert desc["DeletionProtectionEnabled"] is False
    for absent in ["TableClassSummary", "SSEDescription", "StreamSpecification", "LatestStreamArn",
                   "LocalSecondaryIndexes", "GlobalSecondaryIndexes", "Tags"]:
        assert absent not in desc


def test_create_full_description(server):
    name = unique_name()
    desc = ok(server, "CreateTable", {
        "TableName": name,
        "AttributeDefinitions": ad(("pk", "S"), ("sk", "N"), ("l", "B"), ("g", "S")),
        "KeySchema": ks(("pk", "HASH"), ("sk", "RANGE")),
        "LocalSecondaryIndexes": [lsi("byL", ks(("pk", "HASH"), ("l", "RANGE")),
                                      {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["x", "y"]})],
        "GlobalSecondaryIndexes": [gsi("byG", ks(("g", "HASH"), ("sk", "RANGE")), {"ProjectionType": "KEYS_ONLY"},
                                       throughput={"ReadCapacityUnits": 2, "WriteCapacityUnits": 3})],
        "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 6},
        "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
        "SSESpecification": {"Enabled": True},
        "Tags": [{"Key": "team", "Value": "db"}, {"Key": "empty", "Value": ""}],
        "TableClass": "STANDARD_INFREQUENT_ACCESS",
        "DeletionProtectionEnabled": True,
    })["TableDescription"]
    assert desc["TableStatus"] == "CREATING"
    assert desc["LocalSecondaryIndexes"] == [{
        "IndexName": "byL", "KeySchema": ks(("pk", "HASH"), ("l", "RANGE")),
        "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["x", "y"]},
        "IndexSizeBytes": 0, "ItemCount": 0, "IndexArn": arn(name) + "/index/byL"}]
    assert desc["GlobalSecondaryIndexes"] == [{
        "IndexName": "byG", "KeySchema": ks(("g", "HASH"), ("sk", "RANGE")),
        "Projection": {"ProjectionType": "KEYS_ONLY"}, "IndexStatus": "CREATING",
        "ProvisionedThroughput": {"NumberOfDecreasesToday": 0, "ReadCapacityUnits": 2, "WriteCapacityUnits": 3},
        "IndexSizeBytes": 0, "ItemCount": 0, "IndexArn": arn(name) + "/index/byG"}]
    assert desc["StreamSpecification"] == {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}
    label = desc["LatestStreamLabel"]
    assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$", label)
    assert desc["LatestStreamArn"] == arn(name) + "/stream/" + label
    assert desc["SSEDescription"]["Status"] == "ENABLED"
    assert desc["SSEDescription"]["SSEType"] == "KMS"
    assert desc["SSEDescription"]["KMSMasterKeyArn"].startswith(f"arn:aws:kms:us-east-1:{ACCOUNT}:key/")
    assert desc["TableClassSummary"] == {"TableClass": "STANDARD_INFREQUENT_ACCESS"}
    assert desc["DeletionProtectionEnabled"] is True
    assert "Tags" not in desc

    described = describe_raw(server, name)
    assert described["TableStatus"] == "ACTIVE"
    assert described["GlobalSecondaryIndexes"][0]["IndexStatus"] == "ACTIVE"
    assert described["LatestStreamArn"] == desc["LatestStreamArn"]
    assert described["TableClassSummary"] == {"TableClass": "STANDARD_INFREQUENT_ACCESS"}
    ok(server, "UpdateTable", {"TableName": name, "DeletionProtectionEnabled": False})
    ok(server, "DeleteTable", {"TableName": name})


def test_create_with_boto3_and_waiter(ddb, table_name):
    resp = ddb.create_table(TableName=table_name, KeySchema=HASH_A_RANGE_B, AttributeDefinitions=AB,
                            BillingMode="PAY_PER_REQUEST", Tags=[{"Key": "k", "Value": "v"}],
                            TableClass="STANDARD")
    assert resp["TableDescription"]["TableStatus"] == "CREATING"
    ddb.get_waiter("table_exists").wait(TableName=table_name, WaiterConfig={"Delay": 1, "MaxAttempts": 5})
    table = ddb.describe_table(TableName=table_name)["Table"]
    assert table["TableStatus"] == "ACTIVE"
    assert table["KeySchema"] == HASH_A_RANGE_B
    assert table["AttributeDefinitions"] == AB
    assert table["CreationDateTime"].tzinfo is not None


def test_create_duplicate_is_resource_in_use(server):
    name = unique_name()
    create_raw(server, name)
    assert error(server, "CreateTable", {"TableName": name, "AttributeDefinitions": ad(("a", "S")),
                                         "KeySchema": HASH_A, "BillingMode": "PAY_PER_REQUEST"}) == (
        IN_USE, f"Table already exists: {name}")


def test_table_ids_are_unique(server):
    ids = {create_raw(server, unique_name())["TableId"] for _ in range(3)}
    assert len(ids) == 3


def test_create_ignores_unknown_members(server):
    name = unique_name()
    desc = create_raw(server, name, Whatever={"x": 1}, Tags=None)
    assert desc["TableName"] == name


# ---- CreateTable: definitions, projections, streams and tags (AWS's current words) -------------


def test_create_duplicated_attribute_definition(server):
    # Refused before the key schema is compared with the definitions, without the usual
    # "One or more parameter values were invalid" prefix (ack-api-quirks' DynamoDB error
    # catalogue, recorded against AWS: "Attribute Name is duplicated: <ATTR>").
    for defs in [ad(("a", "S"), ("a", "S")), ad(("a", "S"), ("b", "N"), ("a", "N"))]:
        assert_validation(server, "CreateTable", {"TableName": "abc", "AttributeDefinitions": defs,
                                                  "KeySchema": HASH_A, "BillingMode": "PAY_PER_REQUEST"},
                          "Attribute Name is duplicated: a")
    assert_validation(server, "CreateTable", create_gsi_body([gsi("gg1", ks(("b", "HASH")))],
                                                             defs=ad(("a", "S"), ("b", "S"), ("b", "S"))),
                      "Attribute Name is duplicated: b")


@pytest.mark.parametrize("projection,message", [
    # dynamodb-conformance's error-messages/createTable.test.ts (recorded against AWS in 2026).
    ({"ProjectionType": "INCLUDE"}, INVALID + "ProjectionType is INCLUDE, but NonKeyAttributes is not specified"),
    # ack-api-quirks' DynamoDB error catalogue (recorded against AWS).
    ({"ProjectionType": "INCLUDE", "NonKeyAttributes": ["x", "y", "x"]},
     INVALID + "Duplicate element in NonKeyAttributes: x"),
    ({"ProjectionType": "ALL", "NonKeyAttributes": ["x"]}, INVALID + "ProjectionType is ALL, but NonKeyAttributes is "
                                                                     "specified"),
    ({"NonKeyAttributes": ["x"]}, INVALID + "Unknown ProjectionType: null"),
])
@pytest.mark.parametrize("kind", ["gsi", "lsi", "update"])
def test_projection_errors(server, ddb, kind, projection, message):
    if kind == "gsi":
        body = create_gsi_body([gsi("gg1", ks(("b", "HASH")), projection, throughput=None)], keys=HASH_A,
                               BillingMode="PAY_PER_REQUEST")
        del body["ProvisionedThroughput"]
        assert_validation(server, "CreateTable", body, message)
    elif kind == "lsi":
        assert_validation(server, "CreateTable", create_lsi_body([lsi("ll1", ks(("a", "HASH"), ("c", "RANGE")),
                                                                      projection)],
                                                                 defs=ad(("a", "S"), ("b", "S"), ("c", "S"))), message)
    else:
        name = unique_name()
        ddb.create_table(TableName=name, KeySchema=HASH_A, AttributeDefinitions=ad(("a", "S")),
                         BillingMode="PAY_PER_REQUEST")
        assert_validation(server, "UpdateTable", {
            "TableName": name, "AttributeDefinitions": ad(("b", "S")),
            "GlobalSecondaryIndexUpdates": [{"Create": gsi("gg1", ks(("b", "HASH")), projection, throughput=None)}]},
            message)


def test_projected_attribute_names_are_limited_to_255_characters(server, ddb):
    # ScyllaDB's test_limits.py::test_limit_attribute_length_gsi_lsi_projection_bad (passes on
    # AWS): a name listed in NonKeyAttributes is at most 255 characters, though the attribute
    # itself may have a longer name (up to 64 KB) and is projected by ALL.
    long = "n" * 256
    body = create_gsi_body([gsi("gg1", ks(("b", "HASH")), {"ProjectionType": "INCLUDE",
                                                            "NonKeyAttributes": ["ok", long]})])
    assert_validations(server, "CreateTable", body, [
        f"Value '{long}' at 'globalSecondaryIndexes.1.member.projection.nonKeyAttributes.2.member' failed to satisfy "
        "constraint: Member must have length less than or equal to 255"])
    body = create_lsi_body([lsi("ll1", ks(("a", "HASH"), ("c", "RANGE")), {"ProjectionType": "INCLUDE",
                                                                           "NonKeyAttributes": [""]})],
                           defs=ad(("a", "S"), ("b", "S"), ("c", "S")))
    assert_validations(server, "CreateTable", body, [
        "Value '' at 'localSecondaryIndexes.1.member.projection.nonKeyAttributes.1.member' failed to satisfy "
        "constraint: Member must have length greater than or equal to 1"])
    name = unique_name()
    ddb.create_table(TableName=name, KeySchema=HASH_A, AttributeDefinitions=ad(("a", "S")),
                     BillingMode="PAY_PER_REQUEST")
    assert_validations(server, "UpdateTable", {
        "TableName": name, "AttributeDefinitions": ad(("b", "S")),
        "GlobalSecondaryIndexUpdates": [{"Create": gsi("gg1", ks(("b", "HASH")), {
            "ProjectionType": "INCLUDE", "NonKeyAttributes": [long]}, throughput=None)}]}, [
        f"Value '{long}' at 'globalSecondaryIndexUpdates.1.member.create.projection.nonKeyAttributes.1.member' "
        "failed to satisfy constraint: Member must have length less than or equal to 255"])
    # Projected by ALL, a longer name is fine.
    name = unique_name()
    ddb.create_table(TableName=name, KeySchema=HASH_A, AttributeDefinitions=ad(("a", "S"), ("b", "S")),
                     BillingMode="PAY_PER_REQUEST", GlobalSecondaryIndexes=[gsi("gg1", ks(("b", "HASH")),
                                                                                throughput=None)])
    ddb.put_item(TableName=name, Item={"a": {"S": "1"}, "b": {"S": "x"}, long: {"S": "v"}})
    assert ddb.scan(TableName=name, IndexName="gg1")["Items"] == [{"a": {"S": "1"}, "b": {"S": "x"},
                                                                    long: {"S": "v"}}]


@pytest.mark.parametrize("spec,message", [
    # dynamodb-conformance's error-messages/createTable.test.ts and ack-api-quirks' DynamoDB error
    # catalogue, both recorded against AWS.
    ({"StreamEnabled": False, "StreamViewType": "NEW_AND_OLD_IMAGES"},
     INVALID + "Table is being created with a stream disabled, UpdateViewType should not be specified"),
    ({"StreamEnabled": True}, INVALID + "Table is being created with a stream enabled, UpdateViewType is required"),
])
def test_create_stream_specification_errors(server, spec, message):
    assert_validation(server, "CreateTable", {"TableName": "abc", "AttributeDefinitions": ad(("a", "S")),
                                              "KeySchema": HASH_A, "BillingMode": "PAY_PER_REQUEST",
                                              "StreamSpecification": spec}, message)


def test_create_tag_limits(server):
    # Tag keys 1-128 characters, values 0-256 (AWS's API reference, Tag): checked with the other
    # constraints of CreateTable.
    base = {"TableName": "abc", "AttributeDefinitions": ad(("a", "S")), "KeySchema": HASH_A,
            "BillingMode": "PAY_PER_REQUEST"}
    assert_validations(server, "CreateTable", {**base, "Tags": [{"Key": "k" * 129, "Value": "v" * 257},
                                                                {"Key": "", "Value": ""}]}, [
        f"Value '{'k' * 129}' at 'tags.1.member.key' failed to satisfy constraint: Member must have length less than "
        "or equal to 128",
        f"Value '{'v' * 257}' at 'tags.1.member.value' failed to satisfy constraint: Member must have length less than "
        "or equal to 256",
        "Value '' at 'tags.2.member.key' failed to satisfy constraint: Member must have length greater than or equal "
        "to 1"])


def test_projected_attributes_are_limited_to_100_over_all_indexes(server, ddb):
    # API reference, Projection.NonKeyAttributes: "the total count of NonKeyAttributes summed across all
    # of the secondary indexes, must not exceed 100. If you project the same attribute into two different
    # indexes, this counts as two distinct attributes". Six GSIs projecting the same 17 names: 102.
    include = {"ProjectionType": "INCLUDE", "NonKeyAttributes": [f"x{i}" for i in range(17)]}
    over = [gsi(f"g{n}x", ks(("b", "HASH")), include, throughput=None) for n in range(6)]
    body = {"TableName": unique_name(), "AttributeDefinitions": ad(("a", "S"), ("b", "S")), "KeySchema": HASH_A,
            "GlobalSecondaryIndexes": over, "BillingMode": "PAY_PER_REQUEST"}
    assert_validation(server, "CreateTable", body,
                      INVALID + "Number of projected attributes in all indexes exceeds limit of 100")
    # Five of twenty are exactly 100: accepted. A sixth index by UpdateTable passes the limit.
    twenty = {"ProjectionType": "INCLUDE", "NonKeyAttributes": [f"x{i}" for i in range(20)]}
    body["GlobalSecondaryIndexes"] = [gsi(f"g{n}x", ks(("b", "HASH")), twenty, throughput=None) for n in range(5)]
    ddb.create_table(**body)
    assert_validation(server, "UpdateTable", {
        "TableName": body["TableName"], "AttributeDefinitions": ad(("b", "S")),
        "GlobalSecondaryIndexUpdates": [{"Create": gsi("g5x", ks(("b", "HASH")),
                                                       {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["y"]},
                                                       throughput=None)}]},
        INVALID + "Number of projected attributes in all indexes exceeds limit of 100")
