"""Global and local secondary indexes: CreateTable validation and limits, projections in results and
in page sizing, sparse indexes, S/N/B index keys, Query and Scan on indexes, entries following key
changes, overloaded GSIs (single-table design), multi-attribute GSI keys, item collections (LSI
tables): ReturnItemCollectionMetrics and the 10 GB limit."""
import random
import time

import pytest
from botocore.exceptions import ClientError

from conftest import unique_name
from raw import call


def err(e):
    return e.value.response["Error"]["Code"], e.value.response["Error"]["Message"]


def validation(e, message):
    assert err(e) == ("ValidationException", message)


def S(v):
    return {"S": v}


def N(v):
    return {"N": str(v)}


def B(v):
    return {"B": v}


def ks(*pairs):
    return [{"AttributeName": n, "KeyType": t} for n, t in pairs]


def ad(*pairs):
    return [{"AttributeName": n, "AttributeType": t} for n, t in pairs]


def index(name, keys, projection="ALL", include=None):
    p = {"ProjectionType": projection}
    if include:
        p["NonKeyAttributes"] = include
    return {"IndexName": name, "KeySchema": keys, "Projection": p}


def put_all(ddb, table, items):
    for i in range(0, len(items), 25):
        ddb.batch_write_item(RequestItems={table: [{"PutRequest": {"Item": it}} for it in items[i:i + 25]]})


def read_all(ddb, op, **kw):
    items, pages, start = [], [], None
    while True:
        args = dict(kw)
        if start:
            args["ExclusiveStartKey"] = start
        resp = getattr(ddb, op)(**args)
        pages.append(resp)
        items += resp.get("Items", [])
        start = resp.get("LastEvaluatedKey")
        if not start:
            return items, pages


def keyset(items, *names):
    return sorted(tuple(next(iter(i[n].values())) for n in names) for i in items)


# ---- a table with GSIs and LSIs of every projection ------------------------------------------


@pytest.fixture(scope="module")
def idx(ddb):
    name = unique_name()
    ddb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        KeySchema=ks(("pk", "HASH"), ("sk", "RANGE")),
        AttributeDefinitions=ad(("pk", "S"), ("sk", "S"), ("g", "S"), ("n", "N"), ("l", "S"), ("l2", "N")),
        GlobalSecondaryIndexes=[
            index("g_keys", ks(("g", "HASH"), ("n", "RANGE")), "KEYS_ONLY"),
            index("g_inc", ks(("g", "HASH"), ("n", "RANGE")), "INCLUDE", ["color"]),
            index("g_all", ks(("g", "HASH"), ("n", "RANGE"))),
            index("g_hash", ks(("g", "HASH")), "KEYS_ONLY"),
        ],
        LocalSecondaryIndexes=[
            index("l_keys", ks(("pk", "HASH"), ("l", "RANGE")), "KEYS_ONLY"),
            index("l_inc", ks(("pk", "HASH"), ("l2", "RANGE")), "INCLUDE", ["color"]),
        ])
    items = []
    for p in range(4):
        for s in range(10):
            item = {"pk": S(f"P{p}"), "sk": S(f"s{s}"), "color": S(["red", "blue"][s % 2]), "size": N(s)}
            if s != 9:  # s9 is in no GSI (sparse)
                item["g"] = S(f"G{s % 3}")
            if s != 8:  # s8 has g but no n: only in g_hash
                item["n"] = N(100 - 10 * p - s)
            if s % 2 == 0:
                item["l"] = S(f"L{9 - s}")
            item["l2"] = N(-s)
            items.append(item)
    put_all(ddb, name, items)
    return name, items


def test_describe_lists_indexes(ddb, idx):
    table, _ = idx
    desc = ddb.describe_table(TableName=table)["Table"]
    gsis = {g["IndexName"]: g for g in desc["GlobalSecondaryIndexes"]}
    lsis = {i["IndexName"]: i for i in desc["LocalSecondaryIndexes"]}
    assert gsis["g_inc"]["KeySchema"] == ks(("g", "HASH"), ("n", "RANGE"))
    assert gsis["g_inc"]["Projection"] == {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["color"]}
    assert gsis["g_keys"]["IndexStatus"] == "ACTIVE"
    assert lsis["l_keys"]["KeySchema"] == ks(("pk", "HASH"), ("l", "RANGE"))
    assert lsis["l_keys"]["Projection"] == {"ProjectionType": "KEYS_ONLY"}


@pytest.mark.parametrize("name,attributes", [
    ("g_keys", {"pk", "sk", "g", "n"}),
    ("g_inc", {"pk", "sk", "g", "n", "color"}),
    ("g_all", {"pk", "sk", "g", "n", "color", "size", "l2"}),  # plus l on even sk
])
def test_gsi_projections_in_query_results(ddb, idx, name, attributes):
    table, items = idx
    resp = ddb.query(TableName=table, IndexName=name, KeyConditionExpression="g = :g",
                     ExpressionAttributeValues={":g": S("G1")})
    expected = [i for i in items if i.get("g") == S("G1") and "n" in i]
    assert resp["Count"] == len(expected) == 12
    for got in resp["Items"]:
        assert set(got) - {"l"} == attributes
    # Index order: the index sort key (numeric), whatever the table key.
    assert [int(i["n"]["N"]) for i in resp["Items"]] == sorted(int(i["n"]["N"]) for i in expected)
    # Select ALL_PROJECTED_ATTRIBUTES is the default for an index.
    again = ddb.query(TableName=table, IndexName=name, KeyConditionExpression="g = :g", Select="ALL_PROJECTED_ATTRIBUTES",
                      ExpressionAttributeValues={":g": S("G1")})
    assert again["Items"] == resp["Items"]


def test_gsi_select_rules(ddb, idx):
    table, _ = idx
    for name in ["g_keys", "g_inc"]:
        for op, kw in [("query", dict(KeyConditionExpression="g = :g", ExpressionAttributeValues={":g": S("G1")})),
                       ("scan", {})]:
            with pytest.raises(ClientError) as e:
                getattr(ddb, op)(TableName=table, IndexName=name, Select="ALL_ATTRIBUTES", **kw)
            validation(e, "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for "
                          f"global secondary index {name} because its projection type is not ALL")
    resp = ddb.query(TableName=table, IndexName="g_all", KeyConditionExpression="g = :g", Select="ALL_ATTRIBUTES",
                     ExpressionAttributeValues={":g": S("G2")})
    assert resp["Count"] == 8
    # A GSI returns only what it projects: a non-projected attribute is simply absent.
    resp = ddb.query(TableName=table, IndexName="g_keys", KeyConditionExpression="g = :g", ProjectionExpression="sk, color",
                     ExpressionAttributeValues={":g": S("G1")})
    assert all(set(i) == {"sk"} for i in resp["Items"])
    resp = ddb.query(TableName=table, IndexName="g_inc", KeyConditionExpression="g = :g", Select="COUNT",
                     FilterExpression="color = :c", ExpressionAttributeValues={":g": S("G1"), ":c": S("red")})
    assert resp["Count"] == 4 and resp["ScannedCount"] == 12 and "Items" not in resp


