"""What a read may name and what it returns: index projections (a GSI refuses to return what it
does not project, an LSI fetches it from the table and is charged per fetched item; a Query filter
on what the index does not project is refused on any index, a Scan filter sees the index entry), empty
key condition values, ExclusiveStartKey on hash-only tables and parallel scans, Scan's consumed
capacity, and list indexes past the end of a list in Query and Scan projections.

Ground truth: AWS's messages as DynamoDB users reported them from production ("Global secondary
index ... does not project [...]", localstack issue #478; "Secondary index X does not project one or
more filter attributes: [owner]" from an AppSync Query on a GSI; paritysuite dynamodb-conformance
tests/tier3/error-messages (PartiQL, characterised on AWS: the same two wordings, the filter one on
LSIs too); "The AttributeValue for a key attribute
cannot contain an empty string value. Key: ..." from Query key conditions); the Query API
reference (a GSI read "can only request attributes that are projected into the index"; an LSI read
"fetches each of these attributes from the parent table"); the LSI developer guide (a fetch is
charged "for every base table item fetched", "for reading each entire item")."""
import pytest
from botocore.exceptions import ClientError

from conftest import unique_name
from index_helpers import ks, ad, index, put_all, read_all
from wire_helpers import err, validation, S, N, B


@pytest.fixture(scope="module")
def reads(ddb):
    name = unique_name()
    ddb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        KeySchema=ks(("pk", "HASH"), ("sk", "RANGE")),
        AttributeDefinitions=ad(("pk", "S"), ("sk", "S"), ("g", "S"), ("l", "S"), ("gb", "B")),
        GlobalSecondaryIndexes=[
            index("g_keys", ks(("g", "HASH")), "KEYS_ONLY"),
            index("g_inc", ks(("g", "HASH"), ("sk", "RANGE")), "INCLUDE", ["color"]),
            index("g_bin", ks(("gb", "HASH")), "KEYS_ONLY"),
        ],
        LocalSecondaryIndexes=[
            index("l_keys", ks(("pk", "HASH"), ("l", "RANGE")), "KEYS_ONLY"),
        ])
    items = []
    for s in range(6):
        items.append({"pk": S("P"), "sk": S(f"s{s}"), "g": S("G"), "l": S(f"L{s}"),
                      "color": S(["red", "blue"][s % 2]), "size": N(s), "filler": S("x" * 1000)})
    put_all(ddb, name, items)
    return name, items


def gsi_refusal(name, *attributes):
    return ("One or more parameter values were invalid: Global secondary index " + name +
            " does not project [" + ", ".join(attributes) + "]")


def filter_refusal(name, *attributes):
    return ("One or more parameter values were invalid: Secondary index " + name +
            " does not project one or more filter attributes: [" + ", ".join(attributes) + "]")


def test_gsi_reads_naming_unprojected_attributes_are_refused(ddb, reads):
    table, _ = reads
    q = dict(TableName=table, KeyConditionExpression="g = :g", ExpressionAttributeValues={":g": S("G")})
    for index_name, kw, refused in [
        ("g_keys", dict(ProjectionExpression="sk, color"), ["color"]),
        ("g_keys", dict(ProjectionExpression="color, #s, sk", ExpressionAttributeNames={"#s": "size"}),
         ["color", "size"]),
        ("g_inc", dict(ProjectionExpression="sk, color, filler"), ["filler"]),
    ]:
        with pytest.raises(ClientError) as e:
            ddb.query(**q, IndexName=index_name, **kw)
        validation(e, gsi_refusal(index_name, *refused))
        with pytest.raises(ClientError) as e:
            ddb.scan(TableName=table, IndexName=index_name, **kw)
        validation(e, gsi_refusal(index_name, *refused))
    # The legacy parameter too.
    with pytest.raises(ClientError) as e:
        ddb.scan(TableName=table, IndexName="g_keys", AttributesToGet=["pk", "color"])
    validation(e, gsi_refusal("g_keys", "color"))
    # What the index projects (its keys, the table's keys, INCLUDEd attributes) may be named.
    got = ddb.query(**{**q, "ExpressionAttributeValues": {":g": S("G"), ":c": S("red")}}, IndexName="g_inc",
                    ProjectionExpression="pk, sk, g, color", FilterExpression="color = :c")
    assert [i["sk"]["S"] for i in got["Items"]] == ["s0", "s2", "s4"]
    assert all(set(i) == {"pk", "sk", "g", "color"} for i in got["Items"])


