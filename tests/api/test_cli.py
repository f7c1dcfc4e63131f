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
