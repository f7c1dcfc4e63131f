"""ConditionExpression beyond the operators, through boto3 (client and resource API).

Ground truth: scylladb's alternator tests (test_condition_expression.py, test_limits.py), which pass on
AWS, and dynalite's recorded messages. Document paths into maps and lists and name references, the
validation messages and limits (syntax, undefined and unused names and values, sizes, operator
counts), conditions on PutItem, DeleteItem and key attributes, ReturnValuesOnConditionCheckFailure
and boto3.dynamodb.conditions builders. Comparators and functions are in test_conditions.py.

Tests marked xfail(strict=True, reason="expr: ...") are known mismatches of the expression layer
(src/expr), listed for its owner.
"""
import uuid

import pytest
from boto3.dynamodb.conditions import Attr, Key
from botocore.exceptions import ClientError

from conftest import make_resource_table
from condition_helpers import CCF, VALIDATION, CCF_MESSAGE, holds, refused, invalid
from condition_helpers import table  # noqa: F401 -- a fixture: one table per test module
from item_helpers import new_key, put, item, error
from raw import call


@pytest.fixture(scope="module")
def range_table(ddb, resource):
    return make_resource_table(ddb, resource, "cond-range", range_key=True)


# ---- document paths and names -------------------------------------------------------------------


def test_nested_paths(table):
    key = put(table, b={"x": 1, "y": [-1, 2, 0]}, l=[[1, [2, {"deep": "yes"}]]])
    assert holds(table, key, "attribute_exists (b.x)")
    assert holds(table, key, "b.x < b.y[1]")
    assert not holds(table, key, "b.x < b.y[0]")
    assert not holds(table, key, "b.z < b.y[100]")  # missing paths: false, not an error
    assert holds(table, key, "l[0][1][1].deep = :v", {":v": "yes"})
    assert not holds(table, key, "b[0] = :v", {":v": 1})  # index into a map
    assert not holds(table, key, "b.y.x = :v", {":v": 1})  # name into a list
    assert holds(table, key, "b.y[5] <> :v", {":v": 1})


def test_name_references(table):
    key = put(table, **{"and": {"or": 2}, "a.b": 5, "a": {"b": 6}})
    assert holds(table, key, "attribute_exists (#name)", names={"#name": "and"})
    assert holds(table, key, "#n1.#n2 = :two", {":two": 2}, {"#n1": "and", "#n2": "or"})
    # A reference is one whole name: a dot inside it is part of the name.
    assert holds(table, key, "#ab = :v", {":v": 5}, {"#ab": "a.b"})
    assert holds(table, key, "a.b = :v", {":v": 6})


def test_reserved_words_must_be_aliased(table):
    key = put(table, a=1)
    assert refused(table, key, "ABORT = :v", {":v": 1}) == invalid(
        "Attribute name is a reserved keyword; reserved keyword: ABORT")
    assert refused(table, key, "a.Size = :v", {":v": 1}) == invalid(
        "Attribute name is a reserved keyword; reserved keyword: Size")
    assert refused(table, key, "attribute_exists(name)") == invalid(
        "Attribute name is a reserved keyword; reserved keyword: name")


def test_path_depth_32_accepted(table):
    key = put(table, a=1)
    assert not holds(table, key, "a" + ".b" * 31 + " = :v", {":v": 1})


def test_path_depth_33_refused(table):
    key = put(table, a=1)
    assert refused(table, key, "a" + ".b" * 32 + " = :v", {":v": 1}) == invalid(
        "The document path has too many nesting levels; nesting levels: 33")


# ---- validation ---------------------------------------------------------------------------------


def test_syntax_errors(table):
    key = put(table, a=1)
    cases = [
        ("a = = b", '"=", near: "= = b"'),
        ("_a = :v", '"_", near: "_a"'),
        ("a = :v OR", '"<EOF>", near: "OR"'),
        ("a <> :v <> :v", '"<>", near: ":v <> :v"'),
        ("a BETWEEN :v", '"<EOF>", near: ":v"'),
        ("a[:v] = :v", '":v", near: "[:v]"'),
    ]
    for condition, detail in cases:
        assert refused(table, key, condition, {":v": 1} if ":v" in condition else None) == invalid(
            "Syntax error; token: " + detail), condition


