"""Stream triggers (monotable serve --triggers FILE): users' stream handlers run as Lambda runs them.

Handlers here are real processes: Python and Node Lambda handlers run through the one-line shims
of docs/triggers.md; an HTTP endpoint is a tiny http.server in the test, or a Node Lambda handler
behind node:http. Each test starts its own server with its own triggers file.
"""
import http.server
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from conftest import ROOT, unique_name

PY_SHIM = ("import json,runpy,sys;f=runpy.run_path(sys.argv[1])[sys.argv[2]];o=sys.stdout;sys.stdout=sys.stderr;"
           "c=type('Context',(),{'function_name':sys.argv[2],'aws_request_id':'local',"
           "'get_remaining_time_in_millis':lambda s:60000})();r=f(json.load(sys.stdin),c);o.write(json.dumps(r))")
NODE_SHIM = ('const p=require("path").resolve(process.argv[1]);let d="";process.stdin.on("data",c=>d+=c)'
             '.on("end",async()=>{const m=await import(require("url").pathToFileURL(p));console.log=console.error;'
             'const r=await m[process.argv[2]](JSON.parse(d),{functionName:process.argv[2],awsRequestId:"local",'
             'getRemainingTimeInMillis:()=>60000});process.stdout.write(JSON.stringify(r===undefined?null:r))})')

# A Lambda handler that logs every event to EVENTS_FILE (one JSON line per batch) and fails the
# whole batch (raises) while it holds a record whose pk is in POISON.
RECORDING_HANDLER = '''
import json, os
def handler(event, context):
    with open(os.environ["EVENTS_FILE"], "a") as f:
        f.write(json.dumps(event) + "\\n")
    poison = os.environ.get("POISON", "")
    if poison and any(r["dynamodb"]["Keys"]["pk"]["S"] == poison for r in event["Records"]):
        raise RuntimeError("poison record")
    return None
'''


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return str(path)


def triggers_file(tmp_path, *triggers):
    return write(tmp_path / "triggers.json", json.dumps({"Triggers": list(triggers)}))


def python_handler(tmp_path, source=RECORDING_HANDLER, name="handler.py"):
    path = write(tmp_path / name, source)
    # A shell wrapper passes the test's environment variables; the command itself is the shim.
    return [sys.executable, "-c", PY_SHIM, path, "handler"]


def create_stream_table(ddb, view="NEW_AND_OLD_IMAGES", name=None):
    name = name or unique_name("trg")
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     StreamSpecification={"StreamEnabled": True, "StreamViewType": view})
    return name


