"""DynamoDB Streams through boto3's `dynamodbstreams` client: a table's full change history per view
type, iterator types, paging, errors, disabling / re-enabling, and streams outliving their table."""
import time

import pytest
from botocore.exceptions import ClientError

import raw
from conftest import unique_name

VIEW_TYPES = ["KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"]


def err(excinfo):
    return excinfo.value.response["Error"]["Code"], excinfo.value.response["Error"]["Message"]


@pytest.fixture(scope="module")
def streams(server):
    return server.client("dynamodbstreams", parameter_validation=False)


def create_stream_table(ddb, view_type="NEW_AND_OLD_IMAGES", name=None):
    name = name or unique_name("stream")
    resp = ddb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "p", "KeyType": "HASH"}, {"AttributeName": "c", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": "p", "AttributeType": "S"}, {"AttributeName": "c", "AttributeType": "S"}],
        StreamSpecification={"StreamEnabled": True, "StreamViewType": view_type})
    return name, resp["TableDescription"]["LatestStreamArn"]


def describe_shards(streams, arn):
    """Every shard of the stream, following LastEvaluatedShardId (one shard on the embedded engines,
    several on logged stores: an item's records stay in order in one shard)."""
    shards, start = [], None
    while True:
        d = streams.describe_stream(StreamArn=arn, **({"ExclusiveStartShardId": start} if start else {}))
        shards += d["StreamDescription"]["Shards"]
        start = d["StreamDescription"].get("LastEvaluatedShardId")
        if not start:
            return shards


def shard_ids(streams, arn):
    return [s["ShardId"] for s in describe_shards(streams, arn)]


def shard_of(streams, arn):
    """Some shard of the stream (the first)."""
    return shard_ids(streams, arn)[0]


def iterator(streams, arn, kind="TRIM_HORIZON", shard=None, **kw):
    return streams.get_shard_iterator(StreamArn=arn, ShardId=shard or shard_of(streams, arn), ShardIteratorType=kind,
                                      **kw)["ShardIterator"]


def read_shard(streams, it):
    records = []
    while it:
        resp = streams.get_records(ShardIterator=it)
        records += resp["Records"]
        if not resp["Records"]:
            break
        it = resp.get("NextShardIterator")
    return records


def read_all(streams, arn, it=None):
    """The records at `it` (one shard); without it, every shard's from its trim horizon, shard after shard."""
    if it:
        return read_shard(streams, it)
    return [r for shard in shard_ids(streams, arn) for r in read_shard(streams, iterator(streams, arn, shard=shard))]


def shard_holding(streams, arn):
    """The shard whose records are not empty (the tests that use it write one item collection)."""
    held = [s for s in shard_ids(streams, arn) if read_shard(streams, iterator(streams, arn, shard=s))]
    assert len(held) == 1
    return held[0]


def by_item(records):
    """Records grouped by item in sequence order (the order DynamoDB guarantees is per item)."""
    return sorted(records, key=lambda r: (r["dynamodb"]["Keys"]["p"]["S"], r["dynamodb"]["Keys"]["c"]["S"],
                                          int(r["dynamodb"]["SequenceNumber"])))


def item(p, c, **attrs):
    out = {"p": {"S": p}, "c": {"S": c}}
    for k, v in attrs.items():
        out[k] = {"N": str(v)} if isinstance(v, int) else {"S": v}
    return out


