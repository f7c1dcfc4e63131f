"""PutItem, GetItem, DeleteItem: value types, numbers, validation messages, sizes, keys, ReturnValues
and consumed capacity.

Messages and the order of checks (e.g. value and size checks before the table lookup) follow
dynalite's test suite, recorded against AWS. Requests an SDK would refuse client-side go raw.
"""
import base64
import decimal

import botocore.exceptions
import pytest

from conftest import create_pk_table, unique_name
from raw import call

VALIDATION = "com.amazon.coral.validate#ValidationException"
SERIALIZATION = "com.amazon.coral.service#SerializationException"
NOT_FOUND = "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException"
INVALID = "One or more parameter values were invalid: "
MAX_ITEM = 409600
NESTING = ("Nesting Levels have exceeded supported limits: "
           "Attributes in the item have nested levels beyond supported limit")
NO_SUCH_TABLE = "no-such-table-for-items"


def error(server, op, body):
    status, parsed, _ = call(server.port, op, body)
    assert status == 400, parsed
    return parsed["__type"], parsed.get("message", parsed.get("Message"))


def assert_validation(server, op, body, message):
    assert error(server, op, body) == (VALIDATION, message)


def assert_not_found(server, op, body):
    assert error(server, op, body) == (NOT_FOUND, "Requested resource not found")


def ok(server, op, body):
    status, parsed, _ = call(server.port, op, body)
    assert status == 200, parsed
    return parsed


def client_error(fn, **kwargs):
    with pytest.raises(botocore.exceptions.ClientError) as e:
        fn(**kwargs)
    err = e.value.response["Error"]
    return err["Code"], err["Message"]


def b64(data):
    return base64.b64encode(data).decode()


@pytest.fixture(scope="module")
def range_s_table(ddb):
    """PAY_PER_REQUEST table: string hash key 'pk', string range key 'sk'."""
    return create_pk_table(ddb, range_type="S")


@pytest.fixture(scope="module")
def binary_table(ddb):
    """PAY_PER_REQUEST table: binary hash key 'pk', binary range key 'sk'."""
    name = unique_name()
    ddb.create_table(TableName=name, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                                {"AttributeName": "sk", "KeyType": "RANGE"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "B"},
                                           {"AttributeName": "sk", "AttributeType": "B"}],
                     BillingMode="PAY_PER_REQUEST")
    return name


# ---- round trips -----------------------------------------------------------------------------


def normalise_sets(item):
    """Sets come back in no particular order: compare them sorted."""
    out = {}
    for k, v in item.items():
        (t, x), = v.items()
        if t in ("SS", "NS", "BS"):
            out[k] = {t: sorted(x)}
        elif t == "M":
            out[k] = {"M": normalise_sets(x)}
        elif t == "L":
            out[k] = {"L": [normalise_sets({"_": e})["_"] for e in x]}
        else:
            out[k] = v
    return out


def test_round_trip_all_ten_types(ddb, hash_table):
    item = {
        "pk": {"S": "all-types"},
        "s": {"S": "héllo wörld ✓ 𝄞"},
        "n": {"N": "-56.789"},
        "b": {"B": b"\x00\x01\x02\x00\xff\x00"},
        "t": {"BOOL": True},
        "f": {"BOOL": False},
        "z": {"NULL": True},
        "l": {"L": [{"S": "a"}, {"N": "1"}, {"B": b"\x00"}, {"BOOL": False}, {"NULL": True},
                    {"SS": ["x"]}, {"NS": ["2"]}, {"BS": [b"\x00"]}, {"L": []}, {"M": {}}]},
        "m": {"M": {"a": {"S": "a"}, "n": {"N": "3"}, "nested": {"M": {"deep": {"L": [{"M": {"x": {"S": "y"}}}]}}},
                    "empty": {"M": {}}, "list": {"L": []}}},
        "ss": {"SS": ["b", "a", "c"]},
        "ns": {"NS": ["3", "-1", "2.5"]},
        "bs": {"BS": [b"\x00\x00", b"\x01", b"\xff"]},
    }
    assert set(ddb.put_item(TableName=hash_table, Item=item)) == {"ResponseMetadata"}
    got = ddb.get_item(TableName=hash_table, Key={"pk": {"S": "all-types"}}, ConsistentRead=True)["Item"]
    assert normalise_sets(got) == normalise_sets(item)


def test_round_trip_raw_wire_form(server, hash_table):
    item = {"pk": {"S": "wire"}, "b": {"B": b64(b"\x00\x00zero\x00")}, "bs": {"BS": [b64(b"\x00"), b64(b"")]},
            "m": {"M": {"e": {"S": ""}}}}
    assert ok(server, "PutItem", {"TableName": hash_table, "Item": item}) == {}
    got = ok(server, "GetItem", {"TableName": hash_table, "Key": {"pk": {"S": "wire"}}})
    assert normalise_sets(got["Item"]) == normalise_sets(item)


def test_put_replaces_whole_item(ddb, hash_table):
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "r"}, "a": {"S": "1"}, "b": {"S": "2"}})
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "r"}, "c": {"S": "3"}})
    assert ddb.get_item(TableName=hash_table, Key={"pk": {"S": "r"}})["Item"] == {"pk": {"S": "r"}, "c": {"S": "3"}}


def test_attribute_names_are_case_sensitive_and_may_be_unicode(ddb, hash_table):
    item = {"pk": {"S": "names"}, "a": {"S": "lower"}, "A": {"S": "upper"}, "ключ": {"S": "unicode"},
            "with space": {"S": "x"}, "#:.[]": {"S": "punct"}}
    ddb.put_item(TableName=hash_table, Item=item)
    assert ddb.get_item(TableName=hash_table, Key={"pk": {"S": "names"}})["Item"] == item


