"""ExportTableToPointInTime / DescribeExport / ListExports and ImportTable / DescribeImport /
ListImports through boto3, on a server whose S3 buckets are directories (`--export-dir`). The export
is read by a reader that knows only AWS's documented export layout."""
import base64
import datetime
import gzip
import json
import os
import subprocess
import time

import pytest
from botocore.exceptions import ClientError

from conftest import unique_name
from export_helpers import read_documented_export
from test_backups import err, scan_all, wait_active


@pytest.fixture(scope="module")
def export_root(tmp_path_factory):
    return tmp_path_factory.mktemp("s3")


@pytest.fixture(scope="module")
def srv(binary, export_root, request, tmp_path_factory):
    from conftest import Server
    engine = request.config.getoption("--monotable-engine")
    # The server of this module runs on the engine asked for (exports read through the partition store).
    if engine == "rocksdb":
        storage = ["--data", str(tmp_path_factory.mktemp("export-data"))]
    elif engine == "partitioned":
        storage = ["--in-memory", "--test-engine", "partitioned"]
    else:
        storage = ["--in-memory"]
    s = Server(binary, storage + ["--export-dir", str(export_root)])
    yield s
    s.stop()


@pytest.fixture(scope="module")
def ddb(srv):
    return srv.client()


@pytest.fixture(scope="module")
def unchecked(srv):
    return srv.client(parameter_validation=False)


def read_export_as_aws_documents_it(bucket_dir, manifest_key):
    def read_object(key):
        with open(os.path.join(bucket_dir, key), "rb") as f:
            return f.read()
    return read_documented_export(read_object, manifest_key)


def as_file_json(value):
    """boto3 gives binaries as bytes; the files hold them in base64, as the wire does."""
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    if isinstance(value, dict):
        return {k: as_file_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_file_json(v) for v in value]
    return value


def wait_export(ddb, arn, timeout=30):
    deadline = time.time() + timeout
    while True:
        d = ddb.describe_export(ExportArn=arn)["ExportDescription"]
        if d["ExportStatus"] != "IN_PROGRESS":
            return d
        assert time.time() < deadline
        time.sleep(0.05)


def wait_import(ddb, arn, timeout=30):
    deadline = time.time() + timeout
    while True:
        d = ddb.describe_import(ImportArn=arn)["ImportTableDescription"]
        if d["ImportStatus"] != "IN_PROGRESS":
            return d
        assert time.time() < deadline
        time.sleep(0.05)


def make_table(ddb):
    name = unique_name("exp")
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                           {"AttributeName": "sk", "AttributeType": "N"}])
    ddb.update_continuous_backups(TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    return name


def key_schema():
    return [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}]