def test_empty_condition(table):
    assert refused(table, new_key(), "") == invalid("The expression can not be empty;")


def test_undefined_names_and_values(table):
    key = put(table, a=1)
    assert refused(table, key, "#n = :v", {":v": 1}) == invalid(
        "An expression attribute name used in the document path is not defined; attribute name: #n")
    assert refused(table, key, "a = :q", {":v": 1}) == invalid(
        "An expression attribute value used in expression is not defined; attribute value: :q")


def test_unused_names_and_values_in_every_operation(table):
    # Checked after parsing, before evaluation: whether the condition holds does not matter.
    for existing in (False, True):
        key = put(table, b=2) if existing else new_key()
        unused_value = "Value provided in ExpressionAttributeValues unused in expressions: keys: {:val3}"
        unused_name = "Value provided in ExpressionAttributeNames unused in expressions: keys: {#name3}"
        assert error(table.update_item, Key=key, UpdateExpression="SET #name1 = :val1",
                     ConditionExpression="#name2 = :val2",
                     ExpressionAttributeValues={":val1": 1, ":val2": 2, ":val3": 3},
                     ExpressionAttributeNames={"#name1": "a", "#name2": "b"}) == (VALIDATION, unused_value)
        assert error(table.delete_item, Key=key, ConditionExpression="#name2 = :val2",
                     ExpressionAttributeValues={":val2": 2, ":val3": 3},
                     ExpressionAttributeNames={"#name2": "b"}) == (VALIDATION, unused_value)
        assert error(table.put_item, Item={**key, "a": 3}, ConditionExpression="#name2 = :val2",
                     ExpressionAttributeValues={":val2": 2, ":val3": 3},
                     ExpressionAttributeNames={"#name2": "b"}) == (VALIDATION, unused_value)
        assert error(table.update_item, Key=key, UpdateExpression="SET #name1 = :val1",
                     ConditionExpression="#name2 = :val2", ExpressionAttributeValues={":val1": 1, ":val2": 2},
                     ExpressionAttributeNames={"#name1": "a", "#name2": "b", "#name3": "c"}) == (
            VALIDATION, unused_name)
        assert error(table.delete_item, Key=key, ConditionExpression="#name2 = :val2",
                     ExpressionAttributeValues={":val2": 2},
                     ExpressionAttributeNames={"#name2": "b", "#name3": "c"}) == (VALIDATION, unused_name)
        assert error(table.put_item, Item={**key, "a": 3}, ConditionExpression="#name2 = :val2",
                     ExpressionAttributeValues={":val2": 2},
                     ExpressionAttributeNames={"#name2": "b", "#name3": "c"}) == (VALIDATION, unused_name)


def test_short_circuit_does_not_make_references_unused(table):
    key = put(table, a=1)
    table.update_item(Key=key, ConditionExpression="#name1 = :val1 OR #name2 = :val2",
                      UpdateExpression="SET #name1 = :val3",
                      ExpressionAttributeValues={":val1": 1, ":val2": 2, ":val3": 3},
                      ExpressionAttributeNames={"#name1": "a", "#name2": "b"})
    assert item(table, key) == {**key, "a": 3}


def test_expression_attribute_maps_validated(ddb, table):
    key = new_key()
    cases = [
        ({"ExpressionAttributeNames": {}}, "ExpressionAttributeNames must not be empty"),
        ({"ExpressionAttributeValues": {}}, "ExpressionAttributeValues must not be empty"),
        ({"ExpressionAttributeNames": {"a": "a"}}, 'ExpressionAttributeNames contains invalid key: Syntax error; key: "a"'),
        ({"ExpressionAttributeValues": {"b": {"S": "a"}}},
         'ExpressionAttributeValues contains invalid key: Syntax error; key: "b"'),
        ({"ExpressionAttributeValues": {":v": {"S": "a", "N": "1"}}},
         "ExpressionAttributeValues contains invalid value: Supplied AttributeValue has more than one datatypes set, "
         "must contain exactly one of the supported datatypes for key :v"),
        ({"ExpressionAttributeValues": {":v": {"SS": []}}},
         "ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: "
         "An string set  may not be empty for key :v"),
        ({"ExpressionAttributeValues": {":v": {"NS": ["1", "1"]}}},
         "ExpressionAttributeValues contains invalid value: Input collection contains duplicates for key :v"),
        ({"ExpressionAttributeValues": {":v": {"N": "1e126"}}},
         "ExpressionAttributeValues contains invalid value: Number overflow. Attempting to store a number with "
         "magnitude larger than supported range for key :v"),
    ]
    for extra, message in cases:
        body = {"TableName": table.name, "Key": {"pk": {"S": key["pk"]}}, "ConditionExpression": "attribute_exists(a)",
                **extra}
        assert error(ddb.delete_item, **body) == (VALIDATION, message), extra