@pytest.mark.parametrize("view_type", VIEW_TYPES)
def test_full_history_per_view_type(ddb, streams, view_type):
    table, arn = create_stream_table(ddb, view_type)
    ddb.put_item(TableName=table, Item=item("a", "1", x=1))                        # INSERT
    ddb.put_item(TableName=table, Item=item("a", "1", x=1))                        # identical: nothing
    ddb.put_item(TableName=table, Item=item("a", "1", y="two"))                    # MODIFY
    ddb.delete_item(TableName=table, Key=item("a", "1"))                           # REMOVE
    ddb.delete_item(TableName=table, Key=item("a", "1"))                           # missing: nothing
    ddb.batch_write_item(RequestItems={table: [{"PutRequest": {"Item": item("b", "1", x=2)}}]})  # INSERT
    ddb.transact_write_items(TransactItems=[                                       # MODIFY + INSERT
        {"Put": {"TableName": table, "Item": item("b", "1", x=3)}},
        {"Put": {"TableName": table, "Item": item("c", "1")}}])
    expected = [
        ("INSERT", "a", None, item("a", "1", x=1)),
        ("MODIFY", "a", item("a", "1", x=1), item("a", "1", y="two")),
        ("REMOVE", "a", item("a", "1", y="two"), None),
        ("INSERT", "b", None, item("b", "1", x=2)),
        ("MODIFY", "b", item("b", "1", x=2), item("b", "1", x=3)),
        ("INSERT", "c", None, item("c", "1")),
    ]
    records = read_all(streams, arn)
    seqs = [int(r["dynamodb"]["SequenceNumber"]) for r in records]
    assert len(set(seqs)) == len(seqs)
    for shard in shard_ids(streams, arn):  # increasing in each shard
        in_shard = [int(r["dynamodb"]["SequenceNumber"]) for r in read_all(streams, arn, iterator(streams, arn, shard=shard))]
        assert in_shard == sorted(in_shard)
    records = by_item(records)  # stable: each item's records keep their shard's (sequence) order
    assert [(r["eventName"], r["dynamodb"]["Keys"]["p"]["S"]) for r in records] == [(e[0], e[1]) for e in expected]
    assert len({r["eventID"] for r in records}) == len(records)
    for r, (_, p, old, new) in zip(records, expected):
        assert r["eventVersion"] == "1.1"
        assert r["eventSource"] == "aws:dynamodb"
        assert r["awsRegion"] == "us-east-1"
        assert "userIdentity" not in r
        d = r["dynamodb"]
        assert d["Keys"] == {"p": {"S": p}, "c": {"S": "1"}}
        assert d["StreamViewType"] == view_type
        assert d["SequenceNumber"].isdecimal() and len(d["SequenceNumber"]) >= 21
        assert "ApproximateCreationDateTime" in d
        want_new = new if view_type in ("NEW_IMAGE", "NEW_AND_OLD_IMAGES") else None
        want_old = old if view_type in ("OLD_IMAGE", "NEW_AND_OLD_IMAGES") else None
        assert d.get("NewImage") == want_new
        assert d.get("OldImage") == want_old
        size = sum(len(k) + len(v.get("S", "")) + (2 if "N" in v else 0) for k, v in d["Keys"].items())
        for image in (want_new, want_old):
            if image:
                size += sum(len(k) + (len(v["S"]) if "S" in v else 2) for k, v in image.items())
        assert d["SizeBytes"] == size


