"""Query: key conditions (expression and legacy), sort-key order per type, direction, Limit and the
1 MB page (both measured before the filter), paging in both directions, Count/ScannedCount, Select,
filters, projections and the validation messages DynamoDB gives (with its order of checks)."""
import random

import pytest
from botocore.exceptions import ClientError

from conftest import unique_name
from wire_helpers import err, validation, S, N, B


def create(ddb, sort_type=None, **extra):
    name = unique_name()
    keys = [{"AttributeName": "pk", "KeyType": "HASH"}]
    defs = [{"AttributeName": "pk", "AttributeType": "S"}]
    if sort_type:
        keys.append({"AttributeName": "sk", "KeyType": "RANGE"})
        defs.append({"AttributeName": "sk", "AttributeType": sort_type})
    ddb.create_table(TableName=name, KeySchema=keys, AttributeDefinitions=defs, BillingMode="PAY_PER_REQUEST", **extra)
    return name


def put_all(ddb, table, items):
    for i in range(0, len(items), 25):
        ddb.batch_write_item(RequestItems={table: [{"PutRequest": {"Item": it}} for it in items[i:i + 25]]})


def query_all(ddb, **kw):
    """Every page of a Query; returns (items, pages)."""
    items, pages, start = [], [], None
    while True:
        args = dict(kw)
        if start:
            args["ExclusiveStartKey"] = start
        resp = ddb.query(**args)
        pages.append(resp)
        items += resp.get("Items", [])
        start = resp.get("LastEvaluatedKey")
        if not start:
            return items, pages


def kce(ddb, table, expression, values, **kw):
    return ddb.query(TableName=table, KeyConditionExpression=expression, ExpressionAttributeValues=values, **kw)


@pytest.fixture(scope="module")
def ss(ddb):
    """pk S / sk S: partition 'p' holds sk a0..a9, b0..b9, c0..c9 with x = index."""
    name = create(ddb, "S")
    put_all(ddb, name, [{"pk": S("p"), "sk": S(f"{c}{i}"), "x": N(n), "tag": S("even" if n % 2 == 0 else "odd")}
                        for n, (c, i) in enumerate((c, i) for c in "abc" for i in range(10))])
    put_all(ddb, name, [{"pk": S("other"), "sk": S("a1")}])
    return name


@pytest.fixture(scope="module")
def sn(ddb):
    return create(ddb, "N")


@pytest.fixture(scope="module")
def sb(ddb):
    return create(ddb, "B")


@pytest.fixture(scope="module")
def hash_only(ddb):
    name = create(ddb)
    put_all(ddb, name, [{"pk": S("h1"), "v": N(1)}, {"pk": S("h2"), "v": N(2)}])
    return name


def sks(resp_or_items):
    items = resp_or_items["Items"] if isinstance(resp_or_items, dict) else resp_or_items
    return [i["sk"]["S"] for i in items]


ALL = [f"{c}{i}" for c in "abc" for i in range(10)]

# ---- key conditions ---------------------------------------------------------------------------

CONDITIONS = [
    ("sk = :a", {":a": S("b3")}, {"sk": {"ComparisonOperator": "EQ", "AttributeValueList": [S("b3")]}},
     ["b3"]),
    ("sk < :a", {":a": S("a5")}, {"sk": {"ComparisonOperator": "LT", "AttributeValueList": [S("a5")]}},
     ALL[:5]),
    ("sk <= :a", {":a": S("a5")}, {"sk": {"ComparisonOperator": "LE", "AttributeValueList": [S("a5")]}},
     ALL[:6]),
    ("sk > :a", {":a": S("c7")}, {"sk": {"ComparisonOperator": "GT", "AttributeValueList": [S("c7")]}},
     ["c8", "c9"]),
    ("sk >= :a", {":a": S("c7")}, {"sk": {"ComparisonOperator": "GE", "AttributeValueList": [S("c7")]}},
     ["c7", "c8", "c9"]),
    ("sk BETWEEN :a AND :b", {":a": S("a8"), ":b": S("b1")},
     {"sk": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [S("a8"), S("b1")]}}, ["a8", "a9", "b0", "b1"]),
    ("begins_with(sk, :a)", {":a": S("b")},
     {"sk": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [S("b")]}}, ALL[10:20]),
    # Bounds between stored values, and a prefix that is itself a stored value.
    ("sk BETWEEN :a AND :b", {":a": S("a95"), ":b": S("b05")},
     {"sk": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [S("a95"), S("b05")]}}, ["b0"]),
    ("begins_with(sk, :a)", {":a": S("c9")},
     {"sk": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [S("c9")]}}, ["c9"]),
    ("sk > :a", {":a": S("d")}, {"sk": {"ComparisonOperator": "GT", "AttributeValueList": [S("d")]}}, []),
]


