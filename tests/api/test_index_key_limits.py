"""Secondary index key values obey the table's key limits: at most 2048 bytes for a partition
attribute, 1024 for a sort attribute (string and binary; numbers are not counted), on every
write path (PutItem, UpdateItem, BatchWriteItem, TransactWriteItems, PartiQL), for GSIs, LSIs and
multi-attribute GSI keys. An index created on a table that already holds violating items leaves
them out and stays usable; the items stay in the table, and writes that would violate are then
refused (AWS's developer guide, "Detecting and correcting index key violations").

The messages are the table key's (a GSI partition value over 2048 bytes is refused with "Size of
hashkey has exceeded the maximum size limit of2048 bytes", as applications report from AWS)."""
import time

import pytest
from botocore.exceptions import ClientError

from conftest import unique_name
from index_helpers import ks, ad, index
from wire_helpers import err, validation, S, N, B

HASH_TOO_LONG = "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"
RANGE_TOO_LONG = ("One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size "
                  "limit of 1024 bytes")


@pytest.fixture(scope="module")
def indexed(ddb):
    """A table keyed (p, c) with a GSI on (g, h), an LSI on (p, l) and a multi-attribute GSI
    ((m1, m2), (r1, r2))."""
    name = unique_name()
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", KeySchema=ks(("p", "HASH"), ("c", "RANGE")),
                     AttributeDefinitions=ad(("p", "S"), ("c", "S"), ("g", "S"), ("h", "B"), ("l", "S"), ("m1", "S"),
                                             ("m2", "N"), ("r1", "B"), ("r2", "S")),
                     GlobalSecondaryIndexes=[index("gsi", ks(("g", "HASH"), ("h", "RANGE"))),
                                             index("multi", ks(("m1", "HASH"), ("m2", "HASH"), ("r1", "RANGE"),
                                                               ("r2", "RANGE")))],
                     LocalSecondaryIndexes=[index("lsi", ks(("p", "HASH"), ("l", "RANGE")), "KEYS_ONLY")])
    return name


# Each case: extra attributes for an item keyed (p, c), and the refusal it must get.
CASES = [
    ({"g": S("g" * 2049)}, HASH_TOO_LONG),
    ({"g": S("é" * 1025)}, HASH_TOO_LONG),  # 2050 UTF-8 bytes in 1025 characters
    ({"g": S("g"), "h": B(b"\x01" * 1025)}, RANGE_TOO_LONG),
    ({"l": S("l" * 1025)}, RANGE_TOO_LONG),
    ({"m1": S("m" * 2049)}, HASH_TOO_LONG),
    ({"r2": S("r" * 1025)}, RANGE_TOO_LONG),
]
AT_LIMIT = {"g": S("g" * 2048), "h": B(b"\xff" * 1024), "l": S("l" * 1024), "m1": S("é" * 1024), "m2": N("1" * 38),
            "r1": B(b"\x00" * 1024), "r2": S("r" * 1024)}


def item(key, extra):
    return {"p": S(key), "c": S("c"), **extra}


@pytest.mark.parametrize("extra,message", CASES)
def test_put_item_refuses_an_index_key_value_past_the_limit(ddb, indexed, extra, message):
    with pytest.raises(ClientError) as e:
        ddb.put_item(TableName=indexed, Item=item("put", extra))
    validation(e, message)
    assert "Item" not in ddb.get_item(TableName=indexed, Key={"p": S("put"), "c": S("c")}, ConsistentRead=True)


@pytest.mark.parametrize("extra,message", CASES)
def test_every_write_path_refuses_it(ddb, indexed, extra, message):
    key = {"p": S("paths"), "c": S("c")}
    ddb.put_item(TableName=indexed, Item={**key, "v": N(1)})
    names = {f"#n{i}": n for i, n in enumerate(extra)}
    values = {f":v{i}": v for i, v in enumerate(extra.values())}
    update = "SET " + ", ".join(f"#n{i} = :v{i}" for i in range(len(extra)))
    attempts = [
        lambda: ddb.update_item(TableName=indexed, Key=key, UpdateExpression=update, ExpressionAttributeNames=names,
                                ExpressionAttributeValues=values),
        lambda: ddb.update_item(TableName=indexed, Key=key,
                                AttributeUpdates={n: {"Action": "PUT", "Value": v} for n, v in extra.items()}),
        lambda: ddb.batch_write_item(RequestItems={indexed: [{"PutRequest": {"Item": {**key, **extra}}}]}),
        lambda: ddb.transact_write_items(TransactItems=[{"Put": {"TableName": indexed, "Item": {**key, **extra}}}]),
        lambda: ddb.transact_write_items(TransactItems=[{"Update": {
            "TableName": indexed, "Key": key, "UpdateExpression": update, "ExpressionAttributeNames": names,
            "ExpressionAttributeValues": values}}]),
        lambda: ddb.execute_statement(Statement=f'INSERT INTO "{indexed}" VALUE {{\'p\': ?, \'c\': ?, '
                                      + ", ".join(f"'{n}': ?" for n in extra) + "}",
                                      Parameters=[S("paths2"), S("c"), *extra.values()]),
        lambda: ddb.execute_statement(Statement=f'UPDATE "{indexed}" ' + " ".join(f'SET "{n}" = ?' for n in extra)
                                      + " WHERE p = ? AND c = ?", Parameters=[*extra.values(), S("paths"), S("c")]),
    ]
    for attempt in attempts:
        with pytest.raises(ClientError) as e:
            attempt()
        code, text = err(e)
        if code == "TransactionCanceledException":
            assert "ValidationError" in text, text
        else:
            assert (code, text) == ("ValidationException", message)
    assert ddb.get_item(TableName=indexed, Key=key, ConsistentRead=True)["Item"] == {**key, "v": N(1)}
    assert "Item" not in ddb.get_item(TableName=indexed, Key={"p": S("paths2"), "c": S("c")}, ConsistentRead=True)


