"""The RocksDB options of `monotable serve` (--block-cache-mb, --write-buffer-mb, --background-jobs,
--wal-dir), their validation, and a data directory the server refuses to open (it says why and
leaves every file as it was)."""
import os
import subprocess

import pytest

from conftest import unique_name


def run_serve(binary, *args):
    return subprocess.run([binary, "serve", "--port", "0", *args], capture_output=True, text=True, timeout=30)


def files_of(path):
    out = {}
    for root, _, names in os.walk(path):
        for n in names:
            p = os.path.join(root, n)
            with open(p, "rb") as f:
                out[os.path.relpath(p, path)] = f.read()
    return out


def test_knobs_and_wal_dir_serve_and_persist(start_server, tmp_path):
    data, wal = str(tmp_path / "db"), str(tmp_path / "wal")
    args = ["--data", data, "--wal-dir", wal, "--block-cache-mb", "8", "--write-buffer-mb", "4",
            "--background-jobs", "1"]
    s = start_server(*args)
    c = s.client()
    name = unique_name()
    c.create_table(TableName=name, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                   AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                   BillingMode="PAY_PER_REQUEST")
    c.put_item(TableName=name, Item={"pk": {"S": "a"}, "v": {"N": "1"}})
    assert any(f.endswith(".log") for f in os.listdir(wal))
    assert not any(f.endswith(".log") for f in os.listdir(data))
    s.stop()
    c2 = start_server(*args).client()
    assert c2.get_item(TableName=name, Key={"pk": {"S": "a"}})["Item"]["v"] == {"N": "1"}


@pytest.mark.parametrize("args, message", [
    (["--block-cache-mb", "-1"], "--block-cache-mb needs a number of MB"),
    (["--block-cache-mb", "lots"], "--block-cache-mb needs a number of MB"),
    (["--write-buffer-mb", "0"], "--write-buffer-mb needs a number of MB from 1"),
    (["--background-jobs", "0"], "--background-jobs needs a number from 1 to 64"),
    (["--background-jobs"], "--background-jobs needs a number"),
    (["--wal-dir"], "--wal-dir needs a directory"),
    (["--in-memory", "--write-buffer-mb", "8"], "need a RocksDB --data directory"),
])
def test_bad_knobs_are_refused(binary, args, message):
    r = run_serve(binary, *args)
    assert r.returncode == 2
    assert message in r.stderr
    assert "usage: monotable serve" in r.stderr


def test_directory_without_current_is_refused_untouched(start_server, binary, tmp_path):
    data = str(tmp_path / "db")
    s = start_server("--data", data)
    c = s.client()
    name = unique_name()
    c.create_table(TableName=name, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                   AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                   BillingMode="PAY_PER_REQUEST")
    c.put_item(TableName=name, Item={"pk": {"S": "a"}})
    s.stop()
    os.remove(os.path.join(data, "CURRENT"))
    before = files_of(data)
    r = run_serve(binary, "--data", data)
    assert r.returncode == 1
    assert "cannot open database" in r.stderr and "no CURRENT file" in r.stderr and data in r.stderr
    assert files_of(data) == before
