"""Every answer is JSON a strict parser accepts (UTF-8, control characters escaped), and what was
written comes back exactly: attribute names, map keys, set members and string values holding any
Unicode scalar value, control characters, quotes, backslashes and non-BMP characters included,
through every operation that returns items or echoes user text in an error message.

The body is checked as raw bytes: botocore turns a body it cannot decode into an answer without
its members (an item that exists then reads as missing), so an SDK round trip alone would not
show the fault."""
import json
import http.client

import pytest

from conftest import unique_name

CONTROL = "".join(chr(c) for c in range(0x20)) + "\x7f"
# Names with every kind of character JSON escapes or that decoders trip on.
NAMES = ([chr(c) for c in range(0x20)] + ["\x7f", '"', "\\", '\\"', "a\x00b", "\u2028\u2029", "\ufeff", "\ufffe\uffff",
          "\U0001F600", "\U0010FFFF", "\u00e9\u4e2d", "<>&'", "/", CONTROL + '"\\'])


def all_scalar_values(start, stop):
    return "".join(chr(c) for c in range(start, stop) if not 0xD800 <= c <= 0xDFFF)


def strict(raw):
    """The body as a strict reader takes it: UTF-8 without errors, no raw control characters."""
    return json.loads(raw.decode("utf-8", errors="strict"), strict=True)


def send(port, target, body, ensure_ascii):
    data = json.dumps(body, ensure_ascii=ensure_ascii).encode("utf-8")
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("POST", "/", body=data, headers={"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": target})
    resp = conn.getresponse()
    raw = resp.read()
    conn.close()
    return resp.status, strict(raw)


@pytest.fixture(params=[False, True], ids=["utf8", "ascii-escapes"])
def api(server, request):
    def call(op, body, expect=200, service="DynamoDB_20120810"):
        status, parsed = send(server.port, service + "." + op, body, request.param)
        assert status == expect, parsed
        return parsed
    return call


@pytest.fixture(scope="module")
def table(ddb):
    name = unique_name("json")
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                     KeySchema=[{"AttributeName": "p", "KeyType": "HASH"}, {"AttributeName": "c", "KeyType": "RANGE"}],
                     AttributeDefinitions=[{"AttributeName": "p", "AttributeType": "S"},
                                           {"AttributeName": "c", "AttributeType": "S"}],
                     StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})
    return name


def awkward_item(p, c):
    item = {"p": {"S": p}, "c": {"S": c}}
    for i, name in enumerate(NAMES):
        item[name] = {"S": name + CONTROL + "\U0001F600" + str(i)}
    item["map"] = {"M": {name: {"S": name} for name in NAMES}}
    item["list"] = {"L": [{"S": CONTROL}, {"M": {CONTROL: {"SS": ["\x00", CONTROL, '"', "\\"]}}}]}
    item["ss"] = {"SS": ["\x00", "\x1f", '"', "\\", "\u2028", "\U0010FFFF"]}
    return item


def test_every_scalar_value_round_trips_in_values(api, table):
    # All of U+0000..U+10FFFF but the surrogates, in values of at most ~300 KB.
    chunks = [all_scalar_values(0, 0x10000)]
    for start in range(0x10000, 0x110000, 0x10000):
        chunks += [all_scalar_values(start, start + 0x8000), all_scalar_values(start + 0x8000, start + 0x10000)]
    for i, text in enumerate(chunks):
        key = {"p": {"S": "all"}, "c": {"S": str(i)}}
        api("PutItem", {"TableName": table, "Item": {**key, "v": {"S": text}, "ss": {"SS": [text[:100], text[-100:]]}}})
        got = api("GetItem", {"TableName": table, "Key": key, "ConsistentRead": True})
        assert got["Item"]["v"]["S"] == text
        assert sorted(got["Item"]["ss"]["SS"]) == sorted([text[:100], text[-100:]])