def test_iterator_types(ddb, streams):
    # One item collection (partition key "k"): its records are in one shard, in order.
    table, arn = create_stream_table(ddb, "KEYS_ONLY")
    ddb.put_item(TableName=table, Item=item("k", "a"))
    ddb.put_item(TableName=table, Item=item("k", "b"))
    shard = shard_holding(streams, arn)
    latest = iterator(streams, arn, "LATEST", shard=shard)
    assert streams.get_records(ShardIterator=latest)["Records"] == []
    ddb.put_item(TableName=table, Item=item("k", "c"))
    resp = streams.get_records(ShardIterator=latest)
    assert [r["dynamodb"]["Keys"]["c"]["S"] for r in resp["Records"]] == ["c"]
    nxt = resp["NextShardIterator"]
    assert streams.get_records(ShardIterator=nxt)["Records"] == []  # nothing is read twice

    records = read_all(streams, arn)
    seq_b = records[1]["dynamodb"]["SequenceNumber"]
    at = streams.get_records(ShardIterator=iterator(streams, arn, "AT_SEQUENCE_NUMBER", shard=shard,
                                                    SequenceNumber=seq_b))
    assert [r["dynamodb"]["Keys"]["c"]["S"] for r in at["Records"]] == ["b", "c"]
    after = streams.get_records(ShardIterator=iterator(streams, arn, "AFTER_SEQUENCE_NUMBER", shard=shard,
                                                       SequenceNumber=seq_b))
    assert [r["dynamodb"]["Keys"]["c"]["S"] for r in after["Records"]] == ["c"]
    start = [s for s in describe_shards(streams, arn) if s["ShardId"] == shard][0]["SequenceNumberRange"]
    from_start = streams.get_records(ShardIterator=iterator(
        streams, arn, "AT_SEQUENCE_NUMBER", shard=shard, SequenceNumber=start["StartingSequenceNumber"]))
    assert len(from_start["Records"]) == 3

    # Limit pages; the same iterator can be read again and gives the same records.
    it = iterator(streams, arn, shard=shard)
    page1 = streams.get_records(ShardIterator=it, Limit=2)
    assert len(page1["Records"]) == 2
    assert streams.get_records(ShardIterator=it, Limit=2)["Records"] == page1["Records"]
    page2 = streams.get_records(ShardIterator=page1["NextShardIterator"], Limit=2)
    assert [r["dynamodb"]["Keys"]["c"]["S"] for r in page2["Records"]] == ["c"]
    assert "NextShardIterator" in page2  # an open shard never ends


def test_shard_iterator_errors(ddb, streams):
    table, arn = create_stream_table(ddb, "KEYS_ONLY")
    shard = shard_of(streams, arn)
    seq = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["SequenceNumberRange"][
        "StartingSequenceNumber"]
    for kind in ["AT_SEQUENCE_NUMBER", "AFTER_SEQUENCE_NUMBER"]:
        with pytest.raises(ClientError, match="ValidationException"):
            streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType=kind)
    for kind in ["TRIM_HORIZON", "LATEST"]:
        with pytest.raises(ClientError, match="ValidationException"):
            streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType=kind, SequenceNumber=seq)
    with pytest.raises(ClientError, match="ValidationException"):
        streams.get_shard_iterator(StreamArn="sdfadsfsdfsdgdfsgsfdabadfbabdadsfsdfsdfsdfsdfsdfsdfdfdssdffbdfdf",
                                   ShardId=shard, ShardIteratorType="LATEST")
    with pytest.raises(ClientError) as e:
        streams.get_shard_iterator(StreamArn=arn, ShardId="semprinidfaasdasfsdvacsdcfsdsvsdvsdvsdvsdvsdv",
                                   ShardIteratorType="LATEST")
    assert err(e)[0] == "ResourceNotFoundException"
    with pytest.raises(ClientError, match="ValidationException"):
        streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="bulle", SequenceNumber=seq)
    with pytest.raises(ClientError, match="ValidationException"):
        streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="AT_SEQUENCE_NUMBER",
                                   SequenceNumber="1234567890123456789012345x")
    with pytest.raises(ClientError) as e:
        streams.get_shard_iterator(StreamArn=arn.replace(table, table + "x"), ShardId=shard,
                                   ShardIteratorType="LATEST")
    assert err(e)[0] == "ResourceNotFoundException"


def test_get_records_errors(ddb, streams):
    table, arn = create_stream_table(ddb, "KEYS_ONLY")
    it = iterator(streams, arn, "LATEST")
    assert streams.get_records(ShardIterator=it, Limit=1000)["Records"] == []
    for limit in (1001, 0, -1):
        with pytest.raises(ClientError, match="ValidationException.*[Ll]imit"):
            streams.get_records(ShardIterator=it, Limit=limit)
    with pytest.raises(ClientError, match="ValidationException"):
        streams.get_records(ShardIterator="sdfsdfsgagaddafgagasgasgasdfasdfasdfasdfasdgasdasdgasdg", Limit=1000)
    tampered = it[:-8] + ("A" if it[-8] != "A" else "B") + it[-7:]
    with pytest.raises(ClientError, match="ValidationException"):
        streams.get_records(ShardIterator=tampered)


