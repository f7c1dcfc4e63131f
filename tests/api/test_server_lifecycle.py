"""Server operations: graceful SIGTERM, the health check, stuck clients."""
import signal
import socket
import threading
import time

from conftest import create_pk_table, unique_name


def test_sigterm_finishes_in_flight_requests_and_keeps_data(start_server, tmp_path):
    data = str(tmp_path / "db")
    s = start_server("--data", data)
    c = s.client()
    name = unique_name()
    c.create_table(TableName=name, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                   AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}], BillingMode="PAY_PER_REQUEST")
    acknowledged, failures = [], []
    stop = threading.Event()

    def writer(n):
        w = s.client()
        i = 0
        while not stop.is_set():
            try:
                w.put_item(TableName=name, Item={"pk": {"S": f"{n}-{i}"}})
                acknowledged.append(f"{n}-{i}")
            except Exception as e:  # connection refused / closed after the shutdown: fine
                failures.append(e)
                return
            i += 1

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    time.sleep(0.5)
    idle = socket.create_connection(("127.0.0.1", s.port))  # an idle keep-alive client
    t0 = time.time()
    s.proc.send_signal(signal.SIGTERM)
    assert s.proc.wait(timeout=15) == 0
    assert time.time() - t0 < 9, "an idle connection held the shutdown until the grace period ran out"
    stop.set()
    for t in threads:
        t.join()
    idle.close()
    c2 = start_server("--data", data).client()
    for key in acknowledged:
        assert "Item" in c2.get_item(TableName=name, Key={"pk": {"S": key}}), key


def test_health_check(server):
    s = socket.create_connection(("127.0.0.1", server.port))
    s.sendall(b"GET / HTTP/1.1\r\nHost: dynamodb.us-east-1.amazonaws.com\r\n\r\n")
    reply = s.recv(4096)
    s.close()
    assert reply.startswith(b"HTTP/1.1 200")
    assert b"healthy: dynamodb.us-east-1.amazonaws.com " in reply


def test_stuck_client_does_not_block_others(server, ddb):
    stuck = socket.create_connection(("127.0.0.1", server.port))
    stuck.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")  # never finishes
    t0 = time.time()
    ddb.list_tables()
    assert time.time() - t0 < 2
    stuck.close()


def test_metrics_endpoint_counts_requests_errors_and_latency(server, ddb, hash_table):
    import http.client
    import re

    def scrape():
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("GET", "/metrics")
        resp = conn.getresponse()
        assert resp.status == 200
        return resp.read().decode()

    def value(text, pattern):
        m = re.search(pattern + r" (\d+)", text)
        return int(m.group(1)) if m else 0

    before = scrape()
    for _ in range(3):
        ddb.get_item(TableName=hash_table, Key={"pk": {"S": "x"}})
    try:
        ddb.get_item(TableName=hash_table, Key={"nope": {"S": "x"}})
    except Exception:
        pass
    after = scrape()
    assert value(after, r'monotable_requests_total\{operation="GetItem"\}') - \
        value(before, r'monotable_requests_total\{operation="GetItem"\}') == 4
    assert value(after, r'monotable_errors_total\{operation="GetItem",kind="client"\}') - \
        value(before, r'monotable_errors_total\{operation="GetItem",kind="client"\}') == 1
    assert value(after, r'monotable_request_duration_seconds_count\{operation="GetItem"\}') >= 4
    assert 'monotable_request_duration_seconds_bucket{operation="GetItem",le="+Inf"}' in after


def test_tls_listener_serves_boto3(binary, tmp_path):
    import subprocess as sp
    import boto3
    import botocore.config
    from conftest import Server
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    sp.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
            "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
           check=True, capture_output=True)
    s = Server(binary, ["--in-memory", "--tls-port", "0", "--tls-cert", str(cert), "--tls-key", str(key)])
    try:
        import re
        m = re.search(r" tls (\d+)", s.first_line)
        assert m, s.first_line
        tls_port = int(m.group(1))
        c = boto3.client("dynamodb", endpoint_url=f"https://127.0.0.1:{tls_port}", region_name="us-east-1",
                         aws_access_key_id="a", aws_secret_access_key="b", verify=str(cert),
                         config=botocore.config.Config(retries={"max_attempts": 1}))
        c.create_table(TableName="secure", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                       AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                       BillingMode="PAY_PER_REQUEST")
        c.put_item(TableName="secure", Item={"pk": {"S": "a"}})
        assert c.get_item(TableName="secure", Key={"pk": {"S": "a"}})["Item"] == {"pk": {"S": "a"}}
        # The plain listener serves the same database.
        assert "secure" in s.client().list_tables()["TableNames"]
    finally:
        s.stop()