def test_gsi_query_conditions_descending_and_paging(ddb, idx):
    table, items = idx
    expected = sorted((i for i in items if i.get("g") == S("G0") and "n" in i), key=lambda i: int(i["n"]["N"]))
    q = dict(TableName=table, IndexName="g_all", KeyConditionExpression="g = :g AND n BETWEEN :a AND :b",
             ExpressionAttributeValues={":g": S("G0"), ":a": N(70), ":b": N(97)})
    want = [i["sk"]["S"] + i["pk"]["S"] for i in expected if 70 <= int(i["n"]["N"]) <= 97]
    for forward in (True, False):
        got, pages = read_all(ddb, "query", **q, Limit=2, ScanIndexForward=forward)
        assert [i["sk"]["S"] + i["pk"]["S"] for i in got] == (want if forward else want[::-1])
        for page in pages[:-1]:
            last = page["Items"][-1]
            assert page["LastEvaluatedKey"] == {k: last[k] for k in ("pk", "sk", "g", "n")}


def test_gsi_hash_only_index_orders_ties_by_table_key_and_pages(ddb, idx):
    table, items = idx
    got, pages = read_all(ddb, "query", TableName=table, IndexName="g_hash", KeyConditionExpression="g = :g",
                          ExpressionAttributeValues={":g": S("G2")}, Limit=3)
    assert keyset(got, "pk", "sk") == keyset([i for i in items if i.get("g") == S("G2")], "pk", "sk")
    assert len(got) == len({(i["pk"]["S"], i["sk"]["S"]) for i in got}) == 12  # s8 included (no n needed)
    assert set(pages[0]["LastEvaluatedKey"]) == {"pk", "sk", "g"}
    back, _ = read_all(ddb, "query", TableName=table, IndexName="g_hash", KeyConditionExpression="g = :g",
                       ExpressionAttributeValues={":g": S("G2")}, Limit=5, ScanIndexForward=False)
    assert back == got[::-1]


def test_sparse_indexes_and_index_scans(ddb, idx):
    table, items = idx
    for name, present in [("g_keys", lambda i: "g" in i and "n" in i), ("g_hash", lambda i: "g" in i),
                          ("l_keys", lambda i: "l" in i), ("l_inc", lambda i: True)]:
        got, _ = read_all(ddb, "scan", TableName=table, IndexName=name, Limit=7)
        assert keyset(got, "pk", "sk") == keyset([i for i in items if present(i)], "pk", "sk"), name
    # Parallel scan of an index covers it exactly once.
    seen = []
    for segment in range(3):
        got, _ = read_all(ddb, "scan", TableName=table, IndexName="g_inc", Segment=segment, TotalSegments=3, Limit=4)
        seen += [(i["pk"]["S"], i["sk"]["S"]) for i in got]
    assert sorted(seen) == sorted(set(seen)) and len(seen) == 32


def test_consistent_reads_and_filters_on_indexes(ddb, idx):
    table, _ = idx
    for op, kw in [("query", dict(KeyConditionExpression="g = :g", ExpressionAttributeValues={":g": S("G1")})),
                   ("scan", {})]:
        with pytest.raises(ClientError) as e:
            getattr(ddb, op)(TableName=table, IndexName="g_all", ConsistentRead=True, **kw)
        validation(e, "Consistent reads are not supported on global secondary indexes")
    # Strongly consistent reads are fine on an LSI.
    resp = ddb.query(TableName=table, IndexName="l_keys", ConsistentRead=True, KeyConditionExpression="pk = :p",
                     ExpressionAttributeValues={":p": S("P1")})
    assert [i["l"]["S"] for i in resp["Items"]] == ["L1", "L3", "L5", "L7", "L9"]
    # A Query filter may not use the index's key attributes; the table's are fine on a GSI.
    with pytest.raises(ClientError) as e:
        ddb.query(TableName=table, IndexName="g_all", KeyConditionExpression="g = :g", FilterExpression="n > :n",
                  ExpressionAttributeValues={":g": S("G1"), ":n": N(1)})
    validation(e, "Filter Expression can only contain non-primary key attributes: Primary key attribute: n")
    resp = ddb.query(TableName=table, IndexName="g_all", KeyConditionExpression="g = :g", FilterExpression="pk = :p",
                     ExpressionAttributeValues={":g": S("G1"), ":p": S("P2")})
    assert resp["Count"] == 3 and resp["ScannedCount"] == 12
    with pytest.raises(ClientError) as e:
        ddb.query(TableName=table, IndexName="l_keys", KeyConditionExpression="pk = :p",
                  QueryFilter={"l": {"ComparisonOperator": "NOT_NULL"}})
    assert "QueryFilter" in err(e)[1]  # mixing KeyConditionExpression with QueryFilter is refused first
    with pytest.raises(ClientError) as e:
        ddb.query(TableName=table, IndexName="l_keys",
                  KeyConditions={"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [S("P1")]}},
                  QueryFilter={"l": {"ComparisonOperator": "NOT_NULL"}})
    validation(e, "QueryFilter can only contain non-primary key attributes: Primary key attribute: l")
    # On an LSI the table's sort key is not an index key: filtering on it is allowed.
    resp = ddb.query(TableName=table, IndexName="l_keys", KeyConditionExpression="pk = :p", FilterExpression="sk = :s",
                     ExpressionAttributeValues={":p": S("P1"), ":s": S("s4")})
    assert resp["Items"] == [{"pk": S("P1"), "sk": S("s4"), "l": S("L5")}]


def test_index_errors(ddb, idx):
    table, _ = idx
    with pytest.raises(ClientError) as e:
        ddb.query(TableName=table, IndexName="nope", KeyConditionExpression="g = :g", ExpressionAttributeValues={":g": S("x")})
    validation(e, "The table does not have the specified index: nope")
    with pytest.raises(ClientError) as e:
        ddb.query(TableName=table, IndexName="g_all", KeyConditionExpression="pk = :g", ExpressionAttributeValues={":g": S("x")})
    validation(e, "Query condition missed key schema element: g")
    with pytest.raises(ClientError) as e:
        ddb.query(TableName=table, IndexName="g_all", KeyConditionExpression="g = :g AND sk = :s",
                  ExpressionAttributeValues={":g": S("x"), ":s": S("x")})
    validation(e, "Query condition missed key schema element: n")
    with pytest.raises(ClientError) as e:
        ddb.query(TableName=table, IndexName="g_all", KeyConditionExpression="g = :g AND n = :s",
                  ExpressionAttributeValues={":g": S("x"), ":s": S("x")})
    validation(e, "One or more parameter values were invalid: Condition parameter type does not match schema type")
    q = dict(TableName=table, IndexName="g_all", KeyConditionExpression="g = :g", ExpressionAttributeValues={":g": S("G1")})
    for start in [{"pk": S("P0"), "sk": S("s1")}, {"pk": S("P0"), "sk": S("s1"), "g": S("G1")},
                  {"pk": S("P0"), "sk": S("s1"), "g": S("G1"), "x": N(1)}]:
        with pytest.raises(ClientError) as e:
            ddb.query(**q, ExclusiveStartKey=start)
        validation(e, "The provided starting key is invalid")
    with pytest.raises(ClientError) as e:
        ddb.query(**q, ExclusiveStartKey={"pk": S("P0"), "sk": S("s1"), "g": S("G2"), "n": N(1)})
    validation(e, "The provided starting key is outside query boundaries based on provided conditions")
    with pytest.raises(ClientError) as e:
        ddb.scan(TableName=table, IndexName="g_all", ExclusiveStartKey={"pk": S("P0"), "sk": S("s1")})
    validation(e, "The provided starting key is invalid")


def test_lsi_reads_fetch_what_the_index_does_not_project(ddb, idx):
    table, items = idx
    full = {(i["pk"]["S"], i["sk"]["S"]): i for i in items}
    q = dict(TableName=table, IndexName="l_keys", KeyConditionExpression="pk = :p AND l < :l",
             ExpressionAttributeValues={":p": S("P3"), ":l": S("L5")})
    projected = ddb.query(**q)["Items"]
    assert projected == [{"pk": S("P3"), "sk": S("s8"), "l": S("L1")}, {"pk": S("P3"), "sk": S("s6"), "l": S("L3")}]
    resp = ddb.query(**q, Select="ALL_ATTRIBUTES", ReturnConsumedCapacity="TOTAL")
    assert resp["Items"] == [full[("P3", "s8")], full[("P3", "s6")]]
    resp = ddb.query(**q, ProjectionExpression="#s, l", ExpressionAttributeNames={"#s": "size"})
    assert resp["Items"] == [{"size": N(8), "l": S("L1")}, {"size": N(6), "l": S("L3")}]
    resp = ddb.query(**{**q, "ExpressionAttributeValues": {":p": S("P3"), ":l": S("L5"), ":c": S("red")}},
                     FilterExpression="color = :c")
    assert resp["Count"] == 2
    resp = ddb.query(TableName=table, IndexName="l_inc", KeyConditionExpression="pk = :p AND l2 >= :v",
                     ExpressionAttributeValues={":p": S("P0"), ":v": N(-2)}, ScanIndexForward=False)
    assert resp["Items"] == [{k: full[("P0", s)][k] for k in ("pk", "sk", "l2", "color")} for s in ["s0", "s1", "s2"]]
    scanned, _ = read_all(ddb, "scan", TableName=table, IndexName="l_keys", Select="ALL_ATTRIBUTES", Limit=6)
    assert sorted(scanned, key=lambda i: (i["pk"]["S"], i["sk"]["S"])) == \
        sorted((i for i in items if "l" in i), key=lambda i: (i["pk"]["S"], i["sk"]["S"]))


# ---- entries follow key changes ----------------------------------------------------------------


@pytest.fixture
def moving(ddb):
    name = unique_name()
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", KeySchema=ks(("pk", "HASH"), ("sk", "RANGE")),
                     AttributeDefinitions=ad(("pk", "S"), ("sk", "S"), ("g", "S"), ("n", "N"), ("l", "N")),
                     GlobalSecondaryIndexes=[index("gsi", ks(("g", "HASH"), ("n", "RANGE")), "INCLUDE", ["v"])],
                     LocalSecondaryIndexes=[index("lsi", ks(("pk", "HASH"), ("l", "RANGE")), "KEYS_ONLY")])
    return name


