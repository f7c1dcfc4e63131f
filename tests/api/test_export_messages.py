"""The error types, texts and check order of ExportTableToPointInTime, DescribeExport, ListExports,
ImportTable, DescribeImport and ListImports as AWS answers them. Each case names the ack-api-quirks
DynamoDB finding (recorded against AWS in 2026-10) that holds AWS's answer."""
import datetime
import os
import time

import pytest
from botocore.exceptions import ClientError

from conftest import unique_name
from test_backups import err
from test_export_import import ddb, export_root, make_table, srv, unchecked, wait_export  # noqa: F401 (fixtures)

ACCOUNT, REGION = "000000000000", "us-east-1"
PPR_TABLE = {"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "BillingMode": "PAY_PER_REQUEST",
             "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}


def fails(call, **kwargs):
    with pytest.raises(ClientError) as e:
        call(**kwargs)
    return err(e)


def raw_fails(srv, op, body):
    """For members this botocore does not know: (code, message) of the server's answer."""
    import raw
    status, answer, _ = raw.call(srv.port, op, body)
    assert status == 400, answer
    return answer["__type"].rpartition("#")[2], answer.get("message", answer.get("Message"))


def utc(seconds):
    return datetime.datetime.fromtimestamp(seconds, tz=datetime.timezone.utc)


def iso(seconds):
    return utc(int(seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")


def test_export_table_arn(ddb):
    """DDB-EXPORT-001 / DDB-EXPORT-002."""
    name = make_table(ddb)
    arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
    export = ddb.export_table_to_point_in_time
    assert fails(export, TableArn=name, S3Bucket="b1") == (
        "ValidationException", "One or more parameter values were invalid: tableArn is not a valid ARN")
    assert fails(export, TableArn=arn + "/index/byG", S3Bucket="b1") == (
        "ValidationException", "Invalid Request: Table ARN is invalid.")
    assert fails(export, TableArn=arn.replace(f":{ACCOUNT}:", ":123456789012:"), S3Bucket="b1") == (
        "AccessDeniedException", "Access is denied")
    missing = arn + "-nope"
    assert fails(export, TableArn=missing, S3Bucket="b1") == ("TableNotFoundException", "Table not found: " + missing)


def test_export_incremental_couplings(srv, ddb):
    """DDB-EXPORT-003 / DDB-EXPORT-005."""
    name = make_table(ddb)
    arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]

    def export(**kwargs):
        return raw_fails(srv, "ExportTableToPointInTime", {"TableArn": arn, "S3Bucket": "b1", **kwargs})

    now = time.time()
    spec = {"ExportFromTime": now - 60, "ExportToTime": now}
    assert export(IncrementalExportSpecification=spec) == (
        "ValidationException", "Invalid Request: Export Type expected to be Incremental Export when incremental export "
                               "specification is provided")
    assert export(ExportType="FULL_EXPORT", IncrementalExportSpecification=spec) == (
        "ValidationException", "Invalid Request: When Export Type is Full Export , Incremental Export Specification "
                               "should not be provided")
    assert export(ExportType="INCREMENTAL_EXPORT") == (
        "ValidationException", "Invalid Request: Incremental Export Specification expected when export type is set as "
                               "Incremental Export")
    from_missing = ("ValidationException", "Invalid Request: ExportFromTime must be provided in "
                                           "IncrementalExportSpecification")
    assert export(ExportType="INCREMENTAL_EXPORT", IncrementalExportSpecification={}) == from_missing
    assert export(ExportType="INCREMENTAL_EXPORT", IncrementalExportSpecification={"ExportViewType": "NEW_IMAGE"}) == (
        from_missing)
    for algorithm in ({}, {"S3SseAlgorithm": "AES256"}):
        assert export(S3SseKmsKeyId="alias/mine", **algorithm) == (
            "ValidationException", "Invalid Request: KMS Key Id is not supported for this encryption type")


def test_export_times(srv, ddb):
    """DDB-EXPORT-001 / DDB-EXPORT-004: all InvalidExportTimeException."""
    name = make_table(ddb)
    arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
    now = time.time()
    for when in (now + 3600, now - 3600):
        assert fails(ddb.export_table_to_point_in_time, TableArn=arn, S3Bucket="b1", ExportTime=utc(when)) == (
            "InvalidExportTimeException", "Export Time is invalid")

    def incremental(**spec):
        return raw_fails(srv, "ExportTableToPointInTime", {"TableArn": arn, "S3Bucket": "b1",
                                                           "ExportType": "INCREMENTAL_EXPORT",
                                                           "IncrementalExportSpecification": spec})

    before = now - 7200
    assert incremental(ExportFromTime=before) == (
        "InvalidExportTimeException",
        "Incremental export period from time cannot be less than the table creation time : " + iso(before))
    time.sleep(1.1)
    future = time.time() + 3600
    assert incremental(ExportFromTime=now + 0.5, ExportToTime=future) == (
        "InvalidExportTimeException",
        "Incremental export period to time cannot be greater than the current time : " + iso(future))


def test_export_client_token_conflict(ddb):
    """DDB-EXPORT-009."""
    name = make_table(ddb)
    arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
    token = unique_name("tok")
    ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="b1", ClientToken=token)
    assert fails(ddb.export_table_to_point_in_time, TableArn=arn, S3Bucket="b1", S3Prefix="other",
                 ClientToken=token) == (
        "ExportConflictException", "Export conflict: Duplicate request detected with conflicting parameters")


def test_describe_export_and_import_arns(ddb):
    """DDB-EXPORT-006 / DDB-IMPORT-010."""
    name = make_table(ddb)
    table_arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
    export_arn = table_arn + "/export/01234567890123-abcdef12"
    import_arn = table_arn + "/import/01234567890123-abcdef12"
    describe_export, describe_import = ddb.describe_export, ddb.describe_import
    for bad in (table_arn, import_arn, "x" * 40):
        assert fails(describe_export, ExportArn=bad) == ("ValidationException", "Invalid Export ARN")
    assert fails(describe_export, ExportArn=export_arn) == (
        "ExportNotFoundException", "Export not found: Export not found: " + export_arn)
    assert fails(describe_export, ExportArn=export_arn.replace(f":{REGION}:", ":us-west-2:")) == (
        "ExportNotFoundException", "Export not found: Invalid export arn")
    assert fails(describe_export, ExportArn=export_arn.replace(f":{ACCOUNT}:", ":123456789012:")) == (
        "AccessDeniedException", "Access is denied")
    for bad in (table_arn, export_arn, table_arn.rpartition("/")[0] + "/x/import/01658528578619-c4d4e311"):
        assert fails(describe_import, ImportArn=bad) == ("ValidationException", "Invalid Import ARN")
    assert fails(describe_import, ImportArn=import_arn)[0] == "ImportNotFoundException"
    assert fails(describe_import, ImportArn=import_arn.replace(f":{REGION}:", ":us-west-2:"))[0] == (
        "ImportNotFoundException")
    assert fails(describe_import, ImportArn=import_arn.replace(f":{ACCOUNT}:", ":123456789012:"))[0] == (
        "AccessDeniedException")


def test_list_tokens_are_not_interchangeable(ddb, export_root):
    """DDB-EXPORT-006: a ListImports token given to ListExports and the reverse."""
    name = make_table(ddb)
    arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
    for _ in range(2):
        wait_export(ddb, ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="b1")["ExportDescription"]["ExportArn"])
    bucket = export_root / "imp-msg"
    os.makedirs(bucket / "data", exist_ok=True)
    (bucket / "data" / "a.json").write_text('{"Item": {"pk": {"S": "a"}}}\n')
    for _ in range(2):
        ddb.import_table(S3BucketSource={"S3Bucket": "imp-msg", "S3KeyPrefix": "data/"}, InputFormat="DYNAMODB_JSON",
                         TableCreationParameters={"TableName": unique_name("imp"), **PPR_TABLE})
    export_token = ddb.list_exports(MaxResults=1)["NextToken"]
    import_token = ddb.list_imports(PageSize=1)["NextToken"]
    assert fails(ddb.list_exports, NextToken=import_token) == (
        "ValidationException", "Invalid Request: Provided nextToken is invalid: " + import_token)
    # A token of another TableArn's listing is accepted.
    ddb.list_exports(TableArn=arn + "-other", NextToken=export_token)
    bogus = "0123456789abcdef" * 7
    assert fails(ddb.list_imports, NextToken=bogus) == (
        "ValidationException", "Invalid Request: Provided nextToken is invalid: " + bogus)