def test_export_then_import_round_trip(ddb, export_root):
    name = make_table(ddb)
    for i in range(30):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"p{i % 4}"}, "sk": {"N": str(i)},
                                           "b": {"B": bytes([i])}, "l": {"L": [{"N": "1.50"}, {"NULL": True}]},
                                           "ns": {"NS": ["1", "2"]}, "m": {"M": {"x": {"BOOL": False}}}})
    table_arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
    out = ddb.export_table_to_point_in_time(TableArn=table_arn, S3Bucket="my-bucket", S3Prefix="exports/one")
    started = out["ExportDescription"]
    assert started["ExportStatus"] == "IN_PROGRESS" and started["ExportFormat"] == "DYNAMODB_JSON"
    assert started["ExportArn"].startswith(table_arn + "/export/")
    ddb.put_item(TableName=name, Item={"pk": {"S": "late"}, "sk": {"N": "0"}})  # after the export time
    done = wait_export(ddb, started["ExportArn"])
    assert done["ExportStatus"] == "COMPLETED" and done["ItemCount"] == 30
    assert done["ExportManifest"].startswith("exports/one/AWSDynamoDB/")
    summary, items = read_export_as_aws_documents_it(os.path.join(export_root, "my-bucket"), done["ExportManifest"])
    assert summary["exportArn"] == started["ExportArn"] and summary["tableArn"] == table_arn
    assert summary["outputFormat"] == "DYNAMODB_JSON" and summary["s3Bucket"] == "my-bucket"
    expected = [i for i in scan_all(ddb, name) if i["pk"]["S"] != "late"]
    key = lambda i: (i["pk"]["S"], int(i["sk"]["N"]))
    assert sorted(items, key=key) == sorted(as_file_json(expected), key=key)
    assert any(e["ExportArn"] == started["ExportArn"] for e in ddb.list_exports(TableArn=table_arn)["ExportSummaries"])

    # Import the data files into a new table.
    data_prefix = done["ExportManifest"].rsplit("/", 1)[0] + "/data/"
    target = unique_name("imp")
    imp = ddb.import_table(
        S3BucketSource={"S3Bucket": "my-bucket", "S3KeyPrefix": data_prefix}, InputFormat="DYNAMODB_JSON",
        InputCompressionType="GZIP",
        TableCreationParameters={"TableName": target, "KeySchema": key_schema(), "BillingMode": "PAY_PER_REQUEST",
                                 "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                                          {"AttributeName": "sk", "AttributeType": "N"}]})
    desc = imp["ImportTableDescription"]
    assert desc["ImportStatus"] == "IN_PROGRESS"
    assert desc["TableCreationParameters"]["TableName"] == target
    finished = wait_import(ddb, desc["ImportArn"])
    assert finished["ImportStatus"] == "COMPLETED"
    assert finished["ImportedItemCount"] == 30 and finished["ErrorCount"] == 0
    wait_active(ddb, target)
    assert sorted(scan_all(ddb, target), key=key) == sorted(expected, key=key)
    assert any(i["ImportArn"] == desc["ImportArn"] for i in ddb.list_imports()["ImportSummaryList"])


def test_export_at_a_past_time(ddb, export_root):
    name = make_table(ddb)
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "sk": {"N": "1"}})
    time.sleep(1.1)
    mark = datetime.datetime.fromtimestamp(time.time(), tz=datetime.timezone.utc)
    time.sleep(1.1)
    ddb.put_item(TableName=name, Item={"pk": {"S": "b"}, "sk": {"N": "2"}})
    arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
    out = ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="past", ExportTime=mark)
    done = wait_export(ddb, out["ExportDescription"]["ExportArn"])
    _, items = read_export_as_aws_documents_it(os.path.join(export_root, "past"), done["ExportManifest"])
    assert items == [{"pk": {"S": "a"}, "sk": {"N": "1"}}]


