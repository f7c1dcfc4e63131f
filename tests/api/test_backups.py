"""On-demand backups through boto3: CreateBackup, DescribeBackup, ListBackups, DeleteBackup,
RestoreTableFromBackup (with overrides) and DescribeTable's RestoreSummary."""
import threading
import time

import pytest
from botocore.exceptions import ClientError

from conftest import unique_name


@pytest.fixture(scope="module")
def unchecked(server):
    """A client that leaves validation to the server."""
    return server.client(parameter_validation=False)


def err(excinfo):
    return excinfo.value.response["Error"]["Code"], excinfo.value.response["Error"]["Message"]


def wait_backup(ddb, arn, timeout=30):
    deadline = time.time() + timeout
    while True:
        d = ddb.describe_backup(BackupArn=arn)["BackupDescription"]
        if d["BackupDetails"]["BackupStatus"] == "AVAILABLE":
            return d
        assert time.time() < deadline, d
        time.sleep(0.05)


def wait_active(ddb, name, timeout=60):
    deadline = time.time() + timeout
    while True:
        t = ddb.describe_table(TableName=name)["Table"]
        if t["TableStatus"] == "ACTIVE":
            return t
        assert time.time() < deadline, t
        time.sleep(0.05)


def scan_all(ddb, name, **kw):
    items, start = [], None
    while True:
        args = dict(TableName=name, ConsistentRead=True, **kw)
        if start:
            args["ExclusiveStartKey"] = start
        page = ddb.scan(**args)
        items += page["Items"]
        start = page.get("LastEvaluatedKey")
        if not start:
            return sorted(items, key=lambda i: (i["pk"]["S"], i.get("sk", {}).get("N", "")))


def query_index(ddb, name, index, key_name, key_value):
    return ddb.query(TableName=name, IndexName=index, KeyConditionExpression="#k = :v",
                     ExpressionAttributeNames={"#k": key_name},
                     ExpressionAttributeValues={":v": key_value})["Items"]


def make_indexed_table(ddb, billing="PAY_PER_REQUEST"):
    name = unique_name("bk")
    extra = {"BillingMode": billing}
    gsi_throughput = {}
    if billing == "PROVISIONED":
        extra["ProvisionedThroughput"] = {"ReadCapacityUnits": 5, "WriteCapacityUnits": 6}
        gsi_throughput = {"ProvisionedThroughput": {"ReadCapacityUnits": 3, "WriteCapacityUnits": 4}}
    ddb.create_table(
        TableName=name,
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "N"},
                              {"AttributeName": "g", "AttributeType": "S"},
                              {"AttributeName": "l", "AttributeType": "S"}],
        GlobalSecondaryIndexes=[{"IndexName": "byG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"}, **gsi_throughput}],
        LocalSecondaryIndexes=[{"IndexName": "byL", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                                  {"AttributeName": "l", "KeyType": "RANGE"}],
                                "Projection": {"ProjectionType": "KEYS_ONLY"}}],
        **extra)
    return name


def put(ddb, name, pk, sk, **attrs):
    item = {"pk": {"S": pk}, "sk": {"N": str(sk)}}
    for k, v in attrs.items():
        item[k] = v
    ddb.put_item(TableName=name, Item=item)