@pytest.mark.parametrize("expression,values,legacy,expected", CONDITIONS)
def test_sort_key_conditions_expression_and_legacy(ddb, ss, expression, values, legacy, expected):
    resp = kce(ddb, ss, "pk = :p AND " + expression, {":p": S("p"), **values})
    assert sks(resp) == expected
    assert resp["Count"] == resp["ScannedCount"] == len(expected)
    legacy_resp = ddb.query(TableName=ss, KeyConditions={
        "pk": {"ComparisonOperator": "EQ", "AttributeValueList": [S("p")]}, **legacy})
    assert sks(legacy_resp) == expected
    # Reversed: the same items, last first.
    assert sks(kce(ddb, ss, "pk = :p AND " + expression, {":p": S("p"), **values},
                   ScanIndexForward=False)) == expected[::-1]


def test_partition_only_and_value_first_comparisons(ddb, ss):
    assert sks(kce(ddb, ss, "pk = :p", {":p": S("p")})) == ALL
    assert sks(kce(ddb, ss, ":p = pk", {":p": S("p")})) == ALL
    # ":v < sk" means "sk > :v".
    assert sks(kce(ddb, ss, "pk = :p AND :v < sk", {":p": S("p"), ":v": S("c7")})) == ["c8", "c9"]
    assert sks(kce(ddb, ss, "(pk = :p) AND (:v >= sk)", {":p": S("p"), ":v": S("a1")})) == ["a0", "a1"]
    assert sks(kce(ddb, ss, "#k = :p AND #s <= :v", {":p": S("other"), ":v": S("z")},
                   ExpressionAttributeNames={"#k": "pk", "#s": "sk"})) == ["a1"]
    assert kce(ddb, ss, "pk = :p", {":p": S("nobody")})["Items"] == []


def test_hash_only_table(ddb, hash_only):
    resp = kce(ddb, hash_only, "pk = :p", {":p": S("h2")})
    assert resp["Items"] == [{"pk": S("h2"), "v": N(2)}] and resp["Count"] == 1


# ---- order per key type -----------------------------------------------------------------------


def test_string_sort_order_is_utf8_bytes(ddb):
    table = create(ddb, "S")
    values = ["a", "B", "Z", "aa", "a b", "é", "ÿ", "ĀA", "中文", "\U0001F600", "\uffff", "~", "10", "9", "a\u0000b",
              "a\u0001", "\u007f", "\u0080"]
    put_all(ddb, table, [{"pk": S("p"), "sk": S(v)} for v in values])
    expected = sorted(values, key=lambda v: v.encode("utf-8"))
    items, _ = query_all(ddb, TableName=table, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": S("p")},
                         Limit=4)
    assert sks(items) == expected
    items, _ = query_all(ddb, TableName=table, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": S("p")},
                         Limit=5, ScanIndexForward=False)
    assert sks(items) == expected[::-1]
    # begins_with on multi-byte prefixes, and comparisons against non-ASCII bounds.
    assert sks(kce(ddb, table, "pk = :p AND begins_with(sk, :b)", {":p": S("p"), ":b": S("a")})) == \
        [v for v in expected if v.startswith("a")]
    assert sks(kce(ddb, table, "pk = :p AND sk > :b", {":p": S("p"), ":b": S("é")})) == \
        [v for v in expected if v.encode() > "é".encode()]
    assert sks(kce(ddb, table, "pk = :p AND begins_with(sk, :b)", {":p": S("p"), ":b": S("中")})) == ["中文"]


def test_binary_sort_order_is_unsigned_bytes(ddb, sb):
    rnd = random.Random(7)
    values = {b"\x00", b"\x00\x00", b"\x00\x01", b"\x01", b"\x7f", b"\x80", b"\xff", b"\xff\x00", b"\xff\xff", b"a"}
    values |= {bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 6))) for _ in range(40)}
    put_all(ddb, sb, [{"pk": S("p"), "sk": B(v)} for v in values])
    expected = sorted(values)
    items, _ = query_all(ddb, TableName=sb, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": S("p")},
                         Limit=7)
    assert [i["sk"]["B"] for i in items] == expected
    items, _ = query_all(ddb, TableName=sb, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": S("p")},
                         Limit=6, ScanIndexForward=False)
    assert [i["sk"]["B"] for i in items] == expected[::-1]
    for prefix in [b"\x00", b"\xff", b"\x00\x00", b"\x80"]:
        resp = kce(ddb, sb, "pk = :p AND begins_with(sk, :b)", {":p": S("p"), ":b": B(prefix)})
        assert [i["sk"]["B"] for i in resp["Items"]] == [v for v in expected if v.startswith(prefix)]
    resp = kce(ddb, sb, "pk = :p AND sk BETWEEN :a AND :b", {":p": S("p"), ":a": B(b"\x7f"), ":b": B(b"\xff")})
    assert [i["sk"]["B"] for i in resp["Items"]] == [v for v in expected if b"\x7f" <= v <= b"\xff"]


