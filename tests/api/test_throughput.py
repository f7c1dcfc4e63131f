"""Provisioned-throughput simulation (--simulate-throughput) and the per-partition heat map."""
import http.client
import json
import time

import pytest
from botocore.exceptions import ClientError

from conftest import unique_name
from raw import call


@pytest.fixture(scope="module")
def throttling(binary):
    """Buckets keep one second of unused capacity (--burst-seconds 1), so a hot key is throttled
    as soon as it outruns its rate however long the table has existed."""
    from conftest import Server
    s = Server(binary, ["--in-memory", "--simulate-throughput", "--burst-seconds", "1"])
    yield s
    s.stop()


@pytest.fixture(scope="module")
def bursting(binary):
    """AWS's burst: up to 300 s of unused capacity (the default)."""
    from conftest import Server
    s = Server(binary, ["--in-memory", "--simulate-throughput"])
    yield s
    s.stop()


def gsi_table(c, name, gsi_wcu=40000):
    c.create_table(TableName=name, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                   AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                         {"AttributeName": "gpk", "AttributeType": "S"}],
                   ProvisionedThroughput={"ReadCapacityUnits": 100, "WriteCapacityUnits": 40000},
                   GlobalSecondaryIndexes=[{"IndexName": "bystatus",
                                            "KeySchema": [{"AttributeName": "gpk", "KeyType": "HASH"}],
                                            "Projection": {"ProjectionType": "ALL"},
                                            "ProvisionedThroughput": {"ReadCapacityUnits": 100,
                                                                      "WriteCapacityUnits": gsi_wcu}}])


def write_load(c, name, gsi_key):
    """300 items of 16 KB (16 WCU on the table and on the index) in bursts of 25: 4,800 units,
    far past what one partition serves in a second (1,000 plus what refills meanwhile), while ten
    shard keys spread over the index's 41 partitions stay under it (no two of them share one)."""
    throttled = 0
    for batch in range(12):
        items = [{"PutRequest": {"Item": {"pk": {"S": f"u{batch}-{i}"}, "gpk": {"S": gsi_key(batch * 25 + i)},
                                          "blob": {"S": "x" * 16000}}}} for i in range(25)]
        try:
            resp = c.batch_write_item(RequestItems={name: items})
            throttled += len(resp["UnprocessedItems"].get(name, []))
        except ClientError as e:
            assert e.response["Error"]["Code"] == "ProvisionedThroughputExceededException"
            throttled += 25
    return throttled


@pytest.mark.parametrize("fixture", ["throttling", "bursting"])
def test_static_hot_gsi_key_throttles_and_a_sharded_one_does_not(request, fixture):
    # Burst credit cannot lift a partition past 1,000 WCU a second: the hot key throttles with
    # 300 s of credit banked as well.
    c = request.getfixturevalue(fixture).client()
    hot, sharded = unique_name(), unique_name()
    gsi_table(c, hot)
    gsi_table(c, sharded)
    assert write_load(c, hot, lambda i: "STUDENT") > 0
    assert write_load(c, sharded, lambda i: f"STUDENT#{i % 10}") == 0


def test_throttle_message_names_the_index(throttling):
    # An index of 100 WCU: a partition serves 100 units a second, so a second 60 KB write right
    # after the first is throttled however slow the client is.
    c = throttling.client()
    name = unique_name()
    gsi_table(c, name, gsi_wcu=100)
    with pytest.raises(ClientError) as e:
        for i in range(400):
            c.put_item(TableName=name, Item={"pk": {"S": f"u{i}"}, "gpk": {"S": "HOT"}, "blob": {"S": "x" * 60000}})
    assert e.value.response["Error"]["Message"].startswith(
        "The level of configured provisioned throughput for one or more global secondary indexes of the table "
        "was exceeded.")


def test_on_demand_tables_are_never_throttled(throttling):
    c = throttling.client()
    name = unique_name()
    c.create_table(TableName=name, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                   AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}], BillingMode="PAY_PER_REQUEST")
    for i in range(300):
        c.put_item(TableName=name, Item={"pk": {"S": "same"}, "blob": {"S": "x" * 4000}})