def read_events(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def batches_keys(events):
    return [[r["dynamodb"]["Keys"]["pk"]["S"] for r in e["Records"]] for e in events]


def wait_for(predicate, timeout=20.0, what="condition"):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def metrics(server):
    with urllib.request.urlopen(server.endpoint + "/metrics") as r:
        return r.read().decode()


def metric(server, name, trigger):
    for line in metrics(server).splitlines():
        if line.startswith(name + "{") and f'trigger="{trigger}"' in line:
            return float(line.rsplit(" ", 1)[1])
    return None


@pytest.fixture
def events_env(tmp_path, monkeypatch):
    path = str(tmp_path / "events.jsonl")
    monkeypatch.setenv("EVENTS_FILE", path)  # inherited by the server, then by its handlers
    monkeypatch.delenv("POISON", raising=False)
    return path


def test_python_command_handler_gets_the_lambda_event(tmp_path, events_env, start_server):
    name = unique_name("trg")
    tf = triggers_file(tmp_path, {"Name": "rec", "Table": name, "Command": python_handler(tmp_path),
                                  "StartingPosition": "TRIM_HORIZON", "BatchSize": 10})
    server = start_server("--in-memory", "--triggers", tf)
    ddb = server.client()
    create_stream_table(ddb, name=name)
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "n": {"N": "1"}})
    ddb.update_item(TableName=name, Key={"pk": {"S": "a"}}, UpdateExpression="SET n = :n",
                    ExpressionAttributeValues={":n": {"N": "2"}})
    ddb.delete_item(TableName=name, Key={"pk": {"S": "a"}})
    records = wait_for(lambda: [r for e in read_events(events_env) for r in e["Records"]] if sum(
        len(e["Records"]) for e in read_events(events_env)) >= 3 else None, what="3 records")
    assert [r["eventName"] for r in records] == ["INSERT", "MODIFY", "REMOVE"]
    arn = ddb.describe_table(TableName=name)["Table"]["LatestStreamArn"]
    # The same records GetRecords returns, in Lambda's shape.
    streams = server.client("dynamodbstreams")
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
    it = streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    got = streams.get_records(ShardIterator=it)["Records"]
    for r, g in zip(records, got):
        assert set(r) == {"eventID", "eventName", "eventVersion", "eventSource", "awsRegion", "dynamodb",
                          "eventSourceARN"}
        assert r["eventID"] == g["eventID"]
        assert r["eventVersion"] == "1.1" and r["eventSource"] == "aws:dynamodb" and r["awsRegion"] == "us-east-1"
        assert r["eventSourceARN"] == arn
        d = r["dynamodb"]
        assert d["SequenceNumber"] == g["dynamodb"]["SequenceNumber"]
        assert isinstance(d["ApproximateCreationDateTime"], (int, float))
        assert abs(d["ApproximateCreationDateTime"] - time.time()) < 120
        assert d["Keys"] == {"pk": {"S": "a"}}
        assert d["StreamViewType"] == "NEW_AND_OLD_IMAGES"
        assert d["SizeBytes"] == g["dynamodb"]["SizeBytes"]
    assert records[0]["dynamodb"]["NewImage"] == {"pk": {"S": "a"}, "n": {"N": "1"}}
    assert "OldImage" not in records[0]["dynamodb"]
    assert records[1]["dynamodb"]["OldImage"]["n"] == {"N": "1"}
    assert records[1]["dynamodb"]["NewImage"]["n"] == {"N": "2"}
    assert "NewImage" not in records[2]["dynamodb"]
    # Sequence numbers increase across batches (per-shard order).
    seqs = [int(r["dynamodb"]["SequenceNumber"]) for r in records]
    assert seqs == sorted(seqs)


class Hook(http.server.BaseHTTPRequestHandler):
    events = []
    answer = None  # callable(event) -> (status, body)

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        event = json.loads(body)
        Hook.events.append(event)
        status, answer = Hook.answer(event) if Hook.answer else (200, b"")
        self.send_response(status)
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


@pytest.fixture
def hook():
    Hook.events = []
    Hook.answer = None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hook)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/invoke"
    httpd.shutdown()


def test_http_handler_with_filters(tmp_path, start_server, hook):
    name = unique_name("trg")
    pattern = {"dynamodb": {"NewImage": {"type": {"S": ["book"]},
                                         "pk": {"S": [{"prefix": "BOOK#"}]},
                                         "price": {"N": [{"anything-but": ["0"]}]}}}}
    tf = triggers_file(tmp_path, {"Name": "books", "Table": name, "Url": hook, "StartingPosition": "LATEST",
                                  "FilterCriteria": {"Filters": [{"Pattern": json.dumps(pattern)},
                                                                 {"Pattern": json.dumps({"eventName": ["REMOVE"]})}]}})
    server = start_server("--in-memory", "--triggers", tf)
    ddb = server.client()
    create_stream_table(ddb, name=name)
    wait_for(lambda: metric(server, "monotable_trigger_lag_records", "books") == 0, what="trigger running")
    items = [("BOOK#1", "book", "10"), ("AUTHOR#1", "book", "10"), ("BOOK#2", "author", "10"),
             ("BOOK#3", "book", "0"), ("BOOK#4", "book", "12")]
    for pk, ty, price in items:
        ddb.put_item(TableName=name, Item={"pk": {"S": pk}, "type": {"S": ty}, "price": {"N": price}})
    ddb.delete_item(TableName=name, Key={"pk": {"S": "AUTHOR#1"}})
    wait_for(lambda: sum(len(e["Records"]) for e in Hook.events) >= 3, what="3 matching records")
    time.sleep(0.3)
    keys = [k for b in batches_keys(Hook.events) for k in b]
    assert keys == ["BOOK#1", "BOOK#4", "AUTHOR#1"]
    assert [r["eventName"] for e in Hook.events for r in e["Records"]] == ["INSERT", "INSERT", "REMOVE"]
    assert metric(server, "monotable_trigger_records_filtered_total", "books") == 3
    assert metric(server, "monotable_trigger_records_delivered_total", "books") == 3


