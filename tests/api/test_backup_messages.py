"""The error types, texts and check order of the backup and point-in-time recovery operations, as
AWS answers them. Each case names the ack-api-quirks DynamoDB finding (recorded against AWS in
2026-10) that holds AWS's answer."""
import datetime
import time

import pytest
from botocore.exceptions import ClientError

from conftest import create_pk_table, unique_name
from test_backups import err, make_indexed_table, unchecked, wait_active, wait_backup  # noqa: F401 (fixture)

ACCOUNT, REGION = "000000000000", "us-east-1"


def fails(call, **kwargs):
    with pytest.raises(ClientError) as e:
        call(**kwargs)
    return err(e)


def enable_pitr(ddb, name, **spec):
    return ddb.update_continuous_backups(
        TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True, **spec})


def backup_of(ddb, name):
    arn = ddb.create_backup(TableName=name, BackupName="msg")["BackupDetails"]["BackupArn"]
    wait_backup(ddb, arn)
    return arn


# --- UpdateContinuousBackups (DDB-TABLE-442) ---------------------------------------------------

def raw_fails(server, op, body):
    """For members this botocore does not know: (code, message) of the server's answer."""
    import raw
    status, answer, _ = raw.call(server.port, op, body)
    assert status == 400, answer
    return answer["__type"].rpartition("#")[2], answer.get("message", answer.get("Message"))


def test_recovery_period_when_disabling(server, ddb):
    name = create_pk_table(ddb, "pitrmsg")
    assert raw_fails(server, "UpdateContinuousBackups", {"TableName": name, "PointInTimeRecoverySpecification": {
        "PointInTimeRecoveryEnabled": False, "RecoveryPeriodInDays": 7}}) == (
        "ValidationException",
        "Invalid Request: Cannot specify RecoveryPeriodInDays when disabling point-in-time recovery.")
    # 1..35 is the shape's constraint (generic validator, before anything else).
    code, message = raw_fails(server, "UpdateContinuousBackups", {"TableName": name, "PointInTimeRecoverySpecification": {
        "PointInTimeRecoveryEnabled": True, "RecoveryPeriodInDays": 36}})
    assert code == "ValidationException"
    assert message.startswith("1 validation error detected: Value '36' at "
                              "'pointInTimeRecoverySpecification.recoveryPeriodInDays' failed to satisfy constraint")


# --- RestoreTableToPointInTime (DDB-TABLE-272, DDB-TABLE-100, DDB-TABLE-442, DDB-TABLE-086) ----

def test_pitr_restore_request_shape(ddb):
    name = create_pk_table(ddb, "pitrmsg")
    enable_pitr(ddb, name)
    arn = f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{name}"
    target = unique_name("tgt")
    restore = ddb.restore_table_to_point_in_time
    assert fails(restore, SourceTableName=name, SourceTableArn=arn, TargetTableName=target,
                 UseLatestRestorableTime=True) == (
        "ValidationException", "Must provide exactly one of: sourceTableArn, sourceTableName")
    assert fails(restore, TargetTableName=target, UseLatestRestorableTime=True) == (
        "ValidationException", "The parameter 'TableName' is required but was not present in the request")
    code, message = fails(restore, SourceTableName=name, TargetTableName=target, UseLatestRestorableTime=True,
                          RestoreDateTime=datetime.datetime.now(datetime.timezone.utc))
    assert code == "ValidationException"
    assert message.startswith("Invalid Request: Both RestoreDateTime and UseLatestRestorableTime cannot be set for "
                              "point-in-time restore request. Pleas")
    neither = ("ValidationException", "Invalid Request: Either one of RestoreDateTime or UseLatestRestorableTime "
                                      "must be specified, but not both")
    assert fails(restore, SourceTableName=name, TargetTableName=target) == neither
    assert fails(restore, SourceTableName=name, TargetTableName=target, UseLatestRestorableTime=False) == neither
    assert fails(restore, SourceTableArn="not-an-arn", TargetTableName=target, UseLatestRestorableTime=True) == (
        "ValidationException", "One or more parameter values were invalid: ARNs must start with 'arn:': not-an-arn")


