"""TTL: UpdateTimeToLive / DescribeTimeToLive validation and states, and the background worker that
really deletes expired items (indexes maintained, REMOVE stream records from the service, no capacity)."""
import time
from decimal import Decimal

import pytest
from botocore.exceptions import ClientError

from conftest import unique_name


def err(excinfo):
    return excinfo.value.response["Error"]["Code"], excinfo.value.response["Error"]["Message"]


@pytest.fixture(scope="module")
def fast(start_server_module):
    """A server whose TTL worker runs every 100 ms."""
    return start_server_module("--in-memory", "--ttl-period-ms", "100")


@pytest.fixture(scope="module")
def start_server_module(binary):
    from conftest import Server
    started = []

    def start(*args):
        s = Server(binary, list(args))
        started.append(s)
        return s

    yield start
    for s in started:
        s.kill()


def create(ddb, name=None, range_key=False, **kw):
    name = name or unique_name("ttl")
    keys = [{"AttributeName": "p", "KeyType": "HASH"}]
    attrs = [{"AttributeName": "p", "AttributeType": "S"}]
    if range_key:
        keys.append({"AttributeName": "c", "KeyType": "RANGE"})
        attrs.append({"AttributeName": "c", "AttributeType": "S"})
    ddb.create_table(TableName=name, KeySchema=keys, AttributeDefinitions=attrs, BillingMode="PAY_PER_REQUEST", **kw)
    return name