def test_values_at_the_limit_are_indexed(ddb, indexed):
    full = item("limit", AT_LIMIT)
    ddb.put_item(TableName=indexed, Item=full)
    got = ddb.query(TableName=indexed, IndexName="gsi", KeyConditionExpression="g = :g AND h = :h",
                    ExpressionAttributeValues={":g": AT_LIMIT["g"], ":h": AT_LIMIT["h"]})["Items"]
    assert got == [full]
    got = ddb.query(TableName=indexed, IndexName="multi", KeyConditionExpression="m1 = :a AND m2 = :b AND r1 = :c",
                    ExpressionAttributeValues={":a": AT_LIMIT["m1"], ":b": AT_LIMIT["m2"], ":c": AT_LIMIT["r1"]})
    assert got["Items"] == [full]
    got = ddb.query(TableName=indexed, IndexName="lsi", KeyConditionExpression="p = :p AND l = :l",
                    ExpressionAttributeValues={":p": S("limit"), ":l": AT_LIMIT["l"]})["Items"]
    assert got == [{"p": S("limit"), "c": S("c"), "l": AT_LIMIT["l"]}]
    # Numbers are not counted: a long number is fine in a partition and a sort attribute.
    ddb.put_item(TableName=indexed, Item=item("numbers", {"m1": S("x"), "m2": N("9" * 38), "r1": B(b"r"),
                                                          "r2": S("r" * 1024)}))


def test_an_index_created_later_leaves_violating_items_out(ddb):
    name = unique_name()
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", KeySchema=ks(("p", "HASH")),
                     AttributeDefinitions=ad(("p", "S")))
    good = [{"p": S(f"good{i}"), "a": S("A"), "b": S(f"b{i}")} for i in range(3)]
    bad = [{"p": S("long-hash"), "a": S("A" * 2049), "b": S("b")},
           {"p": S("long-range"), "a": S("A"), "b": S("b" * 1025)},
           {"p": S("wrong-type"), "a": N(1), "b": S("b")}]
    for it in good + bad:
        ddb.put_item(TableName=name, Item=it)
    ddb.update_table(TableName=name, AttributeDefinitions=ad(("a", "S"), ("b", "S")),
                     GlobalSecondaryIndexUpdates=[{"Create": index("abx", ks(("a", "HASH"), ("b", "RANGE")))}])
    deadline = time.time() + 30
    while ddb.describe_table(TableName=name)["Table"]["GlobalSecondaryIndexes"][0]["IndexStatus"] != "ACTIVE":
        assert time.time() < deadline
        time.sleep(0.05)
    # The backfill went through the violating items without stopping: the index is ACTIVE and
    # holds exactly the items that fit it; the others are still in the table.
    assert sorted(i["p"]["S"] for i in ddb.scan(TableName=name, IndexName="abx")["Items"]) == ["good0", "good1", "good2"]
    for it in bad:
        assert ddb.get_item(TableName=name, Key={"p": it["p"]}, ConsistentRead=True)["Item"] == it
    # Writes that would violate the new index are refused from now on, also on those items.
    with pytest.raises(ClientError) as e:
        ddb.update_item(TableName=name, Key={"p": S("long-hash")}, UpdateExpression="SET x = :x",
                        ExpressionAttributeValues={":x": N(1)})
    validation(e, HASH_TOO_LONG)
    with pytest.raises(ClientError) as e:
        ddb.put_item(TableName=name, Item={"p": S("new"), "a": S("A"), "b": S("b" * 1025)})
    validation(e, RANGE_TOO_LONG)
    # Fixing an item brings it into the index.
    ddb.update_item(TableName=name, Key={"p": S("long-range")}, UpdateExpression="SET b = :b",
                    ExpressionAttributeValues={":b": S("b-fixed")})
    got = ddb.query(TableName=name, IndexName="abx", KeyConditionExpression="a = :a AND b = :b",
                    ExpressionAttributeValues={":a": S("A"), ":b": S("b-fixed")})["Items"]
    assert [i["p"]["S"] for i in got] == ["long-range"]


def test_empty_index_key_values_by_put_and_by_update(ddb, indexed):
    # Strings captured from AWS in four regions (dynamodb-conformance's
    # error-messages/indexKeyValues.test.ts): a put names the index and key, an update does not.
    for value, kind in [(S(""), "string"), (B(b""), "binary")]:
        extra = {"g": value} if kind == "string" else {"g": S("g"), "h": value}
        attribute = "g" if kind == "string" else "h"
        with pytest.raises(ClientError) as e:
            ddb.put_item(TableName=indexed, Item=item("empty", extra))
        validation(e, "One or more parameter values are not valid. A value specified for a secondary index key is not "
                      f"supported. The AttributeValue for a key attribute cannot contain an empty {kind} value. "
                      f"IndexName: gsi, IndexKey: {attribute}")
        with pytest.raises(ClientError) as e:
            ddb.update_item(TableName=indexed, Key={"p": S("empty"), "c": S("c")}, UpdateExpression="SET #a = :v",
                            ExpressionAttributeNames={"#a": attribute}, ExpressionAttributeValues={":v": value})
        validation(e, "One or more parameter values are not valid. The update expression attempted to update a "
                      "secondary index key to a value that is not supported. The AttributeValue for a key attribute "
                      f"cannot contain an empty {kind} value.")