def gsi_view(ddb, table, g):
    return ddb.query(TableName=table, IndexName="gsi", KeyConditionExpression="g = :g",
                     ExpressionAttributeValues={":g": S(g)})["Items"]


def lsi_view(ddb, table, p):
    return ddb.query(TableName=table, IndexName="lsi", KeyConditionExpression="pk = :p",
                     ExpressionAttributeValues={":p": S(p)})["Items"]


def test_index_entries_move_and_disappear_with_key_changes(ddb, moving):
    t = moving
    ddb.put_item(TableName=t, Item={"pk": S("a"), "sk": S("1"), "g": S("x"), "n": N(5), "l": N(1), "v": S("v1"), "w": S("w")})
    assert gsi_view(ddb, t, "x") == [{"pk": S("a"), "sk": S("1"), "g": S("x"), "n": N(5), "v": S("v1")}]
    # A projected non-key attribute changes in place.
    ddb.update_item(TableName=t, Key={"pk": S("a"), "sk": S("1")}, UpdateExpression="SET v = :v",
                    ExpressionAttributeValues={":v": S("v2")})
    assert gsi_view(ddb, t, "x")[0]["v"] == S("v2")
    # Index hash key changed: the entry moves.
    ddb.update_item(TableName=t, Key={"pk": S("a"), "sk": S("1")}, UpdateExpression="SET g = :g",
                    ExpressionAttributeValues={":g": S("y")})
    assert gsi_view(ddb, t, "x") == [] and len(gsi_view(ddb, t, "y")) == 1
    # Index range key removed: out of the GSI; LSI key changed: moved within the collection.
    ddb.update_item(TableName=t, Key={"pk": S("a"), "sk": S("1")}, UpdateExpression="REMOVE n SET l = :l",
                    ExpressionAttributeValues={":l": N(-7)})
    assert gsi_view(ddb, t, "y") == []
    assert lsi_view(ddb, t, "a") == [{"pk": S("a"), "sk": S("1"), "l": N(-7)}]
    # Put replacing the item with other keys.
    ddb.put_item(TableName=t, Item={"pk": S("a"), "sk": S("1"), "g": S("z"), "n": N(1)})
    assert len(gsi_view(ddb, t, "z")) == 1 and lsi_view(ddb, t, "a") == []
    # Batch and transaction writes maintain the indexes too.
    ddb.batch_write_item(RequestItems={t: [
        {"PutRequest": {"Item": {"pk": S("b"), "sk": S("1"), "g": S("z"), "n": N(0), "l": N(3)}}},
        {"DeleteRequest": {"Key": {"pk": S("a"), "sk": S("1")}}}]})
    assert [i["pk"] for i in gsi_view(ddb, t, "z")] == [S("b")]
    ddb.transact_write_items(TransactItems=[
        {"Update": {"TableName": t, "Key": {"pk": S("b"), "sk": S("1")}, "UpdateExpression": "SET g = :g, l = :l",
                    "ExpressionAttributeValues": {":g": S("q"), ":l": N(4)}}},
        {"Put": {"TableName": t, "Item": {"pk": S("b"), "sk": S("2"), "g": S("q"), "n": N(-1), "l": N(2)}}}])
    assert [i["sk"] for i in gsi_view(ddb, t, "q")] == [S("2"), S("1")]
    assert [i["l"] for i in lsi_view(ddb, t, "b")] == [N(2), N(4)]
    ddb.delete_item(TableName=t, Key={"pk": S("b"), "sk": S("1")})
    assert [i["sk"] for i in gsi_view(ddb, t, "q")] == [S("2")]
    assert [i["sk"] for i in lsi_view(ddb, t, "b")] == [S("2")]
    # A wrong-typed index key is refused; an empty string index key too.
    with pytest.raises(ClientError) as e:
        ddb.put_item(TableName=t, Item={"pk": S("c"), "sk": S("1"), "n": S("x")})
    validation(e, "One or more parameter values were invalid: Type mismatch for Index Key n Expected: N Actual: S "
                  "IndexName: gsi")
    with pytest.raises(ClientError) as e:
        ddb.put_item(TableName=t, Item={"pk": S("c"), "sk": S("1"), "g": S("")})
    assert "IndexName: gsi, IndexKey: g" in err(e)[1]


# ---- projections and the 1 MB page ----------------------------------------------------------


