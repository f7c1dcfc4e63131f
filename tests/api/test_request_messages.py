"""Required-parameter, length and range messages as AWS words them today, and which one wins.

Sources, all recorded against AWS: the dynamodb-conformance suite (tests/tier3/error-messages/
and validation-ordering/, four regions, 2026) and ack-api-quirks' DynamoDB error catalogue. Where
AWS is midway through moving a message to its constraint framework (the empty RequestItems of
the batch operations), the wording most regions still give is the one pinned here. Requests that
boto3 would refuse client-side go through raw HTTP."""
import pytest

from conftest import unique_name
from raw import call

VALIDATION = "com.amazon.coral.validate#ValidationException"
NOT_FOUND = "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException"
PATTERN = "[a-zA-Z0-9_.-]+"


def answer(server, op, body):
    status, parsed, _ = call(server.port, op, body)
    assert status == 400, parsed
    return parsed["__type"], parsed.get("message", parsed.get("Message"))


@pytest.fixture(scope="module")
def table(ddb):
    name = unique_name()
    ddb.create_table(TableName=name, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     BillingMode="PAY_PER_REQUEST")
    return name


# ---- TableName of the item operations ---------------------------------------------------------


@pytest.mark.parametrize("op,extra", [
    ("PutItem", {"Item": {"pk": {"S": "x"}}}),
    ("GetItem", {"Key": {"pk": {"S": "x"}}}),
    ("DeleteItem", {"Key": {"pk": {"S": "x"}}}),
    ("UpdateItem", {"Key": {"pk": {"S": "x"}}}),
    ("Query", {"KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "x"}}}),
    ("Scan", {}),
])
def test_item_operation_table_names(server, op, extra):
    # error-messages/putItem.test.ts: a missing name, an empty one (its length constraint only),
    # one too long, one with a character outside the pattern.
    assert answer(server, op, extra) == (VALIDATION, "1 validation error detected: Value null at 'tableName' failed to "
                                                     "satisfy constraint: Member must not be null")
    assert answer(server, op, {"TableName": "", **extra}) == (
        VALIDATION, "1 validation error detected: Value '' at 'tableName' failed to satisfy constraint: Member must have "
                    "length greater than or equal to 1")
    long = "a" * 256
    assert answer(server, op, {"TableName": long, **extra}) == (
        VALIDATION, f"1 validation error detected: Value '{long}' at 'tableName' failed to satisfy constraint: Member "
                    "must have length less than or equal to 255")
    assert answer(server, op, {"TableName": "bad table!@#", **extra}) == (
        VALIDATION, "1 validation error detected: Value 'bad table!@#' at 'tableName' failed to satisfy constraint: "
                    f"Member must satisfy regular expression pattern: {PATTERN}")
    # The item operations take names (and ARNs) from one character on: a short name is simply
    # not found (AWS's API model: TableName of 1 to 1024 characters).
    assert answer(server, op, {"TableName": "ab", **extra}) == (NOT_FOUND, "Requested resource not found")


def test_create_table_without_a_name(server):
    # error-messages/createTable.test.ts: the control-plane operations keep the older wording.
    assert answer(server, "CreateTable", {"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                                          "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                                          "BillingMode": "PAY_PER_REQUEST"}) == (
        VALIDATION, "The parameter 'TableName' is required but was not present in the request")


# ---- batch operations -------------------------------------------------------------------------


@pytest.mark.parametrize("op", ["BatchGetItem", "BatchWriteItem"])
def test_empty_request_items(server, op):
    # error-messages/batchGetItem.test.ts and batchWriteItem.test.ts: by AWS's 2026-09-02 sweep every region
    # but me-central-1 answered an empty BatchGetItem in the constraint framework's words; BatchWriteItem
    # keeps its own sentence.
    expected = ("1 validation error detected: Value at 'RequestItems' failed to satisfy constraint: Member must "
                "have length greater than or equal to 1") if op == "BatchGetItem" else \
        "The requestItems parameter is required for BatchWriteItem"
    assert answer(server, op, {"RequestItems": {}}) == (VALIDATION, expected)
    assert answer(server, op, {}) == (VALIDATION, "1 validation error detected: Value null at 'requestItems' failed "
                                                  "to satisfy constraint: Member must not be null")
    # A constraint violation elsewhere is reported first, in the framework's words.
    assert answer(server, op, {"RequestItems": {}, "ReturnConsumedCapacity": "ALL"}) == (
        VALIDATION, "1 validation error detected: Value 'ALL' at 'returnConsumedCapacity' failed to satisfy "
                    "constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]")


def test_batch_write_of_more_than_25_requests(server, table):
    requests = [{"PutRequest": {"Item": {"pk": {"S": f"bw-{i}"}}}} for i in range(26)]
    code, message = answer(server, "BatchWriteItem", {"RequestItems": {table: requests}})
    assert code == VALIDATION
    assert message.startswith("1 validation error detected: Value '")
    assert message.endswith("' at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: "
                            "[Member must have length less than or equal to 25, Member must have length greater than "
                            "or equal to 1]")


def test_duplicate_keys_in_batches(server, table):
    assert answer(server, "BatchGetItem", {"RequestItems": {table: {"Keys": [{"pk": {"S": "d"}}, {"pk": {"S": "d"}}]}}}
                  ) == (VALIDATION, "Provided list of item keys contains duplicates")
    assert answer(server, "BatchWriteItem", {"RequestItems": {table: [
        {"PutRequest": {"Item": {"pk": {"S": "d"}}}}, {"DeleteRequest": {"Key": {"pk": {"S": "d"}}}}]}}) == (
        VALIDATION, "Provided list of item keys contains duplicates")


# ---- Scan and Query ranges --------------------------------------------------------------------


def test_scan_segments_and_limit(server, table):
    # error-messages/scan.test.ts.
    assert answer(server, "Scan", {"TableName": table, "Segment": 0}) == (
        VALIDATION, "The TotalSegments parameter is required but was not present in the request when Segment "
                    "parameter is present")
    assert answer(server, "Scan", {"TableName": table, "TotalSegments": 4}) == (
        VALIDATION, "The Segment parameter is required but was not present in the request when parameter "
                    "TotalSegments is present")
    assert answer(server, "Scan", {"TableName": table, "Segment": 5, "TotalSegments": 5}) == (
        VALIDATION, "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: 5 is "
                    "not less than TotalSegments: 5")
    for op, extra in [("Scan", {}), ("Query", {"KeyConditionExpression": "pk = :p",
                                               "ExpressionAttributeValues": {":p": {"S": "x"}}})]:
        assert answer(server, op, {"TableName": table, "Limit": 0, **extra}) == (
            VALIDATION, "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must "
                        "have value greater than or equal to 1")
    assert answer(server, "Scan", {"TableName": table, "Segment": -1, "TotalSegments": 1000001}) == (
        VALIDATION, "2 validation errors detected: Value '-1' at 'segment' failed to satisfy constraint: Member must "
                    "have value greater than or equal to 0; Value '1000001' at 'totalSegments' failed to satisfy "
                    "constraint: Member must have value less than or equal to 1000000")


# ---- transactions and PartiQL batches: required lists ----------------------------------------


@pytest.mark.parametrize("op,member,limit", [("TransactGetItems", "TransactItems", 100),
                                             ("TransactWriteItems", "TransactItems", 100),
                                             ("BatchExecuteStatement", "Statements", 25)])
def test_required_lists(server, table, op, member, limit):
    # error-messages/transactGetItems.test.ts and transactWriteItems.test.ts: the constraint
    # framework's words, for a missing list, an empty one and one too long.
    path = member[0].lower() + member[1:]
    assert answer(server, op, {}) == (VALIDATION, f"1 validation error detected: Value null at '{path}' failed to "
                                                  "satisfy constraint: Member must not be null")
    assert answer(server, op, {member: []}) == (
        VALIDATION, f"1 validation error detected: Value '[]' at '{path}' failed to satisfy constraint: Member must "
                    "have length greater than or equal to 1")
    element = {"TransactGetItems": {"Get": {"TableName": table, "Key": {"pk": {"S": "x"}}}},
               "TransactWriteItems": {"ConditionCheck": {"TableName": table, "Key": {"pk": {"S": "x"}},
                                                         "ConditionExpression": "attribute_exists(pk)"}},
               "BatchExecuteStatement": {"Statement": f'SELECT * FROM "{table}" WHERE pk = \'x\''}}[op]
    code, message = answer(server, op, {member: [element] * (limit + 1)})
    assert code == VALIDATION
    assert message.startswith("1 validation error detected: Value '[")
    assert message.endswith(f"]' at '{path}' failed to satisfy constraint: Member must have length less than or "
                            f"equal to {limit}")