def test_names_with_any_character_round_trip_through_every_read(api, table, server):
    p = unique_name("names")
    item = awkward_item(p, CONTROL)
    key = {"p": item["p"], "c": item["c"]}
    assert api("PutItem", {"TableName": table, "Item": item, "ReturnValues": "ALL_OLD"}) == {}
    assert api("PutItem", {"TableName": table, "Item": item, "ReturnValues": "ALL_OLD"})["Attributes"] == item
    assert api("GetItem", {"TableName": table, "Key": key, "ConsistentRead": True})["Item"] == item
    assert api("Query", {"TableName": table, "KeyConditionExpression": "p = :p",
                         "ExpressionAttributeValues": {":p": item["p"]}})["Items"] == [item]
    scanned, start = [], None
    while True:  # the table holds megabytes of other items: several pages
        page = api("Scan", {"TableName": table, "FilterExpression": "p = :p",
                            "ExpressionAttributeValues": {":p": item["p"]},
                            **({"ExclusiveStartKey": start} if start else {})})
        scanned += page["Items"]
        start = page.get("LastEvaluatedKey")
        if not start:
            break
    assert scanned == [item]
    assert api("BatchGetItem", {"RequestItems": {table: {"Keys": [key]}}})["Responses"][table] == [item]
    assert api("TransactGetItems", {"TransactItems": [{"Get": {"TableName": table, "Key": key}}]})["Responses"] == [
        {"Item": item}]
    # A projection naming each awkward attribute through ExpressionAttributeNames.
    names = {f"#n{i}": name for i, name in enumerate(NAMES)}
    projected = api("GetItem", {"TableName": table, "Key": key, "ProjectionExpression": ", ".join(names),
                                "ExpressionAttributeNames": names})["Item"]
    assert projected == {name: item[name] for name in NAMES}
    # ReturnValues of UpdateItem and DeleteItem.
    updated = api("UpdateItem", {"TableName": table, "Key": key, "UpdateExpression": "SET #a = :v",
                                 "ExpressionAttributeNames": {"#a": "\x00new\x01"},
                                 "ExpressionAttributeValues": {":v": {"S": CONTROL}}, "ReturnValues": "ALL_NEW"})
    assert updated["Attributes"] == {**item, "\x00new\x01": {"S": CONTROL}}
    assert api("DeleteItem", {"TableName": table, "Key": key, "ReturnValues": "ALL_OLD"})["Attributes"] == \
        updated["Attributes"]
    # PartiQL reads it back as well.
    api("PutItem", {"TableName": table, "Item": item})
    selected = api("ExecuteStatement", {"Statement": f'SELECT * FROM "{table}" WHERE p = ?', "Parameters": [item["p"]]})
    assert selected["Items"] == [item]
    batch = api("BatchExecuteStatement", {"Statements": [
        {"Statement": f'SELECT * FROM "{table}" WHERE p = ? AND c = ?', "Parameters": [item["p"], item["c"]]}]})
    assert batch["Responses"][0]["Item"] == item


def test_stream_records_carry_awkward_names_and_values(api, table, ddb):
    p = unique_name("stream")
    item = awkward_item(p, "s")
    api("PutItem", {"TableName": table, "Item": item})
    arn = ddb.describe_table(TableName=table)["Table"]["LatestStreamArn"]
    streams = "DynamoDBStreams_20120810"
    shards = api("DescribeStream", {"StreamArn": arn}, service=streams)["StreamDescription"]["Shards"]
    images = []
    for shard in shards:
        it = api("GetShardIterator", {"StreamArn": arn, "ShardId": shard["ShardId"],
                                      "ShardIteratorType": "TRIM_HORIZON"}, service=streams)["ShardIterator"]
        while it:  # the stream holds megabytes of earlier records: several pages
            page = api("GetRecords", {"ShardIterator": it}, service=streams)
            for record in page["Records"]:
                if record["dynamodb"]["Keys"]["p"] == {"S": p}:
                    images.append(record["dynamodb"]["NewImage"])
            it = page.get("NextShardIterator") if page["Records"] else None
    assert item in images


