"""Legacy (pre-expression) parameters, through boto3: Expected with ConditionalOperator,
AttributeUpdates (PUT, ADD, DELETE), AttributesToGet, and the refusal to mix legacy and expression
parameters in one request.

Ground truth: scylladb's alternator test_expected.py and test_item.py (which pass on AWS), dynalite's
recorded putItem/updateItem messages, and AWS captures of the ConditionalOperator and mixing rules.
"""
import decimal
import uuid

import boto3
import botocore.config
import pytest
from botocore.exceptions import ClientError

from conftest import make_resource_table, unique_name
from item_helpers import new_key, put, item, error
from raw import call

CCF = "ConditionalCheckFailedException"
VALIDATION = "ValidationException"
INVALID = "One or more parameter values were invalid: "
MIXED = "Can not use both expression and non-expression parameters in the same request: "
D = decimal.Decimal


@pytest.fixture(scope="module")
def table(ddb, resource):
    return make_resource_table(ddb, resource, "legacy")


@pytest.fixture(scope="module")
def range_table(ddb, resource):
    return make_resource_table(ddb, resource, "legacy-range", range_key=True)


def expected_holds(table, key, expected, **kwargs):
    """An UpdateItem under `expected`: True if applied, False on ConditionalCheckFailed."""
    try:
        table.update_item(Key=key, AttributeUpdates={"touched": {"Value": 1, "Action": "PUT"}}, Expected=expected,
                          **kwargs)
        return True
    except ClientError as e:
        if e.response["Error"]["Code"] == CCF:
            assert e.response["Error"]["Message"] == "The conditional request failed"
            return False
        raise


def expected_refused(table, key, expected, **kwargs):
    code, message = error(table.update_item, Key=key, AttributeUpdates={"touched": {"Value": 1, "Action": "PUT"}},
                          Expected=expected, **kwargs)
    assert code == VALIDATION, message
    return message


# ---- Expected -----------------------------------------------------------------------------------


def test_expected_value_and_exists(table):
    key = put(table, a=1)
    assert expected_holds(table, key, {"a": {"Value": 1}})
    assert not expected_holds(table, key, {"a": {"Value": 2}})
    assert not expected_holds(table, key, {"a": {"Value": "1"}})
    assert not expected_holds(table, key, {"z": {"Value": 1}})  # a missing attribute is not equal
    assert expected_holds(table, key, {"a": {"Exists": True, "Value": 1}})
    assert not expected_holds(table, key, {"a": {"Exists": True, "Value": 2}})
    assert expected_holds(table, key, {"z": {"Exists": False}})
    assert not expected_holds(table, key, {"a": {"Exists": False}})
    assert expected_holds(table, key, {})  # an empty Expected always holds
    assert item(table, key) == {**key, "a": 1, "touched": 1}


def test_expected_set_equality_ignores_order(table):
    key = put(table, a={"dog", "chinchilla"})
    table.update_item(Key=key, UpdateExpression="ADD a :v", ExpressionAttributeValues={":v": {"cat", "mouse"}})
    assert expected_holds(table, key, {"a": {"ComparisonOperator": "EQ",
                                             "AttributeValueList": [{"chinchilla", "cat", "dog", "mouse"}]}})