def test_http_handler_partial_batch_response_and_errors(tmp_path, start_server, hook):
    name = unique_name("trg")
    tf = triggers_file(tmp_path, {"Name": "partial", "Table": name, "Url": hook, "StartingPosition": "TRIM_HORIZON",
                                  "BatchSize": 5, "MaximumBatchingWindowInSeconds": 1,
                                  "FunctionResponseTypes": ["ReportBatchItemFailures"]})
    calls = {"n": 0}

    def answer(event):
        calls["n"] += 1
        if calls["n"] == 1:  # the first batch: c failed
            seq = [r["dynamodb"]["SequenceNumber"] for r in event["Records"] if r["dynamodb"]["Keys"]["pk"]["S"] == "c"]
            return 200, json.dumps({"batchItemFailures": [{"itemIdentifier": seq[0]}]}).encode()
        if calls["n"] == 2:
            return 500, b"oops"
        return 200, b'{"batchItemFailures": []}'
    Hook.answer = answer
    server = start_server("--in-memory", "--triggers", tf)
    ddb = server.client()
    create_stream_table(ddb, name=name)
    for k in "abcde":
        ddb.put_item(TableName=name, Item={"pk": {"S": k}})
    wait_for(lambda: metric(server, "monotable_trigger_records_delivered_total", "partial") == 5, what="delivery")
    # The batching window gathered all five; c..e were retried (once after a 500) from c.
    assert batches_keys(Hook.events) == [list("abcde"), list("cde"), list("cde")]
    assert metric(server, "monotable_trigger_invocation_errors_total", "partial") == 2


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_node_command_handler(tmp_path, events_env, start_server):
    name = unique_name("trg")
    handler = write(tmp_path / "handler.mjs", """
import { appendFileSync } from "node:fs";
export const handler = async (event, context) => {
  appendFileSync(process.env.EVENTS_FILE, JSON.stringify({fn: context.functionName, ...event}) + "\\n");
  console.log("handled", event.Records.length);  // goes to stderr through the shim
  return { batchItemFailures: [] };
};
""")
    tf = triggers_file(tmp_path, {"Name": "node", "Table": name, "Command": ["node", "-e", NODE_SHIM, handler, "handler"],
                                  "StartingPosition": "TRIM_HORIZON",
                                  "FunctionResponseTypes": ["ReportBatchItemFailures"]})
    server = start_server("--in-memory", "--triggers", tf)
    ddb = server.client()
    create_stream_table(ddb, view="KEYS_ONLY", name=name)
    for k in ("x", "y"):
        ddb.put_item(TableName=name, Item={"pk": {"S": k}, "v": {"S": "1"}})
    wait_for(lambda: metric(server, "monotable_trigger_records_delivered_total", "node") == 2, what="delivery")
    events = read_events(events_env)
    assert [k for b in batches_keys(events) for k in b] == ["x", "y"]
    assert events[0]["fn"] == "handler"
    assert "NewImage" not in events[0]["Records"][0]["dynamodb"]  # KEYS_ONLY
    assert metric(server, "monotable_trigger_invocation_errors_total", "node") == 0


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_node_http_endpoint_handler(tmp_path, events_env, start_server):
    """A Node Lambda handler behind a loopback HTTP server (the Url form): it gets the POSTed event
    and its partial batch response retries from the record it reports."""
    name = unique_name("trg")
    server_js = write(tmp_path / "server.mjs", """
import { appendFileSync } from "node:fs";
import { createServer } from "node:http";
const seen = new Set();
export const handler = async (event) => {
  appendFileSync(process.env.EVENTS_FILE, JSON.stringify(event) + "\\n");
  // The first time it sees pk "bad", it reports that record failed (and so every later one).
  const bad = event.Records.find((r) => r.dynamodb.Keys.pk.S === "bad" && !seen.has(r.eventID));
  event.Records.forEach((r) => seen.add(r.eventID));
  return { batchItemFailures: bad ? [{ itemIdentifier: bad.dynamodb.SequenceNumber }] : [] };
};
const http = createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c)).on("end", async () => {
    const out = await handler(JSON.parse(body));
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(out));
  });
});
http.listen(0, "127.0.0.1", () => console.log(http.address().port));
""")
    node = subprocess.Popen(["node", server_js], stdout=subprocess.PIPE, text=True)
    try:
        port = int(node.stdout.readline())
        tf = triggers_file(tmp_path, {"Name": "node-http", "Table": name, "Url": f"http://127.0.0.1:{port}/",
                                      "StartingPosition": "TRIM_HORIZON", "BatchSize": 3,
                                      "MaximumBatchingWindowInSeconds": 1,
                                      "FunctionResponseTypes": ["ReportBatchItemFailures"]})
        server = start_server("--in-memory", "--triggers", tf)
        ddb = server.client()
        create_stream_table(ddb, name=name)
        for k in ("a", "bad", "c"):
            ddb.put_item(TableName=name, Item={"pk": {"S": k}})
        wait_for(lambda: metric(server, "monotable_trigger_records_delivered_total", "node-http") == 3, what="delivery")
        assert batches_keys(read_events(events_env)) == [["a", "bad", "c"], ["bad", "c"]]
        assert metric(server, "monotable_trigger_invocation_errors_total", "node-http") == 1
        assert read_events(events_env)[0]["Records"][1]["dynamodb"]["NewImage"] == {"pk": {"S": "bad"}}
    finally:
        node.kill()
        node.wait(timeout=10)