def test_worker_threads_answer_heavy_requests_and_drain_on_sigterm(start_server, tmp_path):
    # Query, Scan and the batches run on worker threads, the rest on the I/O thread: answers stay
    # correct and in order per connection, and SIGTERM still waits for requests on the workers.
    s = start_server("--data", str(tmp_path / "db"), "--threads", "1", "--workers", "2")
    c = s.client()
    name = create_pk_table(c, range_type="N")
    for p in range(8):
        c.batch_write_item(RequestItems={name: [
            {"PutRequest": {"Item": {"pk": {"S": f"p{p}"}, "sk": {"N": str(i)}}}} for i in range(25)]})
    errors, answered = [], [0]
    stop = threading.Event()

    def reader(n):
        r = s.client()
        while not stop.is_set():
            try:
                p = f"p{n % 8}"
                items = r.query(TableName=name, KeyConditionExpression="pk = :p",
                                ExpressionAttributeValues={":p": {"S": p}})["Items"]
                assert [int(i["sk"]["N"]) for i in items] == list(range(25))
                assert all(i["pk"]["S"] == p for i in items)
                got = r.get_item(TableName=name, Key={"pk": {"S": p}, "sk": {"N": "3"}})["Item"]
                assert got["sk"]["N"] == "3"
                assert r.scan(TableName=name, Limit=30)["Count"] == 30
                answered[0] += 1
            except AssertionError as e:
                errors.append(e)
                return
            except Exception:  # connection refused or closed once the server drains
                return

    threads = [threading.Thread(target=reader, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    time.sleep(1.0)
    s.proc.send_signal(signal.SIGTERM)
    assert s.proc.wait(timeout=15) == 0
    stop.set()
    for t in threads:
        t.join()
    assert not errors, errors[0]
    assert answered[0] > 0


def test_queries_switch_between_io_thread_and_workers(start_server, tmp_path):
    # A connection's Query runs on its I/O thread after a quick one and on a worker after a slow one
    # (api/query_placement.h): small and large queries alternating on one connection, with writes
    # between them, are each answered whole and current.
    s = start_server("--data", str(tmp_path / "db"), "--threads", "1", "--workers", "2")
    c = s.client()
    name = create_pk_table(c, range_type="N")
    blob = "x" * 3000
    for start in range(0, 400, 25):  # ~1.2 MB in one partition: a page stops at 1 MB
        c.batch_write_item(RequestItems={name: [
            {"PutRequest": {"Item": {"pk": {"S": "big"}, "sk": {"N": str(i)}, "blob": {"S": blob}}}}
            for i in range(start, start + 25)]})
    for i in range(5):
        c.put_item(TableName=name, Item={"pk": {"S": "small"}, "sk": {"N": str(i)}, "v": {"N": "0"}})

    def query(pk, **kw):
        return c.query(TableName=name, KeyConditionExpression="pk = :p",
                       ExpressionAttributeValues={":p": {"S": pk}}, **kw)

    for round_ in range(1, 7):
        for _ in range(3):
            small = query("small")["Items"]
            assert [(int(i["sk"]["N"]), int(i["v"]["N"])) for i in small] == [(k, round_ - 1) for k in range(5)]
        first = query("big")
        assert first["LastEvaluatedKey"] == {"pk": {"S": "big"}, "sk": {"N": str(first["Count"] - 1)}}
        rest = query("big", ExclusiveStartKey=first["LastEvaluatedKey"])
        assert "LastEvaluatedKey" not in rest
        sks = [int(i["sk"]["N"]) for i in first["Items"] + rest["Items"]]
        assert sks == list(range(400)) and all(i["blob"]["S"] == blob for i in first["Items"] + rest["Items"])
        for i in range(5):
            c.update_item(TableName=name, Key={"pk": {"S": "small"}, "sk": {"N": str(i)}},
                          UpdateExpression="SET v = :v", ExpressionAttributeValues={":v": {"N": str(round_)}})
    s.stop()
