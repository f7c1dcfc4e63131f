"""The AWS CLI v2 (Debian's awscli) works unmodified against the server."""
import json
import os
import shutil
import subprocess

import pytest

from conftest import unique_name

pytestmark = pytest.mark.skipif(shutil.which("aws") is None, reason="awscli not installed")


def aws(server, *args):
    env = dict(os.environ, AWS_ACCESS_KEY_ID="AKIDTEST", AWS_SECRET_ACCESS_KEY="secret",
               AWS_DEFAULT_REGION="us-east-1", AWS_PAGER="")
    out = subprocess.run(["aws", "--endpoint-url", server.endpoint, "--output", "json", "dynamodb", *args],
                         env=env, capture_output=True, text=True, timeout=60)
    return out.returncode, out.stdout, out.stderr


def test_create_put_get_delete(server):
    name = unique_name("cli")
    rc, out, err = aws(server, "create-table", "--table-name", name,
                       "--attribute-definitions", "AttributeName=pk,AttributeType=S",
                       "AttributeName=sk,AttributeType=S",
                       "--key-schema", "AttributeName=pk,KeyType=HASH", "AttributeName=sk,KeyType=RANGE",
                       "--billing-mode", "PAY_PER_REQUEST")
    assert rc == 0, err
    assert json.loads(out)["TableDescription"]["TableName"] == name

    rc, _, err = aws(server, "wait", "table-exists", "--table-name", name)
    assert rc == 0, err

    item = {"pk": {"S": "USER#1"}, "sk": {"S": "PROFILE"}, "age": {"N": "42"}, "tags": {"SS": ["x", "y"]}}
    rc, _, err = aws(server, "put-item", "--table-name", name, "--item", json.dumps(item))
    assert rc == 0, err

    rc, out, err = aws(server, "get-item", "--table-name", name,
                       "--key", json.dumps({"pk": {"S": "USER#1"}, "sk": {"S": "PROFILE"}}))
    assert rc == 0, err
    assert json.loads(out)["Item"] == item

    rc, out, err = aws(server, "describe-table", "--table-name", name)
    assert rc == 0, err
    assert json.loads(out)["Table"]["ItemCount"] == 1

    rc, out, err = aws(server, "get-item", "--table-name", name, "--key", json.dumps({"pk": {"S": "USER#1"}}))
    assert rc != 0
    assert "ValidationException" in err and "The provided key element does not match the schema" in err

    rc, _, err = aws(server, "delete-table", "--table-name", name)
    assert rc == 0, err
    rc, _, err = aws(server, "describe-table", "--table-name", name)
    assert rc != 0 and "ResourceNotFoundException" in err


def test_size_command_matches_aws_rules(binary, tmp_path):
    table = tmp_path / "table.json"
    table.write_text(json.dumps({"Table": {
        "TableName": "t", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "GlobalSecondaryIndexes": [
            {"IndexName": "byage", "KeySchema": [{"AttributeName": "age", "KeyType": "HASH"}],
             "Projection": {"ProjectionType": "KEYS_ONLY"}},
            {"IndexName": "byzip", "KeySchema": [{"AttributeName": "zip", "KeyType": "HASH"}],
             "Projection": {"ProjectionType": "ALL"}}]}}))
    items = '{"pk": "USER#1", "age": 42, "tags": ["a", "b"], "m": {"x": null}, "blob": "' + "x" * 2000 + '"}\n' \
            '{"pk": {"S": "x"}, "n": {"N": "12345678901234567890123456789012345678"}}\n'
    out = subprocess.run([binary, "size", "--table", str(table)], input=items, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "item 1: 2035 bytes"
    assert "2 WCU standard, 4 transactional" in lines[2]
    assert lines[3] == "  index byage: entry 13 bytes, insert 1 WCU, read 0.5 RCU eventual"
    assert lines[4] == "  index byzip: not indexed (a key attribute is missing)"
    assert lines[5] == "  insert with indexes: 3 WCU"
    assert "item 2: 24 bytes" in out.stdout
    bad = subprocess.run([binary, "size"], input='{"pk": {"N": "1e200"}}', capture_output=True, text=True)
    assert bad.returncode == 1 and "Number overflow" in bad.stderr