def test_empty_values_allowed_off_key(ddb, hash_table):
    item = {"pk": {"S": "empties"}, "s": {"S": ""}, "b": {"B": b""}, "ss": {"SS": [""]}, "bs": {"BS": [b""]},
            "l": {"L": [{"S": ""}]}, "m": {"M": {"e": {"S": ""}, "eb": {"B": b""}}}}
    ddb.put_item(TableName=hash_table, Item=item)
    assert ddb.get_item(TableName=hash_table, Key={"pk": {"S": "empties"}}, ConsistentRead=True)["Item"] == item


def test_number_keys_round_trip_normalised(ddb, hash_range_table):
    ddb.put_item(TableName=hash_range_table, Item={"pk": {"S": "nk"}, "sk": {"N": "001.500"}})
    got = ddb.get_item(TableName=hash_range_table, Key={"pk": {"S": "nk"}, "sk": {"N": "1.5"}})["Item"]
    assert got == {"pk": {"S": "nk"}, "sk": {"N": "1.5"}}
    # 1.5 and 1.50 are the same key
    got = ddb.get_item(TableName=hash_range_table, Key={"pk": {"S": "nk"}, "sk": {"N": "15E-1"}})["Item"]
    assert got["sk"] == {"N": "1.5"}


def test_binary_keys(ddb, binary_table):
    key = {"pk": {"B": b"\x00\x00"}, "sk": {"B": b"\x00"}}
    ddb.put_item(TableName=binary_table, Item={**key, "v": {"S": "x"}})
    ddb.put_item(TableName=binary_table, Item={"pk": {"B": b"\x00"}, "sk": {"B": b"\x00\x00"}, "v": {"S": "y"}})
    assert ddb.get_item(TableName=binary_table, Key=key)["Item"]["v"] == {"S": "x"}


# ---- numbers ---------------------------------------------------------------------------------


@pytest.mark.parametrize("given,stored", [
    ("1.50", "1.5"),
    ("-0", "0"),
    ("0.0", "0"),
    ("-0.000", "0"),
    ("100", "100"),
    ("1e2", "100"),
    ("1E+2", "100"),
    ("1.0", "1"),
    (".5", "0.5"),
    ("-.5", "-0.5"),
    ("5.", "5"),
    ("007", "7"),
    ("1e-5", "0.00001"),
    ("12.3400e1", "123.4"),
    ("0000012345678901234567890123456789012345678", "12345678901234567890123456789012345678"),
    ("-00001.23456789012345678901234567890123456780000", "-1.2345678901234567890123456789012345678"),
    ("0009.99999999999999999999999999999999999990000e125", "9" * 38 + "0" * 88),
    ("-0009.99999999999999999999999999999999999990000e125", "-" + "9" * 38 + "0" * 88),
    ("1E+125", "1" + "0" * 125),
    ("-1E+125", "-1" + "0" * 125),
    ("0001.000e-130", "0." + "0" * 129 + "1"),
    ("-0001.000e-130", "-0." + "0" * 129 + "1"),
    ("1E-130", "0." + "0" * 129 + "1"),
    ("99999999999999999999999999999999999999", "9" * 38),
    ("12345678901234567890123456789012345678000", "12345678901234567890123456789012345678000"),
    ("0.000123456789012345678901234567890123456780", "0.00012345678901234567890123456789012345678"),
])
def test_number_normalisation(server, hash_table, given, stored):
    key = {"pk": {"S": "num-" + given}}
    ok(server, "PutItem", {"TableName": hash_table, "Item": {**key, "n": {"N": given}, "ns": {"NS": [given, "42"]},
                                                              "l": {"L": [{"N": given}]}}})
    item = ok(server, "GetItem", {"TableName": hash_table, "Key": key})["Item"]
    assert item["n"] == {"N": stored}
    assert sorted(item["ns"]["NS"]) == sorted([stored, "42"])
    assert item["l"] == {"L": [{"N": stored}]}


def test_numbers_through_boto3_resource(server, hash_table):
    import boto3
    table = boto3.resource("dynamodb", endpoint_url=server.endpoint, region_name="us-east-1",
                           aws_access_key_id="AKIDTEST", aws_secret_access_key="secret").Table(hash_table)
    big = decimal.Decimal("1234567890123456789012345678901234567.8")
    table.put_item(Item={"pk": "res", "big": big, "small": decimal.Decimal("1E-130"), "ns": {1, 2, 3}})
    got = table.get_item(Key={"pk": "res"})["Item"]
    assert got["big"] == big
    assert got["small"] == decimal.Decimal("1E-130")
    assert got["ns"] == {1, 2, 3}