def test_query_filter_naming_unprojected_attributes_is_refused_on_any_index(ddb, reads):
    """AWS (a Query on an index, GSI or LSI, whose filter names what the index does not project):
    "One or more parameter values were invalid: Secondary index X does not project one or more
    filter attributes: [a, b]", the names sorted; checked before Select and ProjectionExpression."""
    table, _ = reads
    values = {":g": S("G"), ":n": N(1), ":c": S("red"), ":p": S("P")}
    for index_name, key, kw, refused in [
        ("g_inc", "g = :g", dict(FilterExpression="#s > :n", ExpressionAttributeNames={"#s": "size"}), ["size"]),
        ("g_inc", "g = :g", dict(Select="COUNT", FilterExpression="#s > :n", ExpressionAttributeNames={"#s": "size"}),
         ["size"]),
        ("g_keys", "g = :g", dict(FilterExpression="#s > :n AND color = :c AND #s < :n",
                                  ExpressionAttributeNames={"#s": "size"}), ["color", "size"]),
        # The filter wins over a projection or Select the index cannot serve either.
        ("g_keys", "g = :g", dict(FilterExpression="filler = :c", ProjectionExpression="color"), ["filler"]),
        ("g_keys", "g = :g", dict(FilterExpression="filler = :c", Select="ALL_ATTRIBUTES"), ["filler"]),
        ("l_keys", "pk = :p", dict(FilterExpression="color = :c"), ["color"]),
        ("l_keys", "pk = :p", dict(FilterExpression="color = :c", Select="ALL_ATTRIBUTES"), ["color"]),
    ]:
        used = {k: v for k, v in values.items() if k in key or k in kw["FilterExpression"]}
        with pytest.raises(ClientError) as e:
            ddb.query(TableName=table, IndexName=index_name, KeyConditionExpression=key,
                      ExpressionAttributeValues=used, **kw)
        validation(e, filter_refusal(index_name, *refused))
    with pytest.raises(ClientError) as e:
        ddb.query(TableName=table, IndexName="g_inc", KeyConditions={"g": {"ComparisonOperator": "EQ",
                                                                          "AttributeValueList": [S("G")]}},
                  QueryFilter={"size": {"ComparisonOperator": "NOT_NULL"}})
    validation(e, filter_refusal("g_inc", "size"))


def test_scan_filter_sees_only_what_the_index_projects(ddb, reads):
    """AWS evaluates a Scan's filter on the index entries: an attribute the index does not project
    is absent there (an unkeyed PartiQL read, which AWS serves as a Scan, accepts such a filter and
    matches nothing; DynamoDB Local evaluates it on the table's items instead)."""
    table, _ = reads
    for index_name in ("g_keys", "g_inc", "l_keys"):
        got, _ = read_all(ddb, "scan", TableName=table, IndexName=index_name, FilterExpression="color = :c",
                          ExpressionAttributeValues={":c": S("red")})
        assert got == [] if index_name != "g_inc" else sorted(i["sk"]["S"] for i in got) == ["s0", "s2", "s4"]
        got, _ = read_all(ddb, "scan", TableName=table, IndexName=index_name, Select="COUNT",
                          FilterExpression="attribute_not_exists(filler) AND attribute_not_exists(#s)",
                          ExpressionAttributeNames={"#s": "size"})
        assert got == []
        counted = ddb.scan(TableName=table, IndexName=index_name, Select="COUNT",
                           FilterExpression="attribute_not_exists(filler)")
        assert counted["Count"] == counted["ScannedCount"] == 6
    legacy = ddb.scan(TableName=table, IndexName="g_inc", ScanFilter={"size": {"ComparisonOperator": "NOT_NULL"}})
    assert legacy["Items"] == [] and legacy["ScannedCount"] == 6
    # An LSI Scan that fetches (for its projection) still filters on the index entry.
    fetched = ddb.scan(TableName=table, IndexName="l_keys", ProjectionExpression="sk, color",
                       FilterExpression="attribute_exists(color)")
    assert fetched["Items"] == [] and fetched["ScannedCount"] == 6