def test_pages_of_an_index_are_sized_by_its_projected_entries(ddb):
    name = unique_name()
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", KeySchema=ks(("pk", "HASH"), ("sk", "RANGE")),
                     AttributeDefinitions=ad(("pk", "S"), ("sk", "N"), ("g", "S")),
                     GlobalSecondaryIndexes=[index("keys", ks(("g", "HASH"), ("sk", "RANGE")), "KEYS_ONLY"),
                                             index("all", ks(("g", "HASH"), ("sk", "RANGE")))])
    for start in range(0, 30, 10):
        put_all(ddb, name, [{"pk": S("p"), "sk": N(i), "g": S("g"), "blob": S("x" * 100_000)}
                            for i in range(start, start + 10)])
    q = dict(TableName=name, KeyConditionExpression="g = :g", ExpressionAttributeValues={":g": S("g")})
    _, keys_pages = read_all(ddb, "query", IndexName="keys", **q)
    _, all_pages = read_all(ddb, "query", IndexName="all", **q)
    assert [p["Count"] for p in keys_pages] == [30]
    assert [p["Count"] for p in all_pages] == [11, 11, 8]
    _, scan_keys = read_all(ddb, "scan", TableName=name, IndexName="keys")
    assert [p["Count"] for p in scan_keys] == [30]
    resp = ddb.query(IndexName="keys", ReturnConsumedCapacity="TOTAL", **q)
    assert resp["ConsumedCapacity"]["CapacityUnits"] == 0.5


# ---- index key types ---------------------------------------------------------------------------


def test_index_keys_of_every_scalar_type(ddb):
    name = unique_name()
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", KeySchema=ks(("pk", "HASH")),
                     AttributeDefinitions=ad(("pk", "S"), ("nh", "N"), ("br", "B"), ("bh", "B"), ("sr", "S")),
                     GlobalSecondaryIndexes=[index("n_b", ks(("nh", "HASH"), ("br", "RANGE"))),
                                             index("b_s", ks(("bh", "HASH"), ("sr", "RANGE")), "KEYS_ONLY")])
    blobs = [b"\x00", b"\x00\x00", b"\x01", b"\x7f", b"\x80", b"\xfe\xff", b"\xff", b"ab"]
    random.Random(5).shuffle(blobs)
    put_all(ddb, name, [{"pk": S(f"k{i}"), "nh": N("-1.50"), "br": B(b), "bh": B(b"\x00\xff"), "sr": S(s)}
                        for i, (b, s) in enumerate(zip(blobs, ["é", "e", "z", "E", "ä", "a", "~", "中"]))])
    resp = ddb.query(TableName=name, IndexName="n_b", KeyConditionExpression="nh = :n", ExpressionAttributeValues={":n": N("-1.5")})
    assert [i["br"]["B"] for i in resp["Items"]] == sorted(blobs)
    resp = ddb.query(TableName=name, IndexName="n_b", KeyConditionExpression="nh = :n AND begins_with(br, :b)",
                     ExpressionAttributeValues={":n": N("-1.5"), ":b": B(b"\x00")}, ScanIndexForward=False)
    assert [i["br"]["B"] for i in resp["Items"]] == [b"\x00\x00", b"\x00"]
    resp = ddb.query(TableName=name, IndexName="b_s", KeyConditionExpression="bh = :b AND sr > :s",
                     ExpressionAttributeValues={":b": B(b"\x00\xff"), ":s": S("e")})
    assert [i["sr"]["S"] for i in resp["Items"]] == sorted(["é", "z", "ä", "~", "中"], key=lambda s: s.encode())


# ---- single-table design: an overloaded GSI ---------------------------------------------------


def test_overloaded_gsi_with_several_entity_types(ddb):
    name = unique_name()
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", KeySchema=ks(("PK", "HASH"), ("SK", "RANGE")),
                     AttributeDefinitions=ad(("PK", "S"), ("SK", "S"), ("GSI1PK", "S"), ("GSI1SK", "S")),
                     GlobalSecondaryIndexes=[index("GSI1", ks(("GSI1PK", "HASH"), ("GSI1SK", "RANGE")))])
    items = [
        {"PK": S("USER#alice"), "SK": S("PROFILE"), "type": S("user"), "email": S("alice@x"),
         "GSI1PK": S("EMAIL#alice@x"), "GSI1SK": S("USER#alice")},
        {"PK": S("USER#bob"), "SK": S("PROFILE"), "type": S("user"), "email": S("bob@x"),
         "GSI1PK": S("EMAIL#bob@x"), "GSI1SK": S("USER#bob")},
        {"PK": S("USER#alice"), "SK": S("ORDER#2024-01-03#o1"), "type": S("order"), "status": S("SHIPPED"),
         "GSI1PK": S("STATUS#SHIPPED"), "GSI1SK": S("2024-01-03#o1")},
        {"PK": S("USER#alice"), "SK": S("ORDER#2024-02-10#o2"), "type": S("order"), "status": S("PENDING"),
         "GSI1PK": S("STATUS#PENDING"), "GSI1SK": S("2024-02-10#o2")},
        {"PK": S("USER#bob"), "SK": S("ORDER#2024-01-20#o3"), "type": S("order"), "status": S("SHIPPED"),
         "GSI1PK": S("STATUS#SHIPPED"), "GSI1SK": S("2024-01-20#o3")},
        {"PK": S("ORDER#o1"), "SK": S("ITEM#1"), "type": S("line"), "GSI1PK": S("PRODUCT#p9"), "GSI1SK": S("ORDER#o1")},
        {"PK": S("ORDER#o3"), "SK": S("ITEM#1"), "type": S("line"), "GSI1PK": S("PRODUCT#p9"), "GSI1SK": S("ORDER#o3")},
        {"PK": S("ORDER#o3"), "SK": S("ITEM#2"), "type": S("line")},  # not in GSI1
    ]
    put_all(ddb, name, items)

    def q(table_or_index, expression, values, **kw):
        extra = {"IndexName": table_or_index} if table_or_index else {}
        return ddb.query(TableName=name, KeyConditionExpression=expression, ExpressionAttributeValues=values,
                         **extra, **kw)["Items"]

    # Table access patterns: the user's profile and orders in one partition, by SK prefix.
    assert [i["SK"]["S"] for i in q(None, "PK = :p AND begins_with(SK, :o)", {":p": S("USER#alice"), ":o": S("ORDER#")},
                                     ScanIndexForward=False)] == ["ORDER#2024-02-10#o2", "ORDER#2024-01-03#o1"]
    # GSI access patterns: user by email, orders by status and date range, order lines by product.
    assert [i["PK"]["S"] for i in q("GSI1", "GSI1PK = :e", {":e": S("EMAIL#bob@x")})] == ["USER#bob"]
    shipped = q("GSI1", "GSI1PK = :s AND GSI1SK BETWEEN :a AND :b",
                {":s": S("STATUS#SHIPPED"), ":a": S("2024-01-01"), ":b": S("2024-01-31~")})
    assert [i["SK"]["S"] for i in shipped] == ["ORDER#2024-01-03#o1", "ORDER#2024-01-20#o3"]
    assert {i["type"]["S"] for i in shipped} == {"order"}
    lines = q("GSI1", "GSI1PK = :p AND begins_with(GSI1SK, :o)", {":p": S("PRODUCT#p9"), ":o": S("ORDER#")})
    assert [(i["PK"]["S"], i["SK"]["S"]) for i in lines] == [("ORDER#o1", "ITEM#1"), ("ORDER#o3", "ITEM#1")]
    # Filters on non-key attributes select an entity type among those sharing a GSI partition.
    resp = ddb.query(TableName=name, IndexName="GSI1", KeyConditionExpression="GSI1PK = :s",
                     FilterExpression="#t = :t", ExpressionAttributeNames={"#t": "type"},
                     ExpressionAttributeValues={":s": S("STATUS#PENDING"), ":t": S("order")})
    assert resp["Count"] == 1 and resp["Items"][0]["status"] == S("PENDING")
    # Changing the status moves the order between GSI partitions.
    ddb.update_item(TableName=name, Key={"PK": S("USER#alice"), "SK": S("ORDER#2024-02-10#o2")},
                    UpdateExpression="SET #s = :s, GSI1PK = :g", ExpressionAttributeNames={"#s": "status"},
                    ExpressionAttributeValues={":s": S("SHIPPED"), ":g": S("STATUS#SHIPPED")})
    assert q("GSI1", "GSI1PK = :s", {":s": S("STATUS#PENDING")}) == []
    assert len(q("GSI1", "GSI1PK = :s", {":s": S("STATUS#SHIPPED")})) == 3
    scanned, _ = read_all(ddb, "scan", TableName=name, IndexName="GSI1", Limit=3)
    assert len(scanned) == 7