@pytest.mark.parametrize("value,message", [
    ("1e126", "Number overflow. Attempting to store a number with magnitude larger than supported range"),
    ("-1e126", "Number overflow. Attempting to store a number with magnitude larger than supported range"),
    ("1" + "0" * 126, "Number overflow. Attempting to store a number with magnitude larger than supported range"),
    ("1e-131", "Number underflow. Attempting to store a number with magnitude smaller than supported range"),
    ("-1e-131", "Number underflow. Attempting to store a number with magnitude smaller than supported range"),
    ("0.99e-130", "Number underflow. Attempting to store a number with magnitude smaller than supported range"),
    ("123456789012345678901234567890123456789", "Attempting to store more than 38 significant digits in a Number"),
    ("-1.23456789012345678901234567890123456789", "Attempting to store more than 38 significant digits in a Number"),
    ("abc", "The parameter cannot be converted to a numeric value: abc"),
    ("1.2.3", "The parameter cannot be converted to a numeric value: 1.2.3"),
    ("1e", "The parameter cannot be converted to a numeric value: 1e"),
    (" 1", "The parameter cannot be converted to a numeric value:  1"),
    ("NaN", "The parameter cannot be converted to a numeric value: NaN"),
    ("Infinity", "The parameter cannot be converted to a numeric value: Infinity"),
    ("0x10", "The parameter cannot be converted to a numeric value: 0x10"),
    ("1,000", "The parameter cannot be converted to a numeric value: 1,000"),
    ("1234567890123456789012345678901234567890", "Attempting to store more than 38 significant digits in a Number"),
    ("", "The parameter cannot be converted to a numeric value"),
])
def test_number_errors(server, hash_table, value, message):
    # Values are checked before the table is looked up.
    for table in [hash_table, NO_SUCH_TABLE]:
        assert_validation(server, "PutItem", {"TableName": table, "Item": {"pk": {"S": "x"}, "n": {"N": value}}},
                          message)
    assert_validation(server, "PutItem", {"TableName": hash_table,
                                          "Item": {"pk": {"S": "x"}, "n": {"NS": ["1", value]}}}, message)
    assert_validation(server, "PutItem", {"TableName": hash_table,
                                          "Item": {"pk": {"S": "x"}, "m": {"M": {"x": {"L": [{"N": value}]}}}}},
                      message)
    assert_validation(server, "GetItem", {"TableName": NO_SUCH_TABLE, "Key": {"pk": {"N": value}}}, message)


def test_number_type_errors(server, hash_table):
    assert error(server, "PutItem", {"TableName": hash_table, "Item": {"n": {"N": 5}}}) == (
        SERIALIZATION, "NUMBER_VALUE cannot be converted to String")
    assert error(server, "PutItem", {"TableName": hash_table, "Item": {"n": {"NS": [5]}}}) == (
        SERIALIZATION, "NUMBER_VALUE cannot be converted to String")
    assert error(server, "PutItem", {"TableName": hash_table, "Item": {"n": {"NS": "5"}}}) == (
        SERIALIZATION, "Unexpected field type")


# ---- invalid attribute values ----------------------------------------------------------------


@pytest.mark.parametrize("value,message", [
    ({"NULL": False}, INVALID + "Null attribute value types must have the value of true"),
    ({"SS": []}, INVALID + "An string set  may not be empty"),
    ({"NS": []}, INVALID + "An number set  may not be empty"),
    ({"BS": []}, INVALID + "Binary sets should not be empty"),
    ({"SS": ["a", "a"]}, INVALID + "Input collection [a, a] contains duplicates."),
    ({"SS": ["a", "b", "a"]}, INVALID + "Input collection [a, b, a] contains duplicates."),
    ({"BS": ["Yg==", "Yg=="]}, INVALID + "Input collection [Yg==, Yg==]of type BS contains duplicates."),
    ({"NS": ["1", "1"]}, "Input collection contains duplicates"),
    ({"NS": ["1", "1.0"]}, "Input collection contains duplicates"),
    ({"NS": ["100", "1e2"]}, "Input collection contains duplicates"),
    ({}, "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"),
    ({"a": ""}, "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"),
    ({"M": {"a": {}}}, "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"),
    ({"L": [{}]}, "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"),
    ({"L": [{"a": {}}]}, "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"),
    ({"S": "a", "N": "1"},
     "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"),
    ({"S": "a", "BOOL": True},
     "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"),
    ({"M": {"x": {"NULL": True, "S": "a"}}},
     "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"),
])
def test_invalid_attribute_values(server, hash_table, value, message):
    for table in [hash_table, NO_SUCH_TABLE]:
        assert_validation(server, "PutItem", {"TableName": table, "Item": {"pk": {"S": "x"}, "a": value}}, message)
    assert_validation(server, "GetItem", {"TableName": hash_table, "Key": {"pk": value}}, message)
    assert_validation(server, "DeleteItem", {"TableName": hash_table, "Key": {"pk": value}}, message)


def test_sets_of_distinct_members_are_fine(ddb, hash_table):
    # Distinct as bytes: "a" and "A", "1" and "-1", b"\x00" and b"\x00\x00".
    item = {"pk": {"S": "sets"}, "ss": {"SS": ["a", "A"]}, "ns": {"NS": ["1", "-1"]},
            "bs": {"BS": [b"\x00", b"\x00\x00"]}}
    ddb.put_item(TableName=hash_table, Item=item)
    assert normalise_sets(ddb.get_item(TableName=hash_table, Key={"pk": {"S": "sets"}})["Item"]) == normalise_sets(item)


@pytest.mark.parametrize("value,message", [
    ({"S": 1}, "NUMBER_VALUE cannot be converted to String"),
    ({"S": True}, "TRUE_VALUE cannot be converted to String"),
    ({"BOOL": 1}, "NUMBER_VALUE cannot be converted to Boolean"),
    ({"BOOL": "maybe"}, "Unexpected token received from parser"),
    ({"B": 1}, "only base-64-encoded strings are convertible to bytes"),
    ({"B": "abc"}, "Base64 encoded length is expected a multiple of 4 bytes but found: 3"),
    ({"B": "YQ=a"}, "Invalid last non-pad Base64 character dectected"),
    ({"L": {}}, "Start of structure or map found where not expected"),
    ({"M": []}, "Unrecognized collection type java.util.Map<java.lang.String, "
                "com.amazonaws.dynamodb.v20120810.AttributeValue>"),
    ("x", "Unexpected value type in payload"),
    ([], "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.AttributeValue"),
])
def test_attribute_value_type_errors(server, hash_table, value, message):
    assert error(server, "PutItem", {"TableName": hash_table, "Item": {"a": value}}) == (SERIALIZATION, message)


