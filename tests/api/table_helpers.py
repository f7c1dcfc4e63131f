"""Shared by the control-plane tests (test_tables.py, test_table_lifecycle.py): raw-call helpers,
the error types and messages AWS uses, and request builders for keys, attributes and indexes."""
import re

import pytest

from raw import call


VALIDATION = "com.amazon.coral.validate#ValidationException"
SERIALIZATION = "com.amazon.coral.service#SerializationException"
NOT_FOUND = "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException"
IN_USE = "com.amazonaws.dynamodb.v20120810#ResourceInUseException"
ACCOUNT = "000000000000"
UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
PATTERN = "[a-zA-Z0-9_.-]+"
INVALID = "One or more parameter values were invalid: "

TABLE_OPS = ["CreateTable", "DescribeTable", "DeleteTable", "UpdateTable"]


def arn(name):
    return f"arn:aws:dynamodb:us-east-1:{ACCOUNT}:table/{name}"


def error(server, op, body):
    status, parsed, _ = call(server.port, op, body)
    assert status == 400, parsed
    message = parsed.get("message", parsed.get("Message"))
    return parsed["__type"], message


def assert_validation(server, op, body, message):
    assert error(server, op, body) == (VALIDATION, message)


def assert_validations(server, op, body, messages):
    """AWS joins up to 10 constraint violations after a count. Which ones make the cut follows the
    shape's member order; the order inside the message is not stable on AWS (dynalite's recorded
    tests compare them as a set), so neither is it here."""
    n = len(messages)
    kind, message = error(server, op, body)
    assert kind == VALIDATION
    prefix = f"{n} validation error{'s' if n > 1 else ''} detected: "
    assert message.startswith(prefix), message
    assert sorted(message[len(prefix):].split("; ")) == sorted(messages)


def assert_serialization(server, op, body, message):
    assert error(server, op, body) == (SERIALIZATION, message)


def ok(server, op, body):
    status, parsed, _ = call(server.port, op, body)
    assert status == 200, parsed
    return parsed


def null(path):
    return f"Value null at '{path}' failed to satisfy constraint: Member must not be null"


def ks(*pairs):
    return [{"AttributeName": n, "KeyType": t} for n, t in pairs]


def ad(*pairs):
    return [{"AttributeName": n, "AttributeType": t} for n, t in pairs]


PT1 = {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}
AB = ad(("a", "S"), ("b", "S"))
HASH_A = ks(("a", "HASH"))
HASH_A_RANGE_B = ks(("a", "HASH"), ("b", "RANGE"))


def lsi(name, keys=HASH_A_RANGE_B, projection=None):
    return {"IndexName": name, "KeySchema": keys,
            "Projection": {"ProjectionType": "ALL"} if projection is None else projection}


def gsi(name, keys=HASH_A_RANGE_B, projection=None, throughput=PT1):
    index = {"IndexName": name, "KeySchema": keys,
             "Projection": {"ProjectionType": "ALL"} if projection is None else projection}
    if throughput is not None:
        index["ProvisionedThroughput"] = throughput
    return index


def create_raw(server, name, **extra):
    body = {"TableName": name, "AttributeDefinitions": ad(("a", "S")), "KeySchema": HASH_A,
            "BillingMode": "PAY_PER_REQUEST"}
    body.update(extra)
    return ok(server, "CreateTable", body)["TableDescription"]


def describe_raw(server, name):
    return ok(server, "DescribeTable", {"TableName": name})["Table"]



def create_lsi_body(indexes, keys=HASH_A_RANGE_B, defs=AB):
    return {"TableName": "abc", "AttributeDefinitions": defs, "KeySchema": keys,
            "LocalSecondaryIndexes": indexes, "ProvisionedThroughput": PT1}


def create_gsi_body(indexes, keys=HASH_A_RANGE_B, defs=AB, **extra):
    body = {"TableName": "abc", "AttributeDefinitions": defs, "KeySchema": keys,
            "GlobalSecondaryIndexes": indexes, "ProvisionedThroughput": PT1}
    body.update(extra)
    return body


def check_no_table_abc_left(server):
    """Validation cases send table 'abc'; one that wrongly succeeds must not leak into later cases."""
    status, _, _ = call(server.port, "DescribeTable", {"TableName": "abc"})
    if status == 200:
        call(server.port, "DeleteTable", {"TableName": "abc"})
        pytest.fail("a validation case created table 'abc'")