def test_pitr_restore_precedence(ddb):
    """Shape > source exists > PITR on > time > target exists (DDB-TABLE-100)."""
    off = create_pk_table(ddb, "pitrmsg")
    on = create_pk_table(ddb, "pitrmsg")
    enable_pitr(ddb, on)
    other = create_pk_table(ddb, "pitrmsg")
    restore = ddb.restore_table_to_point_in_time
    long_ago = datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)
    missing = unique_name("missing")
    # A missing source beats an existing target.
    assert fails(restore, SourceTableName=missing, TargetTableName=other, UseLatestRestorableTime=True) == (
        "TableNotFoundException", "Table not found: " + missing)
    # PITR off beats an existing target and a bad time.
    not_enabled = ("PointInTimeRecoveryUnavailableException", f"Point in time recovery is not enabled for table '{off}'")
    assert fails(restore, SourceTableName=off, TargetTableName=other, UseLatestRestorableTime=True) == not_enabled
    assert fails(restore, SourceTableName=off, TargetTableName=unique_name("t"), RestoreDateTime=long_ago) == not_enabled
    # A bad time beats an existing target, and quotes both bounds.
    code, message = fails(restore, SourceTableName=on, TargetTableName=other, RestoreDateTime=long_ago)
    assert code == "InvalidRestoreTimeException"
    assert message.startswith("RestoreDateTime '2020-01-01T00:00:00Z' must be within EarliestRestorableDateTime '")
    assert "' and LatestRestor" in message
    # Then the target: another table, or the source itself.
    assert fails(restore, SourceTableName=on, TargetTableName=other, UseLatestRestorableTime=True) == (
        "TableAlreadyExistsException", "Table already exists: " + other)
    assert fails(restore, SourceTableName=on, TargetTableName=on, UseLatestRestorableTime=True) == (
        "TableAlreadyExistsException", "Table already exists: " + on)


# --- Backup ARNs (DDB-BACKUP-012, DDB-TABLE-273, DDB-TABLE-442) --------------------------------

def test_backup_arn_taxonomy(ddb, unchecked):
    name = create_pk_table(ddb, "bkmsg")
    arn = backup_of(ddb, name)
    table_arn = f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{name}"
    for call in (ddb.describe_backup, ddb.delete_backup,
                 lambda BackupArn: ddb.restore_table_from_backup(BackupArn=BackupArn, TargetTableName=unique_name("t"))):
        assert fails(call, BackupArn=table_arn + "/index/someindexname") == ("ValidationException", "Invalid Backup ARN")
        assert fails(call, BackupArn="x" * 48) == ("ValidationException", "Invalid Backup ARN")
        for bad in (arn.replace(f":{REGION}:", ":xx-fake-1:"), arn.replace("arn:aws:", "arn:aws-cn:"),
                    arn.replace(":dynamodb:", ":s3:")):
            assert fails(call, BackupArn=bad) == ("ValidationException", "Invalid Request: BackupArn is not valid")
        assert fails(call, BackupArn=arn.replace(f":{ACCOUNT}:", ":123456789012:")) == (
            "AccessDeniedException", "Access is denied")
        gone = table_arn + "/backup/01234567890123-abcdef12"
        assert fails(call, BackupArn=gone) == ("BackupNotFoundException", "Backup not found: " + gone)
    # The region of the ARN is not compared: another region's spelling finds the backup.
    other_region = arn.replace(f":{REGION}:", ":eu-west-1:")
    described = ddb.describe_backup(BackupArn=other_region)["BackupDescription"]
    assert described["SourceTableDetails"]["TableName"] == name


def test_create_backup_of_a_table_being_restored(ddb):
    """DDB-BACKUP-001: a CREATING table is TableNotFoundException, like a missing one."""
    name = create_pk_table(ddb, "bkmsg")
    for i in range(200):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"k{i}"}, "v": {"S": "x" * 2000}})
    arn = backup_of(ddb, name)
    target = unique_name("tgt")
    ddb.restore_table_from_backup(BackupArn=arn, TargetTableName=target)
    status = ddb.describe_table(TableName=target)["Table"]["TableStatus"]
    if status == "CREATING":
        try:
            ddb.create_backup(TableName=target, BackupName="early")
        except ClientError as e:
            assert (e.response["Error"]["Code"], e.response["Error"]["Message"]) == (
                "TableNotFoundException", "Table not found: " + target)
    wait_active(ddb, target)


def test_list_backups_messages(ddb, unchecked):
    assert fails(ddb.list_backups, TimeRangeLowerBound=datetime.datetime(2024, 1, 2),
                 TimeRangeUpperBound=datetime.datetime(2024, 1, 1)) == (
        "ValidationException",
        "One or more parameter values were invalid: Time range lower bound must be less than or equal to upper bound")
    swapped = f"arn:aws:dynamodb:eu-west-1:{ACCOUNT}:table/x/backup/01234567890123-abcdef12"
    assert fails(ddb.list_backups, ExclusiveStartBackupArn=swapped) == (
        "ValidationException", "Invalid Request: The supplied ExclusiveStartBackupArn does not match the region")
    # A well-formed cursor of this region is a pure position, even if no such backup exists.
    ddb.list_backups(ExclusiveStartBackupArn=swapped.replace(":eu-west-1:", f":{REGION}:"))
    code, message = fails(unchecked.list_backups, Limit=101)
    assert code == "ValidationException" and "at 'limit' failed to satisfy constraint" in message
    code, _ = fails(unchecked.list_backups, BackupType="user")
    assert code == "ValidationException"


