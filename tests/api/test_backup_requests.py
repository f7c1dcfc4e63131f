"""Malformed and hostile requests to the backup, PITR, export and import operations: every one gets a
400 with a DynamoDB error type, never a 500 or a dropped connection."""
import itertools

import pytest

import raw
from conftest import create_pk_table

OPS = ["CreateBackup", "DescribeBackup", "ListBackups", "DeleteBackup", "RestoreTableFromBackup",
       "UpdateContinuousBackups", "DescribeContinuousBackups", "RestoreTableToPointInTime",
       "ExportTableToPointInTime", "DescribeExport", "ListExports", "ImportTable", "DescribeImport", "ListImports"]

ODD_VALUES = [None, True, 1, -1, 1.5, "", "x", "arn:aws:dynamodb:us-east-1:000000000000:table/x", [], [1], {}, {"a": 1},
              "a" * 2000]

MEMBERS = ["TableName", "BackupName", "BackupArn", "TargetTableName", "SourceTableName", "SourceTableArn",
           "RestoreDateTime", "UseLatestRestorableTime", "Limit", "TimeRangeLowerBound", "BackupType",
           "ExclusiveStartBackupArn", "PointInTimeRecoverySpecification", "BillingModeOverride",
           "GlobalSecondaryIndexOverride", "LocalSecondaryIndexOverride", "ProvisionedThroughputOverride",
           "SSESpecificationOverride", "TableArn", "ExportTime", "S3Bucket", "S3Prefix", "ExportFormat", "ExportArn",
           "ClientToken", "MaxResults", "NextToken", "S3BucketSource", "InputFormat", "InputFormatOptions",
           "InputCompressionType", "TableCreationParameters", "ImportArn", "PageSize"]


@pytest.mark.parametrize("op", OPS)
def test_odd_members_get_client_errors(server, op):
    for member, value in itertools.product(MEMBERS, ODD_VALUES):
        status, body, _ = raw.call(server.port, op, {member: value})
        # The List operations take only optional members: a request of those may succeed.
        assert status == 400 or (status == 200 and op.startswith("List")), (op, member, value, body)
        if status == 400:
            assert body and body["__type"].split("#")[-1] != "InternalServerError", (op, member, value, body)
    for body in ("", "{", "[]", "null", '{"TableName": "t"'):
        status, parsed, _ = raw.call(server.port, op, body)
        assert status == 400, (op, body, parsed)


def test_deep_and_wrong_shapes(server, ddb):
    name = create_pk_table(ddb, "odd")
    ddb.update_continuous_backups(TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    requests = [
        ("RestoreTableToPointInTime", {"SourceTableName": name, "TargetTableName": "odd-target-1",
                                       "RestoreDateTime": 1e300}),
        ("RestoreTableToPointInTime", {"SourceTableName": name, "TargetTableName": "odd-target-2",
                                       "RestoreDateTime": -1e300}),
        ("RestoreTableToPointInTime", {"SourceTableName": name, "TargetTableName": "odd-target-3",
                                       "UseLatestRestorableTime": True,
                                       "GlobalSecondaryIndexOverride": [{"IndexName": "abc"}]}),
        ("ListBackups", {"TimeRangeLowerBound": 10, "TimeRangeUpperBound": 5}),
        ("ListBackups", {"TimeRangeLowerBound": 1e300}),
        ("ExportTableToPointInTime", {"TableArn": "not-an-arn", "S3Bucket": "bucket"}),
        ("ExportTableToPointInTime", {"TableArn": "arn:aws:dynamodb:us-east-1:000000000000:table/" + name,
                                      "S3Bucket": "bucket", "ExportType": "INCREMENTAL_EXPORT"}),
        ("ImportTable", {"S3BucketSource": {"S3Bucket": "bucket"}, "InputFormat": "ION",
                         "TableCreationParameters": {"TableName": "odd-import", "KeySchema": [
                             {"AttributeName": "pk", "KeyType": "HASH"}],
                             "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                             "BillingMode": "PAY_PER_REQUEST"}}),
        ("ImportTable", {"S3BucketSource": {"S3Bucket": "bucket"}, "InputFormat": "CSV",
                         "TableCreationParameters": {"TableName": "odd-import", "KeySchema": [
                             {"AttributeName": "pk", "KeyType": "RANGE"}],
                             "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                             "BillingMode": "PAY_PER_REQUEST"}}),
        ("ImportTable", {"S3BucketSource": {"S3Bucket": "bucket"}, "InputFormat": "CSV",
                         "TableCreationParameters": {"TableName": "odd-import", "KeySchema": [
                             {"AttributeName": "nope", "KeyType": "HASH"}],
                             "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                             "BillingMode": "PAY_PER_REQUEST"}}),
        ("ListImports", {"NextToken": "0" * 112}),
        ("ListImports", {"NextToken": "zz"}),
    ]
    for op, body in requests:
        status, parsed, _ = raw.call(server.port, op, body)
        assert status in (200, 400), (op, body, parsed)
        if status == 400:
            assert parsed["__type"].split("#")[-1] != "InternalServerError", (op, body, parsed)
    # None of the refused restores created a table.
    names = ddb.list_tables()["TableNames"]
    assert not any(n.startswith("odd-target") for n in names)