def test_list_and_describe_streams(ddb, streams):
    t1, arn1 = create_stream_table(ddb, "KEYS_ONLY")
    t2, arn2 = create_stream_table(ddb, "NEW_IMAGE")
    listed = streams.list_streams(TableName=t1)["Streams"]
    label = arn1.rsplit("/", 1)[1]
    assert listed == [{"StreamArn": arn1, "TableName": t1, "StreamLabel": label}]
    assert ddb.describe_table(TableName=t1)["Table"]["LatestStreamLabel"] == label

    seen, start = [], None
    while True:
        kw = {"ExclusiveStartStreamArn": start} if start else {}
        resp = streams.list_streams(Limit=1, **kw)
        assert len(resp["Streams"]) <= 1
        seen += [s["StreamArn"] for s in resp["Streams"]]
        start = resp.get("LastEvaluatedStreamArn")
        if not start:
            break
    assert arn1 in seen and arn2 in seen and len(seen) == len(set(seen))

    d = streams.describe_stream(StreamArn=arn1)["StreamDescription"]
    assert d["StreamArn"] == arn1
    assert d["StreamLabel"] == label
    assert d["StreamStatus"] == "ENABLED"
    assert d["StreamViewType"] == "KEYS_ONLY"
    assert d["TableName"] == t1
    assert d["KeySchema"] == [{"AttributeName": "p", "KeyType": "HASH"}, {"AttributeName": "c", "KeyType": "RANGE"}]
    assert "CreationRequestDateTime" in d
    assert "LastEvaluatedShardId" not in d
    for shard in d["Shards"]:  # every shard open, with no parent
        assert len(shard["ShardId"]) <= 65
        assert shard["SequenceNumberRange"]["StartingSequenceNumber"].isdecimal()
        assert "EndingSequenceNumber" not in shard["SequenceNumberRange"]
        assert "ParentShardId" not in shard
    ids = [s["ShardId"] for s in d["Shards"]]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    past = streams.describe_stream(StreamArn=arn1, ExclusiveStartShardId=ids[-1])["StreamDescription"]
    assert past["Shards"] == []
    rest = streams.describe_stream(StreamArn=arn1, ExclusiveStartShardId=ids[0])["StreamDescription"]
    assert [s["ShardId"] for s in rest["Shards"]] == ids[1:]
    one = streams.describe_stream(StreamArn=arn1, Limit=1)["StreamDescription"]
    assert [s["ShardId"] for s in one["Shards"]] == ids[:1]
    assert one.get("LastEvaluatedShardId") == (ids[0] if len(ids) > 1 else None)

    with pytest.raises(ClientError, match="ValidationException"):
        streams.describe_stream(StreamArn="sdfadfsdfnlfkajakfgjalksfgklasjklasdjfklasdfasdfgasf")
    with pytest.raises(ClientError) as e:
        streams.describe_stream(StreamArn=arn1.replace(t1, t1 + "-nope"))
    assert err(e)[0] == "ResourceNotFoundException"
    with pytest.raises(ClientError, match="ValidationException"):
        streams.list_streams(Limit=0)
    with pytest.raises(ClientError, match="ValidationException"):
        streams.list_streams(TableName=t1, ExclusiveStartStreamArn="kossaapaaasdafsdaasdasdasdasasdasfadfadfasdasdas")
    with pytest.raises(ClientError) as e:
        streams.list_streams(TableName=unique_name("missing"))
    assert err(e)[0] == "ResourceNotFoundException"