def test_heat_map_shows_the_hot_key(server, ddb):
    name = unique_name()
    ddb.create_table(TableName=name, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     BillingMode="PAY_PER_REQUEST")
    for i in range(200):
        ddb.put_item(TableName=name, Item={"pk": {"S": "HOT" if i % 2 else f"k{i}"}})
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("GET", f"/monotable/heat?table={name}")
    resp = conn.getresponse()
    assert resp.status == 200
    heat = json.loads(resp.read())
    assert heat["table"]["name"] == name
    assert sum(p["writes"] for p in heat["table"]["partitions"]) == 200
    assert heat["table"]["hotKeys"][0]["key"] == "HOT"


# --- Reads by key: BatchGetItem, TransactGetItems and the PartiQL reads ----------------------------
#
# A table of 5 RCU on the `throttling` server: the partition holding the hot key serves at most 5
# read units a second and keeps no more than that. Each hot item is ~8 KB: 1 unit eventually
# consistent, 2 strongly consistent, 4 in a transaction, so one more read needs 200 ms or more of
# refill, far longer than the requests below take.

HOT_ITEMS = 12


def hot_key_table(c, billing):
    name = unique_name()
    extra = ({"BillingMode": "PAY_PER_REQUEST"} if billing == "PAY_PER_REQUEST" else
             {"ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 1000}})
    c.create_table(TableName=name, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                              {"AttributeName": "sk", "KeyType": "RANGE"}],
                   AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                         {"AttributeName": "sk", "AttributeType": "N"}], **extra)
    for i in range(HOT_ITEMS):
        c.put_item(TableName=name, Item={"pk": {"S": "HOT"}, "sk": {"N": str(i)}, "blob": {"S": "x" * 8000}})
    return name


def hot_keys():
    return [{"pk": {"S": "HOT"}, "sk": {"N": str(i)}} for i in range(HOT_ITEMS)]


def test_batch_get_item_throttles_a_hot_key(throttling):
    c = throttling.client()
    name = hot_key_table(c, "PROVISIONED")
    keys = hot_keys()
    resp = c.batch_get_item(RequestItems={name: {"Keys": keys}}, ReturnConsumedCapacity="TOTAL")
    read = resp["Responses"][name]
    left = resp["UnprocessedKeys"][name]["Keys"]
    # The partition's 5 units pay for 5 items (1 unit each); the rest come back, in request order.
    assert 5 <= len(read) < HOT_ITEMS
    assert left == keys[len(read):]
    assert [(cc["TableName"], cc["CapacityUnits"]) for cc in resp["ConsumedCapacity"]] == [(name, float(len(read)))]
    # Asking again at once: no key can be read, and then the whole call is refused.
    with pytest.raises(ClientError) as e:
        for _ in range(5):
            c.batch_get_item(RequestItems={name: {"Keys": keys}})
    assert e.value.response["Error"]["Code"] == "ProvisionedThroughputExceededException"


@pytest.mark.parametrize("projection", [False, True])
def test_get_item_throttles_a_hot_key_with_a_bare_error(throttling, projection):
    # Five 1-unit reads drain the hot partition; a later read is refused with only the error, not
    # the item it had already written out (the charge comes from the item's size, measured while
    # writing it).
    c = throttling.client()
    name = hot_key_table(c, "PROVISIONED")
    extra = {"ProjectionExpression": "pk, #b", "ExpressionAttributeNames": {"#b": "blob"}} if projection else {}
    key = hot_keys()[0]
    for _ in range(HOT_ITEMS):
        status, body, _ = call(throttling.port, "GetItem", {"TableName": name, "Key": key,
                                                            "ReturnConsumedCapacity": "TOTAL", **extra})
        if status != 200:
            break
        assert body["Item"]["blob"]["S"] == "x" * 8000
        assert body["ConsumedCapacity"]["CapacityUnits"] == 1.0
    assert status == 400
    assert body["__type"].endswith("#ProvisionedThroughputExceededException")
    assert set(body) == {"__type", "message"}


def test_transact_get_items_throttled_is_cancelled(throttling):
    c = throttling.client()
    name = hot_key_table(c, "PROVISIONED")
    gets = [{"Get": {"TableName": name, "Key": k}} for k in hot_keys()[:2]]
    # The first read takes 4 of the partition's 5 units, the second finds 1: the transaction is
    # cancelled with ProvisionedThroughputExceeded as the second read's reason.
    status, body, _ = call(throttling.port, "TransactGetItems", {"TransactItems": gets})
    assert status == 400
    assert body["__type"].endswith("TransactionCanceledException")
    assert body["Message"] == ("Transaction cancelled, please refer cancellation reasons for specific reasons "
                               "[None, ProvisionedThroughputExceeded]")
    assert [r["Code"] for r in body["CancellationReasons"]] == ["None", "ProvisionedThroughputExceeded"]
    assert body["CancellationReasons"][1]["Message"].startswith(
        "The level of configured provisioned throughput for the table was exceeded.")
    with pytest.raises(ClientError) as e:
        c.transact_get_items(TransactItems=gets[:1])
    assert e.value.response["Error"]["Code"] == "TransactionCanceledException"


