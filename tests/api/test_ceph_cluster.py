"""Several monotable servers over one Ceph RADOS cluster (issue #46): stateless front ends.

Needs a cluster: MONOTABLE_CEPH_CONF names its ceph.conf (scripts/ceph/start-ceph.sh starts one on
loopback; `scripts/dev.sh test` runs this file with it), MONOTABLE_CEPH_POOL the pool (default dyn).
Each test uses a RADOS namespace of its own, so tests never see one another's tables.
"""
import os
import signal
import subprocess
import threading
import time
import uuid

import botocore.exceptions
import pytest

from test_streams import read_shard

CONF = os.environ.get("MONOTABLE_CEPH_CONF")
POOL = os.environ.get("MONOTABLE_CEPH_POOL", "dyn")

pytestmark = pytest.mark.skipif(not CONF, reason="needs a Ceph cluster (MONOTABLE_CEPH_CONF)")

ACCOUNTS = 6
START = 100


@pytest.fixture
def cluster_servers(start_server):
    """Starts n servers sharing one fresh namespace of the pool."""
    namespace = "t-" + uuid.uuid4().hex[:12]

    def start(n=2):
        return [start_server("--ceph", CONF, "--pool", POOL, "--ceph-namespace", namespace, "--threads", "2")
                for _ in range(n)]
    return start