def test_expected_validation_messages(table):
    key = new_key()
    cases = [
        ({"a": {}}, "Value must be provided when Exists is null for Attribute: a"),
        ({"a": {"Exists": True}}, "Value must be provided when Exists is true for Attribute: a"),
        ({"a": {"Exists": False, "Value": 1}}, "Value cannot be used when Exists is false for Attribute: a"),
        ({"a": {"ComparisonOperator": "LT"}},
         "Value or AttributeValueList must be used with ComparisonOperator: LT for Attribute: a"),
        ({"a": {"Exists": True, "ComparisonOperator": "LT"}},
         "Exists and ComparisonOperator cannot be used together for Attribute: a"),
        ({"a": {"AttributeValueList": ["a"], "Value": "a", "ComparisonOperator": "LT"}},
         "Value and AttributeValueList cannot be used together for Attribute: a"),
        ({"a": {"AttributeValueList": ["a"]}},
         "AttributeValueList can only be used with a ComparisonOperator for Attribute: a"),
        ({"a": {"Exists": True, "AttributeValueList": ["a"]}},
         "AttributeValueList can only be used with a ComparisonOperator for Attribute: a"),
        ({"a": {"ComparisonOperator": "EQ", "AttributeValueList": []}},
         "Invalid number of argument(s) for the EQ ComparisonOperator"),
        ({"a": {"ComparisonOperator": "EQ", "AttributeValueList": [2, 3]}},
         "Invalid number of argument(s) for the EQ ComparisonOperator"),
        ({"a": {"ComparisonOperator": "NE", "AttributeValueList": [2, 3]}},
         "Invalid number of argument(s) for the NE ComparisonOperator"),
        ({"a": {"ComparisonOperator": "NULL", "AttributeValueList": ["a"]}},
         "Invalid number of argument(s) for the NULL ComparisonOperator"),
        ({"a": {"ComparisonOperator": "IN", "AttributeValueList": []}},
         "Invalid number of argument(s) for the IN ComparisonOperator"),
        ({"a": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [1, 10, 12]}},
         "Invalid number of argument(s) for the BETWEEN ComparisonOperator"),
        ({"a": {"ComparisonOperator": "NULL", "Value": "a"}},
         "Invalid number of argument(s) for the NULL ComparisonOperator"),
        ({"a": {"ComparisonOperator": "BETWEEN", "Value": "a"}},
         "Invalid number of argument(s) for the BETWEEN ComparisonOperator"),
    ]
    for expected, message in cases:
        assert expected_refused(table, key, expected) == INVALID + message, expected
        assert error(table.put_item, Item=key, Expected=expected) == (VALIDATION, INVALID + message), expected
    assert item(table, key) is None


# (operator, attribute, AttributeValueList, holds) on an item a=1, s='hello', b=b'hi there',
# ns={2, 4, 7}, l=[2, 4, 7], n=None.
OPERATOR_CASES = [
    ("EQ", "a", [1], True), ("EQ", "a", [2], False), ("EQ", "a", ["1"], False), ("EQ", "q", [1], False),
    ("EQ", "l", [[2, 4, 7]], True), ("EQ", "n", [None], True),
    ("NE", "a", [2], True), ("NE", "a", [1], False), ("NE", "a", ["1"], True), ("NE", "q", [1], True),
    ("LT", "a", [2], True), ("LT", "a", [1], False), ("LT", "s", ["z"], True), ("LT", "b", [b"hz"], True),
    ("LT", "a", ["2"], False), ("LT", "q", [2], False),
    ("LE", "a", [1], True), ("LE", "a", [0], False), ("LE", "s", ["hello"], True), ("LE", "b", [b"aa"], False),
    ("GT", "a", [0], True), ("GT", "a", [1], False), ("GT", "s", ["a"], True), ("GT", "b", [b"hi"], True),
    ("GE", "a", [1], True), ("GE", "a", [2], False), ("GE", "s", ["hello!"], False), ("GE", "q", [0], False),
    ("NULL", "q", None, True), ("NULL", "a", None, False), ("NULL", "n", None, False),
    ("NOT_NULL", "a", None, True), ("NOT_NULL", "n", None, True), ("NOT_NULL", "q", None, False),
    ("CONTAINS", "s", ["ell"], True), ("CONTAINS", "s", ["dog"], False), ("CONTAINS", "ns", [4], True),
    ("CONTAINS", "ns", [1], False), ("CONTAINS", "l", [4], True), ("CONTAINS", "b", [b"here"], True),
    ("CONTAINS", "a", [1], False), ("CONTAINS", "q", [1], False),
    ("NOT_CONTAINS", "s", ["dog"], True), ("NOT_CONTAINS", "s", ["ell"], False), ("NOT_CONTAINS", "ns", [1], True),
    ("NOT_CONTAINS", "ns", [4], False), ("NOT_CONTAINS", "l", [4], False), ("NOT_CONTAINS", "b", [b"dog"], True),
    # Surprisingly, a missing attribute neither CONTAINS nor NOT_CONTAINS anything.
    ("NOT_CONTAINS", "q", [1], False),
    ("BEGINS_WITH", "s", ["hell"], True), ("BEGINS_WITH", "s", ["dog"], False), ("BEGINS_WITH", "b", [b"hi"], True),
    ("BEGINS_WITH", "a", ["1"], False), ("BEGINS_WITH", "q", ["x"], False),
    ("IN", "a", [0, 1, 2], True), ("IN", "a", [2, 3], False), ("IN", "ns", [2], False), ("IN", "q", [1], False),
    ("BETWEEN", "a", [0, 2], True), ("BETWEEN", "a", [1, 1], True), ("BETWEEN", "a", [2, 3], False),
    ("BETWEEN", "s", ["aardvark", "dog"], False), ("BETWEEN", "s", ["a", "i"], True), ("BETWEEN", "q", [0, 9], False),
]


