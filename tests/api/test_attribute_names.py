"""Attribute names: any UTF-8 text of 1 byte to 64 KB - 1 is a name, written and read back as
given (also through the legacy AttributeUpdates and AttributesToGet); an empty name, or one of
64 KB or more, is refused wherever a name appears: item attributes, map keys at any depth (also
inside ExpressionAttributeValues), keys, ExpressionAttributeNames values and the legacy
parameters (AWS's developer guide, naming rules: "at least one character long and less than
64 KB"; the long-name limit as ScyllaDB's test_limits.py pins it against AWS: 65535 bytes is the
last accepted size)."""
import pytest
from botocore.exceptions import ClientError

from conftest import unique_name
from wire_helpers import err, S, N

EMPTY = ("ValidationException", "One or more parameter values were invalid: Empty attribute name")
TOO_LONG = ("ValidationException", "1 validation error detected: Attribute name is too large, must be less than 65536 "
                                   "bytes")
LONG = "x" * 65536


@pytest.fixture(scope="module")
def table(ddb):
    name = unique_name()
    ddb.create_table(TableName=name, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     BillingMode="PAY_PER_REQUEST")
    return name


# Every code point below 128 (each single-byte UTF-8 value, control characters included) and
# multi-byte characters of each length, which hold every byte value UTF-8 allows above 0x7f.
NAMES = [chr(c) for c in range(1, 128)] + ["\x00a", "é", "\u07ff", "\u0800", "日本", "\uffff", "\U00010000", "😀",
                                           "\U0010ffff", "a b", "#x", ":v", "a.b", "[0]", "x" * 65535]


def test_names_of_any_characters_round_trip(ddb, table):
    item = {"pk": S("names"), **{n: S(f"v{i}") for i, n in enumerate(NAMES)}}
    ddb.put_item(TableName=table, Item=item)
    assert ddb.get_item(TableName=table, Key={"pk": S("names")}, ConsistentRead=True)["Item"] == item
    # Nested, as map keys.
    nested = {"pk": S("nested"), "m": {"M": {n: {"M": {n: N(i)}} for i, n in enumerate(NAMES)}}}
    ddb.put_item(TableName=table, Item=nested)
    assert ddb.get_item(TableName=table, Key={"pk": S("nested")}, ConsistentRead=True)["Item"] == nested
    # Through expression attribute names and the legacy parameters.
    for i, n in enumerate(NAMES[:40]):
        got = ddb.get_item(TableName=table, Key={"pk": S("names")}, ProjectionExpression="#n",
                           ExpressionAttributeNames={"#n": n}, ConsistentRead=True)["Item"]
        assert got == {n: S(f"v{i}")}
        assert ddb.get_item(TableName=table, Key={"pk": S("names")}, AttributesToGet=[n],
                            ConsistentRead=True)["Item"] == {n: S(f"v{i}")}
    ddb.update_item(TableName=table, Key={"pk": S("legacy")},
                    AttributeUpdates={n: {"Action": "PUT", "Value": N(i)} for i, n in enumerate(NAMES)})
    assert ddb.get_item(TableName=table, Key={"pk": S("legacy")}, ConsistentRead=True)["Item"] == {
        "pk": S("legacy"), **{n: N(i) for i, n in enumerate(NAMES)}}
    ddb.update_item(TableName=table, Key={"pk": S("legacy")},
                    AttributeUpdates={n: {"Action": "DELETE"} for n in NAMES[:64]})
    assert set(ddb.get_item(TableName=table, Key={"pk": S("legacy")}, ConsistentRead=True)["Item"]) == {
        "pk", *NAMES[64:]}


def bad_name_requests(ddb, table, name):
    """Every place a name appears but ExpressionAttributeNames, each request carrying `name` there."""
    key = {"pk": S("bad")}
    return [
        lambda: ddb.put_item(TableName=table, Item={**key, name: S("v")}),
        lambda: ddb.put_item(TableName=table, Item={**key, "m": {"M": {"a": {"M": {"b": {"M": {name: S("v")}}}}}}}),
        lambda: ddb.put_item(TableName=table, Item={**key, "l": {"L": [{"M": {name: N(1)}}]}}),
        lambda: ddb.get_item(TableName=table, Key={**key, name: S("v")}),
        lambda: ddb.get_item(TableName=table, Key=key, AttributesToGet=[name]),
        lambda: ddb.update_item(TableName=table, Key=key, AttributeUpdates={name: {"Action": "PUT", "Value": S("v")}}),
        lambda: ddb.update_item(TableName=table, Key=key, UpdateExpression="SET m = :v",
                                ExpressionAttributeValues={":v": {"M": {name: S("v")}}}),
        lambda: ddb.put_item(TableName=table, Item=key, Expected={name: {"Exists": False}}),
        lambda: ddb.batch_write_item(RequestItems={table: [{"PutRequest": {"Item": {**key, name: S("v")}}}]}),
        lambda: ddb.transact_write_items(TransactItems=[{"Put": {"TableName": table, "Item": {**key, name: S("v")}}}]),
        lambda: ddb.scan(TableName=table, ScanFilter={name: {"ComparisonOperator": "NULL"}}),
    ]


def assert_refused(ddb, table, name, expected):
    for i, request in enumerate(bad_name_requests(ddb, table, name)):
        with pytest.raises(ClientError) as e:
            request()
        code, message = err(e)
        assert code == expected[0], (i, code, message)
        assert expected[1] in message, (i, message)
    assert "Item" not in ddb.get_item(TableName=table, Key={"pk": S("bad")}, ConsistentRead=True)


def test_empty_names_are_refused(ddb, table):
    assert_refused(ddb, table, "", EMPTY)
    # In ExpressionAttributeNames, in AWS's words for that parameter.
    with pytest.raises(ClientError) as e:
        ddb.get_item(TableName=table, Key={"pk": S("bad")}, ProjectionExpression="#n", ExpressionAttributeNames={"#n": ""})
    assert err(e) == ("ValidationException", "ExpressionAttributeNames contains invalid value: Empty attribute name "
                                             "for key #n")
    with pytest.raises(ClientError) as e:
        ddb.update_item(TableName=table, Key={"pk": S("bad")}, UpdateExpression="SET #a = :v",
                        ExpressionAttributeNames={"#a": ""}, ExpressionAttributeValues={":v": N(1)})
    assert err(e) == ("ValidationException", "ExpressionAttributeNames contains invalid value: Empty attribute name "
                                             "for key #a")


def test_names_of_64_kb_are_refused(ddb, table):
    assert_refused(ddb, table, LONG, TOO_LONG)
    with pytest.raises(ClientError) as e:
        ddb.get_item(TableName=table, Key={"pk": S("bad")}, ProjectionExpression="#n",
                     ExpressionAttributeNames={"#n": LONG})
    assert err(e) == TOO_LONG
    # Multi-byte characters count by their bytes: 21846 three-byte characters are 65538 bytes.
    with pytest.raises(ClientError) as e:
        ddb.put_item(TableName=table, Item={"pk": S("bad"), "\u0800" * 21846: S("v")})
    assert err(e) == TOO_LONG
    ddb.put_item(TableName=table, Item={"pk": S("ok"), "\u0800" * 21845: S("v")})