def test_throttled_partiql_transaction_write_names_the_reason(throttling):
    # 1 WCU: the partition holds 1 write unit, a 2 KB item needs 4 in a transaction. ExecuteTransaction
    # gives the same cancellation reason as TransactWriteItems.
    c = throttling.client()
    name = unique_name()
    c.create_table(TableName=name, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                   AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                   ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 1})
    blob = {"S": "x" * 2000}
    status, body, _ = call(throttling.port, "ExecuteTransaction", {"TransactStatements": [
        {"Statement": f"INSERT INTO \"{name}\" VALUE {{'pk': 'a', 'blob': ?}}", "Parameters": [blob]}]})
    assert status == 400 and body["__type"].endswith("TransactionCanceledException")
    assert [r["Code"] for r in body["CancellationReasons"]] == ["ProvisionedThroughputExceeded"]
    status, body, _ = call(throttling.port, "TransactWriteItems", {"TransactItems": [
        {"Put": {"TableName": name, "Item": {"pk": {"S": "a"}, "blob": blob}}}]})
    assert status == 400 and body["__type"].endswith("TransactionCanceledException")
    assert [r["Code"] for r in body["CancellationReasons"]] == ["ProvisionedThroughputExceeded"]


def partiql_hot_reads(c, name):
    """Every PartiQL way to read the hot key, each repeated more often than the partition allows;
    returns the error codes seen per way (empty lists when nothing was throttled)."""
    seen = {"ExecuteStatement": [], "BatchExecuteStatement": [], "ExecuteTransaction": []}
    select = f"SELECT * FROM \"{name}\" WHERE pk = 'HOT' AND sk = ?"
    for i in range(8):
        try:
            c.execute_statement(Statement=select, Parameters=[{"N": str(i)}])
        except ClientError as e:
            seen["ExecuteStatement"].append(e.response["Error"]["Code"])
    for _ in range(2):
        resp = c.batch_execute_statement(Statements=[{"Statement": select, "Parameters": [{"N": str(i)}]}
                                                     for i in range(HOT_ITEMS)])
        seen["BatchExecuteStatement"] += [r["Error"]["Code"] for r in resp["Responses"] if "Error" in r]
    for _ in range(2):
        try:
            c.execute_transaction(TransactStatements=[{"Statement": select, "Parameters": [{"N": str(i)}]}
                                                      for i in range(2)])
        except ClientError as e:
            seen["ExecuteTransaction"].append(e.response["Error"]["Code"])
    return seen


def test_partiql_reads_of_a_hot_key_throttle(throttling):
    c = throttling.client()
    seen = partiql_hot_reads(c, hot_key_table(c, "PROVISIONED"))
    assert seen["ExecuteStatement"] and set(seen["ExecuteStatement"]) == {"ProvisionedThroughputExceededException"}
    assert seen["BatchExecuteStatement"] and set(seen["BatchExecuteStatement"]) == {"ProvisionedThroughputExceeded"}
    assert seen["ExecuteTransaction"] == ["TransactionCanceledException"] * 2


def test_partiql_query_of_a_hot_key_throttles(throttling):
    # A SELECT that runs as a Query of the hot partition reads all 12 items (~96 KB: 12 units).
    c = throttling.client()
    name = hot_key_table(c, "PROVISIONED")
    with pytest.raises(ClientError) as e:
        c.execute_statement(Statement=f"SELECT * FROM \"{name}\" WHERE pk = 'HOT'")
    assert e.value.response["Error"]["Code"] == "ProvisionedThroughputExceededException"