def test_expected_comparison_operators(table):
    key = put(table, a=1, s="hello", b=b"hi there", ns={2, 4, 7}, l=[2, 4, 7], n=None)
    for op, attr, values, holds in OPERATOR_CASES:
        condition = {"ComparisonOperator": op}
        if values is not None:
            condition["AttributeValueList"] = values
        assert expected_holds(table, key, {attr: condition}) == holds, (op, attr, values)


def test_expected_operand_types_validated(table):
    key = put(table, a=1, s="hello")
    for attr, op, values in [("a", "IN", [3, "dog"]), ("a", "IN", [[1], [2]]), ("a", "BETWEEN", [4, 3]),
                             ("s", "BETWEEN", ["dog", "aardvark"]), ("a", "BETWEEN", [4, "dog"]),
                             ("a", "BETWEEN", [{1}, {2}]), ("s", "BEGINS_WITH", [3]), ("s", "CONTAINS", [[1]]),
                             ("s", "NOT_CONTAINS", [[1]]), ("a", "GT", [[1]]), ("s", "BEGINS_WITH", ["a", "b"]),
                             ("s", "CONTAINS", [2, 3]), ("s", "CONTAINS", [])]:
        expected_refused(table, key, {attr: {"ComparisonOperator": op, "AttributeValueList": values}})
    assert item(table, key) == {**key, "a": 1, "s": "hello"}
    assert expected_refused(table, key, {"s": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [3]}}) == (
        INVALID + "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type")


def test_conditional_operator(table):
    key = put(table, a=1, b=2)
    both_true = {"a": {"Exists": True, "Value": 1}, "b": {"ComparisonOperator": "EQ", "AttributeValueList": [2]},
                 "c": {"Exists": False}}
    one_true = {"a": {"Exists": True, "Value": 74}, "b": {"ComparisonOperator": "EQ", "AttributeValueList": [999]},
                "c": {"Exists": False}}
    none_true = {"a": {"Value": 74}, "b": {"ComparisonOperator": "EQ", "AttributeValueList": [999]}}
    assert expected_holds(table, key, both_true)
    assert expected_holds(table, key, both_true, ConditionalOperator="AND")
    assert not expected_holds(table, key, one_true)  # AND is the default
    assert not expected_holds(table, key, one_true, ConditionalOperator="AND")
    assert expected_holds(table, key, one_true, ConditionalOperator="OR")
    assert not expected_holds(table, key, none_true, ConditionalOperator="OR")


def test_conditional_operator_needs_two_conditions(table):
    key = put(table, a=1)
    without = "ConditionalOperator cannot be used without Filter or Expected"
    single = "ConditionalOperator can only be used when Filter or Expected has two or more elements"
    for op in ("AND", "OR"):
        assert expected_refused(table, key, {}, ConditionalOperator=op) == without
        assert expected_refused(table, key, {"a": {"Value": 1}}, ConditionalOperator=op) == single
        assert error(table.update_item, Key=key, AttributeUpdates={"x": {"Value": 1}}, ConditionalOperator=op) == (
            VALIDATION, without)
        assert error(table.update_item, Key=key, ConditionalOperator=op) == (VALIDATION, without)
        assert error(table.put_item, Item=key, ConditionalOperator=op) == (VALIDATION, without)
        assert error(table.put_item, Item=key, ConditionalOperator=op, Expected={"a": {"Value": 1}}) == (
            VALIDATION, single)
        assert error(table.delete_item, Key=key, ConditionalOperator=op) == (VALIDATION, without)
        assert error(table.delete_item, Key=key, ConditionalOperator=op, Expected={"a": {"Value": 1}}) == (
            VALIDATION, single)
    assert item(table, key) == {**key, "a": 1}


