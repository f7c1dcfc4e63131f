"""Sets come back in one canonical order in every answer that carries items: SS members sorted by
their UTF-8 bytes, BS members by their bytes, NS members numerically, whatever order they were
written in and however they were built (PutItem, UpdateItem's ADD and DELETE, PartiQL).

AWS documents sets as unordered and returns them in an order of its own; client libraries that
compare whole items with deep equality need one stable order, and a sorted one is what they get
from DynamoDB Local. Top-level attributes and map keys come back sorted by name bytes as well."""
import time

import pytest

from conftest import unique_name

# Unsorted on purpose: byte order puts U+FFFF (EF BF BF) before U+1F600 (F0 9F 98 80), UTF-16 order
# would not; "Z" < "a" < "aa" < "z" < "é".
SS_IN = ["z", "\U0001F600", "a", "\u00e9", "Z", "\uffff", "aa"]
SS_OUT = ["Z", "a", "aa", "z", "\u00e9", "\uffff", "\U0001F600"]
NS_IN = ["10", "9", "-1", "1.5", "1E2", "-0.001", "0", "-1E-5", "123456789012345678901234567890"]
NS_OUT = ["-1", "-0.001", "-0.00001", "0", "1.5", "9", "10", "100", "123456789012345678901234567890"]
BS_IN = [b"\xff", b"\x00", b"a", b"\x80\x01", b"\x7f", b"\x00\x00"]
BS_OUT = [b"\x00", b"\x00\x00", b"a", b"\x7f", b"\x80\x01", b"\xff"]

ITEM_SETS = {"ss": {"SS": SS_IN}, "ns": {"NS": NS_IN}, "bs": {"BS": BS_IN},
             "nested": {"M": {"x1": {"L": [{"SS": SS_IN}, {"NS": NS_IN}]}}}}
SORTED_SETS = {"ss": {"SS": SS_OUT}, "ns": {"NS": NS_OUT}, "bs": {"BS": BS_OUT},
               "nested": {"M": {"x1": {"L": [{"SS": SS_OUT}, {"NS": NS_OUT}]}}}}


def test_ns_expected_order_is_numeric():
    from decimal import Decimal
    assert [Decimal(n) for n in NS_OUT] == sorted(Decimal(n) for n in NS_IN)


@pytest.fixture(scope="module")
def table(ddb):
    name = unique_name("sets")
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                     KeySchema=[{"AttributeName": "p", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "p", "AttributeType": "S"}],
                     StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})
    return name


def sets_of(item):
    return {k: item[k] for k in SORTED_SETS}


def test_every_read_returns_sorted_sets(ddb, table):
    key = {"p": {"S": unique_name("read")}}
    ddb.put_item(TableName=table, Item={**key, **ITEM_SETS})
    assert sets_of(ddb.put_item(TableName=table, Item={**key, **ITEM_SETS}, ReturnValues="ALL_OLD")["Attributes"]) \
        == SORTED_SETS
    assert sets_of(ddb.get_item(TableName=table, Key=key, ConsistentRead=True)["Item"]) == SORTED_SETS
    assert sets_of(ddb.query(TableName=table, KeyConditionExpression="p = :p",
                             ExpressionAttributeValues={":p": key["p"]})["Items"][0]) == SORTED_SETS
    scanned = [i for i in ddb.scan(TableName=table)["Items"] if i["p"] == key["p"]]
    assert sets_of(scanned[0]) == SORTED_SETS
    assert sets_of(ddb.batch_get_item(RequestItems={table: {"Keys": [key]}})["Responses"][table][0]) == SORTED_SETS
    assert sets_of(ddb.transact_get_items(TransactItems=[{"Get": {"TableName": table, "Key": key}}])
                   ["Responses"][0]["Item"]) == SORTED_SETS
    selected = ddb.execute_statement(Statement=f'SELECT * FROM "{table}" WHERE p = ?', Parameters=[key["p"]])
    assert sets_of(selected["Items"][0]) == SORTED_SETS
    projected = ddb.get_item(TableName=table, Key=key, ProjectionExpression="ss, nested.x1[1]")["Item"]
    assert projected == {"ss": {"SS": SS_OUT}, "nested": {"M": {"x1": {"L": [{"NS": NS_OUT}]}}}}
    assert sets_of(ddb.delete_item(TableName=table, Key=key, ReturnValues="ALL_OLD")["Attributes"]) == SORTED_SETS


