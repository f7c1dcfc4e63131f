"""Shared by the UpdateExpression tests (test_update_item.py, test_update_item_actions.py): the
error messages, the module's resource table, and helpers that run an UpdateItem or return the
ValidationException message it gets."""
import decimal

import pytest
from botocore.exceptions import ClientError

from conftest import make_resource_table

VALIDATION = "ValidationException"
D = decimal.Decimal

NO_ATTRIBUTE = "The provided expression refers to an attribute that does not exist in the item"
BAD_OPERAND = "An operand in the update expression has an incorrect data type"
BAD_PATH = "The document path provided in the update expression is invalid for update"
OVERFLOW = "Number overflow. Attempting to store a number with magnitude larger than supported range"
UNDERFLOW = "Number underflow. Attempting to store a number with magnitude smaller than supported range"


@pytest.fixture(scope="module")
def table(ddb, resource):
    return make_resource_table(ddb, resource, "upd")


def update(table, key, expression, values=None, names=None, **kwargs):
    kwargs.update(Key=key, UpdateExpression=expression)
    if values is not None:
        kwargs["ExpressionAttributeValues"] = values
    if names is not None:
        kwargs["ExpressionAttributeNames"] = names
    return table.update_item(**kwargs)


def refused(table, key, expression, values=None, names=None, **kwargs):
    with pytest.raises(ClientError) as e:
        update(table, key, expression, values, names, **kwargs)
    err = e.value.response["Error"]
    assert err["Code"] == VALIDATION, err
    return err["Message"]


def invalid(detail):
    return "Invalid UpdateExpression: " + detail