def test_expected_on_put_and_delete(table):
    key = put(table, a=1)
    table.put_item(Item={**key, "a": 2}, Expected={"a": {"Value": 1}})
    assert item(table, key) == {**key, "a": 2}
    assert error(table.put_item, Item={**key, "a": 3}, Expected={"a": {"Value": 1}})[0] == CCF
    assert error(table.delete_item, Key=key, Expected={"a": {"Value": 1}})[0] == CCF
    assert item(table, key) == {**key, "a": 2}
    table.delete_item(Key=key, Expected={"a": {"Value": 2}, "b": {"Exists": False}}, ConditionalOperator="AND")
    assert item(table, key) is None
    # The create-only idiom of the legacy API.
    table.put_item(Item={**key, "a": 1}, Expected={"pk": {"Exists": False}})
    assert error(table.put_item, Item={**key, "a": 2}, Expected={"pk": {"Exists": False}})[0] == CCF
    assert item(table, key) == {**key, "a": 1}


# ---- AttributeUpdates ---------------------------------------------------------------------------


def test_attribute_updates_put(table):
    key = new_key()
    values = {"n": D("12.345"), "s": "x", "t": True, "b": b"xyz", "z": None, "l": ["a", 1], "m": {"k": {"v": [1]}},
              "ss": {"a", "b"}, "ns": {1, D("3.14")}, "bs": {b"x"}, "es": "", "el": [], "em": {}}
    table.update_item(Key=key, AttributeUpdates={k: {"Value": v, "Action": "PUT"} for k, v in values.items()})
    assert item(table, key) == {**key, **values}
    # PUT is the default action; a nested document is replaced whole, even by another type.
    table.update_item(Key=key, AttributeUpdates={"m": {"Value": {"c": 5}}, "l": {"Value": "now a string"}})
    got = item(table, key)
    assert got["m"] == {"c": 5} and got["l"] == "now a string"
    # A dot is part of the name: AttributeUpdates cannot address nested attributes.
    table.update_item(Key=key, AttributeUpdates={"m.c": {"Value": 3, "Action": "PUT"}})
    got = item(table, key)
    assert got["m.c"] == 3 and got["m"] == {"c": 5}


def test_attribute_updates_delete(table):
    key = put(table, a="x", s={"dog", "cat", "lion"}, n={1, 2, 3}, bs={b"a", b"b"})
    table.update_item(Key=key, AttributeUpdates={"a": {"Action": "DELETE"}})
    assert "a" not in item(table, key)
    table.update_item(Key=key, AttributeUpdates={"s": {"Action": "DELETE", "Value": {"dog", "tiger"}},
                                                 "n": {"Action": "DELETE", "Value": {2}},
                                                 "bs": {"Action": "DELETE", "Value": {b"b"}}})
    assert item(table, key) == {**key, "s": {"cat", "lion"}, "n": {1, 3}, "bs": {b"a"}}
    table.update_item(Key=key, AttributeUpdates={"n": {"Action": "DELETE", "Value": {1, 3}},
                                                 "q": {"Action": "DELETE"}, "r": {"Action": "DELETE", "Value": {1}}})
    assert item(table, key) == {**key, "s": {"cat", "lion"}, "bs": {b"a"}}  # the emptied set is gone