# ---- CreateTable: index validation and limits -------------------------------------------------


def create_body(gsis=None, lsis=None, defs=None, keys=None):
    body = {"TableName": unique_name(), "BillingMode": "PAY_PER_REQUEST",
            "KeySchema": keys or ks(("p", "HASH"), ("c", "RANGE")),
            "AttributeDefinitions": defs or ad(("p", "S"), ("c", "S"), ("a", "S"), ("b", "S"), ("d", "N"), ("e", "B"))}
    if gsis is not None:
        body["GlobalSecondaryIndexes"] = gsis
    if lsis is not None:
        body["LocalSecondaryIndexes"] = lsis
    return body


def create_error(server, body):
    status, resp, _ = call(server.port, "CreateTable", body)
    assert status == 400, resp
    return resp["__type"].split("#")[1], resp["message"]


@pytest.mark.parametrize("keys,message", [
    (ks(("a", "HASH"), ("b", "RANGE"), ("d", "HASH")),
     "Invalid KeySchema: All HASH key attributes must precede the RANGE key attributes"),
    (ks(("a", "HASH"), ("b", "HASH"), ("d", "HASH"), ("e", "HASH"), ("c", "HASH")),
     "Invalid KeySchema: A KeySchema can have at most 4 HASH key attributes"),
    (ks(("p", "HASH"), ("a", "RANGE"), ("b", "RANGE"), ("d", "RANGE"), ("e", "RANGE"), ("c", "RANGE")),
     "Invalid KeySchema: A KeySchema can have at most 4 RANGE key attributes"),
    (ks(("a", "RANGE"), ("b", "RANGE")), "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"),
    (ks(("a", "HASH"), ("b", "HASH"), ("a", "RANGE")),
     "Both the Hash Key and the Range Key element in the KeySchema have the same name"),
    (ks(("a", "HASH"), ("zz", "HASH")),
     "One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. "
     "Keys: [a, zz], AttributeDefinitions: [p, c, a, b, d, e]"),
])
def test_multi_attribute_gsi_key_schema_errors(server, keys, message):
    assert create_error(server, create_body(gsis=[index("gsi", keys)])) == ("ValidationException", message)


def test_key_schema_length_limits(server):
    code, message = create_error(server, create_body(gsis=[index("gsi", ks(*[(n, "HASH") for n in "abde"]) +
                                                                 ks(*[(n, "RANGE") for n in "pc"]) +
                                                                 ks(("x", "RANGE"), ("y", "RANGE"), ("z", "RANGE")))]))
    assert code == "ValidationException" and "Member must have length less than or equal to 8" in message
    # LSIs (and tables) keep one HASH and one RANGE attribute.
    code, message = create_error(server, create_body(lsis=[index("lsi", ks(("p", "HASH"), ("c", "RANGE"), ("a", "RANGE")))]))
    assert code == "ValidationException"
    assert message.endswith("at 'localSecondaryIndexes.1.member.keySchema' failed to satisfy constraint: Member must "
                            "have length less than or equal to 2")


def test_multi_attribute_gsis_are_created_and_described(ddb):
    name = unique_name()
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", KeySchema=ks(("p", "HASH")),
                     AttributeDefinitions=ad(("p", "S"), *[(f"h{i}", "S") for i in range(1, 5)],
                                             ("r1", "N"), ("r2", "S"), ("r3", "B"), ("r4", "S"), ("a", "S"), ("b", "S")),
                     GlobalSecondaryIndexes=[
                         index("g4h4r", ks(*[(f"h{i}", "HASH") for i in range(1, 5)], *[(f"r{i}", "RANGE") for i in range(1, 5)])),
                         index("g2h", ks(("a", "HASH"), ("b", "HASH")), "KEYS_ONLY"),
                         index("swapped", ks(("b", "HASH"), ("a", "RANGE"), ("r2", "RANGE")))])
    gsis = {g["IndexName"]: g for g in ddb.describe_table(TableName=name)["Table"]["GlobalSecondaryIndexes"]}
    assert len(gsis["g4h4r"]["KeySchema"]) == 8
    assert gsis["g2h"]["KeySchema"] == ks(("a", "HASH"), ("b", "HASH"))
    assert gsis["swapped"]["KeySchema"] == ks(("b", "HASH"), ("a", "RANGE"), ("r2", "RANGE"))
    # Every key attribute is type-checked on writes; items missing any of them are not indexed.
    with pytest.raises(ClientError) as e:
        ddb.put_item(TableName=name, Item={"p": S("1"), "h3": N(1)})
    validation(e, "One or more parameter values were invalid: Type mismatch for Index Key h3 Expected: S Actual: N "
                  "IndexName: g4h4r")
    ddb.put_item(TableName=name, Item={"p": S("1"), "a": S("x"), "b": S("y"), "h1": S("1")})
    ddb.put_item(TableName=name, Item={"p": S("2"), "a": S("x")})
    assert [i["p"]["S"] for i in ddb.scan(TableName=name, IndexName="g2h")["Items"]] == ["1"]
    assert ddb.scan(TableName=name, IndexName="g4h4r")["Items"] == []
    assert ddb.scan(TableName=name, IndexName="swapped")["Items"] == []


# ---- multi-attribute GSI keys: queries ---------------------------------------------------------


@pytest.fixture(scope="module")
def multi(ddb):
    name = unique_name()
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", KeySchema=ks(("p", "HASH")),
                     AttributeDefinitions=ad(("p", "S"), ("h1", "S"), ("h2", "N"), ("r1", "S"), ("r2", "N"), ("r3", "B")),
                     GlobalSecondaryIndexes=[
                         index("multi", ks(("h1", "HASH"), ("h2", "HASH"), ("r1", "RANGE"), ("r2", "RANGE"), ("r3", "RANGE"))),
                         index("one", ks(("h1", "HASH"), ("r1", "RANGE"), ("r2", "RANGE")), "INCLUDE", ["x"])])
    items = []
    i = 0
    for h1 in ["T1", "T2"]:
        for h2 in [1, 2]:
            for r1 in ["east", "north", "west"]:
                for r2 in [-5, 3, 10]:
                    for r3 in [b"\x00", b"\xff"]:
                        items.append({"p": S(f"p{i:03d}"), "h1": S(h1), "h2": N(h2), "r1": S(r1), "r2": N(r2),
                                      "r3": B(r3), "x": N(i)})
                        i += 1
    items.append({"p": S("nor3"), "h1": S("T1"), "h2": N(1), "r1": S("east"), "r2": N(0)})  # not in m, in one
    put_all(ddb, name, items)
    return name, items


