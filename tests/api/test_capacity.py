"""ConsumedCapacity at the rounding boundaries (shared spec "Capacity"): item sizes computed by hand with
AWS's size rules, write units ceil(size / 1 KB), read units ceil(size / 4 KB) (x0.5 eventually
consistent), Query sums then rounds once, index arms by projection."""
import pytest

from conftest import unique_name
from wire_helpers import S


@pytest.mark.parametrize("item, size", [
    ({"pk": S("a" * 1022)}, 1024),                                                   # name 2 + value 1022
    ({"pk": S("a" * 1023)}, 1025),
    ({"pk": S("k"), "blob": S("x" * 4089)}, 4096),                                  # 3 + 4 + 4089
    ({"pk": S("k"), "blob": S("x" * 4090)}, 4097),
    ({"pk": S("k"), "n": {"N": "12345678901234567890123456789012345678"}}, 24),      # 38 digits = 20 bytes
    ({"pk": S("k"), "n": {"N": "-0.000000000000000000000000000000000001"}}, 6),      # 1 + 1 pair + 1 negative
    ({"pk": S("k"), "m": {"M": {"s": S("x" * 1015)}}}, 1024),                        # M: 3 + (1 + 1 + 1015)
    ({"pk": S("k"), "m": {"M": {"s": S("x" * 1016)}}}, 1025),
    ({"pk": S("k"), "l": {"L": [S("x" * 1016)]}}, 1024),                             # L: 3 + (1 + 1016)
    ({"pk": S("k"), "l": {"L": [S("x" * 1017)]}}, 1025),
    ({"pk": S("k"), "ss": {"SS": ["a" * 500, "b" * 519]}}, 1024),                    # sets: sum of members
    ({"pk": S("k"), "ns": {"NS": ["1", "12", "123"]}, "z": {"NULL": True}, "t": {"BOOL": True}}, 17),
])
def test_item_capacity_boundaries(ddb, hash_table, item, size):
    expected_write = -(-size // 1024)
    expected_read = -(-size // 4096)
    key = {"pk": item["pk"]}
    ddb.delete_item(TableName=hash_table, Key=key)
    put = ddb.put_item(TableName=hash_table, Item=item, ReturnConsumedCapacity="TOTAL")
    assert put["ConsumedCapacity"]["CapacityUnits"] == expected_write
    strong = ddb.get_item(TableName=hash_table, Key=key, ConsistentRead=True, ReturnConsumedCapacity="TOTAL")
    assert strong["ConsumedCapacity"]["CapacityUnits"] == expected_read
    eventual = ddb.get_item(TableName=hash_table, Key=key, ReturnConsumedCapacity="TOTAL")
    assert eventual["ConsumedCapacity"]["CapacityUnits"] == expected_read / 2
    # An overwrite costs the larger of the old and the new item; a delete the old one.
    small = ddb.put_item(TableName=hash_table, Item=key, ReturnConsumedCapacity="TOTAL")
    assert small["ConsumedCapacity"]["CapacityUnits"] == expected_write
    gone = ddb.delete_item(TableName=hash_table, Key=key, ReturnConsumedCapacity="TOTAL")
    key_only_size = 2 + len(key["pk"]["S"])  # the overwritten item holds its key alone now
    assert gone["ConsumedCapacity"]["CapacityUnits"] == -(-key_only_size // 1024)


def test_missing_items_cost_the_minimum(ddb, hash_table):
    key = {"pk": S(unique_name())}
    assert ddb.get_item(TableName=hash_table, Key=key, ReturnConsumedCapacity="TOTAL")["ConsumedCapacity"][
        "CapacityUnits"] == 0.5
    assert ddb.get_item(TableName=hash_table, Key=key, ConsistentRead=True, ReturnConsumedCapacity="TOTAL")[
        "ConsumedCapacity"]["CapacityUnits"] == 1.0
    assert ddb.delete_item(TableName=hash_table, Key=key, ReturnConsumedCapacity="TOTAL")["ConsumedCapacity"][
        "CapacityUnits"] == 1.0


def test_query_sums_then_rounds_once(ddb, hash_range_table):
    for i in range(3):  # 3 items of 1,500 bytes: 4,500 bytes -> 2 read units, not 3
        ddb.put_item(TableName=hash_range_table, Item={"pk": S("q"), "sk": {"N": str(i)}, "d": S("x" * 1490)})
    # pk 2+1, sk 2+2 (N "i" = 2 bytes), d 1+1490 -> 1,498 bytes each: 4,494 in all.
    strong = ddb.query(TableName=hash_range_table, KeyConditionExpression="pk = :p",
                       ExpressionAttributeValues={":p": S("q")}, ConsistentRead=True, ReturnConsumedCapacity="TOTAL")
    assert strong["ConsumedCapacity"]["CapacityUnits"] == 2.0
    eventual = ddb.query(TableName=hash_range_table, KeyConditionExpression="pk = :p",
                         ExpressionAttributeValues={":p": S("q")}, ReturnConsumedCapacity="TOTAL")
    assert eventual["ConsumedCapacity"]["CapacityUnits"] == 1.0
    empty = ddb.query(TableName=hash_range_table, KeyConditionExpression="pk = :p",
                      ExpressionAttributeValues={":p": S("none")}, ReturnConsumedCapacity="TOTAL")
    assert empty["ConsumedCapacity"]["CapacityUnits"] == 0.5


def arms(consumed):
    return {name: arm["CapacityUnits"] for name, arm in consumed.get("GlobalSecondaryIndexes", {}).items()}


def test_index_arms_follow_projections(ddb):
    name = unique_name()
    ddb.create_table(TableName=name, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                           {"AttributeName": "g", "AttributeType": "S"}],
                     GlobalSecondaryIndexes=[
                         {"IndexName": "keys", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                          "Projection": {"ProjectionType": "KEYS_ONLY"}},
                         {"IndexName": "all", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                          "Projection": {"ProjectionType": "ALL"}}],
                     BillingMode="PAY_PER_REQUEST")
    item = {"pk": S("k"), "g": S("G"), "d": S("x" * 2990)}  # 3 + 2 + 1 + 2990 = 2,996 bytes: 3 WCU
    c = ddb.put_item(TableName=name, Item=item, ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
    assert c["Table"]["CapacityUnits"] == 3.0
    assert arms(c) == {"keys": 1.0, "all": 3.0}
    assert c["CapacityUnits"] == 7.0
    # Changing a non-projected attribute costs nothing on the KEYS_ONLY index; ALL pays max(old, new).
    c = ddb.put_item(TableName=name, Item={**item, "d": S("y" * 100)}, ReturnConsumedCapacity="INDEXES")[
        "ConsumedCapacity"]
    assert c["Table"]["CapacityUnits"] == 3.0
    assert arms(c) == {"all": 3.0}
    # Moving the index key: old entry removed and new one written on both indexes.
    c = ddb.put_item(TableName=name, Item={"pk": S("k"), "g": S("H"), "d": S("y" * 100)},
                     ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
    assert arms(c) == {"keys": 2.0, "all": 2.0}
    # Removing the index key: only the removal is paid.
    c = ddb.put_item(TableName=name, Item={"pk": S("k")}, ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
    assert arms(c) == {"keys": 1.0, "all": 1.0}
    assert c["Table"]["CapacityUnits"] == 1.0


def test_index_reads_are_charged_to_the_index(ddb):
    name = unique_name()
    ddb.create_table(TableName=name, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                           {"AttributeName": "g", "AttributeType": "S"}],
                     GlobalSecondaryIndexes=[{"IndexName": "byg", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                              "Projection": {"ProjectionType": "ALL"}}],
                     BillingMode="PAY_PER_REQUEST")
    for i in range(3):
        ddb.put_item(TableName=name, Item={"pk": S(f"k{i}"), "g": S("G"), "d": S("x" * 2000)})
    c = ddb.query(TableName=name, IndexName="byg", KeyConditionExpression="g = :g",
                  ExpressionAttributeValues={":g": S("G")}, ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
    # 3 entries of 2,009 bytes = 6,027 bytes: 2 units, eventually consistent: 1.0, all on the index.
    assert arms(c) == {"byg": 1.0}
    assert c["Table"]["CapacityUnits"] == 0.0
    assert c["CapacityUnits"] == 1.0


# --- PartiQL reports the same arms as the item operations ---------------------------------------

def indexed_table(ddb):
    """pk S / sk N with a GSI on g (ALL projection) and an LSI on l (KEYS_ONLY)."""
    name = unique_name()
    ddb.create_table(TableName=name, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                                {"AttributeName": "sk", "KeyType": "RANGE"}],
                     AttributeDefinitions=[{"AttributeName": n, "AttributeType": t}
                                           for n, t in (("pk", "S"), ("sk", "N"), ("g", "S"), ("l", "S"))],
                     GlobalSecondaryIndexes=[{"IndexName": "gsi", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                              "Projection": {"ProjectionType": "ALL"}}],
                     LocalSecondaryIndexes=[{"IndexName": "lsi",
                                             "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                           {"AttributeName": "l", "KeyType": "RANGE"}],
                                             "Projection": {"ProjectionType": "KEYS_ONLY"}}],
                     BillingMode="PAY_PER_REQUEST")
    return name


BLOB, NEW_BLOB = "x" * 2990, "y" * 1500


def item_writes(pk):
    """Put a 3 KB item, update it (move its GSI key, shrink a non-projected attribute), delete it:
    as (PutItem / UpdateItem / DeleteItem parameters, the same write as a PartiQL statement)."""
    key = {"pk": S(pk), "sk": {"N": "1"}}
    return [
        ("Put", {"Item": {**key, "g": S("G"), "l": S("L"), "d": S(BLOB)}},
         "INSERT INTO \"{t}\" VALUE {{'pk': '%s', 'sk': 1, 'g': 'G', 'l': 'L', 'd': ?}}" % pk, [S(BLOB)]),
        ("Update", {"Key": key, "UpdateExpression": "SET d = :d, g = :g",
                    "ExpressionAttributeValues": {":d": S(NEW_BLOB), ":g": S("H")}},
         "UPDATE \"{t}\" SET d = ?, g = ? WHERE pk = '%s' AND sk = 1" % pk, [S(NEW_BLOB), S("H")]),
        ("Delete", {"Key": key}, "DELETE FROM \"{t}\" WHERE pk = '%s' AND sk = 1" % pk, None),
    ]


def statement(text, table, parameters):
    s = {"Statement": text.format(t=table)}
    if parameters:
        s["Parameters"] = parameters
    return s


def api_write(ddb, table, kind, params, mode):
    call = {"Put": ddb.put_item, "Update": ddb.update_item, "Delete": ddb.delete_item}[kind]
    return call(TableName=table, ReturnConsumedCapacity=mode, **params)["ConsumedCapacity"]


@pytest.mark.parametrize("mode", ["TOTAL", "INDEXES"])
def test_partiql_writes_report_index_arms_like_item_writes(ddb, mode):
    t = indexed_table(ddb)
    for (kind, params, _, _), (_, _, text, parameters) in zip(item_writes("a"), item_writes("b")):
        expected = api_write(ddb, t, kind, params, mode)
        got = ddb.execute_statement(ReturnConsumedCapacity=mode, **statement(text, t, parameters))
        assert got["ConsumedCapacity"] == expected, kind
    for (kind, params, _, _), (_, _, text, parameters) in zip(item_writes("c"), item_writes("d")):
        expected = api_write(ddb, t, kind, params, mode)
        got = ddb.batch_execute_statement(Statements=[statement(text, t, parameters)], ReturnConsumedCapacity=mode)
        assert got["ConsumedCapacity"] == [expected], kind
    if mode == "INDEXES":  # the Put touched both indexes, the Update moved the GSI entry only
        put, update, _ = [api_write(ddb, t, k, p, mode) for k, p, _, _ in item_writes("e")]
        assert set(put["GlobalSecondaryIndexes"]) == {"gsi"} and set(put["LocalSecondaryIndexes"]) == {"lsi"}
        assert put["CapacityUnits"] == put["Table"]["CapacityUnits"] + put["GlobalSecondaryIndexes"]["gsi"][
            "CapacityUnits"] + put["LocalSecondaryIndexes"]["lsi"]["CapacityUnits"]
        assert set(update["GlobalSecondaryIndexes"]) == {"gsi"} and "LocalSecondaryIndexes" not in update


@pytest.mark.parametrize("mode", ["TOTAL", "INDEXES"])
def test_partiql_transaction_writes_report_index_arms_like_transact_write_items(ddb, mode):
    t = indexed_table(ddb)
    for (kind, params, _, _), (_, _, text, parameters) in zip(item_writes("a"), item_writes("b")):
        expected = ddb.transact_write_items(TransactItems=[{kind: {"TableName": t, **params}}],
                                            ReturnConsumedCapacity=mode)["ConsumedCapacity"]
        got = ddb.execute_transaction(TransactStatements=[statement(text, t, parameters)],
                                      ReturnConsumedCapacity=mode)["ConsumedCapacity"]
        assert got == expected, kind
        if mode == "INDEXES" and kind == "Put":  # doubled on the table arm only
            single = api_write(ddb, t, kind, item_writes("c")[0][1], mode)
            assert got[0]["Table"]["CapacityUnits"] == 2 * single["Table"]["CapacityUnits"]
            assert got[0]["GlobalSecondaryIndexes"] == single["GlobalSecondaryIndexes"]
            assert got[0]["LocalSecondaryIndexes"] == single["LocalSecondaryIndexes"]


def test_partiql_index_reads_report_index_arms_like_query(ddb):
    t = indexed_table(ddb)
    for i in range(3):
        ddb.put_item(TableName=t, Item={"pk": S("r"), "sk": {"N": str(i)}, "g": S("R"), "l": S(f"L{i}"),
                                        "d": S("x" * 2000)})
    query = ddb.query(TableName=t, IndexName="gsi", KeyConditionExpression="g = :g",
                      ExpressionAttributeValues={":g": S("R")}, ReturnConsumedCapacity="INDEXES")
    got = ddb.execute_statement(Statement=f"SELECT * FROM \"{t}\".\"gsi\" WHERE g = 'R'",
                                ReturnConsumedCapacity="INDEXES")
    assert got["ConsumedCapacity"] == query["ConsumedCapacity"]
    assert set(got["ConsumedCapacity"]["GlobalSecondaryIndexes"]) == {"gsi"}
    # An LSI read of an attribute the index does not project fetches the items: the table arm.
    query = ddb.query(TableName=t, IndexName="lsi", KeyConditionExpression="pk = :p",
                      ExpressionAttributeValues={":p": S("r")}, ProjectionExpression="pk, sk, d",
                      ReturnConsumedCapacity="INDEXES")
    got = ddb.execute_statement(Statement=f"SELECT pk, sk, d FROM \"{t}\".\"lsi\" WHERE pk = 'r'",
                                ReturnConsumedCapacity="INDEXES")
    assert got["ConsumedCapacity"] == query["ConsumedCapacity"]
    assert got["ConsumedCapacity"]["Table"]["CapacityUnits"] > 0
    assert set(got["ConsumedCapacity"]["LocalSecondaryIndexes"]) == {"lsi"}


# ClientRequestToken replays apply nothing and report the reads made to answer, in read units
# (API reference, TransactWriteItems). Measured on AWS, the reads are at the transactional rate:
# 2 units per 4 KB, a 1.5 KB item 2 units (strongly consistent it would be 1).
def test_replays_report_reads_at_the_transactional_rate(ddb, hash_table):
    token = unique_name("replay")
    items = [{"Put": {"TableName": hash_table, "Item": {"pk": S("replay-a"), "d": S("x" * 1500)}}},
             {"Put": {"TableName": hash_table, "Item": {"pk": S("replay-b"), "d": S("x" * 5000)}}},
             {"Delete": {"TableName": hash_table, "Key": {"pk": S("replay-missing")}}}]
    first = ddb.transact_write_items(TransactItems=items, ClientRequestToken=token, ReturnConsumedCapacity="TOTAL")
    # 2 x (2 + 5 + 1) write units
    assert first["ConsumedCapacity"] == [{"TableName": hash_table, "CapacityUnits": 16.0, "WriteCapacityUnits": 16.0}]
    replay = ddb.transact_write_items(TransactItems=items, ClientRequestToken=token, ReturnConsumedCapacity="TOTAL")
    # 2 (1.5 KB) + 4 (5 KB) + 2 (missing, the minimum)
    assert replay["ConsumedCapacity"] == [{"TableName": hash_table, "CapacityUnits": 8.0, "ReadCapacityUnits": 8.0}]


def test_execute_transaction_replays_report_reads_at_the_transactional_rate(ddb, hash_table):
    token = unique_name("replay")
    statements = [{"Statement": f"INSERT INTO \"{hash_table}\" VALUE {{'pk': 'replay-p', 'd': ?}}",
                   "Parameters": [S("x" * 1500)]}]
    ddb.execute_transaction(TransactStatements=statements, ClientRequestToken=token, ReturnConsumedCapacity="TOTAL")
    replay = ddb.execute_transaction(TransactStatements=statements, ClientRequestToken=token,
                                     ReturnConsumedCapacity="TOTAL")
    assert replay["ConsumedCapacity"] == [{"TableName": hash_table, "CapacityUnits": 2.0, "ReadCapacityUnits": 2.0}]