def test_csv_import_counts_bad_lines(ddb, export_root):
    folder = os.path.join(export_root, "csv-bucket", "in")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "part1.csv"), "w") as f:
        f.write('pk,sk,name,note\n'
                'a,1,Alice,"x, y"\n'
                'b,2,Bob,\n'
                ',3,missing key,\n'          # bad: empty partition key
                'c,notanumber,bad sk,\n'     # bad: sk is a number attribute
                'd,4,"Dan ""D""",z\n')
    with gzip.open(os.path.join(folder, "part2.csv.gz"), "wt") as f:
        f.write('pk,sk,name\ne,5,Eve\n')
    target = unique_name("csv")
    imp = ddb.import_table(
        S3BucketSource={"S3Bucket": "csv-bucket", "S3KeyPrefix": "in/part1"}, InputFormat="CSV",
        TableCreationParameters={"TableName": target, "KeySchema": key_schema(), "BillingMode": "PAY_PER_REQUEST",
                                 "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                                          {"AttributeName": "sk", "AttributeType": "N"}]})
    done = wait_import(ddb, imp["ImportTableDescription"]["ImportArn"])
    assert done["ImportStatus"] == "COMPLETED"
    assert done["ErrorCount"] == 2 and done["ImportedItemCount"] == 3 and done["ProcessedItemCount"] == 5
    assert scan_all(ddb, target) == [
        {"pk": {"S": "a"}, "sk": {"N": "1"}, "name": {"S": "Alice"}, "note": {"S": "x, y"}},
        {"pk": {"S": "b"}, "sk": {"N": "2"}, "name": {"S": "Bob"}},
        {"pk": {"S": "d"}, "sk": {"N": "4"}, "name": {"S": 'Dan "D"'}, "note": {"S": "z"}}]
    # A gzipped object with HeaderList and another delimiter.
    with gzip.open(os.path.join(folder, "semi.csv.gz"), "wt") as f:
        f.write('f;6;Fay\n')
    target2 = unique_name("csv")
    imp2 = ddb.import_table(
        S3BucketSource={"S3Bucket": "csv-bucket", "S3KeyPrefix": "in/semi"}, InputFormat="CSV",
        InputCompressionType="GZIP",
        InputFormatOptions={"Csv": {"Delimiter": ";", "HeaderList": ["pk", "sk", "name"]}},
        TableCreationParameters={"TableName": target2, "KeySchema": key_schema(), "BillingMode": "PAY_PER_REQUEST",
                                 "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                                          {"AttributeName": "sk", "AttributeType": "N"}]})
    assert wait_import(ddb, imp2["ImportTableDescription"]["ImportArn"])["ImportedItemCount"] == 1
    assert scan_all(ddb, target2) == [{"pk": {"S": "f"}, "sk": {"N": "6"}, "name": {"S": "Fay"}}]


def test_errors(ddb, unchecked):
    name = unique_name("noexp")
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
    arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
    with pytest.raises(ClientError) as e:
        ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="b1")
    assert err(e) == ("PointInTimeRecoveryUnavailableException",
                      f"Point in time recovery is not enabled for table '{name}'")
    missing = arn + "-missing"
    with pytest.raises(ClientError) as e:
        ddb.export_table_to_point_in_time(TableArn=missing, S3Bucket="b1")
    assert err(e)[0] == "TableNotFoundException"
    with pytest.raises(ClientError) as e:
        ddb.describe_export(ExportArn=arn + "/export/01234567890123-abcdef12")
    assert err(e)[0] == "ExportNotFoundException"
    with pytest.raises(ClientError) as e:
        ddb.describe_import(ImportArn=arn + "/import/01234567890123-abcdef12")
    assert err(e)[0] == "ImportNotFoundException"
    ddb.update_continuous_backups(TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    with pytest.raises(ClientError) as e:
        ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="b1",
                                          ExportTime=datetime.datetime(2000, 1, 1, tzinfo=datetime.timezone.utc))
    assert err(e)[0] == "InvalidExportTimeException"
    with pytest.raises(ClientError) as e:
        unchecked.export_table_to_point_in_time(TableArn=arn, S3Bucket="b1", S3Prefix="../escape")
    assert err(e)[0] == "ValidationException"
    # ClientToken: the same request again is the same export; another with the token conflicts.
    first = ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="b1", ClientToken="tok-1")["ExportDescription"]
    again = ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="b1", ClientToken="tok-1")["ExportDescription"]
    assert again["ExportArn"] == first["ExportArn"]
    with pytest.raises(ClientError) as e:
        ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="b2", ClientToken="tok-1")
    assert err(e)[0] == "ExportConflictException"
    # Importing into an existing table.
    with pytest.raises(ClientError) as e:
        ddb.import_table(S3BucketSource={"S3Bucket": "b1"}, InputFormat="DYNAMODB_JSON",
                         TableCreationParameters={"TableName": name, "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                                                  "BillingMode": "PAY_PER_REQUEST",
                                                  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]})
    assert err(e) == ("ResourceInUseException", "Table already exists: " + name)
    with pytest.raises(ClientError) as e:
        ddb.import_table(S3BucketSource={"S3Bucket": "b1"}, InputFormat="DYNAMODB_JSON",
                         InputFormatOptions={"Csv": {"Delimiter": ","}},
                         TableCreationParameters={"TableName": unique_name("x"),
                                                  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                                                  "BillingMode": "PAY_PER_REQUEST",
                                                  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]})
    assert err(e)[0] == "ValidationException"


