"""Export to and import from a real S3-compatible endpoint (radosgw from scripts/s3-test-endpoint.sh):
the server is started with `--s3-endpoint URL --s3-access-key K --s3-secret-key S`, and boto3's S3
client reads and writes the bucket beside it. Skipped unless MONOTABLE_S3_ENDPOINT (with
MONOTABLE_S3_ACCESS_KEY and MONOTABLE_S3_SECRET_KEY) names one: `scripts/dev.sh s3-test` starts it."""
import concurrent.futures
import gzip
import json
import os
import subprocess
import uuid

import boto3
import botocore.config
import pytest

from conftest import Server, unique_name
from export_helpers import read_documented_export
from test_backups import scan_all, wait_active
from test_export_import import as_file_json, key_schema, make_table, wait_export, wait_import

ENDPOINT = os.environ.get("MONOTABLE_S3_ENDPOINT")
ACCESS_KEY = os.environ.get("MONOTABLE_S3_ACCESS_KEY", "")
SECRET_KEY = os.environ.get("MONOTABLE_S3_SECRET_KEY", "")

pytestmark = pytest.mark.skipif(
    not ENDPOINT, reason="MONOTABLE_S3_ENDPOINT is unset (scripts/dev.sh s3-test starts radosgw and sets it)")

ATTRS = [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"}]


def engine_args(request, tmp_path_factory):
    if request.config.getoption("--monotable-engine") == "rocksdb":
        return ["--data", str(tmp_path_factory.mktemp("s3-server"))]
    return ["--in-memory"]


@pytest.fixture(scope="module")
def s3():
    return boto3.client("s3", endpoint_url=ENDPOINT, region_name="us-east-1", aws_access_key_id=ACCESS_KEY,
                        aws_secret_access_key=SECRET_KEY,
                        config=botocore.config.Config(s3={"addressing_style": "path"}, retries={"max_attempts": 2}))


@pytest.fixture(scope="module")
def bucket(s3):
    name = "mt-" + uuid.uuid4().hex[:12]
    s3.create_bucket(Bucket=name)
    return name


@pytest.fixture(scope="module")
def srv(binary, request, tmp_path_factory):
    s = Server(binary, [*engine_args(request, tmp_path_factory), "--s3-endpoint", ENDPOINT,
                        "--s3-access-key", ACCESS_KEY, "--s3-secret-key", SECRET_KEY, "--s3-region", "us-east-1"])
    yield s
    s.stop()


@pytest.fixture(scope="module")
def ddb(srv):
    return srv.client()


def all_keys(s3, bucket, prefix):
    keys = []
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
        keys += [o["Key"] for o in page.get("Contents", [])]
    return keys


def read_export_from_s3(s3, bucket, manifest_key):
    """Only AWS's documented layout, read through boto3's S3 client."""
    return read_documented_export(lambda key: s3.get_object(Bucket=bucket, Key=key)["Body"].read(), manifest_key)


def import_into_new_table(ddb, bucket, prefix, compression="GZIP"):
    target = unique_name("s3imp")
    desc = ddb.import_table(
        S3BucketSource={"S3Bucket": bucket, "S3KeyPrefix": prefix}, InputFormat="DYNAMODB_JSON",
        InputCompressionType=compression,
        TableCreationParameters={"TableName": target, "KeySchema": key_schema(), "BillingMode": "PAY_PER_REQUEST",
                                 "AttributeDefinitions": ATTRS})["ImportTableDescription"]
    return target, wait_import(ddb, desc["ImportArn"], timeout=120)


def key(item):
    return item["pk"]["S"], int(item["sk"]["N"])


def test_export_to_s3_then_import_from_it(ddb, s3, bucket):
    name = make_table(ddb)
    with ddb_batch(ddb, name) as put:
        for i in range(250):
            put({"pk": {"S": f"p{i % 7}"}, "sk": {"N": str(i)}, "b": {"B": bytes([i % 256]) * 3},
                 "l": {"L": [{"N": "1.50"}, {"NULL": True}, {"S": "é ✓"}]}, "ns": {"NS": ["1", "2"]},
                 "m": {"M": {"x": {"BOOL": i % 2 == 0}, "pad": {"S": "x" * (i % 50)}}}})
    expected = scan_all(ddb, name)
    arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
    started = ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket=bucket, S3Prefix="exports/run one")
    done = wait_export(ddb, started["ExportDescription"]["ExportArn"], timeout=120)
    assert done["ExportStatus"] == "COMPLETED", done
    assert done["ItemCount"] == 250 and done["S3Bucket"] == bucket and done["S3Prefix"] == "exports/run one"
    export_dir = done["ExportManifest"].rsplit("/", 1)[0]
    assert export_dir.startswith("exports/run one/AWSDynamoDB/")

    # The objects are in the bucket, as S3 itself lists them.
    keys = all_keys(s3, bucket, export_dir + "/")
    for name_ in ("_started", "manifest-summary.json", "manifest-summary.checksum", "manifest-files.json",
                  "manifest-files.checksum"):
        assert f"{export_dir}/{name_}" in keys
    data_keys = [k for k in keys if k.startswith(export_dir + "/data/")]
    assert data_keys and all(k.endswith(".json.gz") for k in data_keys)
    summary, items = read_export_from_s3(s3, bucket, done["ExportManifest"])
    assert summary["s3Bucket"] == bucket and summary["exportArn"] == done["ExportArn"]
    assert sorted(items, key=key) == sorted(as_file_json(expected), key=key)

    target, finished = import_into_new_table(ddb, bucket, export_dir + "/data/")
    assert finished["ImportStatus"] == "COMPLETED", finished
    assert finished["ImportedItemCount"] == 250 and finished["ErrorCount"] == 0
    wait_active(ddb, target)
    assert sorted(scan_all(ddb, target), key=key) == sorted(expected, key=key)