def test_reference_keys_limited_to_255_bytes(table):
    key = put(table, x=1)
    name = "#" + "n" * 254
    assert holds(table, key, f"{name} = :v", {":v": 1}, {name: "x"})
    code, message = error(table.update_item, Key=key, UpdateExpression="SET touched = :v",
                          ConditionExpression=f"{name}n = :v", ExpressionAttributeValues={":v": 1},
                          ExpressionAttributeNames={name + "n": "x"})
    assert code == VALIDATION and message.startswith("ExpressionAttributeNames contains invalid key: "), message
    value = ":" + "v" * 255
    code, message = error(table.update_item, Key=key, UpdateExpression="SET touched = x",
                          ConditionExpression=f"x = {value}", ExpressionAttributeValues={value: 1})
    assert code == VALIDATION and message.startswith("ExpressionAttributeValues contains invalid key: "), message


def test_expression_size_limit(table):
    key = put(table, a=1)
    spaces = " " * 4085
    assert holds(table, key, f"a{spaces} = :oldval", {":oldval": 1})  # 4096 bytes
    assert refused(table, key, f"a {spaces} = :oldval", {":oldval": 1}) == invalid(
        "Expression size has exceeded the maximum allowed size; expression size: 4097")
    # Even a syntax error is first measured.
    assert refused(table, key, "(" * 15000) == invalid(
        "Expression size has exceeded the maximum allowed size; expression size: 15000")


def test_many_operators_within_the_limit(table):
    key = put(table, a=1, b=2)
    # 299 operators (150 '<' and 149 OR): allowed.
    assert holds(table, key, "a<b " + "or a<b " * 149)


def test_deeply_nested_condition_within_the_limit(table):
    key = put(table, a=1, b=2)
    depth = 149
    assert holds(table, key, "a<b " + "or (a<b " * depth + ")" * depth)


def test_too_many_operators_refused(table):
    key = put(table, a=1, b=2)
    assert refused(table, key, "a<b " + "or a<b " * 150) == invalid(
        "The expression contains too many operators; operator count: 301")


# ---- PutItem, DeleteItem, key attributes --------------------------------------------------------


def test_put_item_condition(table):
    key = put(table, a=1)
    table.put_item(Item={**key, "a": 2}, ConditionExpression="a = :old", ExpressionAttributeValues={":old": 1})
    assert item(table, key) == {**key, "a": 2}
    assert error(table.put_item, Item={**key, "a": 3}, ConditionExpression="a = :old",
                 ExpressionAttributeValues={":old": 1}) == (CCF, CCF_MESSAGE)
    assert item(table, key) == {**key, "a": 2}
    # The create-only idiom.
    fresh = new_key()
    table.put_item(Item={**fresh, "a": 1}, ConditionExpression="attribute_not_exists(pk)")
    assert error(table.put_item, Item={**fresh, "a": 2}, ConditionExpression="attribute_not_exists(pk)") == (
        CCF, CCF_MESSAGE)
    assert item(table, fresh) == {**fresh, "a": 1}


def test_delete_item_condition(table):
    key = put(table, a=1)
    assert error(table.delete_item, Key=key, ConditionExpression="a = :old",
                 ExpressionAttributeValues={":old": 2}) == (CCF, CCF_MESSAGE)
    assert item(table, key) == {**key, "a": 1}
    table.delete_item(Key=key, ConditionExpression="a = :old", ExpressionAttributeValues={":old": 1})
    assert item(table, key) is None
    # A missing item is evaluated as an empty one.
    assert error(table.delete_item, Key=key, ConditionExpression="attribute_exists(pk)") == (CCF, CCF_MESSAGE)
    table.delete_item(Key=key, ConditionExpression="attribute_not_exists(pk)")


