"""Global and local secondary indexes: projections in results and in page sizing, sparse indexes,
S/N/B index keys, Query and Scan on indexes, entries following key changes, overloaded GSIs
(single-table design), item collections (LSI tables): ReturnItemCollectionMetrics and the 10 GB
limit. Multi-attribute GSI keys are in test_multi_attribute_indexes.py."""
import random

import pytest
from botocore.exceptions import ClientError

from conftest import unique_name
from index_helpers import ks, ad, index, put_all, read_all, keyset
from wire_helpers import err, validation, S, N, B


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
    # A GSI cannot fetch from the table: naming an attribute it does not project is refused.
    with pytest.raises(ClientError) as e:
        ddb.query(TableName=table, IndexName="g_keys", KeyConditionExpression="g = :g", ProjectionExpression="sk, color",
                  ExpressionAttributeValues={":g": S("G1")})
    validation(e, "One or more parameter values were invalid: Global secondary index g_keys does not project [color]")
    resp = ddb.query(TableName=table, IndexName="g_keys", KeyConditionExpression="g = :g", ProjectionExpression="sk, n",
                     ExpressionAttributeValues={":g": S("G1")})
    assert all(set(i) == {"sk", "n"} for i in resp["Items"])
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
    # A filter may name only what the index projects (test_index_reads.py has the refusal).
    resp = ddb.query(**{**q, "ExpressionAttributeValues": {":p": S("P3"), ":l": S("L5"), ":s": S("s6")}},
                     FilterExpression="sk = :s", ProjectionExpression="color")
    assert resp["Count"] == 1 and resp["Items"] == [{"color": full[("P3", "s6")]["color"]}]
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


# On the partitioned test engine the LSI entries live in their item's partition (colocated
# keyspaces): the collection's size must count them there too.
@pytest.mark.parametrize("engine_args", [[], ["--test-engine", "partitioned"]], ids=["memory", "partitioned"])
def test_item_collection_size_limit(start_server, monkeypatch, engine_args):
    monkeypatch.setenv("MONOTABLE_ITEM_COLLECTION_LIMIT_BYTES", "300000")
    server = start_server("--in-memory", *engine_args)
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
    assert e.value.response["CancellationReasons"] == [
        {"Code": "None"}, {"Code": "ItemCollectionSizeLimitExceeded", "Message": "Collection size exceeded"}]
