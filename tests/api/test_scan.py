"""Scan: paging, parallel segments, Select COUNT, index scans and validation."""
import pytest
from botocore.exceptions import ClientError

from conftest import unique_name


def err(e):
    return e.value.response["Error"]["Code"], e.value.response["Error"]["Message"]


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