def test_retries_bisect_and_failure_destinations(tmp_path, events_env, start_server, monkeypatch):
    monkeypatch.setenv("POISON", "p")
    name = unique_name("trg")
    failures_table = unique_name("fail")
    failures_file = str(tmp_path / "failed.jsonl")
    common = {"Table": name, "Command": python_handler(tmp_path), "StartingPosition": "TRIM_HORIZON",
              "BatchSize": 4, "MaximumBatchingWindowInSeconds": 2, "BisectBatchOnFunctionError": True,
              "MaximumRetryAttempts": 1}
    tf = triggers_file(tmp_path,
                       {"Name": "to-table", **common,
                        "DestinationConfig": {"OnFailure": {"Destination": "table:" + failures_table}}},
                       {"Name": "to-file", **common,
                        "DestinationConfig": {"OnFailure": {"Destination": "file:" + failures_file}}})
    server = start_server("--in-memory", "--triggers", tf)
    ddb = server.client()
    ddb.create_table(TableName=failures_table, BillingMode="PAY_PER_REQUEST",
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                           {"AttributeName": "sk", "AttributeType": "S"}])
    create_stream_table(ddb, name=name)
    for k in ("a", "p", "c", "d"):
        ddb.put_item(TableName=name, Item={"pk": {"S": k}})
    for trigger in ("to-table", "to-file"):
        wait_for(lambda: metric(server, "monotable_trigger_records_failed_total", trigger) == 1, what=trigger)
        wait_for(lambda: metric(server, "monotable_trigger_records_delivered_total", trigger) == 3, what=trigger)
    # Both triggers saw the same sequence (one events file): per trigger
    # [a p c d] fails -> [a p] fails -> [a] ok, [p] fails, retried once -> destination, [c d] ok.
    per_trigger = batches_keys(read_events(events_env))
    expected = [["a", "p", "c", "d"], ["a", "p"], ["a"], ["p"], ["p"], ["c", "d"]]
    assert sorted(per_trigger) == sorted(expected + expected)
    arn = ddb.describe_table(TableName=name)["Table"]["LatestStreamArn"]
    items = ddb.scan(TableName=failures_table)["Items"]
    assert len(items) == 1
    item = items[0]
    assert item["pk"]["S"] == "to-table"
    assert item["condition"]["S"] == "RetryAttemptsExhausted"
    record = json.loads(item["record"]["S"])
    info = record["DDBStreamBatchInfo"]
    assert info["streamArn"] == arn and info["batchSize"] == 1
    assert info["startSequenceNumber"] == info["endSequenceNumber"] == item["sk"]["S"]
    assert record["requestContext"]["functionArn"] == "arn:aws:lambda:us-east-1:000000000000:function:to-table"
    assert record["requestContext"]["approximateInvokeCount"] == 2
    assert record["payload"]["Records"][0]["dynamodb"]["Keys"] == {"pk": {"S": "p"}}
    with open(failures_file) as f:
        lines = [json.loads(line) for line in f]
    assert len(lines) == 1 and lines[0]["DDBStreamBatchInfo"]["startSequenceNumber"] == info["startSequenceNumber"]
    # The status command shows both triggers.
    out = subprocess.run([server.proc.args[0], "triggers", "--endpoint", server.endpoint], capture_output=True,
                         text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    table, details = out.stdout.split("\n\n", 1)
    lines = table.splitlines()
    assert lines[0].split()[:3] == ["TRIGGER", "TABLE", "STATE"]
    rows = {line.split()[0]: line.split() for line in lines[1:]}
    assert set(rows) == {"to-table", "to-file"}
    assert rows["to-file"][1] == name and rows["to-file"][-1] == "1"  # FAILED column
    # Then each trigger's shard (position, lag) and its last error (the handler's exception).
    detail = [line.split() for line in details.splitlines()]
    shard = next(d for d in detail if d[0] == "to-file" and d[1] == "shard")
    assert shard[2].startswith("shardId-") and shard[-2:] == ["lag", "0"]
    assert any(line.startswith("to-file") and "last error: the handler exited with status 1: RuntimeError: poison record"
               in line for line in details.splitlines()), details


def test_failing_trigger_does_not_hold_others_or_requests(tmp_path, events_env, start_server):
    name = unique_name("trg")
    tf = triggers_file(tmp_path,
                       {"Name": "slow", "Table": name, "Command": ["sleep", "30"], "StartingPosition": "TRIM_HORIZON"},
                       {"Name": "rec", "Table": name, "Command": python_handler(tmp_path),
                        "StartingPosition": "TRIM_HORIZON"})
    server = start_server("--in-memory", "--triggers", tf)
    ddb = server.client()
    create_stream_table(ddb, name=name)
    start = time.time()
    for i in range(20):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"k{i:02}"}})
    assert time.time() - start < 5  # requests are not held by the stuck handler
    wait_for(lambda: metric(server, "monotable_trigger_records_delivered_total", "rec") == 20, what="delivery")
    assert [k for b in batches_keys(read_events(events_env)) for k in b] == [f"k{i:02}" for i in range(20)]
    text = metrics(server)
    assert f'monotable_trigger_state{{trigger="slow",table="{name}",state="delivering"}} 1' in text
    assert metric(server, "monotable_trigger_lag_records", "slow") == 20
    assert metric(server, "monotable_trigger_oldest_unacknowledged_age_seconds", "slow") >= 0


