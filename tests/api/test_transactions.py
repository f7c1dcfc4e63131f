"""TransactWriteItems / TransactGetItems / BatchGetItem: shapes, atomicity, idempotency."""
import pytest
from botocore.exceptions import ClientError
from wire_helpers import err


def put(table, pk, **attrs):
    return {"Put": {"TableName": table, "Item": {"pk": {"S": pk}, **attrs}}}


def test_write_then_get_across_two_tables(ddb, hash_table, hash_range_table):
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "old"}})
    resp = ddb.transact_write_items(TransactItems=[
        put(hash_table, "a", v={"N": "1"}),
        {"Put": {"TableName": hash_range_table, "Item": {"pk": {"S": "a"}, "sk": {"N": "1"}}}},
        {"Delete": {"TableName": hash_table, "Key": {"pk": {"S": "old"}}}},
    ], ReturnConsumedCapacity="TOTAL")
    caps = {c["TableName"]: c["CapacityUnits"] for c in resp["ConsumedCapacity"]}
    assert caps == {hash_table: 4.0, hash_range_table: 2.0}  # transactional writes cost double
    got = ddb.transact_get_items(TransactItems=[
        {"Get": {"TableName": hash_table, "Key": {"pk": {"S": "a"}}}},
        {"Get": {"TableName": hash_table, "Key": {"pk": {"S": "old"}}}},
        {"Get": {"TableName": hash_range_table, "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}}}},
    ], ReturnConsumedCapacity="TOTAL")
    assert got["Responses"] == [{"Item": {"pk": {"S": "a"}, "v": {"N": "1"}}}, {},
                                {"Item": {"pk": {"S": "a"}, "sk": {"N": "1"}}}]
    caps = {c["TableName"]: c["CapacityUnits"] for c in got["ConsumedCapacity"]}
    assert caps == {hash_table: 4.0, hash_range_table: 2.0}


def test_two_actions_on_one_item_refused(ddb, hash_table):
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[put(hash_table, "x"),
                                                {"Delete": {"TableName": hash_table, "Key": {"pk": {"S": "x"}}}}])
    assert err(e) == ("ValidationException", "Transaction request cannot include multiple operations on one item")
    assert "Item" not in ddb.get_item(TableName=hash_table, Key={"pk": {"S": "x"}})


def test_invalid_action_applies_nothing(ddb, hash_table):
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[put(hash_table, "ok"),
                                                {"Put": {"TableName": hash_table, "Item": {"nokey": {"S": "x"}}}}])
    assert err(e)[0] == "ValidationException"
    assert "Item" not in ddb.get_item(TableName=hash_table, Key={"pk": {"S": "ok"}})


def test_client_request_token_is_idempotent(ddb, hash_table):
    items = [put(hash_table, "t1", n={"N": "1"})]
    ddb.transact_write_items(TransactItems=items, ClientRequestToken="token-1")
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "t1"}, "n": {"N": "2"}})
    # The replay does not apply the put again.
    ddb.transact_write_items(TransactItems=items, ClientRequestToken="token-1")
    assert ddb.get_item(TableName=hash_table, Key={"pk": {"S": "t1"}})["Item"]["n"] == {"N": "2"}
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[put(hash_table, "t2")], ClientRequestToken="token-1")
    assert err(e)[0] == "IdempotentParameterMismatchException"


def test_more_than_100_actions(ddb, hash_table):
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[put(hash_table, f"k{i}") for i in range(101)])
    assert err(e)[0] == "ValidationException"
    assert "Member must have length less than or equal to 100" in err(e)[1]


def test_batch_get_over_tables_with_missing_keys(ddb, hash_table, hash_range_table):
    for i in range(5):
        ddb.put_item(TableName=hash_table, Item={"pk": {"S": f"b{i}"}, "v": {"N": str(i)}})
    ddb.put_item(TableName=hash_range_table, Item={"pk": {"S": "z"}, "sk": {"N": "9"}})
    resp = ddb.batch_get_item(RequestItems={
        hash_table: {"Keys": [{"pk": {"S": f"b{i}"}} for i in range(7)], "ConsistentRead": True},
        hash_range_table: {"Keys": [{"pk": {"S": "z"}, "sk": {"N": "9"}}]},
    }, ReturnConsumedCapacity="TOTAL")
    got = sorted(int(i["v"]["N"]) for i in resp["Responses"][hash_table])
    assert got == [0, 1, 2, 3, 4]
    assert resp["Responses"][hash_range_table] == [{"pk": {"S": "z"}, "sk": {"N": "9"}}]
    assert resp["UnprocessedKeys"] == {}
    caps = {c["TableName"]: c["CapacityUnits"] for c in resp["ConsumedCapacity"]}
    assert caps == {hash_table: 7.0, hash_range_table: 0.5}  # rounded per item, missing items cost too


def test_batch_get_validation(ddb, hash_table):
    with pytest.raises(ClientError) as e:
        ddb.batch_get_item(RequestItems={hash_table: {"Keys": [{"pk": {"S": "a"}}, {"pk": {"S": "a"}}]}})
    assert err(e) == ("ValidationException", "Provided list of item keys contains duplicates")
    with pytest.raises(ClientError) as e:
        ddb.batch_get_item(RequestItems={hash_table: {"Keys": [{"pk": {"S": f"k{i}"}} for i in range(101)]}})
    assert err(e)[0] == "ValidationException"
    with pytest.raises(ClientError) as e:
        ddb.batch_get_item(RequestItems={hash_table: {"Keys": [{"wrong": {"S": "a"}}]}})
    assert err(e) == ("ValidationException", "The provided key element does not match the schema")
