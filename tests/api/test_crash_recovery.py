"""Durability under fire: repeated kill -9 of a RocksDB server, with and without --sync, at random
moments while several clients write (PutItem on the I/O threads, BatchWriteItem on the workers).
After every restart each acknowledged write must be there, with its index entry and its stream
record, and items, index and change log must agree. Without --sync a process crash must lose
nothing acknowledged either: the WAL is written out (not synced) before any answer."""
import random
import signal
import threading
import time

import pytest

from conftest import unique_name

CYCLES = 3


def make_table(c, name):
    c.create_table(TableName=name, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                   AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                         {"AttributeName": "g", "AttributeType": "S"}],
                   GlobalSecondaryIndexes=[{"IndexName": "byg", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                            "Projection": {"ProjectionType": "ALL"}}],
                   StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"},
                   BillingMode="PAY_PER_REQUEST")


def load(server, name, acked, stop, seed):
    rng = random.Random(seed)
    c = server.client()
    while not stop.is_set():
        key = f"k{seed}-{rng.randint(0, 60)}"
        version = rng.randint(0, 10**9)
        try:
            c.put_item(TableName=name, Item={"pk": {"S": key}, "g": {"S": f"G{version % 5}"},
                                             "v": {"N": str(version)}})
            acked[key] = version  # the latest acknowledged version of each key
        except Exception:
            return


def load_batches(server, name, acked, stop, seed):
    rng = random.Random(seed)
    c = server.client()
    while not stop.is_set():
        versions = {f"b{seed}-{n}": rng.randint(0, 10**9) for n in rng.sample(range(60), 5)}
        try:
            resp = c.batch_write_item(RequestItems={name: [
                {"PutRequest": {"Item": {"pk": {"S": key}, "g": {"S": f"G{v % 5}"}, "v": {"N": str(v)}}}}
                for key, v in versions.items()]})
        except Exception:
            return
        if not resp.get("UnprocessedItems"):
            acked.update(versions)


def stream_versions(server, name):
    s = server.client("dynamodbstreams")
    arn = s.list_streams(TableName=name)["Streams"][0]["StreamArn"]
    versions = {}
    for shard in s.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]:
        it = s.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                                  ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        while it:
            resp = s.get_records(ShardIterator=it, Limit=1000)
            for r in resp["Records"]:
                image = r["dynamodb"].get("NewImage")
                if image:
                    versions.setdefault(image["pk"]["S"], set()).add(int(image["v"]["N"]))
            if not resp["Records"]:
                break
            it = resp.get("NextShardIterator")
    return versions


@pytest.mark.parametrize("flags", [["--sync"], []], ids=["sync", "nosync"])
def test_repeated_kill_9_loses_nothing_acknowledged(start_server, tmp_path, flags):
    data = str(tmp_path / "db")
    server = start_server("--data", data, *flags)
    name = unique_name()
    make_table(server.client(), name)
    acked = {}
    for cycle in range(CYCLES):
        stop = threading.Event()
        threads = [threading.Thread(target=load, args=(server, name, acked, stop, cycle * 10 + i)) for i in range(4)]
        threads.append(threading.Thread(target=load_batches, args=(server, name, acked, stop, cycle * 10 + 9)))
        for t in threads:
            t.start()
        time.sleep(random.uniform(0.5, 1.5))
        server.kill(signal.SIGKILL)
        stop.set()
        for t in threads:
            t.join(timeout=30)
        server = start_server("--data", data, *flags)
        c = server.client()
        items = {}
        start = None
        while True:
            resp = c.scan(TableName=name, **({"ExclusiveStartKey": start} if start else {}))
            items.update({i["pk"]["S"]: int(i["v"]["N"]) for i in resp["Items"]})
            start = resp.get("LastEvaluatedKey")
            if not start:
                break
        # Every acknowledged key is there; the stored version is the acknowledged one or a later
        # write that committed but whose answer was lost in the kill.
        missing = [k for k in acked if k not in items]
        assert not missing, f"cycle {cycle}: acknowledged items lost: {missing[:5]}"
        for k in acked:
            acked[k] = items[k]
        # The index agrees with the table exactly.
        indexed = {}
        for g in range(5):
            q = c.query(TableName=name, IndexName="byg", KeyConditionExpression="g = :g",
                        ExpressionAttributeValues={":g": {"S": f"G{g}"}})
            for i in q["Items"]:
                indexed[i["pk"]["S"]] = int(i["v"]["N"])
        assert indexed == items, f"cycle {cycle}: index and table disagree"
        # The change log holds a record of every stored version.
        versions = stream_versions(server, name)
        lacking = [k for k, v in items.items() if v not in versions.get(k, set())]
        assert not lacking, f"cycle {cycle}: stream records missing for {lacking[:5]}"
    assert len(acked) > 20