def test_bad_triggers_file_refuses_to_start(tmp_path, binary):
    tf = write(tmp_path / "t.json", json.dumps({"Triggers": [{"Name": "x", "Table": "T", "Command": "true",
                                                              "StartingPosition": "AT_TIMESTAMP"}]}))
    out = subprocess.run([binary, "serve", "--in-memory", "--port", "0", "--triggers", tf], capture_output=True,
                         text=True, timeout=30)
    assert out.returncode == 1
    assert "trigger x: StartingPosition must be TRIM_HORIZON or LATEST" in out.stderr


def test_kill_9_mid_batch_resumes_in_order_without_losing_or_redelivering(tmp_path, start_server, monkeypatch):
    """Batches of 10 over 30 records; the server is killed (-9) while the third batch's handler runs.
    After the restart, only that in-flight batch is delivered again, then the rest, in order."""
    data = str(tmp_path / "data")
    log = str(tmp_path / "deliveries.jsonl")
    marker = str(tmp_path / "hang-once")
    monkeypatch.setenv("EVENTS_FILE", log)
    handler = python_handler(tmp_path, source=f'''
import json, os, time
def handler(event, context):
    keys = [r["dynamodb"]["Keys"]["pk"]["S"] for r in event["Records"]]
    with open({log!r}, "a") as f:
        f.write(json.dumps(keys) + "\\n")
    if "k25" in keys and not os.path.exists({marker!r}):
        open({marker!r}, "w").close()
        time.sleep(60)  # killed here, mid-batch
''')
    name = unique_name("trg")
    empty = write(tmp_path / "triggers.json", json.dumps({"Triggers": []}))
    server = start_server("--data", data, "--triggers", empty)
    ddb = server.client()
    create_stream_table(ddb, name=name)
    for i in range(30):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"k{i:02}"}})
    # All 30 records exist: configure the trigger and reload it (SIGHUP), so batches are exactly 10.
    triggers_file(tmp_path, {"Name": "resume", "Table": name, "Command": handler, "StartingPosition": "TRIM_HORIZON",
                             "BatchSize": 10})
    server.proc.send_signal(signal.SIGHUP)
    wait_for(lambda: os.path.exists(marker), what="the third batch to start")
    server.kill(signal.SIGKILL)

    def deliveries():
        with open(log) as f:
            return [json.loads(line) for line in f]
    before = deliveries()
    keys = [f"k{i:02}" for i in range(30)]
    assert before == [keys[0:10], keys[10:20], keys[20:30]]
    server = start_server("--data", data, "--triggers", str(tmp_path / "triggers.json"))
    wait_for(lambda: metric(server, "monotable_trigger_records_delivered_total", "resume") == 10, what="resume")
    time.sleep(0.5)
    after = deliveries()[3:]
    assert after == [keys[20:30]]  # only the batch in flight at the kill, nothing acknowledged again
    cp = subprocess.run([server.proc.args[0], "triggers", "--data", data], capture_output=True, text=True, timeout=30)
    assert cp.returncode == 0 and "resume" in cp.stdout, cp.stderr
    # New writes after the restart continue in order.
    ddb = server.client()
    ddb.put_item(TableName=name, Item={"pk": {"S": "k30"}})
    wait_for(lambda: metric(server, "monotable_trigger_records_delivered_total", "resume") == 11, what="new write")
    assert deliveries()[-1] == ["k30"]