def test_round_trip_write_backup_write_more_restore(ddb):
    name = make_indexed_table(ddb)
    for i in range(50):
        put(ddb, name, f"p{i % 7}", i, g={"S": f"g{i % 3}"}, l={"S": f"l{i}"},
            data={"M": {"n": {"N": str(i)}, "b": {"B": b"\x00\x01"}, "ss": {"SS": ["a", "b"]}}})
    before = scan_all(ddb, name)
    details = ddb.create_backup(TableName=name, BackupName="first")["BackupDetails"]
    assert details["BackupName"] == "first"
    assert details["BackupType"] == "USER"
    assert details["BackupStatus"] in ("CREATING", "AVAILABLE")
    assert details["BackupArn"].startswith(
        "arn:aws:dynamodb:us-east-1:000000000000:table/" + name + "/backup/")
    # Writes after the backup do not reach it.
    put(ddb, name, "p0", 1000, g={"S": "late"})
    ddb.delete_item(TableName=name, Key={"pk": {"S": "p1"}, "sk": {"N": "1"}})
    ddb.update_item(TableName=name, Key={"pk": {"S": "p2"}, "sk": {"N": "2"}},
                    UpdateExpression="SET extra = :x", ExpressionAttributeValues={":x": {"S": "x"}})
    described = wait_backup(ddb, details["BackupArn"])
    source = described["SourceTableDetails"]
    assert source["TableName"] == name and source["ItemCount"] == 50
    assert source["BillingMode"] == "PAY_PER_REQUEST"
    features = described["SourceTableFeatureDetails"]
    assert [i["IndexName"] for i in features["GlobalSecondaryIndexes"]] == ["byG"]
    assert [i["IndexName"] for i in features["LocalSecondaryIndexes"]] == ["byL"]

    target = unique_name("restored")
    restored = ddb.restore_table_from_backup(TargetTableName=target, BackupArn=details["BackupArn"])
    desc = restored["TableDescription"]
    assert desc["TableName"] == target and desc["TableStatus"] == "CREATING"
    assert desc["RestoreSummary"]["SourceBackupArn"] == details["BackupArn"]
    assert desc["RestoreSummary"]["RestoreInProgress"] is True
    table = wait_active(ddb, target)
    assert table["RestoreSummary"]["RestoreInProgress"] is False
    assert table["RestoreSummary"]["SourceTableArn"].endswith(":table/" + name)
    assert table["ItemCount"] == 50
    assert [i["IndexName"] for i in table["GlobalSecondaryIndexes"]] == ["byG"]
    assert [i["IndexName"] for i in table["LocalSecondaryIndexes"]] == ["byL"]
    assert "StreamSpecification" not in table
    assert scan_all(ddb, target) == before
    # The indexes were rebuilt from the items.
    assert len(query_index(ddb, target, "byG", "g", {"S": "g0"})) == len(
        [i for i in before if i["g"]["S"] == "g0"])
    assert query_index(ddb, target, "byG", "g", {"S": "late"}) == []
    lsi = ddb.query(TableName=target, IndexName="byL", KeyConditionExpression="pk = :p AND l = :l",
                    ExpressionAttributeValues={":p": {"S": "p3"}, ":l": {"S": "l3"}})["Items"]
    assert lsi == [{"pk": {"S": "p3"}, "sk": {"N": "3"}, "l": {"S": "l3"}}]
    # The restored table is an ordinary table.
    put(ddb, target, "new", 1)
    assert ddb.describe_table(TableName=target)["Table"]["ItemCount"] == 51


def test_backup_is_consistent_while_writes_continue(ddb):
    name = make_indexed_table(ddb)
    for i in range(200):
        put(ddb, name, "p", i, v={"N": "0"})
    stop = threading.Event()

    def writer():
        n = 1
        while not stop.is_set():
            # Every write moves all items to the same new version, one at a time, in order.
            for i in range(200):
                put(ddb, name, "p", i, v={"N": str(n)})
            n += 1

    t = threading.Thread(target=writer)
    t.start()
    try:
        time.sleep(0.2)
        arn = ddb.create_backup(TableName=name, BackupName="during")["BackupDetails"]["BackupArn"]
    finally:
        stop.set()
        t.join()
    wait_backup(ddb, arn)
    target = unique_name("consistent")
    ddb.restore_table_from_backup(TargetTableName=target, BackupArn=arn)
    wait_active(ddb, target)
    items = scan_all(ddb, target)
    assert len(items) == 200
    versions = [int(i["v"]["N"]) for i in sorted(items, key=lambda i: int(i["sk"]["N"]))]
    # A snapshot of sequential writes: versions never increase along the write order, and differ by
    # at most one (the items the writer had already moved to the next version).
    assert all(a >= b for a, b in zip(versions, versions[1:]))
    assert versions[0] - versions[-1] <= 1


