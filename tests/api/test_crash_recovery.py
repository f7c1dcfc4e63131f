"""Durability under fire: repeated kill -9 of a RocksDB server, with and without --sync, at random
moments while several clients write (PutItem on the I/O threads, BatchWriteItem on the workers).
Keys are reused (each key belongs to one client, which overwrites it again and again), so after
every restart each key must hold exactly its last acknowledged version, or the version of the one
write to it that was in flight at the kill: a lost overwrite, or an older version resurfacing, is
caught, not only a lost key. Items, index and change log must agree. Without --sync a process
crash must lose nothing acknowledged either: the WAL is written out (not synced) before any
answer."""
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


def load(server, name, acked, in_flight, stop, seed):
    """Overwrites its own keys k<seed>-0..60 with fresh versions. `acked`: the latest acknowledged
    version of each key; `in_flight`: the version of a write sent but not (yet) answered."""
    rng = random.Random(seed)
    c = server.client()
    while not stop.is_set():
        key = f"k{seed}-{rng.randint(0, 60)}"
        version = rng.randint(0, 10**9)
        in_flight[key] = version
        try:
            c.put_item(TableName=name, Item={"pk": {"S": key}, "g": {"S": f"G{version % 5}"},
                                             "v": {"N": str(version)}})
        except Exception:
            return
        acked[key] = version
        del in_flight[key]


def load_batches(server, name, acked, in_flight, stop, seed):
    rng = random.Random(seed)
    c = server.client()
    while not stop.is_set():
        versions = {f"b{seed}-{n}": rng.randint(0, 10**9) for n in rng.sample(range(60), 5)}
        in_flight.update(versions)
        try:
            resp = c.batch_write_item(RequestItems={name: [
                {"PutRequest": {"Item": {"pk": {"S": key}, "g": {"S": f"G{v % 5}"}, "v": {"N": str(v)}}}}
                for key, v in versions.items()]})
        except Exception:
            return
        if resp.get("UnprocessedItems"):
            return  # unknown which were written: stop here, their versions stay in flight
        acked.update(versions)
        for key in versions:
            del in_flight[key]


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
    overwrites = 0
    for cycle in range(CYCLES):
        stop = threading.Event()
        in_flight = {}
        before = dict(acked)
        # The same seeds every cycle: the same keys are overwritten again after each restart.
        threads = [threading.Thread(target=load, args=(server, name, acked, in_flight, stop, i)) for i in range(4)]
        threads.append(threading.Thread(target=load_batches, args=(server, name, acked, in_flight, stop, 9)))
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
        # Every acknowledged key is there and holds exactly its last acknowledged version, or the
        # version of the write in flight at the kill (committed, its answer lost).
        missing = [k for k in acked if k not in items]
        assert not missing, f"cycle {cycle}: acknowledged items lost: {missing[:5]}"
        wrong = {k: (items[k], v, in_flight.get(k)) for k, v in acked.items()
                 if items[k] != v and items[k] != in_flight.get(k)}
        assert not wrong, f"cycle {cycle}: keys not at their last acknowledged version (stored, acked, in flight): " \
                          f"{list(wrong.items())[:5]}"
        # Nothing never written appears.
        stray = [k for k in items if k not in acked and k not in in_flight]
        assert not stray, f"cycle {cycle}: items nobody wrote: {stray[:5]}"
        overwrites += sum(1 for k, v in acked.items() if k in before and before[k] != v)
        acked.update(items)
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
    assert overwrites > 20  # the check above covered keys overwritten across restarts