def test_author_bio_fanout_example(tmp_path, start_server, monkeypatch):
    example = os.path.join(ROOT, "examples", "triggers", "author_bio")
    config = json.load(open(os.path.join(example, "triggers.json")))
    trigger = config["Triggers"][0]
    table = unique_name("Library")
    trigger["Table"] = table
    trigger["Command"][0] = sys.executable
    trigger["Command"][3] = os.path.join(example, "handler.py")
    trigger["DestinationConfig"]["OnFailure"]["Destination"] = "file:" + str(tmp_path / "failed.jsonl")
    tf = write(tmp_path / "triggers.json", json.dumps(config))
    monkeypatch.setenv("TABLE_NAME", table)
    server = start_server("--in-memory", "--triggers", tf)
    sys.path.insert(0, example)
    try:
        from setup import create_library
    finally:
        sys.path.remove(example)
    lib = create_library(server.endpoint, name=table, books_per_author=4)
    name = trigger["Name"]
    wait_for(lambda: metric(server, "monotable_trigger_records_filtered_total", name) == 10, what="setup filtered")
    lib.update_item(Key={"pk": "AUTHOR#ann", "sk": "AUTHOR"}, UpdateExpression="SET bio = :b",
                    ExpressionAttributeValues={":b": "Ann now writes poems."})

    def books(author):
        items = lib.scan()["Items"]
        return [i for i in items if i.get("author_id") == author]
    try:
        wait_for(lambda: all(b["author_bio"] == "Ann now writes poems." for b in books("ann")), what="fan-out")
    except AssertionError:
        print(metrics(server), open(server.log.name).read())
        raise
    assert len(books("ann")) == 4
    assert all(b["author_bio"] == "bob writes books." for b in books("bob"))
    # The handler saw only the author's MODIFY: the 4 book updates it made were filtered out.
    wait_for(lambda: metric(server, "monotable_trigger_records_filtered_total", name) == 14, what="filtered")
    assert metric(server, "monotable_trigger_records_delivered_total", name) == 1
    assert metric(server, "monotable_trigger_invocations_total", name) == 1


