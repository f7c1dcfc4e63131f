"""BatchWriteItem: validation, duplicates, several tables, capacity per table."""
import pytest
from botocore.exceptions import ClientError


def err(excinfo):
    return excinfo.value.response["Error"]["Code"], excinfo.value.response["Error"]["Message"]


def test_puts_and_deletes_over_two_tables(ddb, hash_table, hash_range_table):
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "gone"}})
    resp = ddb.batch_write_item(RequestItems={
        hash_table: [{"PutRequest": {"Item": {"pk": {"S": f"k{i}"}, "v": {"N": str(i)}}}} for i in range(10)]
        + [{"DeleteRequest": {"Key": {"pk": {"S": "gone"}}}}],
        hash_range_table: [{"PutRequest": {"Item": {"pk": {"S": "a"}, "sk": {"N": "1"}, "blob": {"S": "x" * 1500}}}}],
    }, ReturnConsumedCapacity="TOTAL")
    assert resp["UnprocessedItems"] == {}
    caps = {c["TableName"]: c["CapacityUnits"] for c in resp["ConsumedCapacity"]}
    assert caps == {hash_table: 11.0, hash_range_table: 2.0}
    assert ddb.get_item(TableName=hash_table, Key={"pk": {"S": "k7"}})["Item"]["v"] == {"N": "7"}
    assert "Item" not in ddb.get_item(TableName=hash_table, Key={"pk": {"S": "gone"}})
    assert ddb.describe_table(TableName=hash_table)["Table"]["ItemCount"] == 10


def test_duplicate_keys_refused_and_nothing_written(ddb, hash_table):
    with pytest.raises(ClientError) as e:
        ddb.batch_write_item(RequestItems={hash_table: [
            {"PutRequest": {"Item": {"pk": {"S": "dup"}}}},
            {"DeleteRequest": {"Key": {"pk": {"S": "dup"}}}}]})
    assert err(e) == ("ValidationException", "Provided list of item keys contains duplicates")
    assert "Item" not in ddb.get_item(TableName=hash_table, Key={"pk": {"S": "dup"}})


def test_more_than_25_requests(ddb, hash_table, hash_range_table):
    with pytest.raises(ClientError) as e:
        ddb.batch_write_item(RequestItems={
            hash_table: [{"PutRequest": {"Item": {"pk": {"S": f"k{i}"}}}} for i in range(20)],
            hash_range_table: [{"PutRequest": {"Item": {"pk": {"S": "a"}, "sk": {"N": str(i)}}}} for i in range(6)]})
    assert err(e) == ("ValidationException", "Too many items requested for the BatchWriteItem call")
    with pytest.raises(ClientError) as e:
        ddb.batch_write_item(RequestItems={
            hash_table: [{"PutRequest": {"Item": {"pk": {"S": f"k{i}"}}}} for i in range(26)]})
    assert err(e)[0] == "ValidationException"
    assert "Member must have length less than or equal to 25" in err(e)[1]


def test_key_errors_use_schema_message(ddb, hash_range_table):
    with pytest.raises(ClientError) as e:
        ddb.batch_write_item(RequestItems={hash_range_table: [{"PutRequest": {"Item": {"pk": {"S": "a"}}}}]})
    assert err(e) == ("ValidationException", "The provided key element does not match the schema")


def test_missing_table(ddb):
    with pytest.raises(ClientError) as e:
        ddb.batch_write_item(RequestItems={"no-such-table": [{"PutRequest": {"Item": {"pk": {"S": "a"}}}}]})
    assert err(e) == ("ResourceNotFoundException", "Requested resource not found")
