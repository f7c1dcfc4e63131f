"""Point-in-time recovery through boto3: UpdateContinuousBackups, DescribeContinuousBackups and
RestoreTableToPointInTime."""
import datetime
import time

import pytest
from botocore.exceptions import ClientError

from conftest import create_pk_table, unique_name
from test_backups import err, scan_all, unchecked, wait_active  # noqa: F401 (fixture)


def pitr_of(ddb, name):
    return ddb.describe_continuous_backups(TableName=name)["ContinuousBackupsDescription"]


def enable(ddb, name):
    return ddb.update_continuous_backups(
        TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})


def test_enable_disable_describe(ddb):
    name = create_pk_table(ddb, "pitr")
    d = pitr_of(ddb, name)
    assert d["ContinuousBackupsStatus"] == "ENABLED"
    assert d["PointInTimeRecoveryDescription"] == {"PointInTimeRecoveryStatus": "DISABLED"}
    before = time.time()
    out = enable(ddb, name)["ContinuousBackupsDescription"]
    p = out["PointInTimeRecoveryDescription"]
    assert p["PointInTimeRecoveryStatus"] == "ENABLED"
    earliest = p["EarliestRestorableDateTime"].timestamp()
    latest = p["LatestRestorableDateTime"].timestamp()
    assert before - 1 <= earliest <= latest <= time.time() + 1
    assert pitr_of(ddb, name)["PointInTimeRecoveryDescription"]["PointInTimeRecoveryStatus"] == "ENABLED"
    off = ddb.update_continuous_backups(
        TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": False})
    assert off["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"] == {
        "PointInTimeRecoveryStatus": "DISABLED"}
    with pytest.raises(ClientError) as e:
        ddb.restore_table_to_point_in_time(SourceTableName=name, TargetTableName=unique_name("t"),
                                           UseLatestRestorableTime=True)
    assert err(e) == ("PointInTimeRecoveryUnavailableException",
                      f"Point in time recovery is not enabled for table '{name}'")


def test_restore_to_a_second_between_two_writes(ddb):
    name = create_pk_table(ddb, "pitr", "N")
    enable(ddb, name)
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "sk": {"N": "1"}, "v": {"S": "first"}})
    ddb.put_item(TableName=name, Item={"pk": {"S": "gone"}, "sk": {"N": "1"}})
    time.sleep(1.2)
    between = datetime.datetime.fromtimestamp(time.time(), tz=datetime.timezone.utc)
    time.sleep(1.2)
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "sk": {"N": "1"}, "v": {"S": "second"}})
    ddb.put_item(TableName=name, Item={"pk": {"S": "b"}, "sk": {"N": "2"}})
    ddb.delete_item(TableName=name, Key={"pk": {"S": "gone"}, "sk": {"N": "1"}})
    state_between = [{"pk": {"S": "a"}, "sk": {"N": "1"}, "v": {"S": "first"}}, {"pk": {"S": "gone"}, "sk": {"N": "1"}}]

    target = unique_name("pitr-at")
    out = ddb.restore_table_to_point_in_time(SourceTableName=name, TargetTableName=target, RestoreDateTime=between)
    summary = out["TableDescription"]["RestoreSummary"]
    assert summary["RestoreInProgress"] is True and "SourceBackupArn" not in summary
    # boto3 sends timestamps in whole seconds: the restore is to the second `between` falls in.
    assert summary["RestoreDateTime"].timestamp() == int(between.timestamp())
    t = wait_active(ddb, target)
    assert t["RestoreSummary"]["SourceTableArn"].endswith(":table/" + name)
    assert scan_all(ddb, target) == state_between
    assert t["ItemCount"] == 2

    # The latest restorable time holds every write so far.
    latest = unique_name("pitr-latest")
    table_arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
    ddb.restore_table_to_point_in_time(SourceTableArn=table_arn, TargetTableName=latest, UseLatestRestorableTime=True)
    wait_active(ddb, latest)
    assert scan_all(ddb, latest) == scan_all(ddb, name)


def test_restore_time_outside_window(ddb):
    name = create_pk_table(ddb, "pitr")
    enable(ddb, name)
    for when in (time.time() - 3600, time.time() + 3600):
        with pytest.raises(ClientError) as e:
            ddb.restore_table_to_point_in_time(
                SourceTableName=name, TargetTableName=unique_name("t"),
                RestoreDateTime=datetime.datetime.fromtimestamp(when, tz=datetime.timezone.utc))
        assert err(e)[0] == "InvalidRestoreTimeException"


