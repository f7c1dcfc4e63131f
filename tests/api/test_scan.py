"""Scan: paging, parallel segments, Select COUNT, index scans and validation."""
import pytest
from botocore.exceptions import ClientError

from conftest import unique_name
from wire_helpers import err


def full_scan(ddb, **kw):
    items, pages, start = [], 0, None
    while True:
        args = dict(kw)
        if start:
            args["ExclusiveStartKey"] = start
        resp = ddb.scan(**args)
        items += resp.get("Items", [])
        pages += 1
        start = resp.get("LastEvaluatedKey")
        if not start:
            return items, pages


@pytest.fixture(scope="module")
def filled(ddb):
    name = unique_name()
    ddb.create_table(TableName=name,
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                           {"AttributeName": "sk", "AttributeType": "N"},
                                           {"AttributeName": "g", "AttributeType": "S"}],
                     GlobalSecondaryIndexes=[{"IndexName": "byg", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                              "Projection": {"ProjectionType": "KEYS_ONLY"}}],
                     BillingMode="PAY_PER_REQUEST")
    for p in range(40):
        ddb.batch_write_item(RequestItems={name: [
            {"PutRequest": {"Item": {"pk": {"S": f"P{p}"}, "sk": {"N": str(s)}, "x": {"S": "v"},
                                     **({"g": {"S": f"G{s}"}} if s % 2 == 0 else {})}}} for s in range(5)]})
    return name


def test_paged_scan_returns_every_item_once(ddb, filled):
    items, pages = full_scan(ddb, TableName=filled, Limit=17)
    keys = {(i["pk"]["S"], i["sk"]["N"]) for i in items}
    assert len(items) == 200 and len(keys) == 200
    assert pages == 12  # 11 full pages of 17, then 13 items; the 12th page ends the scan


def test_items_of_one_partition_are_contiguous_and_sorted(ddb, filled):
    items, _ = full_scan(ddb, TableName=filled)
    seen = []
    for i in items:
        if not seen or seen[-1][0] != i["pk"]["S"]:
            seen.append((i["pk"]["S"], []))
        seen[-1][1].append(int(i["sk"]["N"]))
    assert len(seen) == 40
    assert all(sks == [0, 1, 2, 3, 4] for _, sks in seen)


@pytest.mark.parametrize("total", [2, 3, 8])
def test_parallel_segments_cover_everything_exactly_once(ddb, filled, total):
    keys = []
    for seg in range(total):
        items, _ = full_scan(ddb, TableName=filled, Segment=seg, TotalSegments=total, Limit=9)
        keys += [(i["pk"]["S"], i["sk"]["N"]) for i in items]
    assert len(keys) == 200 and len(set(keys)) == 200


def test_select_count(ddb, filled):
    resp = ddb.scan(TableName=filled, Select="COUNT")
    assert "Items" not in resp
    assert resp["Count"] == 200 and resp["ScannedCount"] == 200


def test_sparse_keys_only_index_scan(ddb, filled):
    items, _ = full_scan(ddb, TableName=filled, IndexName="byg")
    assert len(items) == 120
    assert all(set(i) == {"pk", "sk", "g"} for i in items)