def test_lsi_read_returns_the_projection_and_fetches_what_it_asks_for(ddb, reads):
    table, items = reads
    q = dict(TableName=table, IndexName="l_keys", KeyConditionExpression="pk = :p",
             FilterExpression="sk IN (:a, :b, :c)",
             ExpressionAttributeValues={":p": S("P"), ":a": S("s1"), ":b": S("s3"), ":c": S("s5")})
    resp = ddb.query(**q)
    # The answer is what l_keys projects: keys only.
    assert resp["Items"] == [{"pk": S("P"), "sk": S(f"s{s}"), "l": S(f"L{s}")} for s in (1, 3, 5)]
    assert resp["Count"] == 3 and resp["ScannedCount"] == 6
    # Asked for, the unprojected attributes come back (fetched from the table).
    resp = ddb.query(**q, ProjectionExpression="sk, color, filler")
    assert resp["Items"] == [{"sk": S(f"s{s}"), "color": S("blue"), "filler": S("x" * 1000)} for s in (1, 3, 5)]
    resp = ddb.query(**q, Select="ALL_ATTRIBUTES")
    assert resp["Items"] == [i for i in items if i["color"] == S("blue")]


def test_lsi_fetches_are_charged_per_item_to_the_table(ddb, reads):
    table, items = reads
    q = dict(TableName=table, IndexName="l_keys", KeyConditionExpression="pk = :p",
             ExpressionAttributeValues={":p": S("P")}, ReturnConsumedCapacity="INDEXES")

    def units(consumed):
        return (consumed["CapacityUnits"], consumed["Table"]["CapacityUnits"],
                consumed["LocalSecondaryIndexes"]["l_keys"]["CapacityUnits"])

    # Six index entries of a few bytes: one unit on the index, nothing on the table.
    assert units(ddb.query(**q, ConsistentRead=True)["ConsumedCapacity"]) == (1.0, 0.0, 1.0)
    # Six items of ~1 KB fetched: one unit each (6), not the 2 that their summed 6 KB would make.
    assert units(ddb.query(**q, ConsistentRead=True, Select="ALL_ATTRIBUTES")["ConsumedCapacity"]) == (7.0, 6.0, 1.0)
    assert units(ddb.query(**q, ProjectionExpression="filler")["ConsumedCapacity"]) == (3.5, 3.0, 0.5)
    # A fetching read pays for every item read, matched by its filter or not.
    filtered = ddb.query(**{**q, "ExpressionAttributeValues": {":p": S("P"), ":s": S("s3")}},
                         FilterExpression="sk < :s", ProjectionExpression="filler", ConsistentRead=True)
    assert filtered["Count"] == 3 and units(filtered["ConsumedCapacity"]) == (7.0, 6.0, 1.0)
    total = ddb.query(**{**q, "ReturnConsumedCapacity": "TOTAL"}, ConsistentRead=True,
                      Select="ALL_ATTRIBUTES")["ConsumedCapacity"]
    assert total["TableName"] == table and total["CapacityUnits"] == 7.0 and "Table" not in total
    # The same through PartiQL.
    got = ddb.execute_statement(Statement=f'SELECT sk, filler FROM "{table}"."l_keys" WHERE pk = \'P\'', ConsistentRead=True,
                                ReturnConsumedCapacity="INDEXES")
    assert len(got["Items"]) == 6 and units(got["ConsumedCapacity"]) == (7.0, 6.0, 1.0)


# ---- key condition values ----------------------------------------------------------------------


def empty_key(kind, name):
    return ("One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an "
            f"empty {kind} value. Key: {name}")