def test_bool_strings_are_coerced(server, hash_table):
    ok(server, "PutItem", {"TableName": hash_table, "Item": {"pk": {"S": "boolstr"}, "t": {"BOOL": "yes"},
                                                            "f": {"BOOL": "FALSE"}, "z": {"NULL": "1"}}})
    item = ok(server, "GetItem", {"TableName": hash_table, "Key": {"pk": {"S": "boolstr"}}})["Item"]
    assert item == {"pk": {"S": "boolstr"}, "t": {"BOOL": True}, "f": {"BOOL": False}, "z": {"NULL": True}}


# ---- nesting depth ---------------------------------------------------------------------------


def nest(levels, kind="M"):
    """A value `levels` deep: levels-1 maps (or lists) around a string."""
    value = {"S": "leaf"}
    for _ in range(levels - 1):
        value = {"M": {"x": value}} if kind == "M" else {"L": [value]}
    return value


@pytest.mark.parametrize("kind", ["M", "L"])
def test_nesting_32_levels_accepted(server, hash_table, kind):
    key = {"pk": {"S": "deep-" + kind}}
    ok(server, "PutItem", {"TableName": hash_table, "Item": {**key, "d": nest(32, kind)}})
    assert ok(server, "GetItem", {"TableName": hash_table, "Key": key})["Item"]["d"] == nest(32, kind)


@pytest.mark.parametrize("kind", ["M", "L"])
def test_nesting_33_levels_refused(server, hash_table, kind):
    for table in [hash_table, NO_SUCH_TABLE]:
        assert_validation(server, "PutItem", {"TableName": table, "Item": {"pk": {"S": "x"}, "d": nest(33, kind)}},
                          NESTING)


def test_nesting_mixed_maps_and_lists(server, hash_table):
    value = {"S": "leaf"}
    for i in range(31):
        value = {"M": {"x": value}} if i % 2 else {"L": [value]}
    ok(server, "PutItem", {"TableName": hash_table, "Item": {"pk": {"S": "mixed"}, "d": value}})
    assert_validation(server, "PutItem", {"TableName": hash_table,
                                          "Item": {"pk": {"S": "mixed"}, "d": {"L": [value]}}}, NESTING)


def test_empty_map_at_the_deepest_level(server, hash_table):
    value = {"M": {}}
    for _ in range(31):
        value = {"M": {"x": value}}
    ok(server, "PutItem", {"TableName": hash_table, "Item": {"pk": {"S": "deep-empty"}, "d": value}})


@pytest.mark.parametrize("levels", [100, 5000, 100000])
def test_very_deep_nesting_is_refused_not_crashed(server, hash_table, levels):
    deep = '{"M": {"x": ' * (levels - 1) + '{"S": "leaf"}' + "}}" * (levels - 1)
    body = '{"TableName": "%s", "Item": {"pk": {"S": "x"}, "d": %s}}' % (hash_table, deep)
    assert_validation(server, "PutItem", body, NESTING)
    assert server.proc.poll() is None


# ---- item size -------------------------------------------------------------------------------


def sized_item(total, number=None, number_size=0, pk="size"):
    """An item of exactly `total` bytes: name bytes + value bytes of every attribute."""
    item = {"pk": {"S": pk}}
    used = len("pk") + len(pk)
    if number is not None:
        item["n"] = {"N": number}
        used += len("n") + number_size
    filler = total - used - len("f")
    item["f"] = {"S": "a" * filler}
    return item


def test_item_of_exactly_400kb_is_accepted(ddb, hash_table):
    item = sized_item(MAX_ITEM)
    ddb.put_item(TableName=hash_table, Item=item)
    got = ddb.get_item(TableName=hash_table, Key={"pk": {"S": "size"}})["Item"]
    assert len(got["f"]["S"]) == len(item["f"]["S"])


def test_item_one_byte_over_is_refused(server, ddb, hash_table):
    item = sized_item(MAX_ITEM + 1)
    assert client_error(ddb.put_item, TableName=hash_table, Item=item) == (
        "ValidationException", "Item size has exceeded the maximum allowed size")
    # The size is checked before the table is looked up.
    assert_validation(server, "PutItem", {"TableName": NO_SUCH_TABLE, "Item": item},
                      "Item size has exceeded the maximum allowed size")
    assert_not_found(server, "PutItem", {"TableName": NO_SUCH_TABLE, "Item": sized_item(MAX_ITEM)})


