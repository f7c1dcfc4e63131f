"""GET /monotable/triggers: the stream triggers' state, lag and failures as JSON (the web
console's Triggers view reads it): the same figures as /metrics and `monotable triggers`, plus
each trigger's settings and where delivery stands in every shard. With --credentials it wants a
signed request and lists only the triggers of tables the key may read."""
import http.client
import json
import os
import subprocess

from conftest import Server, unique_name
from test_console import signed_get
from test_triggers import create_stream_table, events_env, metric, python_handler, triggers_file, wait_for  # noqa: F401


def status(port, headers=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        c.request("GET", "/monotable/triggers", headers=headers or {})
        resp = c.getresponse()
        return resp.status, json.loads(resp.read())
    finally:
        c.close()


def test_without_triggers_the_answer_says_none_are_configured(server):
    assert status(server.port) == (200, {"configured": False, "triggers": []})


def test_status_shows_settings_counters_lag_and_shards(tmp_path, events_env, start_server):
    name = unique_name("trg")
    failures = str(tmp_path / "failed.jsonl")
    tf = triggers_file(tmp_path,
                       {"Name": "slow", "Table": name, "Command": ["sleep", "30"], "StartingPosition": "TRIM_HORIZON",
                        "BatchSize": 2, "DestinationConfig": {"OnFailure": {"Destination": "file:" + failures}}},
                       {"Name": "rec", "Table": name, "Command": python_handler(tmp_path),
                        "StartingPosition": "TRIM_HORIZON", "BatchSize": 2,
                        "FilterCriteria": {"Filters": [{"Pattern": json.dumps({"eventName": ["INSERT"]})}]}})
    server = start_server("--in-memory", "--triggers", tf)
    ddb = server.client()
    create_stream_table(ddb, name=name)
    for i in range(5):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"k{i}"}})
    ddb.delete_item(TableName=name, Key={"pk": {"S": "k0"}})  # filtered out by `rec`
    wait_for(lambda: metric(server, "monotable_trigger_records_delivered_total", "rec") == 5, what="delivery")
    wait_for(lambda: metric(server, "monotable_trigger_records_filtered_total", "rec") == 1, what="filtered")
    code, body = status(server.port)
    assert code == 200 and body["configured"] is True
    by_name = {t["name"]: t for t in body["triggers"]}
    assert set(by_name) == {"slow", "rec"}
    rec, slow = by_name["rec"], by_name["slow"]
    assert rec["table"] == name and rec["handler"]["kind"] == "command"
    assert rec["startingPosition"] == "TRIM_HORIZON" and rec["batchSize"] == 2 and rec["filters"] == 1
    assert rec["recordsDelivered"] == 5 and rec["recordsFiltered"] == 1 and rec["recordsFailed"] == 0
    assert rec["batchesDelivered"] == 3 and rec["invocationErrors"] == 0  # [k0 k1] [k2 k3] [k4]
    assert rec["state"] == "idle" and rec["lagRecords"] == 0 and rec["lastError"] is None
    # The same figures as /metrics.
    for field, family in [("invocations", "monotable_trigger_invocations_total"),
                          ("batchesDelivered", "monotable_trigger_batches_delivered_total"),
                          ("recordsDelivered", "monotable_trigger_records_delivered_total")]:
        assert rec[field] == metric(server, family, "rec"), field
    arn = ddb.describe_table(TableName=name)["Table"]["LatestStreamArn"]
    shard_id = server.client("dynamodbstreams").describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
    [shard] = rec["shards"]
    assert shard["shardId"] == shard_id and shard["current"] and not shard["closed"]
    assert int(shard["nextSequenceNumber"]) == int(shard["lastSequenceNumber"]) + 1 and shard["lagRecords"] == 0
    # The stuck handler holds its first batch: every record is behind it.
    assert slow["state"] == "delivering" and slow["onFailure"] == "file:" + failures
    assert slow["batchesDelivered"] == 0 and slow["lagRecords"] == 6 and slow["shards"][0]["lagRecords"] == 6
    assert slow["oldestUnacknowledgedAgeSeconds"] >= 0
    assert slow["shards"][0]["lastSequenceNumber"] == shard["lastSequenceNumber"]


def test_status_wants_a_signature_when_credentials_are_configured(tmp_path, binary):
    creds = tmp_path / "credentials"
    creds.write_text("AKALL secret\nAKOTHER othersecret other*\n")
    tf = triggers_file(tmp_path, {"Name": "t1", "Table": "Books", "Command": ["true"], "StartingPosition": "LATEST"})
    s = Server(binary, ["--in-memory", "--credentials", str(creds), "--triggers", tf])
    try:
        code, body = status(s.port)
        assert code == 403 and body["__type"].endswith("#MissingAuthenticationTokenException")
        code, body = status(s.port, signed_get(s.port, "/monotable/triggers", "AKALL", "wrong"))
        assert code == 403 and body["__type"].endswith("#InvalidSignatureException")
        code, body = status(s.port, signed_get(s.port, "/monotable/triggers", "AKALL", "secret"))
        assert code == 200 and [t["name"] for t in body["triggers"]] == ["t1"]
        assert body["triggers"][0]["state"] in ("starting", "waiting-for-stream")  # no table Books yet
        # `monotable triggers --endpoint` signs with the AWS CLI's key: refused without one.
        env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
        env["HOME"] = str(tmp_path)
        cli = [binary, "triggers", "--endpoint", s.endpoint]
        out = subprocess.run(cli, capture_output=True, text=True, timeout=30, env=env)
        assert out.returncode == 1 and "MissingAuthenticationTokenException" in out.stderr, out.stderr
        out = subprocess.run(cli, capture_output=True, text=True, timeout=30,
                             env={**env, "AWS_ACCESS_KEY_ID": "AKALL", "AWS_SECRET_ACCESS_KEY": "secret"})
        assert out.returncode == 0, out.stderr
        assert out.stdout.splitlines()[1].split()[:2] == ["t1", "Books"]
        # A key limited to other tables sees none of this table's triggers.
        code, body = status(s.port, signed_get(s.port, "/monotable/triggers", "AKOTHER", "othersecret"))
        assert code == 200 and body["triggers"] == []
    finally:
        s.kill()