def test_number_sort_order_is_numeric(ddb, sn):
    values = ["-1E+10", "-710", "-99.1", "-10.1", "-9.9", "-9", "-1.01", "-1", "-0.9", "-0.1", "-0.09", "-0.01",
              "-1E-5", "0", "2E-5", "0.01", "0.09", "0.1", "0.15", "0.9", "1", "1.00000000000000000000000001", "1.1",
              "1.9", "3.14159", "3.1415926535897932384626433832795028841", "9", "9.1", "10.1", "10.9", "31.4", "99.1",
              "1.4E+10", "9.9999999999999999999999999999999999999E+125", "-9.9999999999999999999999999999999999999E+125",
              "1E-130", "-1E-130"]
    shuffled = values[:]
    random.Random(3).shuffle(shuffled)
    put_all(ddb, sn, [{"pk": S("p"), "sk": {"N": v}} for v in shuffled])
    from decimal import Decimal
    expected = sorted(values, key=Decimal)
    items, _ = query_all(ddb, TableName=sn, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": S("p")},
                         Limit=8)
    assert [Decimal(i["sk"]["N"]) for i in items] == [Decimal(v) for v in expected]
    items, _ = query_all(ddb, TableName=sn, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": S("p")},
                         Limit=9, ScanIndexForward=False)
    assert [Decimal(i["sk"]["N"]) for i in items] == [Decimal(v) for v in expected[::-1]]
    resp = kce(ddb, sn, "pk = :p AND sk BETWEEN :a AND :b", {":p": S("p"), ":a": N("-1"), ":b": N("0.1")})
    assert [Decimal(i["sk"]["N"]) for i in resp["Items"]] == [Decimal(v) for v in expected
                                                              if Decimal(-1) <= Decimal(v) <= Decimal("0.1")]
    # Numbers are normalised: "0.10" and "1e1" find 0.1 and 10-ish values numerically.
    assert kce(ddb, sn, "pk = :p AND sk = :a", {":p": S("p"), ":a": N("0.10")})["Items"][0]["sk"] == N("0.1")
    assert kce(ddb, sn, "pk = :p AND sk < :a", {":p": S("p"), ":a": N("-9.95")})["Count"] == 5


# ---- Limit, the 1 MB page, paging -------------------------------------------------------------


def test_limit_and_paging_in_both_directions(ddb):
    table = create(ddb, "N")
    put_all(ddb, table, [{"pk": S("p"), "sk": N(i), "x": S("y" * (i % 7))} for i in range(137)])
    for forward in (True, False):
        for limit in (1, 7, 50, 136, 137, 138):
            items, pages = query_all(ddb, TableName=table, KeyConditionExpression="pk = :p",
                                     ExpressionAttributeValues={":p": S("p")}, Limit=limit, ScanIndexForward=forward)
            expected = list(range(137)) if forward else list(range(136, -1, -1))
            assert [int(i["sk"]["N"]) for i in items] == expected
            # A page that reaches Limit carries a LastEvaluatedKey, even at the very end.
            full_pages = 137 // limit
            assert len(pages) == (full_pages + 1 if limit <= 137 else 1)
            for page in pages[:-1]:
                assert page["Count"] == limit
                assert page["LastEvaluatedKey"] == {"pk": S("p"), "sk": page["Items"][-1]["sk"]}