def test_item_size_counts_utf8_bytes(ddb, hash_table):
    # "é" is two bytes: a value of n of them weighs 2n.
    base = sized_item(MAX_ITEM)
    filler = len(base["f"]["S"])
    fits = dict(base, f={"S": "é" * (filler // 2) + "a" * (filler % 2)})
    ddb.put_item(TableName=hash_table, Item=fits)
    too_big = dict(base, f={"S": "é" * (filler // 2 + 1)})
    assert client_error(ddb.put_item, TableName=hash_table, Item=too_big)[1] == (
        "Item size has exceeded the maximum allowed size")


def test_item_size_counts_attribute_names(ddb, hash_table):
    base = sized_item(MAX_ITEM)
    long_name = "f" + "x" * 99  # 99 more name bytes, 99 fewer value bytes
    item = {"pk": base["pk"], long_name: {"S": base["f"]["S"][:-99]}}
    ddb.put_item(TableName=hash_table, Item=item)
    item[long_name]["S"] += "a"
    assert client_error(ddb.put_item, TableName=hash_table, Item=item)[1] == (
        "Item size has exceeded the maximum allowed size")


@pytest.mark.parametrize("number,size", [
    ("1", 2), ("12", 2), ("123", 3), ("1234", 3), ("100", 2), ("1010", 3), ("1.5", 3), ("15", 2),
    ("3.14159", 5), ("123456", 4), ("100.5", 4), ("0.15", 2), ("0.0000001", 2), ("-42", 3), ("0", 1),
    ("1" * 38, 20), ("1" * 38 + "0" * 88, 20), ("1" + "0" * 125, 2), ("11" + "0" * 124, 2),
    ("11111" + "0" * 121, 4), ("111111" + "0" * 120, 4), ("1111111" + "0" * 119, 5),
])
def test_number_sizes_at_the_limit(server, hash_table, number, size):
    fits = sized_item(MAX_ITEM, number, size, pk="num-size")
    ok(server, "PutItem", {"TableName": hash_table, "Item": fits})
    over = sized_item(MAX_ITEM + 1, number, size, pk="num-size")
    assert_validation(server, "PutItem", {"TableName": hash_table, "Item": over},
                      "Item size has exceeded the maximum allowed size")


def test_nested_and_set_sizes_at_the_limit(server, hash_table):
    # M: 3 + per element (1 + name + value); L: 3 + per element (1 + value); sets: sum of members;
    # BOOL and NULL: 1 each; B: raw bytes.
    extra = {"m": {"M": {"ab": {"S": "xyz"}, "t": {"BOOL": True}}},     # 1 + (3 + (1+2+3) + (1+1+1)) = 13
             "l": {"L": [{"NULL": True}, {"S": "ab"}]},                  # 1 + (3 + (1+1) + (1+2)) = 9
             "s": {"SS": ["a", "bc"]},                                    # 1 + 3 = 4
             "b": {"B": b64(b"\x00\x01\x02")}}                            # 1 + 3 = 4
    extra_size = 13 + 9 + 4 + 4
    base = sized_item(MAX_ITEM - extra_size, pk="nested-size")
    ok(server, "PutItem", {"TableName": hash_table, "Item": {**base, **extra}})
    base["f"]["S"] += "a"
    assert_validation(server, "PutItem", {"TableName": hash_table, "Item": {**base, **extra}},
                      "Item size has exceeded the maximum allowed size")


# ---- keys ------------------------------------------------------------------------------------


def test_put_missing_key(server, hash_table, hash_range_table):
    for item in [{}, {"other": {"S": "a"}}]:
        assert_validation(server, "PutItem", {"TableName": hash_table, "Item": item},
                          INVALID + "Missing the key pk in the item")
    assert_validation(server, "PutItem", {"TableName": hash_range_table, "Item": {"pk": {"S": "a"}}},
                      INVALID + "Missing the key sk in the item")
    assert_not_found(server, "PutItem", {"TableName": NO_SUCH_TABLE, "Item": {}})


@pytest.mark.parametrize("value", [{"B": "YWJj"}, {"N": "1"}, {"BOOL": True}, {"NULL": True}, {"SS": ["a"]},
                                   {"NS": ["1"]}, {"BS": ["YWJj"]}, {"M": {}}, {"L": []}])
def test_put_key_type_mismatch(server, hash_table, value):
    actual = next(iter(value))
    assert_validation(server, "PutItem", {"TableName": hash_table, "Item": {"pk": value}},
                      INVALID + f"Type mismatch for key pk expected: S actual: {actual}")


def test_range_key_type_mismatch(ddb, hash_range_table):
    assert client_error(ddb.put_item, TableName=hash_range_table, Item={"pk": {"S": "a"}, "sk": {"S": "1"}}) == (
        "ValidationException", INVALID + "Type mismatch for key sk expected: N actual: S")


def test_empty_string_key_put_vs_get(ddb, hash_table, hash_range_table):
    put_message = ("One or more parameter values are not valid. The AttributeValue for a key attribute cannot "
                   "contain an empty string value. Key: pk")
    get_message = INVALID + "The AttributeValue for a key attribute cannot contain an empty string value. Key: pk"
    assert client_error(ddb.put_item, TableName=hash_table, Item={"pk": {"S": ""}}) == ("ValidationException",
                                                                                          put_message)
    assert client_error(ddb.get_item, TableName=hash_table, Key={"pk": {"S": ""}}) == ("ValidationException",
                                                                                        get_message)
    assert client_error(ddb.delete_item, TableName=hash_table, Key={"pk": {"S": ""}}) == ("ValidationException",
                                                                                           get_message)


def test_empty_binary_keys(ddb, binary_table):
    assert client_error(ddb.put_item, TableName=binary_table, Item={"pk": {"B": b"a"}, "sk": {"B": b""}}) == (
        "ValidationException", "One or more parameter values are not valid. The AttributeValue for a key attribute "
                               "cannot contain an empty binary value. Key: sk")
    assert client_error(ddb.get_item, TableName=binary_table, Key={"pk": {"B": b"a"}, "sk": {"B": b""}}) == (
        "ValidationException", INVALID + "The AttributeValue for a key attribute cannot contain an empty binary "
                                         "value. Key: sk")


@pytest.mark.parametrize("key", [
    {},
    {"other": {"S": "a"}},
    {"pk": {"S": "a"}, "extra": {"S": "a"}},
    {"pk": {"B": "YWJj"}},
    {"pk": {"N": "1"}},
    {"pk": {"BOOL": True}},
    {"pk": {"NULL": True}},
    {"pk": {"SS": ["a"]}},
    {"pk": {"NS": ["1"]}},
    {"pk": {"BS": ["YWJj"]}},
    {"pk": {"M": {}}},
    {"pk": {"L": []}},
])
def test_get_and_delete_key_must_match_schema(server, hash_table, key):
    for op in ["GetItem", "DeleteItem"]:
        assert_validation(server, op, {"TableName": hash_table, "Key": key},
                          "The provided key element does not match the schema")


def test_range_table_key_must_match_schema(ddb, hash_range_table):
    for key in [{"pk": {"S": "a"}}, {"sk": {"N": "1"}}, {"pk": {"S": "a"}, "sk": {"S": "1"}},
                {"pk": {"S": "a"}, "sk": {"N": "1"}, "x": {"S": "y"}}]:
        assert client_error(ddb.get_item, TableName=hash_range_table, Key=key) == (
            "ValidationException", "The provided key element does not match the schema")


def test_missing_table_is_checked_before_the_key_schema(server):
    assert_not_found(server, "GetItem", {"TableName": NO_SUCH_TABLE, "Key": {}})
    assert_not_found(server, "DeleteItem", {"TableName": NO_SUCH_TABLE, "Key": {"x": {"S": "y"}}})


def test_hash_key_size_limit(ddb, hash_table):
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "k" * 2048}})
    assert ddb.get_item(TableName=hash_table, Key={"pk": {"S": "k" * 2048}})["Item"] == {"pk": {"S": "k" * 2048}}
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "é" * 1024}})  # 2048 bytes
    message = INVALID + "Size of hashkey has exceeded the maximum size limit of2048 bytes"
    for op, arg in [(ddb.put_item, "Item"), (ddb.get_item, "Key"), (ddb.delete_item, "Key")]:
        assert client_error(op, TableName=hash_table, **{arg: {"pk": {"S": "k" * 2049}}}) == (
            "ValidationException", message)
        assert client_error(op, TableName=hash_table, **{arg: {"pk": {"S": "é" * 1024 + "k"}}}) == (
            "ValidationException", message)