def test_attribute_updates_add(table):
    key = put(table, a=7, s={1, 2}, l=[1, 2])
    table.update_item(Key=key, AttributeUpdates={"a": {"Action": "ADD", "Value": 2}})
    table.update_item(Key=key, AttributeUpdates={"a": {"Action": "ADD", "Value": D("-3.5")}})
    table.update_item(Key=key, AttributeUpdates={"b": {"Action": "ADD", "Value": 2}})  # absent: from 0
    table.update_item(Key=key, AttributeUpdates={"s": {"Action": "ADD", "Value": {3, 4}}})
    table.update_item(Key=key, AttributeUpdates={"s": {"Action": "ADD", "Value": {3, 5}}})
    table.update_item(Key=key, AttributeUpdates={"c": {"Action": "ADD", "Value": {"a", "b"}}})
    table.update_item(Key=key, AttributeUpdates={"bs": {"Action": "ADD", "Value": {b"x"}}})
    # ADD on lists appends (undocumented, but DynamoDB does it).
    table.update_item(Key=key, AttributeUpdates={"l": {"Action": "ADD", "Value": [3, 1]}})
    table.update_item(Key=key, AttributeUpdates={"nl": {"Action": "ADD", "Value": ["a", {"b": 1}]}})
    assert item(table, key) == {**key, "a": D("5.5"), "b": 2, "s": {1, 2, 3, 4, 5}, "c": {"a", "b"}, "bs": {b"x"},
                                "l": [1, 2, 3, 1], "nl": ["a", {"b": 1}]}
    for value in (3, {1, 2}, {"a", "b"}, [1, 2]):
        fresh = new_key()
        table.update_item(Key=fresh, AttributeUpdates={"a": {"Action": "ADD", "Value": value}})
        assert item(table, fresh) == {**fresh, "a": value}


def test_attribute_updates_validation_messages(table):
    key = new_key()
    assert error(table.update_item, Key=key, AttributeUpdates={"a": {"Action": "PUT"}}) == (
        VALIDATION, INVALID + "Only DELETE action is allowed when no attribute value is specified")
    assert error(table.update_item, Key=key, AttributeUpdates={"a": {"Action": "ADD"}}) == (
        VALIDATION, INVALID + "Only DELETE action is allowed when no attribute value is specified")
    for value, type_name in [("1", "S"), (1, "N"), (b"b", "B"), (None, "NULL"), (True, "BOOL"), ({}, "M"), ([], "L")]:
        assert error(table.update_item, Key=key, AttributeUpdates={"a": {"Action": "DELETE", "Value": value}}) == (
            VALIDATION, INVALID + f"DELETE action with value is not supported for the type {type_name}"), value
    for value, type_name in [("1", "S"), (b"b", "B"), (None, "NULL"), (True, "BOOL"), ({}, "M")]:
        assert error(table.update_item, Key=key, AttributeUpdates={"a": {"Action": "ADD", "Value": value}}) == (
            VALIDATION, INVALID + f"ADD action is not supported for the type {type_name}"), value
    assert error(table.update_item, Key=key, AttributeUpdates={"a": {"Action": "NONEXISTENT", "Value": 1}}) == (
        VALIDATION, "1 validation error detected: Value 'NONEXISTENT' at 'attributeUpdates.a.member.action' failed "
                    "to satisfy constraint: Member must satisfy enum value set: [DELETE, ADD, PUT]")
    assert item(table, key) is None


def test_attribute_updates_type_mismatch(table):
    # dynalite's recorded cases.
    key = put(table, b={"1"}, c=1, d={1})
    for updates in [{"b": {"Action": "DELETE", "Value": {1}}}, {"b": {"Action": "DELETE", "Value": {b"a"}}},
                    {"c": {"Action": "DELETE", "Value": {1}}}, {"b": {"Action": "ADD", "Value": {1}}},
                    {"d": {"Action": "ADD", "Value": 1}}]:
        assert error(table.update_item, Key=key, AttributeUpdates=updates) == (
            VALIDATION, "Type mismatch for attribute to update"), updates
    assert item(table, key) == {**key, "b": {"1"}, "c": 1, "d": {1}}


def test_attribute_updates_cannot_update_keys(table, range_table):
    message = INVALID + "Cannot update attribute {}. This attribute is part of the key"
    assert error(table.update_item, Key=new_key(), AttributeUpdates={"pk": {"Value": "x"}}) == (
        VALIDATION, message.format("pk"))
    rkey = {"pk": uuid.uuid4().hex, "sk": 1}
    assert error(range_table.update_item, Key=rkey, AttributeUpdates={"d": {"Value": 1}, "sk": {"Value": 2}}) == (
        VALIDATION, message.format("sk"))
    assert error(range_table.update_item, Key=rkey, AttributeUpdates={"sk": {"Action": "DELETE"}}) == (
        VALIDATION, message.format("sk"))