def test_update_builds_sorted_sets(ddb, table):
    key = {"p": {"S": unique_name("update")}}
    out = ddb.update_item(TableName=table, Key=key, UpdateExpression="SET ss = :ss, ns = :ns, bs = :bs",
                          ExpressionAttributeValues={":ss": {"SS": SS_IN}, ":ns": {"NS": NS_IN}, ":bs": {"BS": BS_IN}},
                          ReturnValues="UPDATED_NEW")["Attributes"]
    assert out == {"ss": {"SS": SS_OUT}, "ns": {"NS": NS_OUT}, "bs": {"BS": BS_OUT}}
    # ADD merges new members into their place; DELETE keeps the rest in order.
    out = ddb.update_item(TableName=table, Key=key, UpdateExpression="ADD ss :s, ns :n, bs :b",
                          ExpressionAttributeValues={":s": {"SS": ["zz", "0", "a"]}, ":n": {"NS": ["5", "-100"]},
                                                     ":b": {"BS": [b"\x01", b"\xfe"]}},
                          ReturnValues="ALL_NEW")["Attributes"]
    assert out["ss"]["SS"] == sorted(SS_OUT + ["zz", "0"], key=lambda s: s.encode())
    assert out["ns"]["NS"] == ["-100", "-1", "-0.001", "-0.00001", "0", "1.5", "5", "9", "10", "100",
                               "123456789012345678901234567890"]
    assert out["bs"]["BS"] == sorted(BS_OUT + [b"\x01", b"\xfe"])
    out = ddb.update_item(TableName=table, Key=key, UpdateExpression="DELETE ss :s",
                          ExpressionAttributeValues={":s": {"SS": ["a", "zz"]}}, ReturnValues="UPDATED_OLD")
    assert out["Attributes"]["ss"]["SS"] == sorted(SS_OUT + ["zz", "0"], key=lambda s: s.encode())
    got = ddb.get_item(TableName=table, Key=key, ConsistentRead=True)["Item"]
    assert got["ss"]["SS"] == sorted([s for s in SS_OUT + ["0"] if s != "a"], key=lambda s: s.encode())
    # The legacy AttributeUpdates ADD as well.
    out = ddb.update_item(TableName=table, Key=key, ReturnValues="UPDATED_NEW",
                          AttributeUpdates={"ns": {"Action": "ADD", "Value": {"NS": ["3", "-7"]}}})["Attributes"]
    assert out["ns"]["NS"] == ["-100", "-7", "-1", "-0.001", "-0.00001", "0", "1.5", "3", "5", "9", "10", "100",
                               "123456789012345678901234567890"]


def test_partiql_set_literals_come_back_sorted(ddb, table):
    p = unique_name("partiql")
    ddb.execute_statement(Statement=f"INSERT INTO \"{table}\" VALUE {{'p': '{p}', 'ss': <<'b', 'a', 'C'>>, "
                                    f"'ns': <<3, -2, 10>>}}")
    got = ddb.get_item(TableName=table, Key={"p": {"S": p}}, ConsistentRead=True)["Item"]
    assert got["ss"] == {"SS": ["C", "a", "b"]}
    assert got["ns"] == {"NS": ["-2", "3", "10"]}


def test_stream_images_have_sorted_sets(ddb, server, table):
    streams = server.client("dynamodbstreams")
    key = {"p": {"S": unique_name("stream")}}
    ddb.put_item(TableName=table, Item={**key, **ITEM_SETS})
    ddb.update_item(TableName=table, Key=key, UpdateExpression="ADD ss :s", ExpressionAttributeValues={":s": {"SS": ["0"]}})
    arn = ddb.describe_table(TableName=table)["Table"]["LatestStreamArn"]
    records = []
    deadline = time.time() + 10
    while len(records) < 2 and time.time() < deadline:
        records = []
        for shard in streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]:
            it = streams.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                                            ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
            records += [r for r in streams.get_records(ShardIterator=it)["Records"] if r["dynamodb"]["Keys"] == key]
    assert sets_of(records[0]["dynamodb"]["NewImage"]) == SORTED_SETS
    assert sets_of(records[1]["dynamodb"]["OldImage"]) == SORTED_SETS
    assert records[1]["dynamodb"]["NewImage"]["ss"]["SS"] == ["0"] + SS_OUT


def test_attributes_and_map_keys_come_back_sorted_by_name(ddb, table):
    import json
    import raw
    p = unique_name("order")
    body = '{"TableName": "%s", "Item": {"p": {"S": "%s"}, "z": {"S": "1"}, "B": {"S": "2"}, "a": {"M": {"y": {"N": "1"}, "\\u00e9": {"N": "2"}, "A": {"N": "3"}}}}}' % (table, p)
    status, _, _ = raw.post(raw_port(ddb), "DynamoDB_20120810.PutItem", body)
    assert status == 200
    status, _, text = raw.post(raw_port(ddb), "DynamoDB_20120810.GetItem",
                               json.dumps({"TableName": table, "Key": {"p": {"S": p}}}))
    item = json.loads(text)["Item"]
    assert list(item) == ["B", "a", "p", "z"]
    assert list(item["a"]["M"]) == ["A", "y", "\u00e9"]


def raw_port(ddb):
    return int(ddb.meta.endpoint_url.rsplit(":", 1)[1])