def test_hot_key_reads_on_demand_are_never_throttled(throttling):
    c = throttling.client()
    name = hot_key_table(c, "PAY_PER_REQUEST")
    keys = hot_keys()
    for _ in range(10):
        resp = c.batch_get_item(RequestItems={name: {"Keys": keys}})
        assert len(resp["Responses"][name]) == HOT_ITEMS and not resp["UnprocessedKeys"]
        got = c.transact_get_items(TransactItems=[{"Get": {"TableName": name, "Key": k}} for k in keys])
        assert all("Item" in r for r in got["Responses"])
    assert partiql_hot_reads(c, name) == {"ExecuteStatement": [], "BatchExecuteStatement": [],
                                          "ExecuteTransaction": []}
    c.execute_statement(Statement=f"SELECT * FROM \"{name}\" WHERE pk = 'HOT'")


# --- Burst capacity: up to 300 s of unused capacity, banked from the table's creation -------------

def provisioned_table(c, rcu, wcu):
    name = unique_name()
    c.create_table(TableName=name, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                   AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                   ProvisionedThroughput={"ReadCapacityUnits": rcu, "WriteCapacityUnits": wcu})
    return name


def eventually(attempt, seconds=8.0):
    """Calls attempt() until it does not raise a throttling error; returns how many were throttled."""
    deadline = time.monotonic() + seconds
    throttled = 0
    while True:
        try:
            attempt()
            return throttled
        except ClientError as e:
            assert e.response["Error"]["Code"] in ("ProvisionedThroughputExceededException",
                                                   "TransactionCanceledException")
            throttled += 1
            if time.monotonic() > deadline:
                raise
            time.sleep(0.25)


def test_transact_get_items_succeeds_on_a_table_below_2_rcu(bursting):
    # A transactional read costs 2 units; a 1 RCU table banks them after a second of not reading.
    c = bursting.client()
    name = provisioned_table(c, 1, 5)
    c.put_item(TableName=name, Item={"pk": {"S": "a"}})
    got = []
    eventually(lambda: got.append(c.transact_get_items(
        TransactItems=[{"Get": {"TableName": name, "Key": {"pk": {"S": "a"}}}}], ReturnConsumedCapacity="TOTAL")))
    assert got[0]["Responses"] == [{"Item": {"pk": {"S": "a"}}}]
    assert got[0]["ConsumedCapacity"][0]["CapacityUnits"] == 2.0


def test_a_read_costing_more_than_the_tables_rcu_is_served_from_burst(bursting):
    # A strongly consistent read of a 16 KB item costs 4 units on a 2 RCU table.
    c = bursting.client()
    name = provisioned_table(c, 2, 20)
    c.put_item(TableName=name, Item={"pk": {"S": "big"}, "blob": {"S": "x" * 16000}})
    got = []
    eventually(lambda: got.append(c.get_item(TableName=name, Key={"pk": {"S": "big"}}, ConsistentRead=True,
                                             ReturnConsumedCapacity="TOTAL")))
    assert got[0]["ConsumedCapacity"]["CapacityUnits"] == 4.0


def test_a_hot_key_spends_the_banked_burst_then_throttles(bursting):
    # 10 RCU idle for 3 s banks ~40 units: a burst of 1-unit reads gets far more than one second's
    # 10, then the credit runs out and the key throttles.
    c = bursting.client()
    name = provisioned_table(c, 10, 5)
    c.put_item(TableName=name, Item={"pk": {"S": "HOT"}})
    time.sleep(3)
    served = 0
    with pytest.raises(ClientError) as e:
        for _ in range(400):
            c.get_item(TableName=name, Key={"pk": {"S": "HOT"}}, ConsistentRead=True)
            served += 1
    assert e.value.response["Error"]["Code"] == "ProvisionedThroughputExceededException"
    assert 25 <= served < 400


def test_burst_seconds_flag_is_validated(binary):
    import subprocess
    out = subprocess.run([binary, "serve", "--burst-seconds", "0"], capture_output=True, text=True, timeout=30)
    assert out.returncode == 2 and "--burst-seconds needs a number of seconds above 0" in out.stderr
    usage = subprocess.run([binary, "serve", "--help"], capture_output=True, text=True, timeout=30).stderr
    assert "--burst-seconds N" in usage


# --- Transactional writes: table arms at double rate, ConditionCheck / EXISTS charged as writes ----
#
# A 10 WCU table on the `throttling` server: its one partition banks at most 10 write units. Checking
# or writing a 4 KB item in a transaction costs 8 (twice ceil(4 KB / 1 KB)), as ConsumedCapacity says.