def test_condition_on_key_attributes(table, range_table):
    key = new_key()
    table.update_item(Key=key, ConditionExpression="pk <> :p", ExpressionAttributeValues={":p": key["pk"]})
    assert item(table, key) == key
    assert error(table.update_item, Key=key, ConditionExpression="pk <> :p",
                 ExpressionAttributeValues={":p": key["pk"]}) == (CCF, CCF_MESSAGE)
    key = new_key()
    table.update_item(Key=key, ConditionExpression="attribute_not_exists(pk)")
    assert item(table, key) == key
    assert error(table.update_item, Key=key, ConditionExpression="attribute_not_exists(pk)") == (CCF, CCF_MESSAGE)
    rkey = {"pk": uuid.uuid4().hex, "sk": 5}
    range_table.put_item(Item={**rkey, "a": 1})
    range_table.update_item(Key=rkey, UpdateExpression="SET a = :v", ConditionExpression="sk BETWEEN :lo AND :hi",
                            ExpressionAttributeValues={":v": 2, ":lo": 1, ":hi": 9})
    assert range_table.get_item(Key=rkey, ConsistentRead=True)["Item"]["a"] == 2


def test_condition_mixed_with_attribute_updates_refused(table):
    assert error(table.update_item, Key=new_key(), AttributeUpdates={"a": {"Value": 1, "Action": "PUT"}},
                 ConditionExpression="a = :old", ExpressionAttributeValues={":old": 2}) == (
        VALIDATION, "Can not use both expression and non-expression parameters in the same request: "
                    "Non-expression parameters: {AttributeUpdates} Expression parameters: {ConditionExpression}")


# ---- ReturnValuesOnConditionCheckFailure --------------------------------------------------------
# botocore 1.29 (Debian's) predates ReturnValuesOnConditionCheckFailure: it refuses the parameter and
# would not parse the error's Item, so these requests go raw.


def raw_error(server, op, body):
    status, parsed, _ = call(server.port, op, body)
    assert status == 400, parsed
    return parsed


def test_return_values_on_condition_check_failure(server, table):
    key = put(table, a=1, l=["x", {"y": None}])
    wire_key = {"pk": {"S": key["pk"]}}
    old = {**wire_key, "a": {"N": "1"}, "l": {"L": [{"S": "x"}, {"M": {"y": {"NULL": True}}}]}}
    requests = [
        ("PutItem", {"Item": {**wire_key, "a": {"N": "9"}}, "ConditionExpression": "attribute_not_exists(pk)"}),
        ("UpdateItem", {"Key": wire_key, "UpdateExpression": "SET a = :v", "ConditionExpression": "a = :v",
                        "ExpressionAttributeValues": {":v": {"N": "2"}}}),
        ("DeleteItem", {"Key": wire_key, "ConditionExpression": "a > :v",
                        "ExpressionAttributeValues": {":v": {"N": "2"}}}),
    ]
    for op, body in requests:
        body = {"TableName": table.name, **body}
        parsed = raw_error(server, op, {**body, "ReturnValuesOnConditionCheckFailure": "ALL_OLD"})
        assert parsed == {"__type": "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",
                          "message": CCF_MESSAGE, "Item": old}, op
        parsed = raw_error(server, op, {**body, "ReturnValuesOnConditionCheckFailure": "NONE"})
        assert "Item" not in parsed, op
        parsed = raw_error(server, op, body)
        assert "Item" not in parsed, op
    assert item(table, key) == {**key, "a": 1, "l": ["x", {"y": None}]}


def test_return_values_on_condition_check_failure_missing_item(server, table):
    wire_key = {"pk": {"S": new_key()["pk"]}}
    for op, body in [("PutItem", {"Item": wire_key, "ConditionExpression": "attribute_exists(pk)"}),
                     ("UpdateItem", {"Key": wire_key, "ConditionExpression": "attribute_exists(pk)"}),
                     ("DeleteItem", {"Key": wire_key, "ConditionExpression": "attribute_exists(pk)"})]:
        parsed = raw_error(server, op, {"TableName": table.name, **body, "ReturnValuesOnConditionCheckFailure": "ALL_OLD"})
        assert parsed["__type"].endswith("#ConditionalCheckFailedException") and "Item" not in parsed, op