def test_dynamodb_json_import_counts_bad_lines(ddb, export_root):
    folder = os.path.join(export_root, "json-bucket")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "items.json"), "w") as f:
        f.write('{"Item":{"pk":{"S":"a"},"sk":{"N":"1"}}}\n'
                'not json\n'
                '{"Item":{"pk":{"N":"7"},"sk":{"N":"1"}}}\n'       # wrong key type
                '{"Item":{"pk":{"S":"b"},"sk":{"N":"2"},"s":{"SS":[]}}}\n'  # empty set
                '{"Item":{"pk":{"S":"c"},"sk":{"N":"3"},"x":{"S":"y"}}}\n')
    target = unique_name("json")
    imp = ddb.import_table(
        S3BucketSource={"S3Bucket": "json-bucket"}, InputFormat="DYNAMODB_JSON",
        TableCreationParameters={"TableName": target, "KeySchema": key_schema(), "BillingMode": "PAY_PER_REQUEST",
                                 "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                                          {"AttributeName": "sk", "AttributeType": "N"}]})
    done = wait_import(ddb, imp["ImportTableDescription"]["ImportArn"])
    assert (done["ImportedItemCount"], done["ErrorCount"]) == (2, 3)
    assert [i["pk"]["S"] for i in scan_all(ddb, target)] == ["a", "c"]


def read_incremental(bucket_dir, manifest_key):
    with open(os.path.join(bucket_dir, manifest_key)) as f:
        summary = json.load(f)
    lines = []
    with open(os.path.join(bucket_dir, summary["manifestFilesS3Key"])) as f:
        for entry in map(json.loads, f):
            with open(os.path.join(bucket_dir, entry["dataFileS3Key"]), "rb") as data:
                lines += [json.loads(l) for l in gzip.decompress(data.read()).decode().splitlines()]
    return summary, sorted(lines, key=lambda l: l["Keys"]["pk"]["S"])


def test_incremental_export(srv, ddb, export_root):
    import raw
    name = make_table(ddb)
    ddb.put_item(TableName=name, Item={"pk": {"S": "same"}, "sk": {"N": "1"}})
    ddb.put_item(TableName=name, Item={"pk": {"S": "upd"}, "sk": {"N": "1"}, "v": {"N": "1"}})
    ddb.put_item(TableName=name, Item={"pk": {"S": "del"}, "sk": {"N": "1"}})
    time.sleep(0.3)
    start = time.time()
    time.sleep(0.3)
    ddb.put_item(TableName=name, Item={"pk": {"S": "upd"}, "sk": {"N": "1"}, "v": {"N": "2"}})
    ddb.put_item(TableName=name, Item={"pk": {"S": "upd"}, "sk": {"N": "1"}, "v": {"N": "3"}})
    ddb.put_item(TableName=name, Item={"pk": {"S": "new"}, "sk": {"N": "1"}})
    ddb.delete_item(TableName=name, Key={"pk": {"S": "del"}, "sk": {"N": "1"}})
    ddb.put_item(TableName=name, Item={"pk": {"S": "flash"}, "sk": {"N": "1"}})   # inserted and deleted:
    ddb.delete_item(TableName=name, Key={"pk": {"S": "flash"}, "sk": {"N": "1"}})  # no change to export
    time.sleep(0.3)
    end = time.time()
    time.sleep(0.3)
    ddb.put_item(TableName=name, Item={"pk": {"S": "upd"}, "sk": {"N": "1"}, "v": {"N": "4"}})  # after the range
    arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
    for view in ("NEW_AND_OLD_IMAGES", "NEW_IMAGE"):
        status, body, _ = raw.call(srv.port, "ExportTableToPointInTime", {
            "TableArn": arn, "S3Bucket": "incr", "ExportType": "INCREMENTAL_EXPORT",
            "IncrementalExportSpecification": {"ExportFromTime": start, "ExportToTime": end, "ExportViewType": view}})
        assert status == 200, body
        assert body["ExportDescription"]["ExportType"] == "INCREMENTAL_EXPORT"
        assert body["ExportDescription"]["IncrementalExportSpecification"]["ExportViewType"] == view
        done = wait_export(ddb, body["ExportDescription"]["ExportArn"])
        assert done["ExportStatus"] == "COMPLETED", done
        summary, lines = read_incremental(os.path.join(export_root, "incr"), done["ExportManifest"])
        assert summary["exportType"] == "INCREMENTAL_EXPORT" and summary["itemCount"] == 3
        assert [l["Keys"] for l in lines] == [{"pk": {"S": p}, "sk": {"N": "1"}} for p in ("del", "new", "upd")]
        deleted, inserted, updated = lines
        assert "NewImage" not in deleted
        assert inserted["NewImage"] == {"pk": {"S": "new"}, "sk": {"N": "1"}} and "OldImage" not in inserted
        assert updated["NewImage"]["v"] == {"N": "3"}
        if view == "NEW_AND_OLD_IMAGES":
            assert deleted["OldImage"] == {"pk": {"S": "del"}, "sk": {"N": "1"}}
            assert updated["OldImage"]["v"] == {"N": "1"}
        else:
            assert "OldImage" not in updated and "OldImage" not in deleted
        assert all(start * 1e6 <= int(l["Metadata"]["WriteTime"]["N"]) < end * 1e6 for l in lines)
    # The range must lie in the PITR window, From before To, at most 24 hours.
    for spec in ({"ExportFromTime": start - 3600, "ExportToTime": end},
                 {"ExportFromTime": end, "ExportToTime": start},
                 {"ExportFromTime": start, "ExportToTime": time.time() + 3600}):
        status, body, _ = raw.call(srv.port, "ExportTableToPointInTime", {
            "TableArn": arn, "S3Bucket": "incr", "ExportType": "INCREMENTAL_EXPORT",
            "IncrementalExportSpecification": spec})
        assert status == 400 and body["__type"].endswith("#InvalidExportTimeException"), body
    status, body, _ = raw.call(srv.port, "ExportTableToPointInTime", {
        "TableArn": arn, "S3Bucket": "incr", "ExportType": "INCREMENTAL_EXPORT"})
    assert status == 400 and body["__type"].endswith("#ValidationException"), body


def test_ion_export_and_import(ddb, export_root):
    name = make_table(ddb)
    items = [{"pk": {"S": f"ion{i}"}, "sk": {"N": str(i)}, "d": {"N": "-12.5"}, "ss": {"SS": ["a", "b"]},
              "bs": {"BS": [b"\x01"]}, "m": {"M": {"quote \"'": {"S": "line\nbreak"}, "n": {"NULL": True}}},
              "l": {"L": [{"BOOL": True}, {"NS": ["1", "2.5"]}]}} for i in range(5)]
    for item in items:
        ddb.put_item(TableName=name, Item=item)
    arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
    out = ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="ion-bucket", ExportFormat="ION")
    done = wait_export(ddb, out["ExportDescription"]["ExportArn"])
    assert done["ExportStatus"] == "COMPLETED" and done["ExportFormat"] == "ION" and done["ItemCount"] == 5
    bucket = os.path.join(export_root, "ion-bucket")
    with open(os.path.join(bucket, done["ExportManifest"])) as f:
        summary = json.load(f)
    assert summary["outputFormat"] == "ION"
    with open(os.path.join(bucket, summary["manifestFilesS3Key"])) as f:
        entries = [json.loads(l) for l in f]
    assert all(e["dataFileS3Key"].endswith(".ion.gz") for e in entries)
    with open(os.path.join(bucket, entries[0]["dataFileS3Key"]), "rb") as f:
        text = gzip.decompress(f.read()).decode()
    assert text.startswith("$ion_1_0 {Item:{")
    assert "$dynamodb_SS::[" in text and "-12.5" in text
    target = unique_name("ion")
    imp = ddb.import_table(
        S3BucketSource={"S3Bucket": "ion-bucket", "S3KeyPrefix": done["ExportManifest"].rsplit("/", 1)[0] + "/data/"},
        InputFormat="ION", InputCompressionType="GZIP",
        TableCreationParameters={"TableName": target, "KeySchema": key_schema(), "BillingMode": "PAY_PER_REQUEST",
                                 "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                                          {"AttributeName": "sk", "AttributeType": "N"}]})
    finished = wait_import(ddb, imp["ImportTableDescription"]["ImportArn"])
    assert (finished["ImportedItemCount"], finished["ErrorCount"]) == (5, 0)
    assert scan_all(ddb, target) == scan_all(ddb, name)


def test_table_being_imported_is_creating(ddb, export_root):
    """A FIFO as the only object holds the import open until the test writes to it."""
    folder = os.path.join(export_root, "fifo-bucket")
    os.makedirs(folder, exist_ok=True)
    fifo = os.path.join(folder, "items.json")
    os.mkfifo(fifo)
    target = unique_name("fifo")
    imp = ddb.import_table(
        S3BucketSource={"S3Bucket": "fifo-bucket"}, InputFormat="DYNAMODB_JSON",
        TableCreationParameters={"TableName": target, "KeySchema": key_schema(), "BillingMode": "PAY_PER_REQUEST",
                                 "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                                          {"AttributeName": "sk", "AttributeType": "N"}]})
    arn = imp["ImportTableDescription"]["ImportArn"]
    try:
        assert ddb.describe_table(TableName=target)["Table"]["TableStatus"] == "CREATING"
        assert ddb.describe_import(ImportArn=arn)["ImportTableDescription"]["ImportStatus"] == "IN_PROGRESS"
        with pytest.raises(ClientError) as e:
            ddb.update_continuous_backups(TableName=target,
                                          PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
        assert err(e) == ("ContinuousBackupsUnavailableException",
                          f"Backups are being enabled for the table: {target}. Please retry later")
        with pytest.raises(ClientError) as e:
            ddb.create_backup(TableName=target, BackupName="too-early")
        # As AWS answers for a CREATING table (ack-api-quirks DDB-BACKUP-001).
        assert err(e) == ("TableNotFoundException", "Table not found: " + target)
    finally:
        with open(fifo, "w") as f:
            f.write('{"Item":{"pk":{"S":"a"},"sk":{"N":"1"}}}\n')
    assert wait_import(ddb, arn)["ImportedItemCount"] == 1
    assert wait_active(ddb, target)["ItemCount"] == 1
    os.remove(fifo)


def test_zstd_import(ddb, export_root):
    folder = os.path.join(export_root, "zstd-bucket")
    os.makedirs(folder, exist_ok=True)
    lines = "".join('{"Item":{"pk":{"S":"z%d"},"sk":{"N":"%d"}}}\n' % (i, i) for i in range(100)) + "bad line\n"
    subprocess.run(["zstd", "-q", "-o", os.path.join(folder, "items.json.zst")], input=lines.encode(), check=True)
    target = unique_name("zstd")
    imp = ddb.import_table(
        S3BucketSource={"S3Bucket": "zstd-bucket"}, InputFormat="DYNAMODB_JSON", InputCompressionType="ZSTD",
        TableCreationParameters={"TableName": target, "KeySchema": key_schema(), "BillingMode": "PAY_PER_REQUEST",
                                 "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                                          {"AttributeName": "sk", "AttributeType": "N"}]})
    done = wait_import(ddb, imp["ImportTableDescription"]["ImportArn"])
    assert (done["ImportStatus"], done["ImportedItemCount"], done["ErrorCount"]) == ("COMPLETED", 100, 1)
    assert done["InputCompressionType"] == "ZSTD"
    # An object that is not zstd-compressed fails the import.
    with open(os.path.join(folder, "plain.json"), "w") as f:
        f.write(lines)
    imp = ddb.import_table(
        S3BucketSource={"S3Bucket": "zstd-bucket", "S3KeyPrefix": "plain"}, InputFormat="DYNAMODB_JSON",
        InputCompressionType="ZSTD",
        TableCreationParameters={"TableName": unique_name("zstd"), "KeySchema": key_schema(),
                                 "BillingMode": "PAY_PER_REQUEST",
                                 "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                                          {"AttributeName": "sk", "AttributeType": "N"}]})
    failed = wait_import(ddb, imp["ImportTableDescription"]["ImportArn"])
    assert failed["ImportStatus"] == "FAILED" and failed["FailureCode"]


def test_export_writes_checksum_files(ddb, export_root):
    """AWS's documented layout names the manifests' checksum files .checksum
    (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html)."""
    name = make_table(ddb)
    arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
    done = wait_export(ddb, ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="ck")["ExportDescription"]["ExportArn"])
    base = (export_root / "ck" / done["ExportManifest"]).parent
    names = set(os.listdir(base))
    assert {"manifest-summary.json", "manifest-summary.checksum", "manifest-files.json",
            "manifest-files.checksum"} <= names
    assert not any(n.endswith(".md5") for n in names)


def test_export_of_control_characters_is_strict_json(ddb, export_root):
    # Every JSON the server writes escapes control characters: RapidJSON's SSE2 writer alone leaves
    # U+001A..U+001F raw inside an aligned 16-byte block of a string that needs escaping, which a
    # strict reader (Python's json, AWS's tools) refuses. Names and values hold all of them.
    name = make_table(ddb)
    text = '"' + "".join(chr(c) for c in range(1, 32)) * 3 + "\\"
    ddb.put_item(TableName=name, Item={"pk": {"S": "ctl" + text}, "sk": {"N": "1"}, "a" + text: {"S": text},
                                       "m": {"M": {text: {"L": [{"S": text}]}}}})
    table_arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
    started = ddb.export_table_to_point_in_time(TableArn=table_arn, S3Bucket="ctl-bucket")["ExportDescription"]
    done = wait_export(ddb, started["ExportArn"])
    assert done["ExportStatus"] == "COMPLETED"
    _, items = read_export_as_aws_documents_it(os.path.join(export_root, "ctl-bucket"), done["ExportManifest"])
    assert items == as_file_json(scan_all(ddb, name))
    assert items[0]["a" + text] == {"S": text} and items[0]["m"]["M"][text]["L"][0]["S"] == text