def checked_table(c):
    name = provisioned_table(c, 5, 10)
    for k in ("a", "b"):
        c.put_item(TableName=name, Item={"pk": {"S": k}, "blob": {"S": "x" * 4000}})
    time.sleep(1.2)  # the write bucket is full again
    return name


def cancelled(server, operation, body):
    """The cancellation reason codes of a transaction that must be cancelled."""
    status, resp, _ = call(server.port, operation, body)
    assert status == 400 and resp["__type"].endswith("TransactionCanceledException"), resp
    return [r["Code"] for r in resp["CancellationReasons"]]


def test_condition_checks_are_charged_as_transactional_writes(throttling):
    c = throttling.client()
    name = checked_table(c)

    def check(k):
        return {"ConditionCheck": {"TableName": name, "Key": {"pk": {"S": k}},
                                   "ConditionExpression": "attribute_exists(pk)"}}

    # 8 + 8 units: the second check finds 2 left.
    assert cancelled(throttling, "TransactWriteItems", {"TransactItems": [check("a"), check("b")]}) == [
        "None", "ProvisionedThroughputExceeded"]
    time.sleep(1.2)
    resp = c.transact_write_items(TransactItems=[check("a")], ReturnConsumedCapacity="TOTAL")
    assert resp["ConsumedCapacity"] == [{"TableName": name, "CapacityUnits": 8.0, "WriteCapacityUnits": 8.0}]
    # What that check consumed is gone: the next one is throttled.
    assert cancelled(throttling, "TransactWriteItems", {"TransactItems": [check("b")]}) == [
        "ProvisionedThroughputExceeded"]


def test_partiql_exists_is_charged_as_a_transactional_write(throttling):
    c = throttling.client()
    name = checked_table(c)

    def exists(k):
        return {"Statement": f"EXISTS(SELECT * FROM \"{name}\" WHERE pk = '{k}' AND \"blob\" IS NOT MISSING)"}

    assert cancelled(throttling, "ExecuteTransaction", {"TransactStatements": [exists("a"), exists("b")]}) == [
        "None", "ProvisionedThroughputExceeded"]
    time.sleep(1.2)
    c.execute_transaction(TransactStatements=[exists("a")])
    assert cancelled(throttling, "ExecuteTransaction", {"TransactStatements": [exists("b")]}) == [
        "ProvisionedThroughputExceeded"]


def test_transactional_puts_are_charged_at_double_rate(throttling):
    # A 4.5 KB put costs 5 units alone and 10 in a transaction: the put after the transaction finds
    # nothing left (at the single rate it would find 5).
    c = throttling.client()
    name = checked_table(c)
    item = {"pk": {"S": "c"}, "blob": {"S": "x" * 4500}}
    c.transact_write_items(TransactItems=[{"Put": {"TableName": name, "Item": item}}])
    with pytest.raises(ClientError) as e:
        c.put_item(TableName=name, Item={**item, "pk": {"S": "d"}})
    assert e.value.response["Error"]["Code"] == "ProvisionedThroughputExceededException"


def test_deleting_a_missing_item_is_charged_the_minimum(throttling):
    # DeleteItem reports 1 unit for a missing item; 1 WCU pays for one such delete a second.
    c = throttling.client()
    name = provisioned_table(c, 5, 1)
    with pytest.raises(ClientError) as e:
        for i in range(5):
            c.delete_item(TableName=name, Key={"pk": {"S": "ghost"}})
    assert e.value.response["Error"]["Code"] == "ProvisionedThroughputExceededException"


# --- ClientRequestToken replays: reported in read units, and charged as those reads ----------------
#
# A 4 RCU table on the `throttling` server: two 3 KB items cost 4 read units at the transactional
# rate a replay is charged at, all the partition holds; a second replay right after the first is
# throttled.

def test_transact_write_items_replays_are_charged_as_reads(throttling):
    c = throttling.client()
    name = provisioned_table(c, 4, 50)
    token = unique_name("replay")
    items = [{"Put": {"TableName": name, "Item": {"pk": {"S": k}, "blob": {"S": "x" * 3000}}}} for k in "ab"]
    first = c.transact_write_items(TransactItems=items, ClientRequestToken=token, ReturnConsumedCapacity="TOTAL")
    assert first["ConsumedCapacity"][0]["WriteCapacityUnits"] == 12.0
    replay = c.transact_write_items(TransactItems=items, ClientRequestToken=token, ReturnConsumedCapacity="TOTAL")
    assert replay["ConsumedCapacity"] == [{"TableName": name, "CapacityUnits": 4.0, "ReadCapacityUnits": 4.0}]
    with pytest.raises(ClientError) as e:
        for _ in range(5):
            c.transact_write_items(TransactItems=items, ClientRequestToken=token, ReturnConsumedCapacity="TOTAL")
    assert e.value.response["Error"]["Code"] == "ProvisionedThroughputExceededException"
    # Nothing was applied twice, and once the reads are paid for the replay answers again.
    time.sleep(1.2)
    c.transact_write_items(TransactItems=items, ClientRequestToken=token, ReturnConsumedCapacity="TOTAL")