def test_binary_hash_key_size_limit(ddb, binary_table):
    ddb.put_item(TableName=binary_table, Item={"pk": {"B": b"\x00" * 2048}, "sk": {"B": b"\x00" * 1024}})
    assert client_error(ddb.put_item, TableName=binary_table,
                        Item={"pk": {"B": b"\x00" * 2049}, "sk": {"B": b"\x00"}}) == (
        "ValidationException", INVALID + "Size of hashkey has exceeded the maximum size limit of2048 bytes")
    assert client_error(ddb.put_item, TableName=binary_table,
                        Item={"pk": {"B": b"\x00"}, "sk": {"B": b"\x00" * 1025}}) == (
        "ValidationException", INVALID + "Aggregated size of all range keys has exceeded the size limit of 1024 bytes")


def test_range_key_size_limit(ddb, range_s_table):
    ddb.put_item(TableName=range_s_table, Item={"pk": {"S": "a"}, "sk": {"S": "r" * 1024}})
    key = {"pk": {"S": "a"}, "sk": {"S": "r" * 1024}}
    assert ddb.get_item(TableName=range_s_table, Key=key)["Item"] == key
    message = INVALID + "Aggregated size of all range keys has exceeded the size limit of 1024 bytes"
    for op, arg in [(ddb.put_item, "Item"), (ddb.get_item, "Key"), (ddb.delete_item, "Key")]:
        assert client_error(op, TableName=range_s_table, **{arg: {"pk": {"S": "a"}, "sk": {"S": "r" * 1025}}}) == (
            "ValidationException", message)
    assert client_error(ddb.put_item, TableName=range_s_table,
                        Item={"pk": {"S": "a"}, "sk": {"S": "é" * 512 + "r"}}) == ("ValidationException", message)


# ---- GetItem ---------------------------------------------------------------------------------


def test_get_missing_item_has_no_item(ddb, server, hash_table):
    resp = ddb.get_item(TableName=hash_table, Key={"pk": {"S": "never-written"}})
    assert "Item" not in resp
    assert ok(server, "GetItem", {"TableName": hash_table, "Key": {"pk": {"S": "never-written"}}}) == {}


def test_get_constraint_errors(server):
    status, parsed, _ = call(server.port, "GetItem", {})
    assert parsed["message"].startswith("2 validation errors detected: ")
    assert sorted(parsed["message"][len("2 validation errors detected: "):].split("; ")) == sorted([
        "Value null at 'tableName' failed to satisfy constraint: Member must not be null",
        "Value null at 'key' failed to satisfy constraint: Member must not be null"])
    status, parsed, _ = call(server.port, "GetItem", {"TableName": "abc;", "ReturnConsumedCapacity": "hi",
                                                      "AttributesToGet": []})
    assert parsed["message"].startswith("4 validation errors detected: ")
    assert sorted(parsed["message"][len("4 validation errors detected: "):].split("; ")) == sorted([
        "Value '[]' at 'attributesToGet' failed to satisfy constraint: Member must have length greater than or equal to 1",
        "Value 'hi' at 'returnConsumedCapacity' failed to satisfy constraint: "
        "Member must satisfy enum value set: [INDEXES, TOTAL, NONE]",
        "Value null at 'key' failed to satisfy constraint: Member must not be null",
        "Value 'abc;' at 'tableName' failed to satisfy constraint: "
        "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"])
    name = "a" * 256
    status, parsed, _ = call(server.port, "GetItem", {"TableName": name})
    assert sorted(parsed["message"][len("2 validation errors detected: "):].split("; ")) == sorted([
        "Value null at 'key' failed to satisfy constraint: Member must not be null",
        f"Value '{name}' at 'tableName' failed to satisfy constraint: Member must have length less than or equal to 255"])