def create_accounts(client, table):
    client.create_table(TableName=table, BillingMode="PAY_PER_REQUEST",
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
    for i in range(ACCOUNTS):
        client.put_item(TableName=table, Item={"pk": {"S": f"acct{i}"}, "bal": {"N": str(START)}})


def balances(client, table):
    out = {}
    for i in range(ACCOUNTS):
        item = client.get_item(TableName=table, Key={"pk": {"S": f"acct{i}"}}, ConsistentRead=True)["Item"]
        out[i] = int(item["bal"]["N"])
    return out


def transfer(client, table, src, dst, amount):
    """One transfer; True when committed, False when cancelled (conflict or insufficient funds)."""
    try:
        client.transact_write_items(TransactItems=[
            {"Update": {"TableName": table, "Key": {"pk": {"S": f"acct{src}"}},
                        "UpdateExpression": "SET bal = bal - :a", "ConditionExpression": "bal >= :a",
                        "ExpressionAttributeValues": {":a": {"N": str(amount)}}}},
            {"Update": {"TableName": table, "Key": {"pk": {"S": f"acct{dst}"}},
                        "UpdateExpression": "SET bal = bal + :a",
                        "ExpressionAttributeValues": {":a": {"N": str(amount)}}}},
        ])
        return True
    except botocore.exceptions.ClientError as e:
        code = e.response["Error"]["Code"]
        assert code in ("TransactionCanceledException", "TransactionConflictException"), e.response
        if code == "TransactionCanceledException":
            reasons = {r["Code"] for r in e.response["CancellationReasons"]}
            assert reasons <= {"None", "ConditionalCheckFailed", "TransactionConflict"}, reasons
        return False


def test_a_table_created_on_one_server_is_served_by_the_other(cluster_servers):
    a, b = cluster_servers(2)
    ca, cb = a.client(), b.client()
    ca.create_table(TableName="shared", BillingMode="PAY_PER_REQUEST",
                    AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                          {"AttributeName": "g", "AttributeType": "S"}],
                    KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                    GlobalSecondaryIndexes=[{"IndexName": "by_g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                             "Projection": {"ProjectionType": "ALL"}}])
    # B has never heard of the table: its first request finds it in the cluster's catalog.
    cb.put_item(TableName="shared", Item={"pk": {"S": "x"}, "g": {"S": "red"}})
    assert ca.get_item(TableName="shared", Key={"pk": {"S": "x"}})["Item"]["g"] == {"S": "red"}
    assert cb.describe_table(TableName="shared")["Table"]["GlobalSecondaryIndexes"][0]["IndexName"] == "by_g"
    found = ca.query(TableName="shared", IndexName="by_g", KeyConditionExpression="g = :g",
                     ExpressionAttributeValues={":g": {"S": "red"}})["Items"]
    assert [i["pk"]["S"] for i in found] == ["x"]
    assert "shared" in cb.list_tables()["TableNames"]
    # A drop on B is seen by A within its refresh period (a second).
    cb.delete_table(TableName="shared")
    deadline = time.time() + 5
    while time.time() < deadline:
        if "shared" not in ca.list_tables()["TableNames"]:
            break
        time.sleep(0.2)
    with pytest.raises(botocore.exceptions.ClientError) as e:
        ca.get_item(TableName="shared", Key={"pk": {"S": "x"}})
    assert e.value.response["Error"]["Code"] == "ResourceNotFoundException"


def test_two_servers_keep_the_bank_invariant(cluster_servers):
    servers = cluster_servers(2)
    create_accounts(servers[0].client(), "bank")
    committed, cancelled = [0], [0]
    lock = threading.Lock()

    def worker(server, seed):
        client = server.client()
        for n in range(40):
            src, dst = (seed + n) % ACCOUNTS, (seed + 3 * n + 1) % ACCOUNTS
            if src == dst:
                continue
            ok = transfer(client, "bank", src, dst, 7)
            with lock:
                (committed if ok else cancelled)[0] += 1

    threads = [threading.Thread(target=worker, args=(servers[i % 2], i)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert committed[0] > 0
    for server in servers:
        b = balances(server.client(), "bank")
        assert sum(b.values()) == ACCOUNTS * START, b
        assert min(b.values()) >= 0, b


def test_a_server_killed_mid_transaction_is_finished_by_the_other(cluster_servers):
    a, b = cluster_servers(2)
    create_accounts(a.client(), "bank")
    stop = threading.Event()
    committed = []

    def worker(seed):
        client = a.client()
        n = 0
        while not stop.is_set():
            n += 1
            try:
                if transfer(client, "bank", (seed + n) % ACCOUNTS, (seed + n + 1) % ACCOUNTS, 1):
                    committed.append(n)
            except Exception:  # the server is gone
                return

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    time.sleep(1.5)
    a.kill(signal.SIGKILL)  # transactions in flight: prepared, decided or half applied
    stop.set()
    for t in threads:
        t.join()
    assert committed, "no transfer committed before the kill"
    # B rolls back what was not decided and finishes what was, once A's transactions are stale
    # (5 s); until then a held account answers a conflict.
    client = b.client()
    deadline = time.time() + 30
    while True:
        try:
            for i in range(ACCOUNTS):
                client.update_item(TableName="bank", Key={"pk": {"S": f"acct{i}"}}, UpdateExpression="SET touched = :t",
                                   ExpressionAttributeValues={":t": {"BOOL": True}})
            break
        except botocore.exceptions.ClientError as e:
            assert e.response["Error"]["Code"] == "TransactionConflictException", e.response
            assert time.time() < deadline, "an account is still held by a dead server's transaction"
            time.sleep(0.5)
    bal = balances(client, "bank")
    assert sum(bal.values()) == ACCOUNTS * START, bal


def test_an_osd_killed_during_writes_loses_nothing_acknowledged(cluster_servers):
    base = os.path.dirname(CONF)
    pid_file = os.path.join(base, "run", "osd.0.pid")
    if not os.path.exists(pid_file):
        pytest.skip("the cluster's OSD pid files are not beside its ceph.conf (not a start-ceph.sh cluster)")
    (server,) = cluster_servers(1)
    client = server.client()
    client.create_table(TableName="kvstore", BillingMode="PAY_PER_REQUEST",
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
    acknowledged = {}
    stop = threading.Event()

    def writer():
        c = server.client()
        n = 0
        while not stop.is_set():
            n += 1
            key = f"k{n % 20}"  # overwrites: a lost one would show as an older version
            try:
                c.put_item(TableName="kvstore", Item={"pk": {"S": key}, "v": {"N": str(n)}})
                acknowledged[key] = n
            except botocore.exceptions.ClientError:
                pass  # not acknowledged

    t = threading.Thread(target=writer)
    t.start()
    time.sleep(1)
    with open(pid_file) as f:
        os.kill(int(f.read().strip()), signal.SIGKILL)
    time.sleep(4)
    env = dict(os.environ, CEPH_CONF=CONF)
    restarted = subprocess.run(["ceph-osd", "-i", "0", "-c", CONF], env=env, capture_output=True, text=True)
    time.sleep(3)
    stop.set()
    t.join()
    assert len(acknowledged) == 20
    for key, version in acknowledged.items():
        item = client.get_item(TableName="kvstore", Key={"pk": {"S": key}})["Item"]
        assert int(item["v"]["N"]) >= version, (key, item, version)
    assert restarted.returncode == 0, restarted.stderr


def read_stream(server, arn):
    """Every record of every shard of the stream, read through `server` as a client would."""
    streams = server.client("dynamodbstreams")
    shards, start = [], None
    while True:
        d = streams.describe_stream(StreamArn=arn, **({"ExclusiveStartShardId": start} if start else {}))
        shards += [s["ShardId"] for s in d["StreamDescription"]["Shards"]]
        start = d["StreamDescription"].get("LastEvaluatedShardId")
        if not start:
            break
    per_shard = {}
    for shard in shards:
        it = streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        per_shard[shard] = read_shard(streams, it)
    return per_shard


def test_two_servers_writing_one_stream_table_number_every_change_once(cluster_servers):
    """Issue #45/#46: stream records are numbered in the cluster (per shard), not per server: two
    servers writing one table concurrently lose no record and duplicate none, each item's records
    in order, and both servers read the same stream; a stream enabled on one server is written by
    the other once it has seen the change (its catalog refresh)."""
    a, b = cluster_servers(2)
    ca, cb = a.client(), b.client()
    ca.create_table(TableName="feed", BillingMode="PAY_PER_REQUEST",
                    AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                    KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
    cb.put_item(TableName="feed", Item={"pk": {"S": "before"}})  # B knows the table, no stream yet
    arn = ca.update_table(TableName="feed", StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})[
        "TableDescription"]["LatestStreamArn"]
    deadline = time.time() + 10
    while "LatestStreamArn" not in cb.describe_table(TableName="feed")["Table"]:
        assert time.time() < deadline, "B never saw the stream"
        time.sleep(0.2)

    per_writer, shared_items, rounds = 25, 3, 20
    acked = {}  # own items: pk -> values acknowledged, in order
    shared_acks = [0]
    lock = threading.Lock()
    errors = []

    def writer(server, name):
        try:
            client = server.client()
            for i in range(per_writer):
                pk = f"{name}-{i % 5}"
                client.put_item(TableName="feed", Item={"pk": {"S": pk}, "v": {"N": str(i)}})
                with lock:
                    acked.setdefault(pk, []).append(i)
                if i < rounds:  # items both servers update: ADD makes each change's value unique
                    client.update_item(TableName="feed", Key={"pk": {"S": f"shared-{i % shared_items}"}},
                                       UpdateExpression="ADD n :one", ExpressionAttributeValues={":one": {"N": "1"}})
                    with lock:
                        shared_acks[0] += 1
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=writer, args=(server, f"{tag}{t}"))
               for server, tag in ((a, "a"), (b, "b")) for t in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors

    views = [read_stream(a, arn), read_stream(b, arn)]
    assert views[0] == views[1]  # the same shards and records through either server
    per_shard = views[0]
    assert len(per_shard) > 1  # several shards on a logged store
    seqs = []
    for shard, records in per_shard.items():
        in_shard = [int(r["dynamodb"]["SequenceNumber"]) for r in records]
        assert in_shard == sorted(in_shard), shard
        seqs += in_shard
    assert len(seqs) == len(set(seqs))  # unique across shards too
    changes = {}  # pk -> NewImage values in stream order (an item lives in one shard)
    for records in per_shard.values():
        for r in records:
            image = r["dynamodb"]["NewImage"]
            value = int(image["v"]["N"]) if "v" in image else int(image["n"]["N"])
            changes.setdefault(image["pk"]["S"], []).append(value)
    assert "before" not in changes  # written before the stream was enabled
    for pk, values in acked.items():
        assert changes.get(pk) == values, pk  # every acknowledged change once, in order
    shared = [changes.get(f"shared-{k}", []) for k in range(shared_items)]
    for values in shared:
        assert values == list(range(1, len(values) + 1))  # each increment once, in order
    assert sum(len(v) for v in shared) == shared_acks[0]
    assert set(changes) == set(acked) | {f"shared-{k}" for k in range(shared_items)}