def wait_until(check, timeout=5.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return check()


def test_describe_and_update_states(ddb):
    table = create(ddb)
    assert ddb.describe_time_to_live(TableName=table)["TimeToLiveDescription"] == {"TimeToLiveStatus": "DISABLED"}
    spec = {"AttributeName": "expiration", "Enabled": True}
    resp = ddb.update_time_to_live(TableName=table, TimeToLiveSpecification=spec)
    assert resp["TimeToLiveSpecification"] == spec
    assert ddb.describe_time_to_live(TableName=table)["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "ENABLED", "AttributeName": "expiration"}
    with pytest.raises(ClientError) as e:
        ddb.update_time_to_live(TableName=table, TimeToLiveSpecification=spec)
    assert err(e) == ("ValidationException", "TimeToLive is already enabled")
    with pytest.raises(ClientError, match="ValidationException.*(active|enabled)"):
        ddb.update_time_to_live(TableName=table, TimeToLiveSpecification={"AttributeName": "new", "Enabled": True})
    with pytest.raises(ClientError, match="ValidationException.*different"):
        ddb.update_time_to_live(TableName=table, TimeToLiveSpecification={"AttributeName": "dog", "Enabled": False})
    resp = ddb.update_time_to_live(TableName=table,
                                   TimeToLiveSpecification={"AttributeName": "expiration", "Enabled": False})
    assert resp["TimeToLiveSpecification"] == {"AttributeName": "expiration", "Enabled": False}
    assert ddb.describe_time_to_live(TableName=table)["TimeToLiveDescription"] == {"TimeToLiveStatus": "DISABLED"}
    with pytest.raises(ClientError) as e:
        ddb.update_time_to_live(TableName=table, TimeToLiveSpecification={"AttributeName": "expiration",
                                                                          "Enabled": False})
    assert err(e) == ("ValidationException", "TimeToLive is already disabled")
    # TTL is not a tag.
    arn = ddb.describe_table(TableName=table)["Table"]["TableArn"]
    assert ddb.list_tags_of_resource(ResourceArn=arn)["Tags"] == []


def test_update_errors(server, ddb):
    client = server.client(parameter_validation=False)
    with pytest.raises(ClientError) as e:
        client.update_time_to_live(TableName=unique_name("missing"),
                                   TimeToLiveSpecification={"AttributeName": "e", "Enabled": True})
    assert err(e)[0] == "ResourceNotFoundException"
    with pytest.raises(ClientError) as e:
        client.describe_time_to_live(TableName=unique_name("missing"))
    assert err(e)[0] == "ResourceNotFoundException"
    table = create(ddb)
    cases = [
        ({"AttributeName": "x" * 256, "Enabled": True},
         "1 validation error detected: Value '" + "x" * 256 + "' at 'timeToLiveSpecification.attributeName' failed to "
         "satisfy constraint: Member must have length less than or equal to 255"),
        ({"AttributeName": "", "Enabled": True},
         "1 validation error detected: Value '' at 'timeToLiveSpecification.attributeName' failed to satisfy "
         "constraint: Member must have length greater than or equal to 1"),
        ({"Enabled": True},
         "1 validation error detected: Value null at 'timeToLiveSpecification.attributeName' failed to satisfy "
         "constraint: Member must not be null"),
        ({"AttributeName": "hello"},
         "1 validation error detected: Value null at 'timeToLiveSpecification.enabled' failed to satisfy "
         "constraint: Member must not be null"),
    ]
    for spec, message in cases:
        with pytest.raises(ClientError) as e:
            client.update_time_to_live(TableName=table, TimeToLiveSpecification=spec)
        assert err(e) == ("ValidationException", message)
    with pytest.raises(ClientError) as e:
        client.update_time_to_live(TableName=table)
    assert err(e)[0] == "ValidationException" and "timeToLiveSpecification" in err(e)[1]
    for spec in ({"AttributeName": "hello", "Enabled": "dog"}, {"AttributeName": 3, "Enabled": True}):
        with pytest.raises(ClientError):
            client.update_time_to_live(TableName=table, TimeToLiveSpecification=spec)
    assert ddb.describe_time_to_live(TableName=table)["TimeToLiveDescription"] == {"TimeToLiveStatus": "DISABLED"}


def test_change_interval(start_server_module):
    s = start_server_module("--in-memory", "--ttl-change-interval-ms", "3600000")
    ddb = s.client()
    table = create(ddb)
    ddb.update_time_to_live(TableName=table, TimeToLiveSpecification={"AttributeName": "e", "Enabled": True})
    with pytest.raises(ClientError) as e:
        ddb.update_time_to_live(TableName=table, TimeToLiveSpecification={"AttributeName": "e", "Enabled": False})
    assert err(e) == ("ValidationException", "Time to live has been modified multiple times within a fixed interval")


def test_expiration(fast):
    ddb = fast.client()
    table = unique_name("ttl")
    ddb.create_table(TableName=table, BillingMode="PAY_PER_REQUEST",
                     KeySchema=[{"AttributeName": "p", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "p", "AttributeType": "S"},
                                           {"AttributeName": "g", "AttributeType": "S"}],
                     GlobalSecondaryIndexes=[{"IndexName": "gsi", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                              "Projection": {"ProjectionType": "ALL"}}])
    now = int(time.time())

    def put(p, exp=None):
        it = {"p": {"S": p}, "g": {"S": "all"}}
        if isinstance(exp, int):
            it["exp"] = {"N": str(exp)}
        elif exp is not None:
            it["exp"] = exp
        ddb.put_item(TableName=table, Item=it, ReturnConsumedCapacity="TOTAL")

    put("before-enable", now - 60)  # written before TTL is enabled: still expires
    ddb.update_time_to_live(TableName=table, TimeToLiveSpecification={"AttributeName": "exp", "Enabled": True})
    put("no-attribute")
    put("past", now - 60)
    put("ancient", 162777600)  # more than five years ago: ignored
    put("soon", now + 1)
    put("extended", now + 1)
    put("future", now + 3600)
    put("string", {"S": str(now - 60)})
    put("exponent", {"N": str((now - 60) // 10) + "e1"})
    put("fraction", {"N": str(Decimal(str(time.time() - 60)))})
    put("negative", -100)

    def alive(p):
        return "Item" in ddb.get_item(TableName=table, Key={"p": {"S": p}}, ConsistentRead=True)

    gone = ["before-enable", "past", "soon", "exponent", "fraction"]
    stays = ["no-attribute", "ancient", "extended", "future", "string", "negative"]
    deadline = time.time() + 6
    while time.time() < deadline:
        put("extended", int(time.time()) + 5)  # keeps moving its expiry: never expires
        if not any(alive(p) for p in gone):
            break
        time.sleep(0.1)
    assert [p for p in gone if alive(p)] == []
    assert [p for p in stays if not alive(p)] == []
    scanned = ddb.scan(TableName=table, IndexName="gsi")["Items"]
    assert sorted(i["p"]["S"] for i in scanned) == sorted(stays)
    assert ddb.describe_table(TableName=table)["Table"]["ItemCount"] == len(stays)


def test_expiration_with_range_key_and_key_attribute(fast):
    ddb = fast.client()
    table = unique_name("ttl")
    ddb.create_table(TableName=table, BillingMode="PAY_PER_REQUEST",
                     KeySchema=[{"AttributeName": "p", "KeyType": "HASH"}, {"AttributeName": "c", "KeyType": "RANGE"}],
                     AttributeDefinitions=[{"AttributeName": "p", "AttributeType": "S"},
                                           {"AttributeName": "c", "AttributeType": "N"}])
    ddb.update_time_to_live(TableName=table, TimeToLiveSpecification={"AttributeName": "c", "Enabled": True})
    now = int(time.time())
    ddb.put_item(TableName=table, Item={"p": {"S": "x"}, "c": {"N": str(now - 60)}})
    ddb.put_item(TableName=table, Item={"p": {"S": "x"}, "c": {"N": str(now + 3600)}})
    assert wait_until(lambda: ddb.scan(TableName=table)["Count"] == 1)
    assert ddb.scan(TableName=table)["Items"][0]["c"] == {"N": str(now + 3600)}


def test_expiration_stream_record(fast):
    ddb, streams = fast.client(), fast.client("dynamodbstreams")
    table = unique_name("ttl")
    desc = ddb.create_table(
        TableName=table, BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "p", "KeyType": "HASH"}, {"AttributeName": "c", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": "p", "AttributeType": "S"}, {"AttributeName": "c", "AttributeType": "S"}],
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})["TableDescription"]
    arn = desc["LatestStreamArn"]
    ddb.update_time_to_live(TableName=table, TimeToLiveSpecification={"AttributeName": "expiration", "Enabled": True})
    expiration = int(time.time()) - 60
    item = {"p": {"S": "p"}, "c": {"S": "c"}, "animal": {"S": "dog"}, "expiration": {"N": str(expiration)}}
    ddb.put_item(TableName=table, Item=item)
    ddb.delete_item(TableName=table, Key={"p": {"S": "user"}, "c": {"S": "delete"}})  # nothing to delete
    assert wait_until(lambda: "Item" not in ddb.get_item(TableName=table, Key={"p": {"S": "p"}, "c": {"S": "c"}}))
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
    it = streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    records = streams.get_records(ShardIterator=it)["Records"]
    assert [r["eventName"] for r in records] == ["INSERT", "REMOVE"]
    assert "userIdentity" not in records[0]
    remove = records[1]
    assert remove["userIdentity"] == {"Type": "Service", "PrincipalId": "dynamodb.amazonaws.com"}
    assert remove["dynamodb"]["Keys"] == {"p": {"S": "p"}, "c": {"S": "c"}}
    assert remove["dynamodb"]["OldImage"] == item
    assert "NewImage" not in remove["dynamodb"]


def test_disable_stops_expiration(fast):
    ddb = fast.client()
    table = create(ddb)
    ddb.update_time_to_live(TableName=table, TimeToLiveSpecification={"AttributeName": "e", "Enabled": True})
    ddb.update_time_to_live(TableName=table, TimeToLiveSpecification={"AttributeName": "e", "Enabled": False})
    ddb.put_item(TableName=table, Item={"p": {"S": "a"}, "e": {"N": str(int(time.time()) - 60)}})
    time.sleep(0.4)
    assert "Item" in ddb.get_item(TableName=table, Key={"p": {"S": "a"}})
    ddb.update_time_to_live(TableName=table, TimeToLiveSpecification={"AttributeName": "e", "Enabled": True})
    assert wait_until(lambda: "Item" not in ddb.get_item(TableName=table, Key={"p": {"S": "a"}}))