def test_ttl_deletion_carries_the_service_user_identity(tmp_path, events_env, start_server):
    name = unique_name("trg")
    tf = triggers_file(tmp_path, {"Name": "ttl", "Table": name, "Command": python_handler(tmp_path),
                                  "StartingPosition": "TRIM_HORIZON",
                                  "FilterCriteria": {"Filters": [{"Pattern": json.dumps({"eventName": ["REMOVE"]})}]}})
    server = start_server("--in-memory", "--ttl-period-ms", "100", "--triggers", tf)
    ddb = server.client()
    create_stream_table(ddb, name=name)
    ddb.update_time_to_live(TableName=name, TimeToLiveSpecification={"AttributeName": "expires", "Enabled": True})
    ddb.put_item(TableName=name, Item={"pk": {"S": "user-delete"}})
    ddb.delete_item(TableName=name, Key={"pk": {"S": "user-delete"}})
    expires = str(int(time.time()) - 10)
    ddb.put_item(TableName=name, Item={"pk": {"S": "expired"}, "expires": {"N": expires}})
    records = wait_for(lambda: (lambda rs: rs if len(rs) >= 2 else None)(
        [r for e in read_events(events_env) for r in e["Records"]]), what="2 REMOVE records")
    assert [r["dynamodb"]["Keys"]["pk"]["S"] for r in records] == ["user-delete", "expired"]
    assert "userIdentity" not in records[0]
    assert records[1]["userIdentity"] == {"type": "Service", "principalId": "dynamodb.amazonaws.com"}
    assert records[1]["dynamodb"]["OldImage"] == {"pk": {"S": "expired"}, "expires": {"N": expires}}


def test_yaml_triggers_file(tmp_path, events_env, start_server):
    name = unique_name("trg")
    command = json.dumps(python_handler(tmp_path))  # a JSON array is a YAML flow sequence
    tf = write(tmp_path / "triggers.yaml", f"""
Triggers:
  - Name: from-yaml
    Table: {name}
    Command: {command}
    StartingPosition: TRIM_HORIZON
    FilterCriteria:
      Filters:
        - Pattern:
            dynamodb:
              NewImage:
                kind: {{S: [{{prefix: "bo"}}]}}
""")
    server = start_server("--in-memory", "--triggers", tf)
    ddb = server.client()
    create_stream_table(ddb, name=name)
    for pk, kind in (("1", "book"), ("2", "author"), ("3", "boat")):
        ddb.put_item(TableName=name, Item={"pk": {"S": pk}, "kind": {"S": kind}})
    wait_for(lambda: metric(server, "monotable_trigger_records_delivered_total", "from-yaml") == 2, what="delivery")
    assert [k for b in batches_keys(read_events(events_env)) for k in b] == ["1", "3"]


def test_a_new_stream_is_read_after_the_old_one(tmp_path, events_env, start_server):
    name = unique_name("trg")
    tf = triggers_file(tmp_path, {"Name": "restream", "Table": name, "Command": python_handler(tmp_path),
                                  "StartingPosition": "LATEST"})
    server = start_server("--in-memory", "--triggers", tf)
    ddb = server.client()
    create_stream_table(ddb, name=name)
    first_arn = ddb.describe_table(TableName=name)["Table"]["LatestStreamArn"]
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})
    ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": False})
    ddb.put_item(TableName=name, Item={"pk": {"S": "not-recorded"}})
    ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
    second_arn = ddb.describe_table(TableName=name)["Table"]["LatestStreamArn"]
    assert second_arn != first_arn
    ddb.put_item(TableName=name, Item={"pk": {"S": "b"}})
    wait_for(lambda: metric(server, "monotable_trigger_records_delivered_total", "restream") == 2, what="delivery")
    records = [r for e in read_events(events_env) for r in e["Records"]]
    assert [(r["dynamodb"]["Keys"]["pk"]["S"], r["eventSourceARN"]) for r in records] == [
        ("a", first_arn), ("b", second_arn)]
    assert records[1]["dynamodb"]["StreamViewType"] == "KEYS_ONLY"