def test_get_type_errors(server):
    assert error(server, "GetItem", {"TableName": "abc", "Key": []}) == (
        SERIALIZATION, "Unrecognized collection type java.util.Map<java.lang.String, "
                       "com.amazonaws.dynamodb.v20120810.AttributeValue>")
    assert error(server, "GetItem", {"TableName": "abc", "ConsistentRead": 1}) == (
        SERIALIZATION, "NUMBER_VALUE cannot be converted to Boolean")


def test_get_missing_table(ddb):
    assert client_error(ddb.get_item, TableName=NO_SUCH_TABLE, Key={"pk": {"S": "a"}}) == (
        "ResourceNotFoundException", "Requested resource not found")


# ---- expression parameters without expressions ----------------------------------------------


def test_put_names_without_expression(server):
    assert_validation(server, "PutItem", {"TableName": "abc", "Item": {"a": {}}, "Expected": {"a": {}},
                                          "ExpressionAttributeNames": {}, "ExpressionAttributeValues": {}},
                      "ExpressionAttributeNames can only be specified when using expressions")


def test_put_values_without_expression(server):
    assert_validation(server, "PutItem", {"TableName": "abc", "Item": {"a": {}}, "Expected": {"a": {}},
                                          "ExpressionAttributeValues": {}},
                      "ExpressionAttributeValues can only be specified when using expressions: "
                      "ConditionExpression is null")


def test_delete_values_without_expression(server):
    assert_validation(server, "DeleteItem", {"TableName": "abc", "Key": {}, "ExpressionAttributeValues": {}},
                      "ExpressionAttributeValues can only be specified when using expressions: "
                      "ConditionExpression is null")


def test_get_names_without_expression(server):
    assert_validation(server, "GetItem", {"TableName": "abc", "Key": {"a": {}}, "AttributesToGet": ["a"],
                                          "ExpressionAttributeNames": {}},
                      "ExpressionAttributeNames can only be specified when using expressions")


def test_expression_and_legacy_parameters_together(server):
    assert_validation(server, "PutItem", {"TableName": "abc", "Item": {"a": {}}, "Expected": {"a": {}},
                                          "ExpressionAttributeNames": {}, "ExpressionAttributeValues": {},
                                          "ConditionExpression": ""},
                      "Can not use both expression and non-expression parameters in the same request: "
                      "Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}")
    assert_validation(server, "GetItem", {"TableName": "abc", "Key": {"a": {}}, "AttributesToGet": ["a"],
                                          "ExpressionAttributeNames": {}, "ProjectionExpression": ""},
                      "Can not use both expression and non-expression parameters in the same request: "
                      "Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}")


# ---- ReturnValues ----------------------------------------------------------------------------


def test_put_return_values(ddb, hash_table):
    key = {"pk": {"S": "rv-put"}}
    resp = ddb.put_item(TableName=hash_table, Item={**key, "v": {"N": "1"}}, ReturnValues="ALL_OLD")
    assert "Attributes" not in resp
    resp = ddb.put_item(TableName=hash_table, Item={**key, "v": {"N": "2"}}, ReturnValues="ALL_OLD")
    assert resp["Attributes"] == {**key, "v": {"N": "1"}}
    resp = ddb.put_item(TableName=hash_table, Item={**key, "v": {"N": "3"}}, ReturnValues="NONE")
    assert "Attributes" not in resp
    resp = ddb.put_item(TableName=hash_table, Item={**key, "v": {"N": "4"}})
    assert "Attributes" not in resp
    assert ddb.get_item(TableName=hash_table, Key=key)["Item"]["v"] == {"N": "4"}


def test_delete_return_values(ddb, hash_table):
    key = {"pk": {"S": "rv-del"}}
    ddb.put_item(TableName=hash_table, Item={**key, "v": {"SS": ["x"]}})
    resp = ddb.delete_item(TableName=hash_table, Key=key, ReturnValues="ALL_OLD")
    assert resp["Attributes"] == {**key, "v": {"SS": ["x"]}}
    assert "Item" not in ddb.get_item(TableName=hash_table, Key=key)
    resp = ddb.delete_item(TableName=hash_table, Key=key, ReturnValues="ALL_OLD")
    assert "Attributes" not in resp
    ddb.put_item(TableName=hash_table, Item=key)
    resp = ddb.delete_item(TableName=hash_table, Key=key, ReturnValues="NONE")
    assert "Attributes" not in resp
    assert "Item" not in ddb.get_item(TableName=hash_table, Key=key)


@pytest.mark.parametrize("op,arg", [("PutItem", "Item"), ("DeleteItem", "Key")])
@pytest.mark.parametrize("return_values", ["UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"])
def test_return_values_only_all_old_or_none(server, hash_table, op, arg, return_values):
    for table in [hash_table, NO_SUCH_TABLE]:
        assert_validation(server, op, {"TableName": table, arg: {"pk": {"S": "x"}}, "ReturnValues": return_values},
                          "ReturnValues can only be ALL_OLD or NONE")


def test_return_values_enum(server):
    status, parsed, _ = call(server.port, "PutItem", {"TableName": "abc", "Item": {}, "ReturnValues": "hi"})
    assert parsed["message"] == ("1 validation error detected: Value 'hi' at 'returnValues' failed to satisfy "
                                 "constraint: Member must satisfy enum value set: "
                                 "[ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]")