def test_scan_capacity_rounds_once(ddb, filled):
    resp = ddb.scan(TableName=filled, Limit=10, ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"]["CapacityUnits"] == 0.5


def test_validation(ddb, filled):
    with pytest.raises(ClientError) as e:
        ddb.scan(TableName=filled, Segment=3, TotalSegments=3)
    assert err(e) == ("ValidationException", "The Segment parameter is zero-based and must be less than parameter "
                      "TotalSegments: Segment: 3 is not less than TotalSegments: 3")
    with pytest.raises(ClientError) as e:
        ddb.scan(TableName=filled, Segment=1)
    assert "TotalSegments parameter is required" in err(e)[1]
    with pytest.raises(ClientError) as e:
        ddb.scan(TableName=filled, IndexName="nope")
    assert err(e) == ("ValidationException", "The table does not have the specified index: nope")
    with pytest.raises(ClientError) as e:
        ddb.scan(TableName=filled, IndexName="byg", ConsistentRead=True)
    assert err(e) == ("ValidationException", "Consistent reads are not supported on global secondary indexes")
    with pytest.raises(ClientError) as e:
        ddb.scan(TableName=filled, ExclusiveStartKey={"pk": {"S": "P1"}})
    assert err(e) == ("ValidationException",
                      "The provided starting key is invalid: The provided key element does not match the schema")
    with pytest.raises(ClientError) as e:
        ddb.scan(TableName=filled, IndexName="byg", Select="ALL_ATTRIBUTES")
    assert "Select type ALL_ATTRIBUTES is not supported for global secondary index byg" in err(e)[1]


# ---- filters, Select, Limit, pages, start keys ------------------------------------------------


def test_scan_filter_legacy_and_expression(ddb, filled):
    items, _ = full_scan(ddb, TableName=filled, ScanFilter={"sk": {"ComparisonOperator": "GE", "AttributeValueList": [{"N": "3"}]},
                                                            "g": {"ComparisonOperator": "NOT_NULL"}})
    assert len(items) == 40 and {i["sk"]["N"] for i in items} == {"4"}
    items, _ = full_scan(ddb, TableName=filled, ConditionalOperator="OR",
                         ScanFilter={"sk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "3"}]},
                                     "pk": {"ComparisonOperator": "IN", "AttributeValueList": [{"S": "P1"}, {"S": "P2"}]}})
    assert len(items) == 40 + 10 - 2
    # Scan filters may use key attributes (unlike Query filters).
    items, scanned, start = [], [], None
    while True:
        resp = ddb.scan(TableName=filled, FilterExpression="pk = :p AND sk > :s", Limit=50,
                        ExpressionAttributeValues={":p": {"S": "P7"}, ":s": {"N": "2"}},
                        **({"ExclusiveStartKey": start} if start else {}))
        items += resp["Items"]
        scanned.append(resp["ScannedCount"])
        start = resp.get("LastEvaluatedKey")
        if not start:
            break
    assert sorted(i["sk"]["N"] for i in items) == ["3", "4"]
    assert scanned == [50, 50, 50, 50, 0]
    with pytest.raises(ClientError) as e:
        ddb.scan(TableName=filled, ScanFilter={"x": {"ComparisonOperator": "NULL"}}, FilterExpression="x = :x",
                 ExpressionAttributeValues={":x": {"S": "v"}})
    assert err(e) == ("ValidationException", "Can not use both expression and non-expression parameters in the same "
                      "request: Non-expression parameters: {ScanFilter} Expression parameters: {FilterExpression}")


def test_scan_limit_counts_before_filter_and_projection(ddb, filled):
    resp = ddb.scan(TableName=filled, Limit=10, FilterExpression="sk = :s", ProjectionExpression="pk",
                    ExpressionAttributeValues={":s": {"N": "0"}})
    assert resp["ScannedCount"] == 10 and resp["Count"] == 2
    assert all(set(i) == {"pk"} for i in resp["Items"])
    assert set(resp["LastEvaluatedKey"]) == {"pk", "sk"}
    resp = ddb.scan(TableName=filled, Select="COUNT", FilterExpression="attribute_exists(g)")
    assert resp["Count"] == 120 and resp["ScannedCount"] == 200 and "Items" not in resp
    resp = ddb.scan(TableName=filled, AttributesToGet=["sk"], Limit=3, ConsistentRead=True)
    assert [set(i) for i in resp["Items"]] == [{"sk"}] * 3


@pytest.mark.parametrize("extra,message", [
    ({"Select": "COUNT", "ProjectionExpression": "x"},
     "Cannot specify the ProjectionExpression when choosing to get only the Count"),
    ({"Select": "ALL_ATTRIBUTES", "AttributesToGet": ["x"]},
     "Cannot specify the AttributesToGet when choosing to get ALL_ATTRIBUTES"),
    ({"Select": "SPECIFIC_ATTRIBUTES"},
     "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES"),
    ({"Select": "ALL_PROJECTED_ATTRIBUTES"}, "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName"),
])
def test_scan_select_errors_have_no_prefix(ddb, filled, extra, message):
    with pytest.raises(ClientError) as e:
        ddb.scan(TableName=filled, **extra)
    assert err(e) == ("ValidationException", message)


def test_scan_select_on_indexes(ddb, filled):
    resp = ddb.scan(TableName=filled, IndexName="byg", Select="ALL_PROJECTED_ATTRIBUTES", Limit=5)
    assert resp["Count"] == 5 and all(set(i) == {"pk", "sk", "g"} for i in resp["Items"])
    resp = ddb.scan(TableName=filled, IndexName="byg", ProjectionExpression="g, sk", Limit=5)
    assert all(set(i) == {"g", "sk"} for i in resp["Items"])
    # A GSI cannot fetch from the table: naming what it does not project is refused.
    with pytest.raises(ClientError) as e:
        ddb.scan(TableName=filled, IndexName="byg", ProjectionExpression="g, x", Limit=5)
    assert err(e) == ("ValidationException",
                      "One or more parameter values were invalid: Global secondary index byg does not project [x]")


def test_scan_one_megabyte_pages(ddb, hash_table):
    for start in range(0, 30, 10):
        ddb.batch_write_item(RequestItems={hash_table: [
            {"PutRequest": {"Item": {"pk": {"S": f"k{i}"}, "payload": {"S": "z" * 100_000}}}}
            for i in range(start, start + 10)]})
    items, pages = full_scan(ddb, TableName=hash_table, FilterExpression="attribute_not_exists(payload)")
    assert items == [] and pages == 3
    resp = ddb.scan(TableName=hash_table, ProjectionExpression="pk")
    assert resp["ScannedCount"] == 11 and "LastEvaluatedKey" in resp
    for total in (2, 4):
        seen = []
        for segment in range(total):
            got, _ = full_scan(ddb, TableName=hash_table, Segment=segment, TotalSegments=total, ProjectionExpression="pk")
            seen += [i["pk"]["S"] for i in got]
        assert sorted(seen) == sorted(f"k{i}" for i in range(30))


def test_scan_exclusive_start_key(ddb, filled):
    first = ddb.scan(TableName=filled, Limit=7)
    rest, _ = full_scan(ddb, TableName=filled, ExclusiveStartKey=first["LastEvaluatedKey"])
    assert len(first["Items"]) + len(rest) == 200
    keys = {(i["pk"]["S"], i["sk"]["N"]) for i in first["Items"] + rest}
    assert len(keys) == 200
    for start, message in [
        ({"pk": {"S": "P1"}, "sk": {"S": "1"}},
         "The provided starting key is invalid: The provided key element does not match the schema"),
        ({"pk": {"S": "P1"}, "sk": {"N": "1"}, "x": {"S": "1"}},
         "The provided starting key is invalid: The provided key element does not match the schema"),
        ({"pk": {"S": ""}, "sk": {"N": "1"}},
         "The provided starting key is invalid: One or more parameter values were invalid: The AttributeValue for a key "
         "attribute cannot contain an empty string value. Key: pk"),
    ]:
        with pytest.raises(ClientError) as e:
            ddb.scan(TableName=filled, ExclusiveStartKey=start)
        assert err(e) == ("ValidationException", message)
    with pytest.raises(ClientError) as e:
        ddb.scan(TableName=filled, IndexName="byg", ExclusiveStartKey={"pk": {"S": "P1"}, "sk": {"N": "1"}})
    assert err(e) == ("ValidationException", "The provided starting key is invalid")
    first = ddb.scan(TableName=filled, IndexName="byg", Limit=5)
    assert set(first["LastEvaluatedKey"]) == {"pk", "sk", "g"}
    rest, _ = full_scan(ddb, TableName=filled, IndexName="byg", ExclusiveStartKey=first["LastEvaluatedKey"], Limit=30)
    assert len(first["Items"]) + len(rest) == 120


def test_scan_filter_projection_nested_key_paths_refused(ddb, filled):
    with pytest.raises(ClientError) as e:
        ddb.scan(TableName=filled, ProjectionExpression="pk.a")
    assert err(e)[0] == "ValidationException" and "Key: pk" in err(e)[1]