def test_empty_string_or_binary_in_a_key_condition_is_refused(ddb, reads):
    table, _ = reads
    for expression, values, message in [
        ("pk = :e", {":e": S("")}, empty_key("string", "pk")),
        ("pk = :p AND sk > :e", {":p": S("P"), ":e": S("")}, empty_key("string", "sk")),
        ("pk = :p AND sk BETWEEN :e AND :z", {":p": S("P"), ":e": S(""), ":z": S("z")}, empty_key("string", "sk")),
        ("pk = :p AND begins_with(sk, :e)", {":p": S("P"), ":e": S("")}, empty_key("string", "sk")),
    ]:
        with pytest.raises(ClientError) as e:
            ddb.query(TableName=table, KeyConditionExpression=expression, ExpressionAttributeValues=values)
        validation(e, message)
    with pytest.raises(ClientError) as e:
        ddb.query(TableName=table, IndexName="g_keys", KeyConditionExpression="g = :e",
                  ExpressionAttributeValues={":e": S("")})
    validation(e, empty_key("string", "g"))
    with pytest.raises(ClientError) as e:
        ddb.query(TableName=table, IndexName="g_bin", KeyConditionExpression="gb = :e",
                  ExpressionAttributeValues={":e": B(b"")})
    validation(e, empty_key("binary", "gb"))
    with pytest.raises(ClientError) as e:
        ddb.query(TableName=table, KeyConditions={"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [S("")]}})
    validation(e, empty_key("string", "pk"))
    # Outside key conditions an empty string is an ordinary value.
    resp = ddb.query(TableName=table, KeyConditionExpression="pk = :p", FilterExpression="color = :e",
                     ExpressionAttributeValues={":p": S("P"), ":e": S("")})
    assert resp["Count"] == 0 and resp["ScannedCount"] == 6


# ---- ExclusiveStartKey -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hash_only(ddb):
    name = unique_name()
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", KeySchema=ks(("pk", "HASH")),
                     AttributeDefinitions=ad(("pk", "S")))
    put_all(ddb, name, [{"pk": S(f"k{i:02}"), "v": N(i)} for i in range(40)])
    return name


def test_query_exclusive_start_key_on_a_hash_only_table(ddb, hash_only):
    q = dict(TableName=hash_only, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": S("k07")})
    first = ddb.query(**q, Limit=1)
    assert first["Items"] == [{"pk": S("k07"), "v": N(7)}] and first["LastEvaluatedKey"] == {"pk": S("k07")}
    # Resuming after the partition's only item: nothing more, and no further LastEvaluatedKey.
    rest = ddb.query(**q, ExclusiveStartKey=first["LastEvaluatedKey"])
    assert rest["Items"] == [] and rest["Count"] == 0 and "LastEvaluatedKey" not in rest
    with pytest.raises(ClientError) as e:
        ddb.query(**q, ExclusiveStartKey={"pk": S("k08")})
    validation(e, "The provided starting key is outside query boundaries based on provided conditions")
    for start in ({"pk": S("k07"), "v": N(7)}, {"v": N(7)}):
        with pytest.raises(ClientError) as e:
            ddb.query(**q, ExclusiveStartKey=start)
        validation(e, "The provided starting key is invalid")
    with pytest.raises(ClientError) as e:
        ddb.query(**q, ExclusiveStartKey={"pk": N(7)})
    validation(e, "The provided key element does not match the schema")


def test_parallel_scan_exclusive_start_key_must_belong_to_the_segment(ddb, hash_only):
    total = 4
    seen = {}
    for segment in range(total):
        got, pages = read_all(ddb, "scan", TableName=hash_only, Segment=segment, TotalSegments=total, Limit=3)
        seen[segment] = [i["pk"]["S"] for i in got]
        # Each page's LastEvaluatedKey resumes its own segment.
        for page in pages[:-1]:
            assert page["LastEvaluatedKey"]["pk"]["S"] in seen[segment]
    assert sorted(k for k in sum(seen.values(), []) if k.startswith("k")) == [f"k{i:02}" for i in range(40)]
    owner = {pk: segment for segment, pks in seen.items() for pk in pks}
    key = "k13"
    resumed = ddb.scan(TableName=hash_only, Segment=owner[key], TotalSegments=total, ExclusiveStartKey={"pk": S(key)})
    assert [i["pk"]["S"] for i in resumed["Items"]] == seen[owner[key]][seen[owner[key]].index(key) + 1:]
    other = (owner[key] + 1) % total
    with pytest.raises(ClientError) as e:
        ddb.scan(TableName=hash_only, Segment=other, TotalSegments=total, ExclusiveStartKey={"pk": S(key)})
    validation(e, "The provided Exclusive start key does not map to the provided Segment and TotalSegments values.")
    # A key that is not stored maps to a segment all the same (its hash decides).
    with pytest.raises(ClientError) as e:
        for segment in range(total):
            ddb.scan(TableName=hash_only, Segment=segment, TotalSegments=total, ExclusiveStartKey={"pk": S("zz")})
    validation(e, "The provided Exclusive start key does not map to the provided Segment and TotalSegments values.")
    # Without parallel scan parameters any valid key resumes the scan.
    assert 0 < ddb.scan(TableName=hash_only, ExclusiveStartKey={"pk": S(key)})["Count"] < 40


def test_parallel_scan_of_an_index_checks_the_index_key(ddb, reads):
    table, _ = reads
    first = ddb.scan(TableName=table, IndexName="g_keys", Segment=0, TotalSegments=1, Limit=2)
    start = first["LastEvaluatedKey"]
    assert set(start) == {"pk", "sk", "g"}
    # Every entry of g_keys has g = "G": one segment of two owns them all.
    owner = None
    for segment in range(2):
        try:
            ddb.scan(TableName=table, IndexName="g_keys", Segment=segment, TotalSegments=2, ExclusiveStartKey=start)
            assert owner is None
            owner = segment
        except ClientError as e:
            assert e.response["Error"]["Message"] == ("The provided Exclusive start key does not map to the provided "
                                                      "Segment and TotalSegments values.")
    assert owner is not None


# ---- Scan capacity -----------------------------------------------------------------------------


def test_scan_consumed_capacity_on_tables_and_indexes(ddb, reads):
    table, _ = reads
    # Six items of ~1,050 bytes (6.3 KB): 2 units strongly consistent, 1 eventually.
    for consistent, units in [(True, 2.0), (False, 1.0)]:
        c = ddb.scan(TableName=table, ConsistentRead=consistent, ReturnConsumedCapacity="TOTAL")["ConsumedCapacity"]
        assert c == {"TableName": table, "CapacityUnits": units, "ReadCapacityUnits": units}
        c = ddb.scan(TableName=table, ConsistentRead=consistent, ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
        assert c == {"TableName": table, "CapacityUnits": units, "ReadCapacityUnits": units,
                     "Table": {"CapacityUnits": units, "ReadCapacityUnits": units}}
    assert "ConsumedCapacity" not in ddb.scan(TableName=table, ReturnConsumedCapacity="NONE")
    # An index scan is charged to the index (its small entries: the minimum, half a unit eventually).
    c = ddb.scan(TableName=table, IndexName="g_keys", ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
    assert c["CapacityUnits"] == 0.5 and c["Table"]["CapacityUnits"] == 0.0
    assert c["GlobalSecondaryIndexes"] == {"g_keys": {"CapacityUnits": 0.5, "ReadCapacityUnits": 0.5}}
    c = ddb.scan(TableName=table, IndexName="l_keys", ConsistentRead=True, ReturnConsumedCapacity="INDEXES")[
        "ConsumedCapacity"]
    assert c["CapacityUnits"] == 1.0 and c["LocalSecondaryIndexes"]["l_keys"]["CapacityUnits"] == 1.0
    # A COUNT scan and a filtered scan cost what they read, not what they return.
    c = ddb.scan(TableName=table, Select="COUNT", FilterExpression="color = :c", ExpressionAttributeValues={":c": S("x")},
                 ConsistentRead=True, ReturnConsumedCapacity="TOTAL")
    assert c["Count"] == 0 and c["ConsumedCapacity"]["CapacityUnits"] == 2.0


# ---- list indexes in projections ---------------------------------------------------------------


def test_projection_list_indexes_past_the_end_are_simply_absent(ddb, hash_only):
    ddb.put_item(TableName=hash_only, Item={"pk": S("lists"), "a": {"L": [N(1), N(2)]}, "e": {"L": []},
                                            "m": {"M": {"l": {"L": [S("x")]}}}, "s": S("str")})
    q = dict(TableName=hash_only, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": S("lists")})
    for projection, expected in [
        ("a[1], a[5]", {"a": {"L": [N(2)]}}),
        ("a[5]", {}),
        ("e[0]", {}),
        ("absent[0]", {}),
        ("s[0]", {}),
        ("m.l[0], m.l[3], m.x[0]", {"m": {"M": {"l": {"L": [S("x")]}}}}),
        ("pk, a[2], absent[1].x", {"pk": S("lists")}),
    ]:
        got = ddb.query(**q, ProjectionExpression=projection)
        assert got["Items"] == [expected], projection
        scanned = ddb.scan(TableName=hash_only, ProjectionExpression=projection, FilterExpression="pk = :p",
                           ExpressionAttributeValues={":p": S("lists")})
        assert scanned["Items"] == [expected], projection