def test_attribute_updates_on_missing_item(table):
    key = new_key()
    table.update_item(Key=key, AttributeUpdates={})  # nothing at all: the item is created
    assert item(table, key) == key
    for updates in [{"a": {"Action": "DELETE"}}, {"a": {"Action": "DELETE", "Value": {4}}},
                    {"a": {"Action": "DELETE"}, "b": {"Action": "DELETE", "Value": {"x"}}}]:
        key = new_key()
        got = table.update_item(Key=key, AttributeUpdates=updates, ReturnValues="ALL_NEW")
        assert "Attributes" not in got, updates
        assert item(table, key) is None, updates  # only removals: not created


def test_attribute_updates_return_values(table):
    key = new_key()
    got = table.update_item(Key=key, AttributeUpdates={"b": {"Value": "a"}, "c": {"Value": "a"}}, ReturnValues="ALL_OLD")
    assert "Attributes" not in got
    got = table.update_item(Key=key, AttributeUpdates={"b": {"Value": "b"}}, ReturnValues="ALL_OLD")
    assert got["Attributes"] == {**key, "b": "a", "c": "a"}
    got = table.update_item(Key=key, AttributeUpdates={"b": {"Value": "c"}, "c": {"Value": "c"}},
                            ReturnValues="UPDATED_OLD")
    assert got["Attributes"] == {"b": "b", "c": "a"}
    got = table.update_item(Key=key, AttributeUpdates={"b": {"Action": "DELETE"}}, ReturnValues="UPDATED_NEW")
    assert "Attributes" not in got  # a deleted attribute has no new value
    got = table.update_item(Key=key, AttributeUpdates={"n": {"Action": "ADD", "Value": 3}}, ReturnValues="UPDATED_NEW")
    assert got["Attributes"] == {"n": 3}
    got = table.update_item(Key=key, AttributeUpdates={"s": {"Action": "ADD", "Value": {"a", "b"}}},
                            ReturnValues="ALL_NEW")
    assert got["Attributes"] == {**key, "c": "c", "n": 3, "s": {"a", "b"}}
    got = table.update_item(Key=key, AttributeUpdates={"s": {"Action": "DELETE", "Value": {"a"}}, "c": {"Value": "d"}},
                            ReturnValues="UPDATED_NEW")
    assert got["Attributes"] == {"s": {"b"}, "c": "d"}
    # An empty AttributeUpdates updates nothing.
    for return_values in ("UPDATED_OLD", "UPDATED_NEW"):
        assert "Attributes" not in table.update_item(Key=key, AttributeUpdates={}, ReturnValues=return_values)
    assert table.update_item(Key=key, AttributeUpdates={}, ReturnValues="ALL_NEW")["Attributes"] == item(table, key)
    fresh = new_key()
    assert table.update_item(Key=fresh, AttributeUpdates={}, ReturnValues="ALL_NEW")["Attributes"] == fresh
    fresh = new_key()
    assert "Attributes" not in table.update_item(Key=fresh, AttributeUpdates={}, ReturnValues="UPDATED_NEW")


def test_attribute_updates_with_expected(table):
    key = put(table, active=False)
    got = table.update_item(Key=key, Expected={"active": {"Value": False, "Exists": True}},
                            AttributeUpdates={"active": {"Action": "PUT", "Value": True}}, ReturnValues="UPDATED_NEW")
    assert got["Attributes"] == {"active": True}
    assert error(table.update_item, Key=key, Expected={"active": {"Value": False}},
                 AttributeUpdates={"active": {"Action": "PUT", "Value": False}})[0] == CCF


# ---- AttributesToGet ----------------------------------------------------------------------------


