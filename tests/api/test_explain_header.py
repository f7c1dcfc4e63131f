"""The explain header: a request with `x-monotable-explain` is answered with an
`x-monotable-explain` header (operation, table, index, items read and returned, read units);
without it the answer carries no such header."""
import json

from conftest import unique_name
from raw import call

EXPLAIN = {"x-monotable-explain": "1"}


def make_table(ddb):
    name = unique_name("explain")
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"} for a in ("PK", "SK", "G")],
                     KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
                     GlobalSecondaryIndexes=[{"IndexName": "ByG", "KeySchema": [{"AttributeName": "G", "KeyType": "HASH"}],
                                              "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    for i in range(6):
        item = {"PK": {"S": "P"}, "SK": {"S": f"S{i}"}, "pad": {"S": "x" * 3000}}
        if i < 2:
            item["G"] = {"S": "g"}
        if i == 0:
            item["keep"] = {"BOOL": True}
        ddb.put_item(TableName=name, Item=item)
    return name


def explain(headers):
    value = {k.lower(): v for k, v in headers.items()}.get("x-monotable-explain")
    return json.loads(value) if value is not None else None


def test_query_with_a_filter_reports_items_read_and_returned(server, ddb):
    name = make_table(ddb)
    body = {"TableName": name, "KeyConditionExpression": "PK = :p", "FilterExpression": "attribute_exists(keep)",
            "ExpressionAttributeValues": {":p": {"S": "P"}}, "ReturnConsumedCapacity": "TOTAL"}
    status, answer, headers = call(server.port, "Query", body, headers=EXPLAIN)
    assert status == 200, answer
    e = explain(headers)
    assert e["operation"] == "Query" and e["table"] == name and "index" not in e
    assert e["itemsRead"] == answer["ScannedCount"] == 6
    assert e["itemsReturned"] == answer["Count"] == 1
    assert e["readUnits"] == answer["ConsumedCapacity"]["CapacityUnits"]
    # Without ReturnConsumedCapacity the units come from the bytes read, rounded as the answer's are.
    del body["ReturnConsumedCapacity"]
    _, _, headers = call(server.port, "Query", body, headers=EXPLAIN)
    assert explain(headers)["readUnits"] == e["readUnits"]
    assert explain(headers)["bytesRead"] > 6 * 3000


def test_index_query_and_get_item(server, ddb):
    name = make_table(ddb)
    _, answer, headers = call(server.port, "Query", {"TableName": name, "IndexName": "ByG",
                                                     "KeyConditionExpression": "G = :g",
                                                     "ExpressionAttributeValues": {":g": {"S": "g"}}}, headers=EXPLAIN)
    e = explain(headers)
    assert e["index"] == "ByG" and e["itemsRead"] == 2 and e["itemsReturned"] == 2 == answer["Count"]
    _, _, headers = call(server.port, "GetItem", {"TableName": name, "Key": {"PK": {"S": "P"}, "SK": {"S": "S1"}}},
                         headers=EXPLAIN)
    assert explain(headers) == {"operation": "GetItem", "table": name, "itemsRead": 1, "itemsReturned": 1}
    _, _, headers = call(server.port, "GetItem", {"TableName": name, "Key": {"PK": {"S": "P"}, "SK": {"S": "nope"}}},
                         headers=EXPLAIN)
    assert explain(headers)["itemsReturned"] == 0


def test_no_header_without_the_request_header(server, ddb):
    name = make_table(ddb)
    _, _, headers = call(server.port, "Query", {"TableName": name, "KeyConditionExpression": "PK = :p",
                                                "ExpressionAttributeValues": {":p": {"S": "P"}}})
    assert explain(headers) is None
    # SDKs ignore it: boto3 reads an explained answer as usual (the header is only added on request).
    assert ddb.query(TableName=name, KeyConditionExpression="PK = :p",
                     ExpressionAttributeValues={":p": {"S": "P"}})["Count"] == 6
