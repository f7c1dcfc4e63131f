"""Shared by the ConditionExpression tests (test_conditions.py, test_condition_requests.py): the
error codes and message, the module's resource table, and helpers that run an UpdateItem under a
condition and report whether it held or the ValidationException it got."""
import pytest
from botocore.exceptions import ClientError

from conftest import make_resource_table
from item_helpers import error

CCF = "ConditionalCheckFailedException"
VALIDATION = "ValidationException"
CCF_MESSAGE = "The conditional request failed"


@pytest.fixture(scope="module")
def table(ddb, resource):
    return make_resource_table(ddb, resource, "cond")


def holds(table, key, condition, values=None, names=None):
    """Runs an UpdateItem under `condition`: True if it applied, False on ConditionalCheckFailed."""
    kwargs = {"Key": key, "UpdateExpression": "SET touched = :touched", "ConditionExpression": condition,
              "ExpressionAttributeValues": {":touched": 1, **(values or {})}}
    if names:
        kwargs["ExpressionAttributeNames"] = names
    try:
        table.update_item(**kwargs)
        return True
    except ClientError as e:
        if e.response["Error"]["Code"] == CCF:
            assert e.response["Error"]["Message"] == CCF_MESSAGE
            return False
        raise


def refused(table, key, condition, values=None, names=None):
    """The ValidationException message an UpdateItem under `condition` gets."""
    kwargs = {"Key": key, "UpdateExpression": "SET touched = :touched", "ConditionExpression": condition,
              "ExpressionAttributeValues": {":touched": 1, **(values or {})}}
    if names:
        kwargs["ExpressionAttributeNames"] = names
    code, message = error(table.update_item, **kwargs)
    assert code == VALIDATION, message
    return message


def invalid(detail):
    return "Invalid ConditionExpression: " + detail