def test_put_incorrect_attributes(server):
    status, parsed, _ = call(server.port, "PutItem", {"TableName": "abc;", "ReturnConsumedCapacity": "hi",
                                                      "ReturnItemCollectionMetrics": "hi", "ReturnValues": "hi"})
    prefix = "5 validation errors detected: "
    assert parsed["message"].startswith(prefix)
    assert sorted(parsed["message"][len(prefix):].split("; ")) == sorted([
        "Value 'hi' at 'returnConsumedCapacity' failed to satisfy constraint: "
        "Member must satisfy enum value set: [INDEXES, TOTAL, NONE]",
        "Value 'abc;' at 'tableName' failed to satisfy constraint: "
        "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
        "Value null at 'item' failed to satisfy constraint: Member must not be null",
        "Value 'hi' at 'returnValues' failed to satisfy constraint: "
        "Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]",
        "Value 'hi' at 'returnItemCollectionMetrics' failed to satisfy constraint: "
        "Member must satisfy enum value set: [SIZE, NONE]"])


# ---- DeleteItem ------------------------------------------------------------------------------


def test_delete_missing_item_succeeds(ddb, hash_table):
    resp = ddb.delete_item(TableName=hash_table, Key={"pk": {"S": "never-there"}})
    assert set(resp) == {"ResponseMetadata"}


def test_delete_range_item_leaves_siblings(ddb, hash_range_table):
    for sk in ["1", "2"]:
        ddb.put_item(TableName=hash_range_table, Item={"pk": {"S": "sib"}, "sk": {"N": sk}})
    ddb.delete_item(TableName=hash_range_table, Key={"pk": {"S": "sib"}, "sk": {"N": "1"}})
    assert "Item" not in ddb.get_item(TableName=hash_range_table, Key={"pk": {"S": "sib"}, "sk": {"N": "1"}})
    assert "Item" in ddb.get_item(TableName=hash_range_table, Key={"pk": {"S": "sib"}, "sk": {"N": "2"}})


# ---- ConsumedCapacity ------------------------------------------------------------------------


def capacity(resp):
    cc = resp["ConsumedCapacity"]
    for unit in ("ReadCapacityUnits", "WriteCapacityUnits"):
        if unit in cc:
            assert cc[unit] == cc["CapacityUnits"]
    return cc["TableName"], cc["CapacityUnits"]


def test_consumed_capacity_total(ddb, hash_table):
    key = {"pk": {"S": "cc"}}
    assert capacity(ddb.put_item(TableName=hash_table, Item={**key, "v": {"S": "x"}},
                                 ReturnConsumedCapacity="TOTAL")) == (hash_table, 1.0)
    assert capacity(ddb.get_item(TableName=hash_table, Key=key, ReturnConsumedCapacity="TOTAL")) == (hash_table, 0.5)
    assert capacity(ddb.get_item(TableName=hash_table, Key=key, ConsistentRead=True,
                                 ReturnConsumedCapacity="TOTAL")) == (hash_table, 1.0)
    assert capacity(ddb.get_item(TableName=hash_table, Key={"pk": {"S": "cc-missing"}},
                                 ReturnConsumedCapacity="TOTAL")) == (hash_table, 0.5)
    assert capacity(ddb.delete_item(TableName=hash_table, Key=key, ReturnConsumedCapacity="TOTAL")) == (hash_table, 1.0)
    assert capacity(ddb.delete_item(TableName=hash_table, Key=key, ReturnConsumedCapacity="TOTAL")) == (hash_table, 1.0)


def test_consumed_capacity_by_size(ddb, hash_table):
    key = {"pk": {"S": "cc-big"}}
    big = {**key, "f": {"S": "a" * 5000}}  # 2 + 6 + 1 + 5000 = 5009 bytes: 5 write units, 2 read units
    assert capacity(ddb.put_item(TableName=hash_table, Item=big, ReturnConsumedCapacity="TOTAL")) == (hash_table, 5.0)
    assert capacity(ddb.get_item(TableName=hash_table, Key=key, ConsistentRead=True,
                                 ReturnConsumedCapacity="TOTAL")) == (hash_table, 2.0)
    assert capacity(ddb.get_item(TableName=hash_table, Key=key, ReturnConsumedCapacity="TOTAL")) == (hash_table, 1.0)
    # Replacing a big item with a small one costs the bigger of the two.
    assert capacity(ddb.put_item(TableName=hash_table, Item=key, ReturnConsumedCapacity="TOTAL")) == (hash_table, 5.0)
    assert capacity(ddb.delete_item(TableName=hash_table, Key=key, ReturnConsumedCapacity="TOTAL")) == (hash_table, 1.0)


def test_consumed_capacity_absent_by_default(ddb, hash_table):
    key = {"pk": {"S": "cc-none"}}
    assert "ConsumedCapacity" not in ddb.put_item(TableName=hash_table, Item=key)
    assert "ConsumedCapacity" not in ddb.put_item(TableName=hash_table, Item=key, ReturnConsumedCapacity="NONE")
    assert "ConsumedCapacity" not in ddb.get_item(TableName=hash_table, Key=key)
    assert "ConsumedCapacity" not in ddb.delete_item(TableName=hash_table, Key=key)


def test_consumed_capacity_indexes(ddb, hash_table):
    resp = ddb.put_item(TableName=hash_table, Item={"pk": {"S": "cc-idx"}}, ReturnConsumedCapacity="INDEXES")
    cc = resp["ConsumedCapacity"]
    assert cc["TableName"] == hash_table
    assert cc["CapacityUnits"] == 1.0
    assert cc["Table"]["CapacityUnits"] == 1.0