def mq(ddb, table, expression, values, index_name="multi", **kw):
    return ddb.query(TableName=table, IndexName=index_name, KeyConditionExpression=expression,
                     ExpressionAttributeValues=values, **kw)


def order_key(i):
    return (i["r1"]["S"].encode(), float(i["r2"]["N"]), i["r3"]["B"], i["p"]["S"])


@pytest.mark.parametrize("expression,values,predicate", [
    ("h1 = :a AND h2 = :b", {}, lambda i: True),
    ("h2 = :b AND h1 = :a", {}, lambda i: True),
    ("h1 = :a AND h2 = :b AND r1 = :r1", {":r1": S("north")}, lambda i: i["r1"]["S"] == "north"),
    ("h1 = :a AND h2 = :b AND r1 > :r1", {":r1": S("east")}, lambda i: i["r1"]["S"] > "east"),
    ("h1 = :a AND h2 = :b AND begins_with(r1, :r1)", {":r1": S("n")}, lambda i: i["r1"]["S"].startswith("n")),
    ("h1 = :a AND r1 = :r1 AND h2 = :b AND r2 BETWEEN :lo AND :hi", {":r1": S("west"), ":lo": N(-5), ":hi": N(3)},
     lambda i: i["r1"]["S"] == "west" and -5 <= float(i["r2"]["N"]) <= 3),
    ("h1 = :a AND h2 = :b AND r1 = :r1 AND r2 < :r2", {":r1": S("east"), ":r2": N(3)},
     lambda i: i["r1"]["S"] == "east" and float(i["r2"]["N"]) < 3),
    ("r2 = :r2 AND r1 = :r1 AND h1 = :a AND h2 = :b", {":r1": S("east"), ":r2": N(10)},
     lambda i: i["r1"]["S"] == "east" and i["r2"]["N"] == "10"),
    ("h1 = :a AND h2 = :b AND r1 = :r1 AND r2 = :r2 AND r3 = :r3", {":r1": S("east"), ":r2": N(10), ":r3": B(b"\xff")},
     lambda i: i["r1"]["S"] == "east" and i["r2"]["N"] == "10" and i["r3"]["B"] == b"\xff"),
    ("h1 = :a AND h2 = :b AND r1 = :r1 AND r2 = :r2 AND r3 >= :r3", {":r1": S("east"), ":r2": N(10), ":r3": B(b"\x01")},
     lambda i: i["r1"]["S"] == "east" and i["r2"]["N"] == "10" and i["r3"]["B"] >= b"\x01"),
])
def test_multi_attribute_key_conditions(ddb, multi, expression, values, predicate):
    table, items = multi
    values = {":a": S("T2"), ":b": N(1), **values}
    expected = sorted((i for i in items if i["h1"] == S("T2") and i["h2"] == N(1) and "r3" in i and predicate(i)),
                      key=order_key)
    for forward in (True, False):
        got, pages = read_all(ddb, "query", TableName=table, IndexName="multi", KeyConditionExpression=expression,
                              ExpressionAttributeValues=values, Limit=4, ScanIndexForward=forward)
        assert [i["p"]["S"] for i in got] == [i["p"]["S"] for i in (expected if forward else expected[::-1])]
        for page in pages[:-1]:
            assert set(page["LastEvaluatedKey"]) == {"p", "h1", "h2", "r1", "r2", "r3"}


def test_multi_attribute_single_hash_and_legacy_key_conditions(ddb, multi):
    table, items = multi
    got, _ = read_all(ddb, "query", TableName=table, IndexName="one", KeyConditionExpression="h1 = :a AND r1 = :r",
                      ExpressionAttributeValues={":a": S("T1"), ":r": S("east")}, Limit=5)
    expected = sorted((i for i in items if i["h1"] == S("T1") and i["r1"] == S("east")),
                      key=lambda i: (float(i["r2"]["N"]), i["p"]["S"]))
    assert [i["p"]["S"] for i in got] == [i["p"]["S"] for i in expected]
    assert set(got[0]) == {"p", "h1", "r1", "r2", "x"}
    # Legacy KeyConditions take up to 4 + 4 conditions as well.
    resp = ddb.query(TableName=table, IndexName="multi", KeyConditions={
        "h1": {"ComparisonOperator": "EQ", "AttributeValueList": [S("T1")]},
        "h2": {"ComparisonOperator": "EQ", "AttributeValueList": [N(2)]},
        "r1": {"ComparisonOperator": "EQ", "AttributeValueList": [S("north")]},
        "r2": {"ComparisonOperator": "GT", "AttributeValueList": [N(0)]}})
    assert [(i["r2"]["N"], i["r3"]["B"]) for i in resp["Items"]] == [("3", b"\x00"), ("3", b"\xff"), ("10", b"\x00"),
                                                                      ("10", b"\xff")]
    # Filters on non-key attributes, and on the base table's key, are fine.
    resp = mq(ddb, table, "h1 = :a AND h2 = :b", {":a": S("T1"), ":b": N(1), ":x": N(5)}, FilterExpression="x < :x")
    assert resp["Count"] == 5 and resp["ScannedCount"] == 18
    resp = mq(ddb, table, "h1 = :a AND h2 = :b", {":a": S("T1"), ":b": N(1), ":p": S("p003")}, FilterExpression="p = :p")
    assert resp["Count"] == 1


@pytest.mark.parametrize("expression,values,message", [
    ("h1 = :a", {}, "HASH key attributes h2 must have equality conditions specified in the query"),
    ("h1 = :a AND h2 > :b", {}, "HASH key attributes h2 must have equality conditions specified in the query"),
    ("h1 = :a AND h2 BETWEEN :b AND :c", {":c": N(9)},
     "HASH key attributes h2 must have equality conditions specified in the query"),
    ("h1 = :a AND h2 = :b AND r2 = :b", {},
     "RANGE key attributes r1 must have equality conditions specified in the query because a condition is present on "
     "key attribute r2"),
    ("h1 = :a AND h2 = :b AND r1 = :r AND r3 = :x", {":r": S("east"), ":x": B(b"\x00")},
     "RANGE key attributes r2 must have equality conditions specified in the query because a condition is present on "
     "key attribute r3"),
    ("h1 = :a AND h2 = :b AND r1 > :r AND r2 = :b", {":r": S("east")},
     "RANGE key attributes r1 must have equality conditions specified in the query because a condition is present on "
     "key attribute r2"),
    ("h1 = :a AND h2 = :b AND begins_with(r1, :r) AND r2 > :b", {":r": S("e")},
     "RANGE key attributes r1 must have equality conditions specified in the query because a condition is present on "
     "key attribute r2"),
    ("h1 = :a AND h2 = :b AND x = :b", {}, "Query key condition not supported"),
    ("h1 = :b AND h2 = :b", {}, "One or more parameter values were invalid: Condition parameter type does not match "
                                "schema type"),
    ("h1 = :a AND h2 = :b AND begins_with(r2, :r)", {":r": S("1")},
     "One or more parameter values were invalid: Condition parameter type does not match schema type"),
    ("h1 = :a AND h2 = :b AND r1 = :r AND r1 = :r", {":r": S("e")},
     "KeyConditionExpressions must only contain one condition per key"),
    ("h1 = :a AND h2 = :b AND (r1 = :r OR r2 = :b)", {":r": S("e")}, "Invalid operator used in KeyConditionExpression: OR"),
])
def test_multi_attribute_key_condition_errors(ddb, multi, expression, values, message):
    table, _ = multi
    values = {k: v for k, v in {":a": S("T1"), ":b": N(1), **values}.items() if k in expression}
    with pytest.raises(ClientError) as e:
        mq(ddb, table, expression, values)
    validation(e, message)