def test_return_values_on_condition_check_failure_validated(server, table):
    parsed = raw_error(server, "UpdateItem", {"TableName": table.name, "Key": {"pk": {"S": "x"}},
                                              "ReturnValuesOnConditionCheckFailure": "ALL_NEW"})
    assert parsed["message"] == ("1 validation error detected: Value 'ALL_NEW' at 'returnValuesOnConditionCheckFailure' "
                                 "failed to satisfy constraint: Member must satisfy enum value set: [ALL_OLD, NONE]")


# ---- boto3.dynamodb.conditions ------------------------------------------------------------------


def builder_holds(table, key, condition):
    try:
        table.update_item(Key=key, UpdateExpression="SET touched = :touched", ConditionExpression=condition,
                          ExpressionAttributeValues={":touched": 1})
        return True
    except ClientError as e:
        if e.response["Error"]["Code"] == CCF:
            return False
        raise


def test_attr_builders_with_resource_api(table):
    key = put(table, a=1, s="hello", ss={"x", "y"}, m={"x": 2, "l": [1, 2, 3]}, t=True, n=None)
    cases = [
        (Attr("a").eq(1), True), (Attr("a").eq(2), False), (Attr("a").ne(2), True), (Attr("a").lt(2), True),
        (Attr("a").lte(1), True), (Attr("a").gt(1), False), (Attr("a").gte(1), True),
        (Attr("a").between(0, 1), True), (Attr("a").between(2, 3), False), (Attr("a").is_in([3, 2, 1]), True),
        (Attr("a").is_in(["1"]), False), (Attr("s").begins_with("he"), True), (Attr("s").contains("ell"), True),
        (Attr("ss").contains("y"), True), (Attr("ss").contains("z"), False), (Attr("s").exists(), True),
        (Attr("q").exists(), False), (Attr("q").not_exists(), True), (Attr("a").attribute_type("N"), True),
        (Attr("a").attribute_type("S"), False), (Attr("s").size().eq(5), True), (Attr("m.l").size().gt(2), True),
        (Attr("m.x").eq(2), True), (Attr("m.l[1]").eq(2), True), (Attr("m.l[5]").exists(), False),
        (Attr("t").eq(True), True), (Attr("n").eq(None), True),
        (Attr("a").eq(1) & Attr("s").eq("hello"), True), (Attr("a").eq(1) & Attr("s").eq("bye"), False),
        (Attr("a").eq(2) | Attr("s").eq("hello"), True), (~Attr("a").eq(1), False),
        ((Attr("a").eq(2) | Attr("s").eq("hello")) & ~Attr("q").exists(), True),
        (Attr("a").eq(1) & Attr("m.x").lt(2) | ~Attr("m.l[1]").exists(), False),
    ]
    for condition, expected in cases:
        assert builder_holds(table, key, condition) == expected, condition.get_expression()
    # Builders with names that are reserved words, through put_item and delete_item.
    table.put_item(Item={**key, "name": "x", "size": 3}, ConditionExpression=Attr("a").eq(1) & Attr("t").eq(True))
    assert error(table.put_item, Item=key, ConditionExpression=Attr("name").eq("y")) == (CCF, CCF_MESSAGE)
    assert error(table.delete_item, Key=key, ConditionExpression=Attr("size").gt(3)) == (CCF, CCF_MESSAGE)
    table.delete_item(Key=key, ConditionExpression=Attr("name").eq("x") & Attr("size").eq(3))
    assert item(table, key) is None


def test_key_builders_with_resource_api(range_table):
    p = uuid.uuid4().hex
    for i in range(6):
        range_table.put_item(Item={"pk": p, "sk": i, "v": f"item{i}", "even": i % 2 == 0})
    got = range_table.query(KeyConditionExpression=Key("pk").eq(p) & Key("sk").between(1, 4),
                            FilterExpression=Attr("even").eq(True), ConsistentRead=True)
    assert [x["sk"] for x in got["Items"]] == [2, 4]
    got = range_table.query(KeyConditionExpression=Key("pk").eq(p) & Key("sk").gte(4), ConsistentRead=True)
    assert [x["v"] for x in got["Items"]] == ["item4", "item5"]
    got = range_table.query(KeyConditionExpression=Key("pk").eq(p) & Key("sk").lt(2), ScanIndexForward=False,
                            ConsistentRead=True)
    assert [x["sk"] for x in got["Items"]] == [1, 0]
