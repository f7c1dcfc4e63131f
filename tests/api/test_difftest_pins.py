"""Answers the differential tester (tests/difftest) found monotable and DynamoDB Local to disagree on,
pinned to what AWS does (tests/difftest/known.py names each source):

- where DynamoDB Local departs from AWS, monotable's (AWS's) answer is pinned here so the tester can
  stay quiet on the difference;
- where monotable was the one that departed (nested paths into key attributes in a Scan filter or a
  BatchGetItem projection), the fix is pinned here.
"""
import pytest

from conftest import create_pk_table
from raw import call

VALIDATION = "com.amazon.coral.validate#ValidationException"
SERIALIZATION = "com.amazon.coral.service#SerializationException"
KEY_SCALAR = "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: "


def answer(server, op, body):
    status, parsed, _ = call(server.port, op, body)
    return status, parsed.get("__type"), parsed.get("message", parsed.get("Message"))


@pytest.fixture(scope="module")
def table(ddb):
    return create_pk_table(ddb, "pins", range_type="N")


# ---- DynamoDB Local departs from AWS ----------------------------------------------------------------

@pytest.mark.parametrize("body", [
    {"TableName": 5, "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}}},
    {"TableName": [], "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}}},
    {"TableName": {}, "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}}},
    {"TableName": "TABLE", "Key": {"pk": {"S": "a"}, "sk": {"N": 1}}},
    {"TableName": "TABLE", "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}}, "ConsistentRead": "x"},
    {"TableName": "TABLE", "Key": True},
])
def test_wrong_json_types_are_serialization_errors(server, table, body):
    # AWS: 400 SerializationException (DynamoDB Local: 500 InternalFailure, or accepts a JSON number).
    if body["TableName"] == "TABLE":
        body = dict(body, TableName=table)
    status, kind, _ = answer(server, "GetItem", body)
    assert (status, kind) == (400, SERIALIZATION)


def test_number_given_as_json_number_is_a_serialization_error(server, table):
    status, kind, _ = answer(server, "PutItem", {"TableName": table, "Item": {
        "pk": {"S": "a"}, "sk": {"N": "1"}, "x": {"N": 1}}})
    assert (status, kind) == (400, SERIALIZATION)


@pytest.mark.parametrize("bad", ["abc", "NaN", "Infinity", " 1", "0x10"])
def test_bad_number_message(server, table, bad):
    status, kind, message = answer(server, "PutItem", {"TableName": table, "Item": {
        "pk": {"S": "a"}, "sk": {"N": "1"}, "x": {"N": bad}}})
    assert (status, kind) == (400, VALIDATION)
    assert message.startswith("The parameter cannot be converted to a numeric value")


@pytest.mark.parametrize("field,value", [("ReturnConsumedCapacity", ""), ("ReturnConsumedCapacity", "COUNT"),
                                         ("ReturnItemCollectionMetrics", "BOGUS"),
                                         ("ReturnItemCollectionMetrics", "")])
def test_enum_members_are_validated(server, table, field, value):
    status, kind, message = answer(server, "PutItem", {"TableName": table, "Item": {
        "pk": {"S": "a"}, "sk": {"N": "1"}}, field: value})
    assert (status, kind) == (400, VALIDATION)
    assert f"at '{field[0].lower() + field[1:]}' failed to satisfy constraint: Member must satisfy enum value set" \
        in message


@pytest.mark.parametrize("expression,values", [("REMOVE a", None), ("REMOVE a, b.c", None),
                                               ("DELETE s :v", {":v": {"SS": ["x"]}})])
def test_remove_or_delete_only_update_does_not_create_item(server, table, expression, values):
    key = {"pk": {"S": "absent-" + expression}, "sk": {"N": "1"}}
    body = {"TableName": table, "Key": key, "UpdateExpression": expression, "ReturnValues": "ALL_NEW"}
    if values:
        body["ExpressionAttributeValues"] = values
    status, parsed, _ = call(server.port, "UpdateItem", body)
    assert (status, parsed) == (200, {})
    status, parsed, _ = call(server.port, "GetItem", {"TableName": table, "Key": key, "ConsistentRead": True})
    assert (status, parsed) == (200, {})


def test_query_filter_on_key_path_names_the_key_attribute(server, table):
    status, kind, message = answer(server, "Query", {
        "TableName": table, "KeyConditionExpression": "pk = :p", "FilterExpression": "attribute_exists(sk[0])",
        "ExpressionAttributeValues": {":p": {"S": "a"}}})
    assert (status, kind, message) == (
        400, VALIDATION, "Filter Expression can only contain non-primary key attributes: Primary key attribute: sk")


# ---- monotable fixed: nested paths into key attributes ------------------------------------------------

@pytest.mark.parametrize("filt,attr", [("attribute_exists(sk[0])", "sk"), ("pk.x = :v", "pk"),
                                       ("attribute_exists(a) AND size(pk[1]) > :n", "pk")])
def test_scan_filter_may_not_address_key_paths(server, table, filt, attr):
    values = {k: v for k, v in {":v": {"S": "x"}, ":n": {"N": "1"}}.items() if k in filt}
    body = {"TableName": table, "FilterExpression": filt}
    if values:
        body["ExpressionAttributeValues"] = values
    assert answer(server, "Scan", body) == (400, VALIDATION, KEY_SCALAR + "Key: " + attr)


def test_scan_filter_may_not_address_index_key_paths(server, ddb):
    name = create_pk_table(ddb, "pins-gsi")
    ddb.update_table(TableName=name, AttributeDefinitions=[{"AttributeName": "g", "AttributeType": "S"}],
                     GlobalSecondaryIndexUpdates=[{"Create": {
                         "IndexName": "gix", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                         "Projection": {"ProjectionType": "ALL"}}}])
    assert answer(server, "Scan", {"TableName": name, "FilterExpression": "attribute_exists(g.h)"}) == (
        400, VALIDATION, KEY_SCALAR + "IndexKey: g")
    # A top-level key attribute in a Scan filter stays allowed.
    status, _, _ = answer(server, "Scan", {"TableName": name, "FilterExpression": "attribute_exists(g)"})
    assert status == 200


def test_batch_get_projection_may_not_address_key_paths(server, table):
    body = {"RequestItems": {table: {"Keys": [{"pk": {"S": "a"}, "sk": {"N": "1"}}],
                                     "ProjectionExpression": "pk[1], a"}}}
    assert answer(server, "BatchGetItem", body) == (400, VALIDATION, KEY_SCALAR + "Key: pk")
    body["RequestItems"][table]["ProjectionExpression"] = "#s.x"
    body["RequestItems"][table]["ExpressionAttributeNames"] = {"#s": "sk"}
    assert answer(server, "BatchGetItem", body) == (400, VALIDATION, KEY_SCALAR + "Key: sk")


def test_reserved_word_in_nested_path(server, table):
    status, kind, message = answer(server, "GetItem", {
        "TableName": table, "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}}, "ProjectionExpression": "a.size"})
    assert (status, kind, message) == (
        400, VALIDATION, "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: size")


def test_batch_get_numerically_equal_keys_are_duplicates(server, table):
    body = {"RequestItems": {table: {"Keys": [{"pk": {"S": "a"}, "sk": {"N": "1"}},
                                              {"pk": {"S": "a"}, "sk": {"N": "1.0"}}]}}}
    assert answer(server, "BatchGetItem", body) == (400, VALIDATION, "Provided list of item keys contains duplicates")


def test_empty_expression_attribute_values_are_refused(server, table):
    # Without an expression: refused for its presence, even empty (DynamoDB Local lets it through).
    assert answer(server, "Query", {
        "TableName": table, "KeyConditions": {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]}},
        "ExpressionAttributeValues": {}}) == (
        400, VALIDATION, "ExpressionAttributeValues can only be specified when using expressions: "
        "KeyConditionExpression and FilterExpression are null")
    # With one: refused as empty.
    assert answer(server, "PutItem", {
        "TableName": table, "Item": {"pk": {"S": "a"}, "sk": {"N": "1"}}, "ConditionExpression": "attribute_exists(pk)",
        "ExpressionAttributeValues": {}}) == (400, VALIDATION, "ExpressionAttributeValues must not be empty")


def test_attribute_updates_delete_only_does_not_create_item(server, table):
    key = {"pk": {"S": "absent-legacy"}, "sk": {"N": "1"}}
    status, parsed, _ = call(server.port, "UpdateItem", {"TableName": table, "Key": key, "ReturnValues": "ALL_NEW",
                                                         "AttributeUpdates": {"a": {"Action": "DELETE"}}})
    assert (status, parsed) == (200, {})
    status, parsed, _ = call(server.port, "GetItem", {"TableName": table, "Key": key, "ConsistentRead": True})
    assert (status, parsed) == (200, {})


def test_attribute_updates_values_checked_before_condition(server, table):
    key = {"pk": {"S": "legacy-order"}, "sk": {"N": "1"}}
    body = {"TableName": table, "Key": key, "Expected": {"a": {"ComparisonOperator": "NOT_NULL"}},
            "AttributeUpdates": {"b": {"Action": "PUT", "Value": {"N": "1.23456789012345678901234567890123456789"}}}}
    assert answer(server, "UpdateItem", body) == (
        400, VALIDATION, "Attempting to store more than 38 significant digits in a Number")


@pytest.mark.parametrize("condition", ["attribute_exists(size.x)", "attribute_not_exists(size[1][0])",
                                       "attribute_exists(a.size)"])
def test_reserved_word_as_path_head_in_condition(server, table, condition):
    status, kind, message = answer(server, "PutItem", {
        "TableName": table, "Item": {"pk": {"S": "r"}, "sk": {"N": "1"}}, "ConditionExpression": condition})
    assert (status, kind, message) == (
        400, VALIDATION, "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: size")


def test_empty_attributes_to_get_is_refused(server, table):
    assert answer(server, "GetItem", {"TableName": table, "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}},
                                      "AttributesToGet": []}) == (
        400, VALIDATION, "1 validation error detected: Value '[]' at 'attributesToGet' failed to satisfy constraint: "
        "Member must have length greater than or equal to 1")