def test_restore_overrides(ddb):
    name = make_indexed_table(ddb, billing="PROVISIONED")
    put(ddb, name, "a", 1, g={"S": "x"}, l={"S": "y"})
    arn = ddb.create_backup(TableName=name, BackupName="ovr")["BackupDetails"]["BackupArn"]
    wait_backup(ddb, arn)
    target = unique_name("ovr")
    ddb.restore_table_from_backup(
        TargetTableName=target, BackupArn=arn, BillingModeOverride="PAY_PER_REQUEST",
        GlobalSecondaryIndexOverride=[], LocalSecondaryIndexOverride=[],
        SSESpecificationOverride={"Enabled": True, "SSEType": "KMS"})
    t = wait_active(ddb, target)
    assert t["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    assert "GlobalSecondaryIndexes" not in t and "LocalSecondaryIndexes" not in t
    assert sorted(d["AttributeName"] for d in t["AttributeDefinitions"]) == ["pk", "sk"]
    assert t["SSEDescription"]["Status"] == "ENABLED"
    assert scan_all(ddb, target) == scan_all(ddb, name)

    target2 = unique_name("ovr")
    ddb.restore_table_from_backup(
        TargetTableName=target2, BackupArn=arn,
        ProvisionedThroughputOverride={"ReadCapacityUnits": 9, "WriteCapacityUnits": 8})
    t2 = wait_active(ddb, target2)
    assert t2["ProvisionedThroughput"]["ReadCapacityUnits"] == 9
    assert t2["ProvisionedThroughput"]["WriteCapacityUnits"] == 8
    assert t2["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"]["ReadCapacityUnits"] == 3

    with pytest.raises(ClientError) as e:
        ddb.restore_table_from_backup(
            TargetTableName=unique_name("ovr"), BackupArn=arn, BillingModeOverride="PAY_PER_REQUEST",
            ProvisionedThroughputOverride={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})
    assert err(e)[0] == "ValidationException"
    with pytest.raises(ClientError) as e:
        ddb.restore_table_from_backup(
            TargetTableName=unique_name("ovr"), BackupArn=arn,
            GlobalSecondaryIndexOverride=[{"IndexName": "nope", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                           "Projection": {"ProjectionType": "ALL"},
                                           "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}])
    assert err(e)[0] == "ValidationException"


def test_list_backups_filters_and_paging(ddb, unchecked):
    a, b = make_indexed_table(ddb), make_indexed_table(ddb)
    t0 = time.time()
    arns_a = []
    for i in range(3):
        arns_a.append(ddb.create_backup(TableName=a, BackupName=f"bka{i}")["BackupDetails"]["BackupArn"])
        time.sleep(0.002)  # backups of one millisecond have no defined order among themselves
    arn_b = ddb.create_backup(TableName=b, BackupName="bkb0")["BackupDetails"]["BackupArn"]
    for arn in arns_a + [arn_b]:
        wait_backup(ddb, arn)
    listed = ddb.list_backups(TableName=a)["BackupSummaries"]
    assert [s["BackupArn"] for s in listed] == arns_a
    assert all(s["TableName"] == a and s["BackupType"] == "USER" and s["BackupStatus"] == "AVAILABLE" for s in listed)
    # TableName may be the table's ARN.
    table_arn = ddb.describe_table(TableName=a)["Table"]["TableArn"]
    assert [s["BackupArn"] for s in ddb.list_backups(TableName=table_arn)["BackupSummaries"]] == arns_a
    # Paging: Limit and ExclusiveStartBackupArn.
    page = ddb.list_backups(TableName=a, Limit=2)
    assert [s["BackupArn"] for s in page["BackupSummaries"]] == arns_a[:2]
    assert page["LastEvaluatedBackupArn"] == arns_a[1]
    page2 = ddb.list_backups(TableName=a, Limit=2, ExclusiveStartBackupArn=page["LastEvaluatedBackupArn"])
    assert [s["BackupArn"] for s in page2["BackupSummaries"]] == arns_a[2:]
    assert "LastEvaluatedBackupArn" not in page2
    # Time range: lower bound inclusive, upper bound exclusive.
    assert ddb.list_backups(TableName=a, TimeRangeUpperBound=t0 - 60)["BackupSummaries"] == []
    assert len(ddb.list_backups(TableName=a, TimeRangeLowerBound=t0 - 60)["BackupSummaries"]) == 3
    first = listed[0]["BackupCreationDateTime"]
    assert len(ddb.list_backups(TableName=a, TimeRangeLowerBound=first)["BackupSummaries"]) == 3
    assert arns_a[0] not in [s["BackupArn"] for s in
                             ddb.list_backups(TableName=a, TimeRangeUpperBound=first)["BackupSummaries"]]
    # Type filter: no SYSTEM backups here.
    assert ddb.list_backups(TableName=a, BackupType="SYSTEM")["BackupSummaries"] == []
    assert len(ddb.list_backups(TableName=a, BackupType="ALL")["BackupSummaries"]) == 3
    with pytest.raises(ClientError) as e:
        unchecked.list_backups(Limit=0)
    assert err(e) == ("ValidationException", "1 validation error detected: Value '0' at 'limit' failed to satisfy "
                      "constraint: Member must have value greater than or equal to 1")
    with pytest.raises(ClientError) as e:
        unchecked.list_backups(BackupType="NOPE")
    assert err(e)[0] == "ValidationException"


def test_delete_backup(ddb):
    name = make_indexed_table(ddb)
    arn = ddb.create_backup(TableName=name, BackupName="gone")["BackupDetails"]["BackupArn"]
    wait_backup(ddb, arn)
    deleted = ddb.delete_backup(BackupArn=arn)["BackupDescription"]
    assert deleted["BackupDetails"]["BackupStatus"] == "DELETED"
    assert deleted["SourceTableDetails"]["TableName"] == name
    for call in (lambda: ddb.describe_backup(BackupArn=arn), lambda: ddb.delete_backup(BackupArn=arn),
                 lambda: ddb.restore_table_from_backup(TargetTableName=unique_name("x"), BackupArn=arn)):
        with pytest.raises(ClientError) as e:
            call()
        assert err(e) == ("BackupNotFoundException", "Backup not found: " + arn)
    assert arn not in [s["BackupArn"] for s in ddb.list_backups(TableName=name)["BackupSummaries"]]


def test_backup_survives_table_deletion(ddb):
    name = make_indexed_table(ddb)
    put(ddb, name, "a", 1, g={"S": "x"})
    arn = ddb.create_backup(TableName=name, BackupName="keep")["BackupDetails"]["BackupArn"]
    wait_backup(ddb, arn)
    ddb.delete_table(TableName=name)
    # Restoring under the source's own name, now free.
    ddb.restore_table_from_backup(TargetTableName=name, BackupArn=arn)
    wait_active(ddb, name)
    assert len(scan_all(ddb, name)) == 1


def test_errors(ddb, unchecked):
    missing = unique_name("missing")
    with pytest.raises(ClientError) as e:
        unchecked.create_backup(TableName=missing, BackupName="b")
    assert err(e) == ("ValidationException", "1 validation error detected: Value 'b' at 'backupName' failed to "
                      "satisfy constraint: Member must have length greater than or equal to 3")
    with pytest.raises(ClientError) as e:
        ddb.create_backup(TableName=missing, BackupName="bbb")
    assert err(e) == ("TableNotFoundException", "Table not found: " + missing)
    with pytest.raises(ClientError) as e:
        unchecked.create_backup(TableName="ok-table", BackupName="bad name!")
    assert err(e)[0] == "ValidationException"
    bogus = "arn:aws:dynamodb:us-east-1:000000000000:table/x/backup/01234567890123-abcdef12"
    with pytest.raises(ClientError) as e:
        ddb.describe_backup(BackupArn=bogus)
    assert err(e) == ("BackupNotFoundException", "Backup not found: " + bogus)
    with pytest.raises(ClientError) as e:
        unchecked.describe_backup(BackupArn="short")
    assert err(e)[0] == "ValidationException"
    name = make_indexed_table(ddb)
    arn = ddb.create_backup(TableName=name, BackupName="exists")["BackupDetails"]["BackupArn"]
    wait_backup(ddb, arn)
    with pytest.raises(ClientError) as e:
        ddb.restore_table_from_backup(TargetTableName=name, BackupArn=arn)
    assert err(e) == ("TableAlreadyExistsException", "Table already exists: " + name)


def test_backups_persist_across_restart(start_server, tmp_path):
    s = start_server("--data", str(tmp_path / "data"))
    ddb = s.client()
    name = make_indexed_table(ddb)
    for i in range(20):
        put(ddb, name, f"p{i}", i, g={"S": "g"})
    arn = ddb.create_backup(TableName=name, BackupName="durable")["BackupDetails"]["BackupArn"]
    wait_backup(ddb, arn)
    s.stop()
    s2 = start_server("--data", str(tmp_path / "data"))
    ddb2 = s2.client()
    d = ddb2.describe_backup(BackupArn=arn)["BackupDescription"]
    assert d["BackupDetails"]["BackupStatus"] == "AVAILABLE"
    assert d["SourceTableDetails"]["ItemCount"] == 20
    target = unique_name("after-restart")
    ddb2.restore_table_from_backup(TargetTableName=target, BackupArn=arn)
    wait_active(ddb2, target)
    assert scan_all(ddb2, target) == scan_all(ddb2, name)
    s2.stop()
    s3 = start_server("--data", str(tmp_path / "data"))
    t = s3.client().describe_table(TableName=target)["Table"]
    assert t["TableStatus"] == "ACTIVE" and t["RestoreSummary"]["SourceBackupArn"] == arn


def test_list_backups_resumes_after_a_deleted_start(ddb):
    name = make_indexed_table(ddb)
    arns = []
    for i in range(3):
        arns.append(ddb.create_backup(TableName=name, BackupName=f"page{i}")["BackupDetails"]["BackupArn"])
        wait_backup(ddb, arns[-1])
    page = ddb.list_backups(TableName=name, Limit=1)
    assert page["LastEvaluatedBackupArn"] == arns[0]
    ddb.delete_backup(BackupArn=arns[0])
    rest = ddb.list_backups(TableName=name, ExclusiveStartBackupArn=page["LastEvaluatedBackupArn"])
    assert [s["BackupArn"] for s in rest["BackupSummaries"]] == arns[1:]