def test_import_table_messages(ddb):
    """DDB-IMPORT-009 / DDB-IMPORT-017."""
    assert fails(ddb.import_table, S3BucketSource={"S3Bucket": "b1"}, InputFormat="DYNAMODB_JSON",
                 InputFormatOptions={"Csv": {"Delimiter": ","}},
                 TableCreationParameters={"TableName": unique_name("x"), **PPR_TABLE}) == (
        "ValidationException", "Invalid Request: Unsupported InputFormatOptions for the given input format: "
                               "DYNAMODB_JSON.")
    token = unique_name("tok")
    ddb.import_table(S3BucketSource={"S3Bucket": "b1"}, InputFormat="DYNAMODB_JSON", ClientToken=token,
                     TableCreationParameters={"TableName": unique_name("x"), **PPR_TABLE})
    assert fails(ddb.import_table, S3BucketSource={"S3Bucket": "b1"}, InputFormat="DYNAMODB_JSON", ClientToken=token,
                 TableCreationParameters={"TableName": unique_name("y"), **PPR_TABLE}) == (
        "ImportConflictException", "Import conflict: Duplicate request detected with conflicting parameters")


def test_incremental_export_without_pitr(srv, ddb):
    """DDB-EXPORT-001: the window is checked, not PITR; a full export is PITR-unavailable."""
    name = unique_name("nopitr")
    ddb.create_table(TableName=name, **PPR_TABLE)
    arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
    start = time.time() - 30
    assert raw_fails(srv, "ExportTableToPointInTime", {
        "TableArn": arn, "S3Bucket": "b1", "ExportType": "INCREMENTAL_EXPORT",
        "IncrementalExportSpecification": {"ExportFromTime": start}}) == (
        "InvalidExportTimeException",
        "Incremental export period from time cannot be less than the table creation time : " + iso(start))
    assert fails(ddb.export_table_to_point_in_time, TableArn=arn, S3Bucket="no-such-bucket") == (
        "PointInTimeRecoveryUnavailableException", f"Point in time recovery is not enabled for table '{name}'")