def test_execute_transaction_replays_are_charged_as_reads(throttling):
    c = throttling.client()
    name = provisioned_table(c, 4, 50)
    token = unique_name("replay")
    statements = [{"Statement": f"INSERT INTO \"{name}\" VALUE {{'pk': '{k}', 'blob': ?}}",
                   "Parameters": [{"S": "x" * 3000}]} for k in "ab"]
    c.execute_transaction(TransactStatements=statements, ClientRequestToken=token)
    c.execute_transaction(TransactStatements=statements, ClientRequestToken=token)
    with pytest.raises(ClientError) as e:
        for _ in range(5):
            c.execute_transaction(TransactStatements=statements, ClientRequestToken=token)
    assert e.value.response["Error"]["Code"] == "ProvisionedThroughputExceededException"


# --- Optimistic retries: a write that loses a race and is retried is charged once -------------------

def heat(port, name):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", f"/monotable/heat?table={name}")
    resp = conn.getresponse()
    assert resp.status == 200
    return json.loads(resp.read())


def test_writes_retried_after_a_collision_are_charged_once(binary):
    # Many clients increment one ~40 KB item at once on 8 server threads, so commits collide and
    # are retried. The throughput model must hold what the responses report, no more.
    import threading
    from conftest import Server
    s = Server(binary, ["--in-memory", "--threads", "8"])
    try:
        c = s.client()
        name = unique_name()
        c.create_table(TableName=name, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                       AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                       BillingMode="PAY_PER_REQUEST")
        c.put_item(TableName=name, Item={"pk": {"S": "hot"}, "n": {"N": "0"}, "blob": {"S": "x" * 40000}})
        reported, requests, errors = [], [], []

        def worker():
            client = s.client()
            for _ in range(40):
                try:
                    resp = client.update_item(TableName=name, Key={"pk": {"S": "hot"}}, UpdateExpression="ADD n :one",
                                              ExpressionAttributeValues={":one": {"N": "1"}},
                                              ReturnConsumedCapacity="TOTAL")
                    reported.append(resp["ConsumedCapacity"]["CapacityUnits"])
                except Exception as e:  # noqa: BLE001 - reported below
                    errors.append(e)

        threads = [threading.Thread(target=worker) for _ in range(12)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, errors[:3]
        item = c.get_item(TableName=name, Key={"pk": {"S": "hot"}}, ConsistentRead=True)["Item"]
        assert item["n"] == {"N": str(len(reported))}
        partitions = heat(s.port, name)["table"]["partitions"]
        assert sum(p["writes"] for p in partitions) == len(reported) + 1  # and the first put
        assert sum(p["writeUnits"] for p in partitions) == pytest.approx(sum(reported) + 40, abs=0.01)
    finally:
        s.stop()


# --- Failed conditional writes consume write capacity (developer guide, "Conditional writes") ------
#
# AWS charges a write whose condition fails as a write of the larger of the existing item and the
# item it tried to write, a missing item at the minimum. On the `throttling` server a 5 WCU table
# holds at most 5 units; each test spends them with a failed write, then the next 1-unit write
# (which needs 200 ms of refill) is throttled. Uncharged, it would pass.

def charged_in_full(make_table, failed_write, put):
    """On a table `make_table()` returns with its write bucket full, `failed_write(name)` (a write
    whose condition fails) leaves too few units for `put(name)` right after it: the put is
    throttled. When the machine took 200 ms or more between the two (the refill the put would need),
    the scenario runs again on a new table; a put that gets through sooner means the failed write
    was not charged in full."""
    for _ in range(3):
        name = make_table()
        started = time.monotonic()
        failed_write(name)
        try:
            put(name)
        except ClientError as e:
            return e.response["Error"]["Code"] == "ProvisionedThroughputExceededException"
        if time.monotonic() - started < 0.2:
            return False
    return False


def small_put(c):
    return lambda name: c.put_item(TableName=name, Item={"pk": {"S": "b"}})


def full_table(c, items=()):
    name = provisioned_table(c, 5, 5)
    for item in items:
        c.put_item(TableName=name, Item=item)
    time.sleep(1.2)  # the write bucket is full again
    return name


def condition_failed(fn):
    with pytest.raises(ClientError) as e:
        fn()
    assert e.value.response["Error"]["Code"] == "ConditionalCheckFailedException"
    return e.value.response


def test_failed_conditional_put_is_charged_for_the_larger_item(throttling):
    c = throttling.client()

    def failed_put(name):
        # The item found is tiny; the 4.5 KB one the put tried to write costs 5 units.
        body = {"TableName": name, "Item": {"pk": {"S": "a"}, "blob": {"S": "x" * 4500}},
                "ConditionExpression": "attribute_not_exists(pk)", "ReturnConsumedCapacity": "TOTAL"}
        status, resp, _ = call(throttling.port, "PutItem", body)
        assert status == 400 and resp["__type"].endswith("ConditionalCheckFailedException"), resp
        # AWS's error shape carries no ConsumedCapacity (message and Item only): none is reported.
        assert "ConsumedCapacity" not in resp

    assert charged_in_full(lambda: full_table(c, [{"pk": {"S": "a"}}]), failed_put, small_put(c))


def test_failed_conditional_delete_is_charged_for_the_existing_item(throttling):
    c = throttling.client()
    assert charged_in_full(lambda: full_table(c, [{"pk": {"S": "a"}, "blob": {"S": "x" * 4500}}]),
                           lambda name: condition_failed(lambda: c.delete_item(
                               TableName=name, Key={"pk": {"S": "a"}}, ConditionExpression="attribute_not_exists(pk)")),
                           small_put(c))


def test_failed_conditional_update_is_charged_for_the_existing_item(throttling):
    c = throttling.client()
    assert charged_in_full(lambda: full_table(c, [{"pk": {"S": "a"}, "blob": {"S": "x" * 4500}, "v": {"N": "1"}}]),
                           lambda name: condition_failed(lambda: c.update_item(
                               TableName=name, Key={"pk": {"S": "a"}}, UpdateExpression="SET v = :two",
                               ConditionExpression="v = :two", ExpressionAttributeValues={":two": {"N": "2"}})),
                           small_put(c))


def test_failed_legacy_expected_update_is_charged_for_the_item_it_would_write(throttling):
    c = throttling.client()
    # No item: the update would have created a 4.5 KB one.
    assert charged_in_full(lambda: full_table(c), lambda name: condition_failed(lambda: c.update_item(
        TableName=name, Key={"pk": {"S": "a"}}, AttributeUpdates={"blob": {"Action": "PUT", "Value": {"S": "x" * 4500}}},
        Expected={"pk": {"Exists": True, "Value": {"S": "a"}}})), small_put(c))


def test_failed_conditions_on_a_missing_item_cost_the_minimum_and_throttle(throttling):
    # 1 unit each on a 1 WCU table: a burst of them is throttled instead of failing its condition.
    c = throttling.client()
    name = provisioned_table(c, 5, 1)
    time.sleep(1.2)
    codes = []
    for _ in range(5):
        try:
            c.delete_item(TableName=name, Key={"pk": {"S": "ghost"}}, ConditionExpression="attribute_exists(pk)")
        except ClientError as e:
            codes.append(e.response["Error"]["Code"])
    assert codes[0] == "ConditionalCheckFailedException"
    assert "ProvisionedThroughputExceededException" in codes


def test_failed_transaction_condition_is_charged_at_the_transactional_rate(throttling):
    # The failed put finds a 4 KB item: 8 units of the 10 the table holds; a 4 KB put then finds 2.
    c = throttling.client()

    def failed_transaction(name):
        put = {"Put": {"TableName": name, "Item": {"pk": {"S": "a"}}, "ConditionExpression": "attribute_not_exists(pk)"}}
        assert cancelled(throttling, "TransactWriteItems", {"TransactItems": [put]}) == ["ConditionalCheckFailed"]

    assert charged_in_full(lambda: checked_table(c), failed_transaction,
                           lambda name: c.put_item(TableName=name, Item={"pk": {"S": "c"}, "blob": {"S": "x" * 4000}}))
