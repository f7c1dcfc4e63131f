"""Data under --data survives a clean restart and a kill -9 (with --sync nothing acknowledged is lost)."""
import signal
import time

from conftest import unique_name


def make_table(client):
    name = unique_name()
    client.create_table(TableName=name,
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                   {"AttributeName": "sk", "KeyType": "RANGE"}],
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                              {"AttributeName": "sk", "AttributeType": "N"}],
                        BillingMode="PAY_PER_REQUEST", Tags=[{"Key": "team", "Value": "core"}])
    return name


def item(i):
    return {"pk": {"S": f"USER#{i % 7}"}, "sk": {"N": str(i)},
            "big": {"N": "-1234567890123456789012345678901234567.8"},
            "bin": {"B": bytes([i % 256, 0, 255])}, "doc": {"M": {"tags": {"SS": ["a", f"t{i}"]}}}}


def key(i):
    return {"pk": {"S": f"USER#{i % 7}"}, "sk": {"N": str(i)}}


def start_with_table(start_server, tmp_path, *args):
    """A server on a fresh data directory with one new table: (data, server, client, table name)."""
    data = str(tmp_path / "db")
    s = start_server("--data", data, *args)
    c = s.client()
    return data, s, c, make_table(c)


def test_restart_keeps_tables_items_and_statistics(start_server, tmp_path):
    # A clean stop saves the tables' statistics and the next start takes them without walking the
    # items; that start also discards them, so writes after it and a kill -9 still count right.
    data, s, c, name = start_with_table(start_server, tmp_path)
    other = make_table(c)
    for i in range(50):
        c.put_item(TableName=name, Item=item(i))
    c.delete_item(TableName=name, Key=key(3))
    c.put_item(TableName=other, Item=item(1))
    created = c.describe_table(TableName=name)["Table"]
    s.stop()

    s2 = start_server("--data", data)
    c2 = s2.client()
    table = c2.describe_table(TableName=name)["Table"]
    assert table["TableId"] == created["TableId"]
    assert table["CreationDateTime"] == created["CreationDateTime"]
    assert table["ItemCount"] == 49
    assert table["TableSizeBytes"] == created["TableSizeBytes"]
    assert c2.describe_table(TableName=other)["Table"]["ItemCount"] == 1
    for i in range(50):
        got = c2.get_item(TableName=name, Key=key(i)).get("Item")
        if i == 3:
            assert got is None
        else:
            assert got == {**item(i), "big": {"N": "-1234567890123456789012345678901234567.8"}}

    for i in range(50, 60):
        c2.put_item(TableName=name, Item=item(i))
    for i in range(5):
        c2.delete_item(TableName=name, Key=key(i))
    c2.delete_item(TableName=other, Key=key(1))
    after = c2.describe_table(TableName=name)["Table"]
    assert after["ItemCount"] == 55
    s2.kill(signal.SIGKILL)

    c3 = start_server("--data", data).client()
    table = c3.describe_table(TableName=name)["Table"]
    assert (table["ItemCount"], table["TableSizeBytes"]) == (55, after["TableSizeBytes"])
    assert c3.describe_table(TableName=other)["Table"]["ItemCount"] == 0


def test_kill_9_with_sync_loses_nothing_acknowledged(start_server, tmp_path):
    data, s, c, name = start_with_table(start_server, tmp_path, "--sync")
    acknowledged = []
    for i in range(200):
        c.put_item(TableName=name, Item=item(i))
        acknowledged.append(i)
    s.kill(signal.SIGKILL)

    s2 = start_server("--data", data, "--sync")
    c2 = s2.client()
    for i in acknowledged:
        assert c2.get_item(TableName=name, Key=key(i), ConsistentRead=True)["Item"] == item(i)
    assert c2.describe_table(TableName=name)["Table"]["ItemCount"] == 200


def test_kill_9_without_sync_reopens_consistent(start_server, tmp_path):
    # Without --sync a process crash (not a power loss) keeps what the OS already has: RocksDB's
    # WAL is written before the acknowledgement, only its fsync is skipped.
    data, s, c, name = start_with_table(start_server, tmp_path)
    for i in range(100):
        c.put_item(TableName=name, Item=item(i))
    s.kill(signal.SIGKILL)
    c2 = start_server("--data", data).client()
    assert c2.describe_table(TableName=name)["Table"]["ItemCount"] == 100
    assert c2.get_item(TableName=name, Key=key(99))["Item"] == item(99)


def test_kill_9_restart_counts_a_large_table_in_the_background(start_server, tmp_path):
    # After a crash nothing saved the statistics: the start walks the first 20,000 items itself and
    # the rest in the background, so ItemCount grows to the exact figure after the start (AWS too
    # updates it behind the writes), while writes during the walk count as well.
    data, s, c, name = start_with_table(start_server, tmp_path)
    total = 26_000
    for start in range(0, total, 25):
        c.batch_write_item(RequestItems={name: [{"PutRequest": {"Item": {"pk": {"S": f"P{i % 100}"},
                                                                        "sk": {"N": str(i)}}}}
                                                for i in range(start, start + 25)]})
    size = c.describe_table(TableName=name)["Table"]["TableSizeBytes"]
    s.kill(signal.SIGKILL)

    c2 = start_server("--data", data).client()
    c2.delete_item(TableName=name, Key={"pk": {"S": "P1"}, "sk": {"N": "1"}})
    c2.put_item(TableName=name, Item={"pk": {"S": "new"}, "sk": {"N": "1"}})
    seen = []
    deadline = time.time() + 30
    while time.time() < deadline:
        table = c2.describe_table(TableName=name)["Table"]
        seen.append(table["ItemCount"])
        if table["ItemCount"] == total:
            break
        time.sleep(0.02)
    assert seen[-1] == total, seen
    assert all(0 <= n <= total for n in seen), seen
    # One item (pk P1, sk 1) deleted and one put (pk new, sk 1) during the walk: one byte more.
    assert table["TableSizeBytes"] == size + len("new") - len("P1")


def test_deleted_table_stays_deleted_after_restart(start_server, tmp_path):
    data, s, c, name = start_with_table(start_server, tmp_path)
    c.put_item(TableName=name, Item=item(1))
    c.delete_table(TableName=name)
    s.stop()
    c2 = start_server("--data", data).client()
    assert name not in c2.list_tables()["TableNames"]
    name2 = make_table(c2)
    assert c2.describe_table(TableName=name2)["Table"]["ItemCount"] == 0