def test_limit_counts_items_before_the_filter(ddb, ss):
    resp = ddb.query(TableName=ss, KeyConditionExpression="pk = :p", FilterExpression="tag = :t",
                     ExpressionAttributeValues={":p": S("p"), ":t": S("odd")}, Limit=5)
    assert resp["ScannedCount"] == 5 and resp["Count"] == 2
    assert sks(resp) == ["a1", "a3"]
    assert resp["LastEvaluatedKey"] == {"pk": S("p"), "sk": S("a4")}
    # A page whose items are all filtered out still reports where it stopped.
    resp = ddb.query(TableName=ss, KeyConditionExpression="pk = :p", FilterExpression="tag = :t",
                     ExpressionAttributeValues={":p": S("p"), ":t": S("none")}, Limit=3)
    assert resp["Items"] == [] and resp["Count"] == 0 and resp["ScannedCount"] == 3
    assert resp["LastEvaluatedKey"]["sk"] == S("a2")
    items, pages = query_all(ddb, TableName=ss, KeyConditionExpression="pk = :p", FilterExpression="tag = :t",
                             ExpressionAttributeValues={":p": S("p"), ":t": S("even")}, Limit=4)
    assert sks(items) == ALL[::2]
    assert sum(p["ScannedCount"] for p in pages) == 30


@pytest.fixture(scope="module")
def big(ddb):
    """40 items of ~100 KB in one partition (about 4 MB)."""
    table = create(ddb, "N")
    for start in range(0, 40, 10):
        put_all(ddb, table, [{"pk": S("p"), "sk": N(i), "blob": S(chr(ord("a") + i % 26) * 100_000), "small": N(i)}
                             for i in range(start, start + 10)])
    return table


def test_one_megabyte_page_measured_before_filter_and_projection(ddb, big):
    items, pages = query_all(ddb, TableName=big, KeyConditionExpression="pk = :p",
                             ExpressionAttributeValues={":p": S("p")})
    assert [int(i["sk"]["N"]) for i in items] == list(range(40))
    assert len(pages) >= 4
    for page in pages[:-1]:
        # Reading stops once the items read reach 1 MB (the item crossing the limit is included).
        size = sum(len(i["blob"]["S"]) for i in page["Items"])
        assert 1024 * 1024 <= size + 100 * len(page["Items"]) < 1024 * 1024 + 110_000
    # A filter that keeps nothing and a projection of a small attribute do not make pages bigger.
    _, filtered = query_all(ddb, TableName=big, KeyConditionExpression="pk = :p", FilterExpression="small < :z",
                            ProjectionExpression="small", ExpressionAttributeValues={":p": S("p"), ":z": N(0)})
    assert [p["ScannedCount"] for p in filtered] == [p["ScannedCount"] for p in pages]
    assert all(p["Count"] == 0 for p in filtered)
    _, projected = query_all(ddb, TableName=big, KeyConditionExpression="pk = :p", ProjectionExpression="small",
                             ExpressionAttributeValues={":p": S("p")}, ScanIndexForward=False)
    assert len(projected) == len(pages)
    assert projected[0]["Items"][0] == {"small": N(39)}
    # Limit still wins when it is smaller than a megabyte's worth.
    resp = ddb.query(TableName=big, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": S("p")},
                     Limit=2, Select="COUNT")
    assert resp["Count"] == 2 and resp["LastEvaluatedKey"]["sk"] == N(1)