class ddb_batch:
    """Puts items 25 at a time (BatchWriteItem)."""

    def __init__(self, ddb, name):
        self.ddb, self.name, self.pending = ddb, name, []

    def __enter__(self):
        return self.put

    def put(self, item):
        self.pending.append({"PutRequest": {"Item": item}})
        if len(self.pending) == 25:
            self.flush()

    def flush(self):
        if self.pending:
            out = self.ddb.batch_write_item(RequestItems={self.name: self.pending})
            assert not out.get("UnprocessedItems")
            self.pending = []

    def __exit__(self, *exc):
        if exc[0] is None:
            self.flush()


def test_import_of_a_prefix_written_from_aws_documented_layout(ddb, s3, bucket):
    """A script that knows only AWS's documented format: gzipped {"Item": ...} lines under a prefix, here
    1,001 small objects (more than one ListObjectsV2 page) and one of several MB (streamed, not held)."""
    prefix = "handmade/" + uuid.uuid4().hex[:8] + "/"
    expected = []

    def item(i, pad=""):
        it = {"pk": {"S": f"h{i}"}, "sk": {"N": str(i)}, "s": {"S": f"v{i}{pad}"}}
        expected.append(it)
        return json.dumps({"Item": it})

    small = [(f"{prefix}part-{i:05d}.json.gz", gzip.compress((item(i) + "\n").encode())) for i in range(1001)]
    big_lines = [item(10000 + i, pad="p" * 900) for i in range(6000)]  # ~5.6 MB before gzip
    big = (f"{prefix}zz-big.json.gz", gzip.compress(("\n".join(big_lines) + "\n").encode()))
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda kv: s3.put_object(Bucket=bucket, Key=kv[0], Body=kv[1]), small + [big]))
    # Objects beside the prefix are not read.
    s3.put_object(Bucket=bucket, Key="handmade-other.json.gz", Body=gzip.compress(b"not json\n"))

    target, finished = import_into_new_table(ddb, bucket, prefix)
    assert finished["ImportStatus"] == "COMPLETED", finished
    assert finished["ImportedItemCount"] == 7001 and finished["ErrorCount"] == 0
    wait_active(ddb, target)
    assert sorted(scan_all(ddb, target), key=key) == sorted(expected, key=key)