def test_attributes_to_get(range_table):
    key = {"pk": uuid.uuid4().hex, "sk": 3}
    full = {**key, "a": "hello", "b": "hi", "m": {"x": 1}}
    range_table.put_item(Item=full)
    for wanted in (["a"], ["sk", "a"], ["pk", "sk"], ["nonexistent"], ["m", "b"]):
        got = range_table.get_item(Key=key, AttributesToGet=wanted, ConsistentRead=True)["Item"]
        assert got == {k: full[k] for k in wanted if k in full}, wanted
    # A name with a dot is one attribute, not a path.
    assert range_table.get_item(Key=key, AttributesToGet=["m.x"], ConsistentRead=True)["Item"] == {}
    missing = {"pk": uuid.uuid4().hex, "sk": 3}
    assert "Item" not in range_table.get_item(Key=missing, AttributesToGet=["a"], ConsistentRead=True)


def test_attributes_to_get_validation(server, table):
    key = put(table, b="x")
    assert error(table.get_item, Key=key, AttributesToGet=["b", "b"]) == (
        VALIDATION, INVALID + "Duplicate value in attribute name: b")
    status, parsed, _ = call(server.port, "GetItem", {"TableName": table.name, "Key": {"pk": {"S": key["pk"]}},
                                                      "AttributesToGet": []})
    assert status == 400 and parsed["message"] == (
        "1 validation error detected: Value '[]' at 'attributesToGet' failed to satisfy constraint: "
        "Member must have length greater than or equal to 1")


# ---- mixing legacy and expression parameters ----------------------------------------------------


def test_mixing_refused_on_writes(ddb, table):
    key = {"pk": {"S": "k"}}
    cond = {"ConditionExpression": "attribute_exists(pk)"}
    cases = [
        ("update_item", {"Key": key, "AttributeUpdates": {"a": {"Value": {"N": "3"}, "Action": "PUT"}},
                         "UpdateExpression": "SET b = :val1", "ExpressionAttributeValues": {":val1": {"N": "4"}}},
         "{AttributeUpdates}", "{UpdateExpression}"),
        ("update_item", {"Key": key, "UpdateExpression": "SET a = :v", "ExpressionAttributeValues": {":v": {"N": "2"}},
                         "Expected": {"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "1"}]}}},
         "{Expected}", "{UpdateExpression}"),
        ("update_item", {"Key": key, "AttributeUpdates": {"a": {"Value": {"N": "1"}}}, "ConditionExpression": "a = :v",
                         "ExpressionAttributeValues": {":v": {"N": "2"}}},
         "{AttributeUpdates}", "{ConditionExpression}"),
        ("update_item", {"Key": key, "ConditionalOperator": "AND", "UpdateExpression": "SET a = :v",
                         "ExpressionAttributeValues": {":v": {"S": "x"}}},
         "{ConditionalOperator}", "{UpdateExpression}"),
        ("update_item", {"Key": key, "AttributeUpdates": {"a": {"Value": {"S": "v"}, "Action": "PUT"}},
                         "Expected": {"a": {"Value": {"S": "x"}}}, "ConditionalOperator": "AND",
                         "UpdateExpression": "SET a = :v", "ConditionExpression": "attribute_exists(pk)",
                         "ExpressionAttributeValues": {":v": {"S": "x"}}},
         "{AttributeUpdates, Expected, ConditionalOperator}", "{UpdateExpression, ConditionExpression}"),
        ("put_item", {"Item": key, "Expected": {"a": {"Value": {"S": "x"}}}, **cond}, "{Expected}",
         "{ConditionExpression}"),
        ("put_item", {"Item": key, "ConditionalOperator": "AND", **cond}, "{ConditionalOperator}",
         "{ConditionExpression}"),
        ("put_item", {"Item": key, "Expected": {"a": {"Value": {"S": "x"}}}, "ConditionalOperator": "AND", **cond},
         "{Expected, ConditionalOperator}", "{ConditionExpression}"),
        ("delete_item", {"Key": key, "ConditionalOperator": "AND", **cond}, "{ConditionalOperator}",
         "{ConditionExpression}"),
        ("delete_item", {"Key": key, "Expected": {"a": {"Value": {"S": "x"}}}, **cond}, "{Expected}",
         "{ConditionExpression}"),
    ]
    for op, body, legacy, expressions in cases:
        assert error(getattr(ddb, op), TableName=table.name, **body) == (
            VALIDATION, f"{MIXED}Non-expression parameters: {legacy} Expression parameters: {expressions}"), body


def test_mixing_refused_on_reads(ddb, table):
    eq = {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "x"}]}
    assert error(ddb.get_item, TableName=table.name, Key={"pk": {"S": "k"}}, ProjectionExpression="a",
                 AttributesToGet=["b"]) == (
        VALIDATION, f"{MIXED}Non-expression parameters: {{AttributesToGet}} Expression parameters: "
                    "{ProjectionExpression}")
    assert error(ddb.scan, TableName=table.name, AttributesToGet=["a"], ScanFilter={"a": eq},
                 ConditionalOperator="AND", FilterExpression="a = :v", ProjectionExpression="b",
                 ExpressionAttributeValues={":v": {"S": "x"}}) == (
        VALIDATION, f"{MIXED}Non-expression parameters: {{AttributesToGet, ScanFilter, ConditionalOperator}} "
                    "Expression parameters: {ProjectionExpression, FilterExpression}")
    assert error(ddb.query, TableName=table.name, KeyConditions={"pk": eq}, QueryFilter={"a": eq},
                 ConditionalOperator="AND", KeyConditionExpression="pk = :p", FilterExpression="a = :v",
                 ProjectionExpression="b", ExpressionAttributeValues={":p": {"S": "k1"}, ":v": {"S": "x"}}) == (
        VALIDATION, f"{MIXED}Non-expression parameters: {{QueryFilter, ConditionalOperator, KeyConditions}} "
                    "Expression parameters: {ProjectionExpression, FilterExpression, KeyConditionExpression}")
    # Legacy KeyConditions alone mix freely with the expressions.
    got = ddb.query(TableName=table.name, KeyConditions={"pk": eq}, ProjectionExpression="b")
    assert got["Items"] == []
    without = "ConditionalOperator cannot be used without Filter or Expected"
    assert error(ddb.scan, TableName=table.name, ConditionalOperator="OR") == (VALIDATION, without)
    assert error(ddb.scan, TableName=table.name, ConditionalOperator="OR", ScanFilter={}) == (VALIDATION, without)
    assert error(ddb.scan, TableName=table.name, ConditionalOperator="OR", ScanFilter={"a": eq}) == (
        VALIDATION, "ConditionalOperator can only be used when Filter or Expected has two or more elements")
    assert error(ddb.query, TableName=table.name, ConditionalOperator="AND", KeyConditions={"pk": eq}) == (
        VALIDATION, without)