def test_capacity_sums_every_item_read_and_rounds_once(ddb, big, ss):
    resp = ddb.query(TableName=big, KeyConditionExpression="pk = :p AND sk < :s", FilterExpression="small < :z",
                     ExpressionAttributeValues={":p": S("p"), ":s": N(3), ":z": N(0)}, ReturnConsumedCapacity="TOTAL")
    # 3 items of ~100 KB: ~300 KB / 4 KB = 74 units, halved for an eventually consistent read.
    assert resp["Count"] == 0 and resp["ConsumedCapacity"]["CapacityUnits"] == 37.0
    resp = ddb.query(TableName=ss, KeyConditionExpression="pk = :p", ConsistentRead=True,
                     ExpressionAttributeValues={":p": S("nobody")}, ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"] == {"TableName": ss, "CapacityUnits": 1.0, "ReadCapacityUnits": 1.0}


# ---- Select, Count, projections, filters ------------------------------------------------------


def test_select_modes(ddb, ss):
    q = dict(TableName=ss, KeyConditionExpression="pk = :p AND begins_with(sk, :b)",
             ExpressionAttributeValues={":p": S("p"), ":b": S("a")})
    resp = ddb.query(**q, Select="COUNT")
    assert "Items" not in resp and resp["Count"] == 10 and resp["ScannedCount"] == 10
    assert ddb.query(**q, Select="ALL_ATTRIBUTES")["Items"][0] == {"pk": S("p"), "sk": S("a0"), "x": N(0),
                                                                   "tag": S("even")}
    resp = ddb.query(**q, Select="SPECIFIC_ATTRIBUTES", ProjectionExpression="x, nothere")
    assert resp["Items"][:2] == [{"x": N(0)}, {"x": N(1)}]
    resp = ddb.query(TableName=ss, KeyConditions={"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [S("p")]}},
                     AttributesToGet=["tag", "sk"], Limit=2)
    assert resp["Items"] == [{"sk": S("a0"), "tag": S("even")}, {"sk": S("a1"), "tag": S("odd")}]
    # Items without any projected attribute come back empty, not missing.
    resp = ddb.query(**q, ProjectionExpression="nothere")
    assert resp["Items"] == [{}] * 10


@pytest.mark.parametrize("extra,message", [
    ({"Select": "COUNT", "ProjectionExpression": "x"},
     "Cannot specify the ProjectionExpression when choosing to get only the Count"),
    ({"Select": "ALL_ATTRIBUTES", "ProjectionExpression": "x"},
     "Cannot specify the ProjectionExpression when choosing to get ALL_ATTRIBUTES"),
    ({"Select": "ALL_PROJECTED_ATTRIBUTES", "AttributesToGet": ["x"]},
     "Cannot specify the AttributesToGet when choosing to get ALL_PROJECTED_ATTRIBUTES"),
    ({"Select": "SPECIFIC_ATTRIBUTES"},
     "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES"),
    ({"Select": "ALL_PROJECTED_ATTRIBUTES"}, "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName"),
])
def test_select_errors(ddb, ss, extra, message):
    kw = dict(TableName=ss, **extra)
    if "AttributesToGet" in extra:
        kw["KeyConditions"] = {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [S("p")]}}
    else:
        kw.update(KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": S("p")})
    with pytest.raises(ClientError) as e:
        ddb.query(**kw)
    validation(e, "1 validation error detected: " + message)


def test_select_enum_is_checked_by_the_shape(server):
    from raw import call
    status, body, _ = call(server.port, "Query", {"TableName": "abc", "Select": "count",
                                                  "KeyConditionExpression": "pk = :p",
                                                  "ExpressionAttributeValues": {":p": {"S": "x"}}})
    assert status == 400 and body["message"] == (
        "1 validation error detected: Value 'count' at 'select' failed to satisfy constraint: Member must satisfy "
        "enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]")


def test_filters_and_projections(ddb, ss):
    resp = ddb.query(TableName=ss, KeyConditionExpression="pk = :p AND sk BETWEEN :a AND :b",
                     FilterExpression="x > :n AND tag = :t", ProjectionExpression="sk, #x",
                     ExpressionAttributeNames={"#x": "x"},
                     ExpressionAttributeValues={":p": S("p"), ":a": S("b0"), ":b": S("b9"), ":n": N(13), ":t": S("odd")})
    assert resp["Items"] == [{"sk": S("b5"), "x": N(15)}, {"sk": S("b7"), "x": N(17)}, {"sk": S("b9"), "x": N(19)}]
    assert resp["Count"] == 3 and resp["ScannedCount"] == 10
    # Legacy QueryFilter with ConditionalOperator, AttributesToGet.
    resp = ddb.query(TableName=ss, KeyConditions={"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [S("p")]}},
                     QueryFilter={"x": {"ComparisonOperator": "LT", "AttributeValueList": [N(2)]},
                                  "tag": {"ComparisonOperator": "EQ", "AttributeValueList": [S("odd")]}},
                     ConditionalOperator="OR", AttributesToGet=["x"])
    assert resp["Items"] == [{"x": N(n)} for n in [0] + list(range(1, 30, 2))]
    # KeyConditions mix with expressions for the other parameters.
    resp = ddb.query(TableName=ss, KeyConditions={"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [S("p")]}},
                     FilterExpression="x = :n", ExpressionAttributeValues={":n": N(29)})
    assert sks(resp) == ["c9"]


def test_consistent_read_on_table(ddb, ss):
    resp = kce(ddb, ss, "pk = :p AND sk = :s", {":p": S("p"), ":s": S("c1")}, ConsistentRead=True)
    assert sks(resp) == ["c1"]


@pytest.mark.parametrize("kw,message", [
    (dict(KeyConditionExpression="pk = :p", FilterExpression="sk = :s",
          ExpressionAttributeValues={":p": S("p"), ":s": S("a")}),
     "Filter Expression can only contain non-primary key attributes: Primary key attribute: sk"),
    (dict(KeyConditionExpression="pk = :p", FilterExpression="x = :s OR attribute_exists(pk)",
          ExpressionAttributeValues={":p": S("p"), ":s": S("a")}),
     "Filter Expression can only contain non-primary key attributes: Primary key attribute: pk"),
    (dict(KeyConditions={"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [S("p")]}},
          QueryFilter={"x": {"ComparisonOperator": "NOT_NULL"}, "sk": {"ComparisonOperator": "NULL"}}),
     "QueryFilter can only contain non-primary key attributes: Primary key attribute: sk"),
])
def test_filters_on_key_attributes_are_refused(ddb, ss, kw, message):
    with pytest.raises(ClientError) as e:
        ddb.query(TableName=ss, **kw)
    validation(e, message)


# ---- key-condition errors ---------------------------------------------------------------------


@pytest.mark.parametrize("expression,values,message", [
    ("sk = :s", {":s": S("a")}, "Query condition missed key schema element: pk"),
    ("pk = :p AND x = :s", {":p": S("p"), ":s": S("a")}, "Query condition missed key schema element: sk"),
    ("pk < :p", {":p": S("p")}, "Query key condition not supported"),
    ("begins_with(pk, :p)", {":p": S("p")}, "Query key condition not supported"),
    ("pk = :p AND sk = :s AND x = :s", {":p": S("p"), ":s": S("a")}, "Conditions can be of length 1 or 2 only"),
    ("pk = :p OR sk = :s", {":p": S("p"), ":s": S("a")}, "Invalid operator used in KeyConditionExpression: OR"),
    ("pk = :p AND sk <> :s", {":p": S("p"), ":s": S("a")}, "Invalid operator used in KeyConditionExpression: <>"),
    ("pk = :p AND sk IN (:s)", {":p": S("p"), ":s": S("a")}, "Invalid operator used in KeyConditionExpression: IN"),
    ("pk = :p AND contains(sk, :s)", {":p": S("p"), ":s": S("a")},
     "Invalid operator used in KeyConditionExpression: contains"),
    ("pk = :p AND pk = :s", {":p": S("p"), ":s": S("a")}, "KeyConditionExpressions must only contain one condition per key"),
    ("pk = :p AND sk.a = :s", {":p": S("p"), ":s": S("a")},
     "KeyConditionExpressions cannot have conditions on nested attributes"),
    ("pk = :p AND sk = :s", {":p": S("p"), ":s": N(1)},
     "One or more parameter values were invalid: Condition parameter type does not match schema type"),
    ("pk = :p AND sk BETWEEN :b AND :a", {":p": S("p"), ":a": S("a"), ":b": S("b")},
     "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower "
     "bound; lower bound operand: AttributeValue: {S:b}, upper bound operand: AttributeValue: {S:a}"),
    ("pk = :p AND sk > :s", {":p": S("p"), ":s": S("a"), ":x": S("b")},
     "Value provided in ExpressionAttributeValues unused in expressions: keys: {:x}"),
])
def test_key_condition_expression_errors(ddb, ss, expression, values, message):
    with pytest.raises(ClientError) as e:
        kce(ddb, ss, expression, values)
    validation(e, message)


def test_key_condition_errors_on_other_schemas(ddb, hash_only, sn):
    with pytest.raises(ClientError) as e:
        kce(ddb, hash_only, "pk = :p AND x = :x", {":p": S("p"), ":x": S("x")})
    validation(e, "Query key condition not supported")
    with pytest.raises(ClientError) as e:
        kce(ddb, sn, "pk = :p AND begins_with(sk, :x)", {":p": S("p"), ":x": S("1")})
    validation(e, "One or more parameter values were invalid: Condition parameter type does not match schema type")
    with pytest.raises(ClientError) as e:
        ddb.query(TableName=sn, KeyConditions={"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [S("p")]},
                                               "sk": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [N(1)]}})
    validation(e, "One or more parameter values were invalid: ComparisonOperator BEGINS_WITH is not valid for N "
                  "AttributeValue type")


@pytest.mark.parametrize("conditions,message", [
    ({"pk": {"ComparisonOperator": "NULL"}}, "Attempted conditional constraint is not an indexable operation"),
    ({"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [S("p")]},
      "sk": {"ComparisonOperator": "NE", "AttributeValueList": [S("a")]}},
     "Attempted conditional constraint is not an indexable operation"),
    ({"pk": {"ComparisonOperator": "GT", "AttributeValueList": [S("p")]}}, "Query key condition not supported"),
    ({"sk": {"ComparisonOperator": "EQ", "AttributeValueList": [S("p")]}}, "Query condition missed key schema element: pk"),
    ({"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [S("p")]},
      "zz": {"ComparisonOperator": "EQ", "AttributeValueList": [S("p")]}},
     "Query condition missed key schema element: sk"),
    ({"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [S("p")]},
      "sk": {"ComparisonOperator": "EQ", "AttributeValueList": [S("p")]},
      "zz": {"ComparisonOperator": "EQ", "AttributeValueList": [S("p")]}}, "Conditions can be of length 1 or 2 only"),
    ({"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [N(1)]}},
     "One or more parameter values were invalid: Condition parameter type does not match schema type"),
    ({}, "Conditions can be of length 1 or 2 only"),
])
def test_legacy_key_condition_errors(ddb, ss, conditions, message):
    with pytest.raises(ClientError) as e:
        ddb.query(TableName=ss, KeyConditions=conditions)
    validation(e, message)


def test_missing_key_condition_and_mixed_parameters(ddb, ss):
    with pytest.raises(ClientError) as e:
        ddb.query(TableName=ss)
    validation(e, "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.")
    with pytest.raises(ClientError) as e:
        ddb.query(TableName=ss, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": S("p")},
                  QueryFilter={"x": {"ComparisonOperator": "NULL"}})
    assert "Can not use both expression and non-expression parameters in the same request" in err(e)[1]
    with pytest.raises(ClientError) as e:
        ddb.query(TableName=unique_name(), KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": S("p")})
    assert err(e) == ("ResourceNotFoundException", "Requested resource not found")


# ---- ExclusiveStartKey ------------------------------------------------------------------------


def test_exclusive_start_key_round_trips_and_may_be_any_position(ddb, ss):
    q = dict(TableName=ss, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": S("p")})
    first = ddb.query(**q, Limit=3)
    assert first["LastEvaluatedKey"] == {"pk": S("p"), "sk": S("a2")}
    assert sks(ddb.query(**q, Limit=2, ExclusiveStartKey=first["LastEvaluatedKey"])) == ["a3", "a4"]
    # A start key need not name a stored item: reading resumes strictly after its position.
    assert sks(ddb.query(**q, Limit=2, ExclusiveStartKey={"pk": S("p"), "sk": S("b45")})) == ["b5", "b6"]
    assert sks(ddb.query(**q, Limit=2, ScanIndexForward=False,
                         ExclusiveStartKey={"pk": S("p"), "sk": S("b45")})) == ["b4", "b3"]
    resp = ddb.query(**q, ExclusiveStartKey={"pk": S("p"), "sk": S("c9")})
    assert resp["Items"] == [] and "LastEvaluatedKey" not in resp


@pytest.mark.parametrize("condition,start,message", [
    ("pk = :p", {"pk": S("p")}, "The provided starting key is invalid"),
    ("pk = :p", {"pk": S("p"), "sk": S("a"), "x": S("b")}, "The provided starting key is invalid"),
    ("pk = :p", {"pk": S("p"), "zz": S("a")}, "The provided starting key is invalid"),
    ("pk = :p", {"pk": S("p"), "sk": N(1)}, "The provided key element does not match the schema"),
    ("pk = :p", {"pk": S("p"), "sk": S("")},
     "The provided starting key is invalid: One or more parameter values were invalid: The AttributeValue for a key "
     "attribute cannot contain an empty string value. Key: sk"),
    ("pk = :p", {"pk": S("q"), "sk": S("a")},
     "The provided starting key is outside query boundaries based on provided conditions"),
    ("pk = :p AND sk > :s", {"pk": S("p"), "sk": S("a")}, "The provided starting key does not match the range key predicate"),
    ("pk = :p AND begins_with(sk, :s)", {"pk": S("p"), "sk": S("a")},
     "The provided starting key does not match the range key predicate"),
    ("pk = :p AND sk > :s", {"pk": S("q"), "sk": S("c")}, "The query can return at most one row and cannot be restarted"),
])
def test_exclusive_start_key_errors(ddb, ss, condition, start, message):
    values = {":p": S("p")}
    if ":s" in condition:
        values[":s"] = S("b")
    with pytest.raises(ClientError) as e:
        ddb.query(TableName=ss, KeyConditionExpression=condition, ExpressionAttributeValues=values,
                  ExclusiveStartKey=start)
    validation(e, message)


def test_exclusive_start_key_value_errors_come_first(ddb, ss):
    with pytest.raises(ClientError) as e:
        ddb.query(TableName=ss, KeyConditionExpression="pk = :p OR pk = :p", ExpressionAttributeValues={":p": S("p")},
                  ExclusiveStartKey={"pk": {"N": "x"}, "sk": S("a")})
    assert err(e)[1].startswith("The provided starting key is invalid: ")


def test_binary_keys_round_trip_through_last_evaluated_key(ddb, sb):
    put_all(ddb, sb, [{"pk": S("lek"), "sk": B(bytes([i, 0, 255 - i]))} for i in range(0, 256, 17)])
    items, pages = query_all(ddb, TableName=sb, KeyConditionExpression="pk = :p",
                             ExpressionAttributeValues={":p": S("lek")}, Limit=4)
    assert [i["sk"]["B"] for i in items] == [bytes([i, 0, 255 - i]) for i in range(0, 256, 17)]
    assert [p["LastEvaluatedKey"]["sk"]["B"] for p in pages[:-1]] == [p["Items"][-1]["sk"]["B"] for p in pages[:-1]]


@pytest.mark.parametrize("expression,values,pattern", [
    ("pk = :p AND begins_with(sk, :n)", {":p": S("p"), ":n": N(3)}, "begins_with"),
    ("pk = :p AND dog(sk, :s)", {":p": S("p"), ":s": S("a")}, "dog"),
    ("pk = :p AND attribute_exists(sk)", {":p": S("p")}, "attribute_exists"),
    ("pk = :p AND BEGINS_WITH(sk, :s)", {":p": S("p"), ":s": S("a")}, "BEGINS_WITH"),
    ("pk = :p AND sk != :s", {":p": S("p"), ":s": S("a")}, "yntax"),
    ("pk = sk", None, ""),
    (":p = :s", {":p": S("p"), ":s": S("a")}, ""),
    ("pk", None, ""),
    (":p", {":p": S("p")}, ""),
    ("pk = :p", None, ":p"),
    ("NOT sk = :s AND pk = :p", {":p": S("p"), ":s": S("a")}, "NOT"),
    ("pk = :p AND size(sk) > :n", {":p": S("p"), ":n": N(1)}, "nested operations"),
])
def test_key_condition_expression_rejections(ddb, ss, expression, values, pattern):
    """Rejections checked by pattern, as the alternator suite (which passes on AWS) does."""
    kw = {"ExpressionAttributeValues": values} if values else {}
    with pytest.raises(ClientError) as e:
        ddb.query(TableName=ss, KeyConditionExpression=expression, **kw)
    code, message = err(e)
    assert code == "ValidationException" and pattern in message


def test_key_condition_expression_redundant_parentheses_and_case(ddb, ss):
    resp = ddb.query(TableName=ss, KeyConditionExpression="((sk BeTwEeN :a aNd :b) AnD (pk = :p))",
                     ExpressionAttributeValues={":p": S("p"), ":a": S("a4"), ":b": S("a6")})
    assert sks(resp) == ["a4", "a5", "a6"]


def test_every_type_reads_back_identically_through_query_scan_and_get_item(ddb):
    # Query and Scan without filter or projection write stored records straight to JSON; they
    # must give exactly what GetItem (which builds the item) gives, for every type and nesting.
    name = create(ddb, "N")
    item = {
        "pk": S("p"), "sk": N(1),
        "s": S("quote \" backslash \\ newline \n tab \t unicode \u00e9\u4e2d \U0001F600 control \x01"),
        "n": N("-0.000000000000000000000000000000000001234"), "big": N("99999999999999999999999999999999999999"),
        "b": B(b"\x00\xff\x10binary"), "t": {"BOOL": True}, "f": {"BOOL": False}, "z": {"NULL": True},
        "ss": {"SS": ["b", "a", "\u00e9"]}, "ns": {"NS": ["1E+125", "-1E-130", "0"]},
        "bs": {"BS": [b"\x00", b"xy"]},
        "l": {"L": [S(""), N(0), {"L": []}, {"M": {}}, {"L": [{"SS": ["x"]}, {"NULL": True}]}]},
        "m": {"M": {"inner": {"M": {"deep": {"L": [N("3.14"), B(b"\x01")]}}}, "empty": {"M": {}},
                    "set": {"NS": ["7"]}}},
    }
    ddb.put_item(TableName=name, Item=item)
    got = ddb.get_item(TableName=name, Key={"pk": S("p"), "sk": N(1)}, ConsistentRead=True)["Item"]
    queried = ddb.query(TableName=name, KeyConditionExpression="pk = :p",
                        ExpressionAttributeValues={":p": S("p")}, ConsistentRead=True)["Items"]
    scanned = ddb.scan(TableName=name, ConsistentRead=True)["Items"]
    assert queried == [got] and scanned == [got]
    assert got["s"] == item["s"] and got["b"] == item["b"] and got["l"] == item["l"] and got["m"] == item["m"]