def test_multi_attribute_filters_start_keys_and_limits(ddb, multi):
    table, _ = multi
    for f in ["h2 = :b", "r3 = :b", "#n = :b"]:
        with pytest.raises(ClientError) as e:
            mq(ddb, table, "h1 = :a AND h2 = :b", {":a": S("T1"), ":b": N(1)}, FilterExpression=f,
               **({"ExpressionAttributeNames": {"#n": "r1"}} if "#n" in f else {}))
        assert err(e)[1].startswith("Filter Expression can only contain non-primary key attributes: Primary key attribute: ")
    with pytest.raises(ClientError) as e:
        mq(ddb, table, "h1 = :a AND h2 = :b", {":a": S("T1"), ":b": N(1)}, ConsistentRead=True)
    validation(e, "Consistent reads are not supported on global secondary indexes")
    with pytest.raises(ClientError) as e:
        mq(ddb, table, "h1 = :a AND h2 = :b", {":a": S("T1"), ":b": N(1)},
           ExclusiveStartKey={"p": S("x"), "h1": S("T1"), "r1": S("x"), "r2": N(1), "r3": B(b"x")})
    validation(e, "The provided starting key is invalid")
    with pytest.raises(ClientError) as e:
        mq(ddb, table, "h1 = :a AND h2 = :b", {":a": S("T1"), ":b": N(1)},
           ExclusiveStartKey={"p": S("x"), "h1": S("T1"), "h2": N(2), "r1": S("x"), "r2": N(1), "r3": B(b"x")})
    validation(e, "The provided starting key is outside query boundaries based on provided conditions")
    with pytest.raises(ClientError) as e:
        mq(ddb, table, "h1 = :a AND h2 = :b AND r1 = :r", {":a": S("T1"), ":b": N(1), ":r": S("east")},
           ExclusiveStartKey={"p": S("x"), "h1": S("T1"), "h2": N(1), "r1": S("west"), "r2": N(1), "r3": B(b"x")})
    validation(e, "The provided starting key does not match the range key predicate")
    # Nine key conditions are too many even on a multi-attribute index: the expression layer's
    # count rule applies to indexes with single-attribute keys.
    table2 = unique_name()
    ddb.create_table(TableName=table2, BillingMode="PAY_PER_REQUEST", KeySchema=ks(("p", "HASH")),
                     AttributeDefinitions=ad(("p", "S"), ("g", "S")), GlobalSecondaryIndexes=[index("gsi", ks(("g", "HASH")))])
    with pytest.raises(ClientError) as e:
        mq(ddb, table2, "g = :a AND p = :a AND x = :a", {":a": S("T1")}, index_name="gsi")
    validation(e, "Conditions can be of length 1 or 2 only")


def test_multi_attribute_entries_follow_updates(ddb, multi):
    table, _ = multi
    item = {"p": S("mover"), "h1": S("M"), "h2": N(7), "r1": S("a"), "r2": N(1), "r3": B(b"\x01")}
    ddb.put_item(TableName=table, Item=item)

    def view(h1="M", h2=7):
        return [i["p"]["S"] for i in mq(ddb, table, "h1 = :a AND h2 = :b", {":a": S(h1), ":b": N(h2)})["Items"]]

    assert view() == ["mover"]
    for removed in ["h1", "r2", "r3"]:
        ddb.update_item(TableName=table, Key={"p": S("mover")}, UpdateExpression=f"REMOVE {removed}")
        assert view() == []
        ddb.update_item(TableName=table, Key={"p": S("mover")}, UpdateExpression=f"SET {removed} = :v",
                        ExpressionAttributeValues={":v": item[removed]})
        assert view() == ["mover"]
    ddb.update_item(TableName=table, Key={"p": S("mover")}, UpdateExpression="SET h2 = :b",
                    ExpressionAttributeValues={":b": N(8)})
    assert view() == [] and view(h2=8) == ["mover"]
    ddb.delete_item(TableName=table, Key={"p": S("mover")})
    assert view(h2=8) == []


def test_multi_attribute_gsi_created_by_update_table_is_backfilled(ddb):
    name = unique_name()
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", KeySchema=ks(("p", "HASH")),
                     AttributeDefinitions=ad(("p", "S")))
    put_all(ddb, name, [{"p": S(f"k{i}"), "a": S("A"), "b": N(i % 2), "c": S(f"c{i:02d}")} for i in range(20)])
    with pytest.raises(ClientError) as e:
        ddb.update_table(TableName=name, AttributeDefinitions=ad(("a", "S"), ("b", "N"), ("c", "S")),
                         GlobalSecondaryIndexUpdates=[{"Create": index("bad", ks(("a", "HASH"), ("c", "RANGE"), ("b", "HASH")))}])
    validation(e, "Invalid KeySchema: All HASH key attributes must precede the RANGE key attributes")
    ddb.update_table(TableName=name, AttributeDefinitions=ad(("a", "S"), ("b", "N"), ("c", "S")),
                     GlobalSecondaryIndexUpdates=[{"Create": index("abc", ks(("a", "HASH"), ("b", "HASH"), ("c", "RANGE")))}])
    deadline = time.time() + 20
    while time.time() < deadline:
        gsis = ddb.describe_table(TableName=name)["Table"]["GlobalSecondaryIndexes"]
        if gsis[0]["IndexStatus"] == "ACTIVE":
            break
        time.sleep(0.02)
    resp = mq(ddb, name, "a = :a AND b = :b AND c >= :c", {":a": S("A"), ":b": N(1), ":c": S("c10")}, index_name="abc")
    assert [i["p"]["S"] for i in resp["Items"]] == ["k11", "k13", "k15", "k17", "k19"]


# ---- item collections: ReturnItemCollectionMetrics and the 10 GB limit -------------------------


@pytest.fixture(scope="module")
def lsi_table(ddb):
    name = unique_name()
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", KeySchema=ks(("pk", "HASH"), ("sk", "RANGE")),
                     AttributeDefinitions=ad(("pk", "S"), ("sk", "N"), ("l", "S")),
                     LocalSecondaryIndexes=[index("lsi", ks(("pk", "HASH"), ("l", "RANGE")))])
    return name


METRICS = {"ItemCollectionKey": {"pk": S("c1")}, "SizeEstimateRangeGB": [0.0, 1.0]}


