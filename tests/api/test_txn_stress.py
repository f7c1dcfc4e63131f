"""Transactions under concurrency: random transfers with TransactWriteItems (balance conditions),
readers summing every account with TransactGetItems, then a kill -9 and restart of a --sync
RocksDB server. Bounded in time (a few seconds)."""
import random
import signal
import threading
import time
import uuid

from botocore.exceptions import ClientError

ACCOUNTS = 20
START_BALANCE = 1000
RUN_SECONDS = 4


def make_tables(c):
    for name, key in (("accounts", "id"), ("ledger", "tx")):
        c.create_table(TableName=name, KeySchema=[{"AttributeName": key, "KeyType": "HASH"}],
                       AttributeDefinitions=[{"AttributeName": key, "AttributeType": "S"}],
                       BillingMode="PAY_PER_REQUEST")
    for i in range(ACCOUNTS):
        c.put_item(TableName="accounts", Item={"id": {"S": f"acct{i}"}, "balance": {"N": str(START_BALANCE)}})


def transfer(c, src, dst, amount):
    tx = uuid.uuid4().hex
    c.transact_write_items(TransactItems=[
        {"Update": {"TableName": "accounts", "Key": {"id": {"S": src}},
                    "UpdateExpression": "SET balance = balance - :a", "ConditionExpression": "balance >= :a",
                    "ExpressionAttributeValues": {":a": {"N": str(amount)}}}},
        {"Update": {"TableName": "accounts", "Key": {"id": {"S": dst}},
                    "UpdateExpression": "SET balance = balance + :a",
                    "ExpressionAttributeValues": {":a": {"N": str(amount)}}}},
        {"Put": {"TableName": "ledger", "Item": {"tx": {"S": tx}, "src": {"S": src}, "dst": {"S": dst},
                                                  "amount": {"N": str(amount)}},
                 "ConditionExpression": "attribute_not_exists(tx)"}},
    ])
    return tx


def read_total(c):
    resp = c.transact_get_items(TransactItems=[
        {"Get": {"TableName": "accounts", "Key": {"id": {"S": f"acct{i}"}}}} for i in range(ACCOUNTS)])
    return sum(int(r["Item"]["balance"]["N"]) for r in resp["Responses"])


def run_load(server, acknowledged, totals, errors, stop):
    def writer(seed):
        rng = random.Random(seed)
        c = server.client()
        while not stop.is_set():
            a, b = rng.sample(range(ACCOUNTS), 2)
            try:
                acknowledged.append(transfer(c, f"acct{a}", f"acct{b}", rng.randint(1, 300)))
            except ClientError as e:
                if e.response["Error"]["Code"] not in ("TransactionCanceledException",
                                                       "TransactionConflictException"):
                    errors.append(repr(e))
            except Exception:  # the server was killed under us
                return

    def reader():
        c = server.client()
        while not stop.is_set():
            try:
                totals.append(read_total(c))
            except Exception:
                return

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(6)] + \
              [threading.Thread(target=reader) for _ in range(2)]
    for t in threads:
        t.start()
    return threads


def check_consistent(c, acknowledged):
    balances = {}
    for i in range(ACCOUNTS):
        balances[f"acct{i}"] = int(c.get_item(TableName="accounts", Key={"id": {"S": f"acct{i}"}},
                                              ConsistentRead=True)["Item"]["balance"]["N"])
    assert sum(balances.values()) == ACCOUNTS * START_BALANCE
    assert min(balances.values()) >= 0
    expected = {k: START_BALANCE for k in balances}
    ledger = {}
    start = None
    while True:
        resp = c.scan(TableName="ledger", **({"ExclusiveStartKey": start} if start else {}))
        for item in resp["Items"]:
            ledger[item["tx"]["S"]] = item
        start = resp.get("LastEvaluatedKey")
        if not start:
            break
    for item in ledger.values():
        expected[item["src"]["S"]] -= int(item["amount"]["N"])
        expected[item["dst"]["S"]] += int(item["amount"]["N"])
    assert expected == balances, "balances disagree with the committed ledger"
    missing = [tx for tx in acknowledged if tx not in ledger]
    assert not missing, f"{len(missing)} acknowledged transfers lost"
    return len(ledger)


def test_transfers_keep_the_total_and_survive_kill_9(start_server, tmp_path):
    data = str(tmp_path / "db")
    server = start_server("--data", data, "--sync")
    make_tables(server.client())
    acknowledged, totals, errors = [], [], []
    stop = threading.Event()
    threads = run_load(server, acknowledged, totals, errors, stop)
    time.sleep(RUN_SECONDS)
    # Kill while transfers are in flight; only what was acknowledged must survive.
    server.kill(signal.SIGKILL)
    stop.set()
    for t in threads:
        t.join(timeout=30)
    assert not errors, errors[:3]
    assert len(acknowledged) > 50, "the load did not run"
    assert totals and all(t == ACCOUNTS * START_BALANCE for t in totals), \
        f"a TransactGetItems saw a broken total: {sorted(set(totals))[:5]}"

    restarted = start_server("--data", data, "--sync")
    committed = check_consistent(restarted.client(), acknowledged)
    assert committed >= len(acknowledged)

    # And the restarted server keeps working transactionally.
    acknowledged2, totals2, errors2 = [], [], []
    stop2 = threading.Event()
    threads = run_load(restarted, acknowledged2, totals2, errors2, stop2)
    time.sleep(1.5)
    stop2.set()
    for t in threads:
        t.join(timeout=30)
    assert not errors2, errors2[:3]
    assert totals2 and all(t == ACCOUNTS * START_BALANCE for t in totals2)
    check_consistent(restarted.client(), acknowledged + acknowledged2)
