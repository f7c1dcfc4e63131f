"""`monotable backup`, `monotable export` and `monotable import` against a running server, and
against the data directory of a stopped one."""
import json
import subprocess

from conftest import create_pk_table, unique_name
from test_backups import scan_all


def run(binary, *args):
    out = subprocess.run([binary, *args], capture_output=True, text=True, timeout=120)
    return out.returncode, out.stdout, out.stderr


def test_cli_against_a_server_then_a_data_directory(binary, start_server, tmp_path):
    data, s3 = tmp_path / "data", tmp_path / "s3"
    s = start_server("--data", str(data), "--export-dir", str(s3))
    ddb = s.client()
    name = create_pk_table(ddb, "cli")
    for i in range(25):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"k{i}"}, "v": {"N": str(i)}})
    ep = ["--endpoint", s.endpoint]

    code, out, err = run(binary, "backup", "create", name, "nightly", "--wait", *ep)
    assert code == 0, err
    arn = json.loads(out)["BackupDetails"]["BackupArn"]
    code, out, _ = run(binary, "backup", "list", name, *ep)
    assert [b["BackupArn"] for b in json.loads(out)["BackupSummaries"]] == [arn]
    target = unique_name("cli-restored")
    code, out, err = run(binary, "backup", "restore", arn, target, "--wait", *ep)
    assert code == 0, err
    assert "25/25 items" in err  # the progress bar reached the backup's item count
    assert scan_all(ddb, target) == scan_all(ddb, name)

    assert run(binary, "backup", "pitr", name, "on", *ep)[0] == 0
    code, out, _ = run(binary, "backup", "pitr", name, "status", *ep)
    assert json.loads(out)["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"][
        "PointInTimeRecoveryStatus"] == "ENABLED"
    code, out, err = run(binary, "export", name, "--bucket", "bk", "--prefix", "x", "--wait", *ep)
    assert code == 0, err
    manifest = json.loads(out)["ExportDescription"]["ExportArn"]
    export = ddb.describe_export(ExportArn=manifest)["ExportDescription"]
    data_prefix = export["ExportManifest"].rsplit("/", 1)[0] + "/data/"
    imported = unique_name("cli-imported")
    code, out, err = run(binary, "import", imported, "--bucket", "bk", "--prefix", data_prefix, "--gzip",
                         "--key", "pk:S", "--wait", *ep)
    assert code == 0, err
    assert scan_all(ddb, imported) == scan_all(ddb, name)

    # Errors: the server's refusal, exit status 1.
    code, _, err = run(binary, "backup", "create", unique_name("missing"), "bbb", *ep)
    assert code == 1 and "TableNotFoundException" in err
    assert run(binary, "backup", "nonsense", *ep)[0] == 2

    # The same commands on the data directory of the stopped server.
    s.stop()
    offline = ["--data", str(data)]
    code, out, err = run(binary, "backup", "list", name, *offline)
    assert code == 0, err
    assert [b["BackupArn"] for b in json.loads(out)["BackupSummaries"]] == [arn]
    again = unique_name("cli-offline")
    code, out, err = run(binary, "backup", "restore", arn, again, "--wait", *offline)
    assert code == 0, err
    s2 = start_server("--data", str(data))
    assert scan_all(s2.client(), again) == scan_all(s2.client(), name)