# --- RestoreTableFromBackup overrides (DDB-TABLE-273, DDB-TABLE-442) ---------------------------

def test_restore_override_messages(ddb):
    ppr = backup_of(ddb, make_indexed_table(ddb))
    restore = ddb.restore_table_from_backup
    pt = {"ReadCapacityUnits": 2, "WriteCapacityUnits": 2}
    assert fails(restore, BackupArn=ppr, TargetTableName=unique_name("t"), ProvisionedThroughputOverride=pt) == (
        "ValidationException", "Invalid Request: Cannot override ProvisionedThroughput unless BillingMode is PROVISIONED")
    assert fails(restore, BackupArn=ppr, TargetTableName=unique_name("t"), BillingModeOverride="PROVISIONED") == (
        "ValidationException",
        "Invalid Request: Must override ProvisionedThroughput if BillingMode is overridden to PROVISIONED")
    assert fails(restore, BackupArn=ppr, TargetTableName=unique_name("t"), BillingModeOverride="PAY_PER_REQUEST",
                 ProvisionedThroughputOverride=pt) == (
        "ValidationException",
        "Invalid Request: Cannot override ProvisionedThroughput if BillingMode is overridden to PAY_PER_REQUEST")
    assert fails(restore, BackupArn=ppr, TargetTableName=unique_name("t"), BillingModeOverride="PAY_PER_REQUEST",
                 GlobalSecondaryIndexOverride=[{"IndexName": "byG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                                "Projection": {"ProjectionType": "ALL"}, "ProvisionedThroughput": pt}]) == (
        "ValidationException", "Invalid Request: Cannot override ProvisionedThroughput if BillingMode is overridden to "
                               "PAY_PER_REQUEST for index byG")
    assert fails(restore, BackupArn=ppr, TargetTableName=unique_name("t"), GlobalSecondaryIndexOverride=[
        {"IndexName": "brandNew", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
         "Projection": {"ProjectionType": "ALL"}}]) == (
        "ValidationException", "Invalid Request: Index brandNew does not match a secondary index that existed in the "
                               "source table and cannot be created during the restore operation")


def test_restore_target_and_backup_in_use(ddb):
    """DDB-TABLE-219 / DDB-BACKUP-010: while a restore runs, its target is in use and its backup
    feeds no other restore and cannot be deleted."""
    name = create_pk_table(ddb, "bkmsg")
    arn = backup_of(ddb, name)
    other = backup_of(ddb, name)
    # Restores run one after another: one of a big backup first keeps the small one waiting.
    big = create_pk_table(ddb, "bkbig")
    for batch in range(8):
        ddb.batch_write_item(RequestItems={big: [
            {"PutRequest": {"Item": {"pk": {"S": f"k{batch}-{i}"}, "v": {"S": "x" * 300_000}}}} for i in range(25)]})
    ddb.restore_table_from_backup(BackupArn=backup_of(ddb, big), TargetTableName=unique_name("bigt"))
    target = unique_name("tgt")
    ddb.restore_table_from_backup(BackupArn=arn, TargetTableName=target)
    checked = False
    while ddb.describe_table(TableName=target)["Table"]["TableStatus"] == "CREATING":
        answers = []
        for call, kwargs in ((ddb.restore_table_from_backup, {"BackupArn": other, "TargetTableName": target}),
                             (ddb.restore_table_from_backup, {"BackupArn": arn, "TargetTableName": unique_name("t")}),
                             (ddb.delete_backup, {"BackupArn": arn})):
            try:
                call(**kwargs)
                answers.append(None)
            except ClientError as e:
                answers.append((e.response["Error"]["Code"], e.response["Error"]["Message"]))
        if ddb.describe_table(TableName=target)["Table"]["TableStatus"] != "CREATING":
            break  # the restore finished in between: the answers may be of either state
        assert answers == [
            ("TableInUseException", f"Table: {target} is already being restored from backup: {arn}"),
            ("BackupInUseException", "Backup is being used to restore another table: " + arn),
            ("BackupInUseException", "Backup is being used to restore table: " + arn)]
        checked = True
        break
    wait_active(ddb, target)
    assert fails(ddb.restore_table_from_backup, BackupArn=other, TargetTableName=target) == (
        "TableAlreadyExistsException", "Table already exists: " + target)
    if not checked:
        pytest.skip("the restore finished before it could be observed")