def test_item_collection_metrics_on_single_item_writes(ddb, lsi_table, hash_range_table):
    t = lsi_table
    resp = ddb.put_item(TableName=t, Item={"pk": S("c1"), "sk": N(1), "l": S("x")}, ReturnItemCollectionMetrics="SIZE")
    assert resp["ItemCollectionMetrics"] == METRICS
    resp = ddb.update_item(TableName=t, Key={"pk": S("c1"), "sk": N(1)}, UpdateExpression="SET v = :v",
                           ExpressionAttributeValues={":v": S("v")}, ReturnItemCollectionMetrics="SIZE",
                           ReturnValues="ALL_NEW")
    assert resp["ItemCollectionMetrics"] == METRICS and resp["Attributes"]["v"] == S("v")
    resp = ddb.delete_item(TableName=t, Key={"pk": S("c1"), "sk": N(1)}, ReturnItemCollectionMetrics="SIZE")
    assert resp["ItemCollectionMetrics"] == METRICS
    assert "ItemCollectionMetrics" not in ddb.put_item(TableName=t, Item={"pk": S("c1"), "sk": N(2)})
    assert "ItemCollectionMetrics" not in ddb.put_item(TableName=t, Item={"pk": S("c1"), "sk": N(2)},
                                                       ReturnItemCollectionMetrics="NONE")
    # Tables without an LSI have no item collections.
    resp = ddb.put_item(TableName=hash_range_table, Item={"pk": S("c1"), "sk": N(1)}, ReturnItemCollectionMetrics="SIZE")
    assert "ItemCollectionMetrics" not in resp


def test_item_collection_metrics_on_batch_and_transaction_writes(ddb, lsi_table, hash_range_table):
    t = lsi_table
    resp = ddb.batch_write_item(RequestItems={
        t: [{"PutRequest": {"Item": {"pk": S("c1"), "sk": N(10)}}},
            {"PutRequest": {"Item": {"pk": S("c2"), "sk": N(10), "l": S("y")}}},
            {"DeleteRequest": {"Key": {"pk": S("c1"), "sk": N(2)}}}],
        hash_range_table: [{"PutRequest": {"Item": {"pk": S("c1"), "sk": N(10)}}}]},
        ReturnItemCollectionMetrics="SIZE")
    assert resp["ItemCollectionMetrics"] == {t: [METRICS, {**METRICS, "ItemCollectionKey": {"pk": S("c2")}}, METRICS]}
    resp = ddb.transact_write_items(TransactItems=[
        {"Put": {"TableName": t, "Item": {"pk": S("c3"), "sk": N(1)}}},
        {"ConditionCheck": {"TableName": t, "Key": {"pk": S("c1"), "sk": N(10)},
                            "ConditionExpression": "attribute_exists(pk)"}},
        {"Update": {"TableName": t, "Key": {"pk": S("c2"), "sk": N(10)}, "UpdateExpression": "REMOVE l"}}],
        ReturnItemCollectionMetrics="SIZE")
    assert resp["ItemCollectionMetrics"] == {t: [{**METRICS, "ItemCollectionKey": {"pk": S("c3")}},
                                                 {**METRICS, "ItemCollectionKey": {"pk": S("c2")}}]}
    assert "ItemCollectionMetrics" not in ddb.batch_write_item(
        RequestItems={hash_range_table: [{"PutRequest": {"Item": {"pk": S("c9"), "sk": N(1)}}}]},
        ReturnItemCollectionMetrics="SIZE")


def test_item_collection_size_limit(start_server, monkeypatch):
    monkeypatch.setenv("MONOTABLE_ITEM_COLLECTION_LIMIT_BYTES", "300000")
    server = start_server("--in-memory")
    ddb = server.client()
    name = unique_name()
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", KeySchema=ks(("pk", "HASH"), ("sk", "RANGE")),
                     AttributeDefinitions=ad(("pk", "S"), ("sk", "N"), ("l", "S")),
                     LocalSecondaryIndexes=[index("lsi", ks(("pk", "HASH"), ("l", "RANGE")))])
    blob = "x" * 60_000
    # Items projected into the LSI count twice (table and index): two fit, the third does not.
    for i in range(2):
        ddb.put_item(TableName=name, Item={"pk": S("full"), "sk": N(i), "l": S(f"l{i}"), "payload": S(blob)})
    with pytest.raises(ClientError) as e:
        ddb.put_item(TableName=name, Item={"pk": S("full"), "sk": N(2), "l": S("l2"), "payload": S(blob)})
    assert err(e) == ("ItemCollectionSizeLimitExceededException", "Item collection size limit exceeded")
    with pytest.raises(ClientError) as e:
        ddb.batch_write_item(RequestItems={name: [{"PutRequest": {"Item": {"pk": S("full"), "sk": N(3), "payload": S(blob)}}}]})
    assert err(e)[0] == "ItemCollectionSizeLimitExceededException"
    with pytest.raises(ClientError) as e:
        ddb.update_item(TableName=name, Key={"pk": S("full"), "sk": N(1)}, UpdateExpression="SET more = :b",
                        ExpressionAttributeValues={":b": S(blob)})
    assert err(e)[0] == "ItemCollectionSizeLimitExceededException"
    assert ddb.query(TableName=name, KeyConditionExpression="pk = :p",
                     ExpressionAttributeValues={":p": S("full")}, Select="COUNT")["Count"] == 2
    # Other collections, shrinking updates and deletes are fine; then the collection has room again.
    ddb.put_item(TableName=name, Item={"pk": S("other"), "sk": N(0), "payload": S(blob)})
    ddb.update_item(TableName=name, Key={"pk": S("full"), "sk": N(1)}, UpdateExpression="REMOVE payload")
    ddb.delete_item(TableName=name, Key={"pk": S("full"), "sk": N(0)})
    ddb.put_item(TableName=name, Item={"pk": S("full"), "sk": N(2), "l": S("l2"), "payload": S(blob)})
    # A table without an LSI has no limit.
    plain = unique_name()
    ddb.create_table(TableName=plain, BillingMode="PAY_PER_REQUEST", KeySchema=ks(("pk", "HASH"), ("sk", "RANGE")),
                     AttributeDefinitions=ad(("pk", "S"), ("sk", "N")))
    for i in range(6):
        ddb.put_item(TableName=plain, Item={"pk": S("full"), "sk": N(i), "payload": S(blob)})


def test_item_collection_size_limit_cancels_a_transaction(start_server, monkeypatch):
    monkeypatch.setenv("MONOTABLE_ITEM_COLLECTION_LIMIT_BYTES", "100000")
    ddb = start_server("--in-memory").client()
    name = unique_name()
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", KeySchema=ks(("pk", "HASH"), ("sk", "RANGE")),
                     AttributeDefinitions=ad(("pk", "S"), ("sk", "N"), ("l", "S")),
                     LocalSecondaryIndexes=[index("lsi", ks(("pk", "HASH"), ("l", "RANGE")))])
    ddb.put_item(TableName=name, Item={"pk": S("full"), "sk": N(0), "l": S("a"), "payload": S("x" * 60_000)})
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[
            {"Put": {"TableName": name, "Item": {"pk": S("other"), "sk": N(1)}}},
            {"Put": {"TableName": name, "Item": {"pk": S("full"), "sk": N(1), "payload": S("y" * 60_000)}}}])
    assert err(e)[0] == "TransactionCanceledException"
    assert [r["Code"] for r in e.value.response["CancellationReasons"]] == ["None", "ItemCollectionSizeLimitExceeded"]