def test_error_messages_echoing_user_text_are_valid_json(api, table):
    key = {"p": {"S": "err"}, "c": {"S": "x"}}
    # Unused names and values are listed in the message.
    e = api("GetItem", {"TableName": table, "Key": key, "ProjectionExpression": "p",
                        "ExpressionAttributeNames": {"#\x00\x01\"\\": "x"}}, expect=400)
    assert "#\x00\x01\"\\" in e["message"]
    e = api("Query", {"TableName": table, "KeyConditionExpression": "p = :p",
                      "ExpressionAttributeValues": {":p": {"S": "x"}, ":\x1f\u2028": {"S": CONTROL}}}, expect=400)
    assert ":\x1f\u2028" in e["message"]
    # Syntax errors quote the token and its surroundings, control and non-ASCII characters included.
    for text in ["p = :p AND \x01", "p = :p AND \U0001F600", "\x00", 'p = :p AND "\\', "p = :p \u00e9\x7f"]:
        e = api("Query", {"TableName": table, "KeyConditionExpression": text,
                          "ExpressionAttributeValues": {":p": {"S": "x"}}}, expect=400)
        assert e["__type"].endswith("ValidationException")
    # A failed condition returns the item when asked.
    item = awkward_item("err", "x")
    api("PutItem", {"TableName": table, "Item": item})
    e = api("PutItem", {"TableName": table, "Item": item, "ConditionExpression": "attribute_not_exists(p)",
                        "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}, expect=400)
    assert e["Item"] == item
    e = api("TransactWriteItems", {"TransactItems": [{"ConditionCheck": {
        "TableName": table, "Key": key, "ConditionExpression": "attribute_not_exists(p)",
        "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}}]}, expect=400)
    assert e["CancellationReasons"][0]["Item"] == item
    # PartiQL statements with awkward text in the error.
    e = api("ExecuteStatement", {"Statement": f'SELECT * FROM "{table}" WHERE \x01 = \U0001F600'}, expect=400)
    assert e["__type"].endswith("ValidationException")


def test_lone_surrogate_escapes_are_refused_not_stored(server, table):
    # A lone low surrogate is no Unicode character: refused like a lone high one (the server used to
    # store its three invalid bytes and send them back in every answer holding the string).
    for escape in ["\\udc00", "\\udfff", "\\ud800", "a\\udc00b", "\\ud83d\\ude00\\ude00"]:
        body = ('{"TableName": "%s", "Item": {"p": {"S": "sur"}, "c": {"S": "%s"}}}' % (table, escape)).encode()
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        conn.request("POST", "/", body=body, headers={"Content-Type": "application/x-amz-json-1.0",
                                                      "X-Amz-Target": "DynamoDB_20120810.PutItem"})
        resp = conn.getresponse()
        parsed = strict(resp.read())
        assert resp.status == 400 and parsed == {"__type": "com.amazon.coral.service#SerializationException"}, escape
    # A well-formed pair and an escaped backslash before "udc00" are fine.
    for text in ["\\ud83d\\ude00", "\\\\udc00"]:
        body = ('{"TableName": "%s", "Item": {"p": {"S": "sur"}, "c": {"S": "%s"}}}' % (table, text)).encode()
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        conn.request("POST", "/", body=body, headers={"Content-Type": "application/x-amz-json-1.0",
                                                      "X-Amz-Target": "DynamoDB_20120810.PutItem"})
        resp = conn.getresponse()
        assert resp.status == 200, strict(resp.read())
        resp.read()


@pytest.mark.parametrize("offset", range(0, 40, 7))
@pytest.mark.parametrize("byte", [0x01, 0x19, 0x1A, 0x1C, 0x1F])
def test_raw_control_characters_in_strings_are_refused(server, table, offset, byte):
    # JSON strings must escape control characters; DynamoDB refuses raw ones. (RapidJSON's SSE2
    # scan took 0x1A..0x1F raw when they fell in an aligned 16-byte block.)
    value = "x" * offset + chr(byte) + "y" * 40
    body = ('{"TableName": "%s", "Item": {"p": {"S": "raw"}, "c": {"S": "%s"}}}' % (table, value)).encode()
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.request("POST", "/", body=body, headers={"Content-Type": "application/x-amz-json-1.0",
                                                  "X-Amz-Target": "DynamoDB_20120810.PutItem"})
    resp = conn.getresponse()
    assert (resp.status, strict(resp.read())) == (400, {"__type": "com.amazon.coral.service#SerializationException"})


def test_boto3_round_trip_of_awkward_names_and_values(ddb, table):
    p = unique_name("boto")
    item = awkward_item(p, CONTROL)
    key = {"p": item["p"], "c": item["c"]}
    ddb.put_item(TableName=table, Item=item)
    got = ddb.get_item(TableName=table, Key=key, ConsistentRead=True)
    assert got["Item"]["map"] == item["map"]
    assert {k: v for k, v in got["Item"].items() if k != "ss"} == {k: v for k, v in item.items() if k != "ss"}
    assert set(got["Item"]["ss"]["SS"]) == set(item["ss"]["SS"])
    assert ddb.query(TableName=table, KeyConditionExpression="p = :p",
                     ExpressionAttributeValues={":p": item["p"]})["Items"][0]["map"] == item["map"]