def test_table_without_stream(ddb, streams, hash_table):
    assert streams.list_streams(TableName=hash_table)["Streams"] == []
    desc = ddb.describe_table(TableName=hash_table)["Table"]
    assert "LatestStreamArn" not in desc and "StreamSpecification" not in desc


def test_disable_and_reenable(ddb, streams):
    table, arn = create_stream_table(ddb, "KEYS_ONLY")
    ddb.put_item(TableName=table, Item=item("a", "1"))
    it = iterator(streams, arn, shard=shard_holding(streams, arn))
    ddb.update_table(TableName=table, StreamSpecification={"StreamEnabled": False})
    ddb.put_item(TableName=table, Item=item("b", "1"))  # not in any stream

    d = streams.describe_stream(StreamArn=arn)["StreamDescription"]
    assert d["StreamStatus"] == "DISABLED"
    for shard in d["Shards"]:
        rng = shard["SequenceNumberRange"]
        assert int(rng["EndingSequenceNumber"]) >= int(rng["StartingSequenceNumber"])
    resp = streams.get_records(ShardIterator=it)
    assert [r["dynamodb"]["Keys"]["p"]["S"] for r in resp["Records"]] == ["a"]
    assert "NextShardIterator" not in resp  # the closed shard was read to its end
    assert [r["dynamodb"]["Keys"]["p"]["S"] for r in read_all(streams, arn)] == ["a"]

    ddb.update_table(TableName=table, StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
    new_arn = ddb.describe_table(TableName=table)["Table"]["LatestStreamArn"]
    assert new_arn != arn
    ddb.put_item(TableName=table, Item=item("c", "1"))
    records = read_all(streams, new_arn)
    assert [(r["eventName"], r["dynamodb"]["Keys"]["p"]["S"]) for r in records] == [("INSERT", "c")]
    assert records[0]["dynamodb"]["StreamViewType"] == "NEW_IMAGE"
    listed = streams.list_streams(TableName=table)["Streams"]
    assert [s["StreamArn"] for s in listed] == [arn, new_arn]


def test_stream_outlives_its_table(ddb, streams):
    table, arn = create_stream_table(ddb, "NEW_AND_OLD_IMAGES")
    ddb.put_item(TableName=table, Item=item("a", "1"))
    ddb.delete_table(TableName=table)
    d = streams.describe_stream(StreamArn=arn)["StreamDescription"]
    assert d["StreamStatus"] == "DISABLED"
    assert d["TableName"] == table
    assert [r["eventName"] for r in read_all(streams, arn)] == ["INSERT"]
    assert [s["StreamArn"] for s in streams.list_streams(TableName=table)["Streams"]] == [arn]


def test_stream_operations_only_on_the_streams_target(server, ddb):
    table, arn = create_stream_table(ddb, "KEYS_ONLY")
    status, body, _ = raw.call(server.port, "DescribeStream", {"StreamArn": arn})
    assert status == 400 and body["__type"].endswith("UnknownOperationException")
    status, _, raw_body = raw.post(server.port, "DynamoDBStreams_20120810.DescribeTable", {"TableName": table})
    assert status == 400 and b"UnknownOperationException" in raw_body
    status, _, raw_body = raw.post(server.port, "DynamoDBStreams_20120810.DescribeStream", {"StreamArn": arn})
    assert status == 200 and arn.encode() in raw_body


def test_streams_ttl_and_tags_survive_a_kill(start_server, tmp_path):
    data = str(tmp_path / "db")
    s = start_server("--data", data, "--sync")
    ddb, streams = s.client(), s.client("dynamodbstreams")
    table, arn = create_stream_table(ddb, "NEW_IMAGE")
    ddb.put_item(TableName=table, Item=item("a", "1"))
    ddb.update_time_to_live(TableName=table, TimeToLiveSpecification={"AttributeName": "e", "Enabled": True})
    table_arn = ddb.describe_table(TableName=table)["Table"]["TableArn"]
    ddb.tag_resource(ResourceArn=table_arn, Tags=[{"Key": "k", "Value": "v"}])
    old, old_arn = create_stream_table(ddb, "KEYS_ONLY")
    ddb.delete_table(TableName=old)
    before = read_all(streams, arn)
    s.kill()

    s2 = start_server("--data", data, "--ttl-period-ms", "50")
    ddb, streams = s2.client(), s2.client("dynamodbstreams")
    assert read_all(streams, arn) == before
    ddb.put_item(TableName=table, Item=item("b", "1", e=int(time.time()) - 60))  # expired: the worker deletes it
    for _ in range(100):
        if "Item" not in ddb.get_item(TableName=table, Key=item("b", "1")):
            break
        time.sleep(0.02)
    records = read_all(streams, arn)
    assert [(r["eventName"], r["dynamodb"]["Keys"]["p"]["S"]) for r in records] == [
        ("INSERT", "a"), ("INSERT", "b"), ("REMOVE", "b")]
    assert int(records[1]["dynamodb"]["SequenceNumber"]) > int(records[0]["dynamodb"]["SequenceNumber"])
    assert records[2]["userIdentity"]["Type"] == "Service"
    assert ddb.describe_time_to_live(TableName=table)["TimeToLiveDescription"]["TimeToLiveStatus"] == "ENABLED"
    assert ddb.list_tags_of_resource(ResourceArn=table_arn)["Tags"] == [{"Key": "k", "Value": "v"}]
    assert streams.describe_stream(StreamArn=old_arn)["StreamDescription"]["StreamStatus"] == "DISABLED"
    assert streams.describe_stream(StreamArn=arn)["StreamDescription"]["StreamStatus"] == "ENABLED"


def describe_raw(server, body):
    """DescribeStream over raw HTTP: boto3 1.26 does not know ShardFilter (added to the API in 2025)."""
    import json
    status, _, raw_body = raw.post(server.port, "DynamoDBStreams_20120810.DescribeStream", body)
    return status, json.loads(raw_body)


def test_describe_stream_shard_filter_child_shards(server, ddb, streams):
    table, arn = create_stream_table(ddb, "KEYS_ONLY")
    ddb.put_item(TableName=table, Item=item("a", "1"))
    shard = shard_of(streams, arn)
    # CHILD_SHARDS of the stream's shard: a shard here never splits, so it has no children; the
    # rest of the description is the stream's.
    status, body = describe_raw(server, {"StreamArn": arn, "ShardFilter": {"Type": "CHILD_SHARDS", "ShardId": shard}})
    assert status == 200, body
    d = body["StreamDescription"]
    assert d["Shards"] == [] and d["StreamArn"] == arn and d["StreamStatus"] == "ENABLED"
    assert "LastEvaluatedShardId" not in d
    # ... and still none once the stream is disabled (its shard closed: no successor).
    ddb.update_table(TableName=table, StreamSpecification={"StreamEnabled": False})
    status, body = describe_raw(server, {"StreamArn": arn, "ShardFilter": {"Type": "CHILD_SHARDS", "ShardId": shard}})
    assert status == 200 and body["StreamDescription"]["Shards"] == []
    assert body["StreamDescription"]["StreamStatus"] == "DISABLED"
    # Without a filter the shard is listed as before.
    status, body = describe_raw(server, {"StreamArn": arn})
    assert [s["ShardId"] for s in body["StreamDescription"]["Shards"]] == shard_ids(streams, arn)
    assert shard in shard_ids(streams, arn)


def test_describe_stream_shard_filter_errors(server, ddb, streams):
    table, arn = create_stream_table(ddb, "KEYS_ONLY")
    shard = shard_of(streams, arn)
    status, body = describe_raw(server, {"StreamArn": arn, "ShardFilter": {"Type": "foo", "ShardId": shard}})
    assert status == 400 and body["__type"].endswith("ValidationException")
    assert body["message"] == ("1 validation error detected: Value 'foo' at 'shardFilter.type' failed to satisfy "
                               "constraint: Member must satisfy enum value set: [CHILD_SHARDS]")
    status, body = describe_raw(server, {"StreamArn": arn, "ShardFilter": {"Type": "CHILD_SHARDS"}})
    assert status == 400 and body["__type"].endswith("ValidationException")
    assert "ShardId" in body["message"]
    status, body = describe_raw(server, {"StreamArn": arn, "ShardFilter": {"Type": "CHILD_SHARDS", "ShardId": "short"}})
    assert status == 400 and body["__type"].endswith("ValidationException")
    assert "'shardFilter.shardId' failed to satisfy constraint: Member must have length greater than or equal to 28" \
        in body["message"]
    unknown = "shardId-00000000000000000000-" + "0" * 8
    assert unknown != shard
    status, body = describe_raw(server, {"StreamArn": arn, "ShardFilter": {"Type": "CHILD_SHARDS", "ShardId": unknown}})
    assert status == 400 and body["__type"].endswith("ResourceNotFoundException")
    assert body["message"] == "Requested resource not found: Shard does not exist"
    # Another stream's shard is unknown to this stream.
    other_table, other_arn = create_stream_table(ddb, "KEYS_ONLY")
    other = shard_of(streams, other_arn)
    status, body = describe_raw(server, {"StreamArn": arn, "ShardFilter": {"Type": "CHILD_SHARDS", "ShardId": other}})
    assert status == 400 and body["__type"].endswith("ResourceNotFoundException")


def test_streams_of_deleted_and_disabled_tables_stay_listed_closed(ddb, streams):
    table, arn = create_stream_table(ddb, "NEW_IMAGE")
    ddb.put_item(TableName=table, Item=item("a", "1"))
    ddb.put_item(TableName=table, Item=item("b", "1"))
    disabled, disabled_arn = create_stream_table(ddb, "KEYS_ONLY")
    ddb.update_table(TableName=disabled, StreamSpecification={"StreamEnabled": False})
    ddb.delete_table(TableName=table)
    for name, stream_arn, records in [(table, arn, 2), (disabled, disabled_arn, 0)]:
        d = streams.describe_stream(StreamArn=stream_arn)["StreamDescription"]
        assert d["StreamStatus"] == "DISABLED" and d["TableName"] == name
        for shard in d["Shards"]:
            rng = shard["SequenceNumberRange"]
            assert "EndingSequenceNumber" in rng  # the shard is closed
            assert int(rng["EndingSequenceNumber"]) >= int(rng["StartingSequenceNumber"])
        # Listed (for 24 hours), with and without TableName.
        assert streams.list_streams(TableName=name)["Streams"] == [
            {"StreamArn": stream_arn, "TableName": name, "StreamLabel": stream_arn.rsplit("/", 1)[1]}]
        everything, start = [], None
        while True:
            resp = streams.list_streams(**({"ExclusiveStartStreamArn": start} if start else {}))
            everything += [s["StreamArn"] for s in resp["Streams"]]
            start = resp.get("LastEvaluatedStreamArn")
            if not start:
                break
        assert stream_arn in everything
        found = 0
        for shard in shard_ids(streams, stream_arn):
            resp = streams.get_records(ShardIterator=iterator(streams, stream_arn, shard=shard))
            found += len(resp["Records"])
            assert "NextShardIterator" not in resp  # each closed shard read to its end at once
        assert found == records
    # The deleted table's sequence ranges cover exactly its two records.
    ended = 0
    for shard in describe_shards(streams, arn):
        held = read_all(streams, arn, iterator(streams, arn, shard=shard["ShardId"]))
        if held:
            assert shard["SequenceNumberRange"]["EndingSequenceNumber"] == held[-1]["dynamodb"]["SequenceNumber"]
            ended += len(held)
    assert ended == 2