def test_errors(ddb, unchecked):
    missing = unique_name("missing")
    for call in (lambda: ddb.describe_continuous_backups(TableName=missing),
                 lambda: enable(ddb, missing),
                 lambda: ddb.restore_table_to_point_in_time(SourceTableName=missing,
                                                            TargetTableName=unique_name("t"),
                                                            UseLatestRestorableTime=True)):
        with pytest.raises(ClientError) as e:
            call()
        assert err(e) == ("TableNotFoundException", "Table not found: " + missing)
    name = create_pk_table(ddb, "pitr")
    enable(ddb, name)
    with pytest.raises(ClientError) as e:
        ddb.restore_table_to_point_in_time(SourceTableName=name, TargetTableName=name, UseLatestRestorableTime=True)
    assert err(e) == ("TableAlreadyExistsException", "Table already exists: " + name)
    with pytest.raises(ClientError) as e:
        ddb.restore_table_to_point_in_time(SourceTableName=name, TargetTableName=unique_name("t"))
    assert err(e)[0] == "ValidationException"
    with pytest.raises(ClientError) as e:
        ddb.restore_table_to_point_in_time(TargetTableName=unique_name("t"), UseLatestRestorableTime=True)
    assert err(e)[0] == "ValidationException"
    with pytest.raises(ClientError) as e:
        unchecked.update_continuous_backups(TableName=name, PointInTimeRecoverySpecification={})
    assert err(e)[0] == "ValidationException"
    with pytest.raises(ClientError) as e:
        unchecked.update_continuous_backups(TableName=name)
    assert err(e)[0] == "ValidationException"


def test_pitr_survives_restart(start_server, tmp_path):
    s = start_server("--data", str(tmp_path / "data"))
    ddb = s.client()
    name = create_pk_table(ddb, "pitr")
    enable(ddb, name)
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "v": {"N": "1"}})
    time.sleep(1.1)
    mark = time.time()
    time.sleep(1.1)
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "v": {"N": "2"}})
    s.stop()
    s2 = start_server("--data", str(tmp_path / "data"))
    ddb2 = s2.client()
    assert pitr_of(ddb2, name)["PointInTimeRecoveryDescription"]["PointInTimeRecoveryStatus"] == "ENABLED"
    target = unique_name("pitr-restart")
    ddb2.restore_table_to_point_in_time(SourceTableName=name, TargetTableName=target,
                                        RestoreDateTime=datetime.datetime.fromtimestamp(mark, tz=datetime.timezone.utc))
    wait_active(ddb2, target)
    assert ddb2.scan(TableName=target)["Items"] == [{"pk": {"S": "a"}, "v": {"N": "1"}}]


def test_deleting_a_pitr_table_leaves_a_system_backup(ddb):
    name = create_pk_table(ddb, "pitr-del")
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "v": {"N": "1"}})
    plain = create_pk_table(ddb, "plain-del")
    enable(ddb, name)
    before = scan_all(ddb, name)
    ddb.delete_table(TableName=name)
    ddb.delete_table(TableName=plain)  # no PITR: no backup
    assert ddb.list_backups(TableName=name)["BackupSummaries"] == []  # USER backups only, by default
    system = ddb.list_backups(TableName=name, BackupType="SYSTEM")["BackupSummaries"]
    assert len(system) == 1
    s = system[0]
    assert s["BackupType"] == "SYSTEM" and s["BackupName"] == name + "$DeletedTableBackup"
    days = (s["BackupExpiryDateTime"] - s["BackupCreationDateTime"]).total_seconds() / 86400
    assert abs(days - 35) < 0.01
    assert [b["BackupArn"] for b in ddb.list_backups(TableName=name, BackupType="ALL")["BackupSummaries"]] == [
        s["BackupArn"]]
    assert ddb.list_backups(TableName=plain, BackupType="ALL")["BackupSummaries"] == []
    deadline = time.time() + 30
    while ddb.describe_backup(BackupArn=s["BackupArn"])["BackupDescription"]["BackupDetails"][
            "BackupStatus"] != "AVAILABLE":
        assert time.time() < deadline
        time.sleep(0.05)
    # Not deletable (ack-api-quirks DDB-BACKUP-015, DDB-TABLE-442; the timestamp's exact format is
    # not recorded beyond its date).
    with pytest.raises(ClientError) as e:
        ddb.delete_backup(BackupArn=s["BackupArn"])
    code, message = err(e)
    assert code == "ValidationException"
    assert message.startswith("Invalid Request: User is not allowed to delete the system backup with arn "
                              + s["BackupArn"] + ". It will automatically expire on "
                              + s["BackupExpiryDateTime"].astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT"))
    # A deleted table has no point-in-time window of its own: AWS restores it through this system
    # backup (the state just before the deletion; developer guide, "Before you begin using point-in-time
    # recovery"), and RestoreTableToPointInTime answers as for any missing source table.
    with pytest.raises(ClientError) as e:
        ddb.restore_table_to_point_in_time(SourceTableName=name, TargetTableName=unique_name("pitr-gone"),
                                           UseLatestRestorableTime=True)
    assert err(e) == ("TableNotFoundException", "Table not found: " + name)
    target = unique_name("undeleted")
    ddb.restore_table_from_backup(TargetTableName=target, BackupArn=s["BackupArn"])
    wait_active(ddb, target)
    assert scan_all(ddb, target) == before