def test_export_and_import_with_a_missing_bucket(ddb):
    name = make_table(ddb)
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "sk": {"N": "1"}})
    arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
    missing = "mt-missing-" + uuid.uuid4().hex[:8]
    out = ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket=missing)
    done = wait_export(ddb, out["ExportDescription"]["ExportArn"], timeout=60)
    assert done["ExportStatus"] == "FAILED"
    assert done["FailureCode"] == "S3NoSuchBucket"
    assert done["FailureMessage"] == "The specified bucket does not exist"
    assert "ExportManifest" not in done

    _, finished = import_into_new_table(ddb, missing, "")
    assert finished["ImportStatus"] == "FAILED"
    assert finished["FailureCode"] == "S3NoSuchBucket"
    assert finished["FailureMessage"] == "The specified bucket does not exist"


def test_export_and_import_with_a_wrong_secret(binary, request, tmp_path_factory, s3, bucket):
    s = Server(binary, [*engine_args(request, tmp_path_factory), "--s3-endpoint", ENDPOINT,
                        "--s3-access-key", ACCESS_KEY, "--s3-secret-key", SECRET_KEY + "-wrong"])
    try:
        ddb = s.client()
        name = make_table(ddb)
        ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "sk": {"N": "1"}})
        arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
        out = ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket=bucket, S3Prefix="denied")
        done = wait_export(ddb, out["ExportDescription"]["ExportArn"], timeout=60)
        assert done["ExportStatus"] == "FAILED"
        assert done["FailureCode"] == "S3AccessDenied"
        assert done["FailureMessage"]
        _, finished = import_into_new_table(ddb, bucket, "")
        assert finished["ImportStatus"] == "FAILED" and finished["FailureCode"] == "S3AccessDenied"
    finally:
        s.stop()
    assert all_keys(s3, bucket, "denied") == []


def test_serve_refuses_both_locations_and_https(binary, tmp_path):
    for extra in (["--export-dir", str(tmp_path)], []):
        with pytest.raises(RuntimeError):
            Server(binary, ["--in-memory", "--s3-endpoint", "https://example.com" if not extra else ENDPOINT,
                            "--s3-access-key", "k", "--s3-secret-key", "s", *extra])


def test_offline_cli_export_and_import_through_s3(binary, start_server, tmp_path, s3, bucket):
    """`monotable export|import --data DIR --s3-endpoint ...` on the data directory of a stopped server."""
    data = tmp_path / "data"
    s = start_server("--data", str(data))
    ddb = s.client()
    name = unique_name("clis3")
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
    ddb.update_continuous_backups(TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    for i in range(40):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"k{i}"}, "v": {"N": str(i)}})
    expected = scan_all(ddb, name)
    s.stop()
    offline = ["--data", str(data), "--s3-endpoint", ENDPOINT, "--s3-access-key", ACCESS_KEY,
               "--s3-secret-key", SECRET_KEY]
    prefix = "cli-" + uuid.uuid4().hex[:8]
    out = subprocess.run([binary, "export", name, "--bucket", bucket, "--prefix", prefix, "--wait", *offline],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    manifest_keys = [k for k in all_keys(s3, bucket, prefix + "/") if k.endswith("/manifest-summary.json")]
    assert len(manifest_keys) == 1
    _, items = read_export_from_s3(s3, bucket, manifest_keys[0])
    assert len(items) == 40
    imported = unique_name("clis3-imp")
    out = subprocess.run([binary, "import", imported, "--bucket", bucket, "--prefix",
                          manifest_keys[0].rsplit("/", 1)[0] + "/data/", "--gzip", "--key", "pk:S", "--wait", *offline],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    s2 = start_server("--data", str(data))
    assert sorted(scan_all(s2.client(), imported), key=lambda i: i["pk"]["S"]) == sorted(
        expected, key=lambda i: i["pk"]["S"])
