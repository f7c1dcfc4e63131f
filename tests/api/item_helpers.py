"""Small helpers shared by the item-level API tests (resource API tables with string hash key 'pk')."""
import uuid

import pytest
from botocore.exceptions import ClientError


def new_key():
    return {"pk": uuid.uuid4().hex}


def put(table, **attrs):
    key = new_key()
    table.put_item(Item={**key, **attrs})
    return key


def item(table, key):
    return table.get_item(Key=key, ConsistentRead=True).get("Item")


def error(fn, **kwargs):
    with pytest.raises(ClientError) as e:
        fn(**kwargs)
    err = e.value.response["Error"]
    return err["Code"], err["Message"]