def test_expression_maps_without_expressions(ddb, table):
    key = {"pk": {"S": "k"}}
    names = "ExpressionAttributeNames can only be specified when using expressions"
    cases = [
        ("update_item", {"Key": key, "AttributeUpdates": {"a": {"Value": {"N": "1"}}},
                         "ExpressionAttributeNames": {"#a": "a"}}, names),
        ("update_item", {"Key": key, "Expected": {"a": {"Value": {"N": "1"}}}, "ExpressionAttributeValues": {":a": {"N": "1"}}},
         "ExpressionAttributeValues can only be specified when using expressions: "
         "UpdateExpression and ConditionExpression are null"),
        ("put_item", {"Item": key, "ExpressionAttributeValues": {":v": {"N": "1"}}},
         "ExpressionAttributeValues can only be specified when using expressions: ConditionExpression is null"),
        ("put_item", {"Item": key, "ExpressionAttributeNames": {"#v": "a"}}, names),
        ("delete_item", {"Key": key, "ExpressionAttributeValues": {":v": {"N": "1"}}},
         "ExpressionAttributeValues can only be specified when using expressions: ConditionExpression is null"),
        ("delete_item", {"Key": key, "ExpressionAttributeNames": {"#v": "a"}}, names),
        ("get_item", {"Key": key, "AttributesToGet": ["a"], "ExpressionAttributeNames": {"#a": "a"}}, names),
    ]
    for op, body, message in cases:
        assert error(getattr(ddb, op), TableName=table.name, **body) == (VALIDATION, message), (op, body)
