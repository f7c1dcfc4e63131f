"""HTTP compression: request bodies sent with Content-Encoding gzip or deflate, responses compressed
when Accept-Encoding asks for it.

What AWS does, as ScyllaDB's test_compressed_request.py / test_compressed_response.py recorded it
against DynamoDB: gzip request bodies are accepted (boto3 sends them with request compression on),
two concatenated gzip members are one body, bytes after a complete member are ignored; a body that
is not what it declares, an empty one and an unknown coding are refused (AWS: 500
InternalServerError; here a 400 SerializationException, as a client mistake must not read as a
retryable server fault). Responses of 4 KB or more are compressed with the coding Accept-Encoding
prefers (gzip or deflate, q-values, "*", identity ignored), smaller ones never; x-amz-crc32 is the
CRC32 of the compressed bytes (aws-sdk-go-v2's dynamodb customizations document it so, and botocore
checks it over the bytes received). AWS does not bound a compressed request's inflated size; this
server bounds it by the 16 MB request limit while inflating (413), so a zip bomb costs no memory."""
import gzip
import http.client
import json
import os
import random
import string
import time
import zlib

import botocore.config
import pytest

from conftest import unique_name

THRESHOLD = 4096


def post(port, target, body, headers, timeout=30):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    conn.putrequest("POST", "/", skip_accept_encoding=True)
    all_headers = [("Content-Type", "application/x-amz-json-1.0"), ("X-Amz-Target", "DynamoDB_20120810." + target),
                   ("Content-Length", str(len(body)))]
    all_headers += headers if isinstance(headers, list) else list(headers.items())
    for k, v in all_headers:
        conn.putheader(k, v)
    conn.endheaders(body)
    resp = conn.getresponse()
    raw = resp.read()
    conn.close()
    return resp.status, {k.lower(): v for k, v in resp.getheaders()}, raw


def decoded(headers, raw):
    assert int(headers["x-amz-crc32"]) == zlib.crc32(raw) & 0xFFFFFFFF  # over the bytes sent
    coding = headers.get("content-encoding")
    if coding == "gzip":
        raw = gzip.decompress(raw)
    elif coding == "deflate":
        raw = zlib.decompress(raw)
    else:
        assert coding is None
    return json.loads(raw)


@pytest.fixture(scope="module")
def table(ddb):
    name = unique_name("gz")
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                     KeySchema=[{"AttributeName": "p", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "p", "AttributeType": "S"}])
    return name


def put_body(table, p, **extra):
    item = {"p": {"S": p}, **{k: {"S": v} for k, v in extra.items()}}
    return json.dumps({"TableName": table, "Item": item}).encode()


def stored(ddb, table, p):
    return ddb.get_item(TableName=table, Key={"p": {"S": p}}, ConsistentRead=True).get("Item")


# ---- compressed requests ----------------------------------------------------------------------


@pytest.mark.parametrize("coding", ["gzip", "GZIP", "deflate", "raw-deflate", "two-members", "junk-after", "identity"])
def test_compressed_request_is_accepted(server, ddb, table, coding):
    p = unique_name("req")
    body = put_body(table, p, v="x" * 10000)
    header = coding
    if coding.lower() == "gzip":
        data = gzip.compress(body)
    elif coding == "deflate":
        data = zlib.compress(body)
    elif coding == "raw-deflate":
        c = zlib.compressobj(wbits=-15)
        data, header = c.compress(body) + c.flush(), "deflate"
    elif coding == "two-members":
        data, header = gzip.compress(body[:10]) + gzip.compress(body[10:]), "gzip"
    elif coding == "junk-after":
        data, header = gzip.compress(body) + b"junk", "gzip"  # AWS ignores the junk, and so do we
    else:
        data = body
    status, headers, raw = post(server.port, "PutItem", data, {"Content-Encoding": header})
    assert status == 200, raw
    assert stored(ddb, table, p)["v"] == {"S": "x" * 10000}


@pytest.mark.parametrize("case", ["empty", "not-compressed", "truncated", "corrupt", "bad-second-member",
                                  "unknown-coding", "deflate-garbage"])
def test_undecodable_request_is_refused_as_a_client_error(server, ddb, table, case):
    p = unique_name("bad")
    body = put_body(table, p)
    coding = "gzip"
    data = {"empty": b"", "not-compressed": body, "truncated": gzip.compress(body)[:-1],
            "corrupt": gzip.compress(body)[:12] + b"\x00" * 20 + gzip.compress(body)[32:],
            "bad-second-member": gzip.compress(body) + b"\x1f\x8b\x08garbage",
            "unknown-coding": gzip.compress(body), "deflate-garbage": b"not deflate at all"}[case]
    if case == "unknown-coding":
        coding = "br"
    if case == "deflate-garbage":
        coding = "deflate"
    status, headers, raw = post(server.port, "PutItem", data, {"Content-Encoding": coding})
    assert status == 400
    assert json.loads(raw)["__type"] == "com.amazon.coral.service#SerializationException"
    assert int(headers["x-amz-crc32"]) == zlib.crc32(raw) & 0xFFFFFFFF
    assert stored(ddb, table, p) is None


def test_zip_bomb_is_refused_without_inflating_it(server, ddb, table):
    # 256 MB of spaces inside the JSON, ~250 KB compressed: refused with 413 once 16 MB are inflated.
    p = unique_name("bomb")
    head, tail = put_body(table, p)[:-1], b"}"
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    parts = [c.compress(head)]
    block = b" " * (1 << 20)
    for _ in range(256):
        parts.append(c.compress(block))
    parts += [c.compress(tail), c.flush()]
    data = b"".join(parts)
    assert len(data) < 2 * 1024 * 1024
    start = time.time()
    status, headers, raw = post(server.port, "PutItem", data, {"Content-Encoding": "gzip"})
    assert status == 413
    assert json.loads(raw)["__type"] == "com.amazon.coral.service#RequestEntityTooLargeException"
    assert time.time() - start < 10
    assert stored(ddb, table, p) is None


def test_inflated_size_up_to_the_limit_is_accepted(server, ddb, table):
    p = unique_name("big")
    body = put_body(table, p)
    padded = body[:-1] + b" " * (16 * 1024 * 1024 - len(body)) + b"}"
    assert len(padded) == 16 * 1024 * 1024
    status, _, raw = post(server.port, "PutItem", gzip.compress(padded), {"Content-Encoding": "gzip"})
    assert status == 200, raw
    over = body[:-1] + b" " * (16 * 1024 * 1024 + 1 - len(body)) + b"}"
    status, _, raw = post(server.port, "PutItem", gzip.compress(over), {"Content-Encoding": "gzip"})
    assert status == 413


def test_boto3_request_compression(server, table):
    # Newer botocore compresses request bodies itself (request_min_compression_size_bytes and the
    # model's "requestcompression"); this one does as it would, after the body is final.
    c = server.client()
    sent = []

    def compress(request, **kw):
        request.body = gzip.compress(request.body if isinstance(request.body, bytes) else request.body.encode())
        request.headers["Content-Encoding"] = "gzip"
        request.headers["Content-Length"] = str(len(request.body))
        sent.append(len(request.body))

    c.meta.events.register("before-send", compress)
    p = unique_name("boto")
    c.put_item(TableName=table, Item={"p": {"S": p}, "v": {"S": "y" * 5000}})
    assert c.get_item(TableName=table, Key={"p": {"S": p}})["Item"]["v"] == {"S": "y" * 5000}
    assert sent and sent[0] < 500


# ---- compressed responses ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def big_item(ddb, table):
    p = unique_name("resp")
    ddb.put_item(TableName=table, Item={"p": {"S": p}, "x": {"S": "x" * (THRESHOLD - 25)}})
    return p


def get(server, table, p, accept, projection=None):
    body = {"TableName": table, "Key": {"p": {"S": p}}}
    if projection:
        body["ProjectionExpression"] = projection
    headers = accept if isinstance(accept, list) else ([("Accept-Encoding", accept)] if accept is not None else [])
    status, headers, raw = post(server.port, "GetItem", json.dumps(body).encode(), headers)
    assert status == 200
    return headers, raw


@pytest.mark.parametrize("coding", ["gzip", "deflate"])
def test_response_at_or_over_4kb_is_compressed(server, table, big_item, coding):
    headers, raw = get(server, table, big_item, coding)
    assert headers["content-encoding"] == coding
    assert int(headers["content-length"]) == len(raw)
    item = decoded(headers, raw)["Item"]
    assert item["x"]["S"] == "x" * (THRESHOLD - 25)
    assert len(json.dumps(decoded(headers, raw))) > 30 * len(raw)
    # Under 4 KB: never compressed.
    headers, raw = get(server, table, big_item, coding, projection="x")
    assert len(raw) < THRESHOLD
    assert "content-encoding" not in headers
    assert decoded(headers, raw)["Item"]["x"]["S"] == "x" * (THRESHOLD - 25)
    # Without Accept-Encoding: never compressed.
    headers, raw = get(server, table, big_item, None)
    assert "content-encoding" not in headers
    assert decoded(headers, raw)["Item"]["p"] == {"S": big_item}


def test_threshold_is_4096_bytes(server, ddb, table):
    p = unique_name("edge")
    base = len(json.dumps({"Item": {"x": {"S": ""}}}, separators=(",", ":")))
    for size, compressed in [(THRESHOLD - 1, False), (THRESHOLD, True)]:
        ddb.put_item(TableName=table, Item={"p": {"S": p}, "x": {"S": "y" * (size - base)}})
        headers, raw = get(server, table, p, "gzip", projection="x")
        assert ("content-encoding" in headers) == compressed, size
        assert len(gzip.decompress(raw) if compressed else raw) == size


def test_large_poorly_compressible_response(server, ddb, table):
    p = unique_name("large")
    rng = random.Random(7)
    text = "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(THRESHOLD * 60))
    ddb.put_item(TableName=table, Item={"p": {"S": p}, "y": {"S": text}})
    for coding in ["gzip", "deflate"]:
        headers, raw = get(server, table, p, coding)
        assert headers["content-encoding"] == coding
        assert decoded(headers, raw)["Item"]["y"]["S"] == text
        assert len(raw) * 1.2 < len(text)


# Expected codings for Accept-Encoding values, as DynamoDB answers them (ScyllaDB's
# test_compressed_response_accept_encodings, run against AWS).
ACCEPT_CASES = [
    ("identity", None), ("", None), ("br", None), ("zstd", None), ("compress", None), ("x-gzip", None),
    ("gzip, deflate", "gzip"), ("br, identity, deflate, gzip", "deflate"), ("GZIP, identity", "gzip"),
    ("dog, gzip ,, cat", "gzip"), ("gzip;q=0.8, deflate;q=0.5", "gzip"),
    ("br, gzip;q=0, deflate; q = 0.5 , identity;q=0", "deflate"), ("*", "gzip"), ("*, deflate;q=0.5", "gzip"),
    ("*, deflate", "deflate"), ("*, identity", "gzip"), ("*, gzip;q=0.5", "deflate"), ("gzip ;q=0", None),
    ("identity;q=0", None), ("*;q=0", None), ("*;q=0.5,identity", "gzip"), ("gzip;q=0.5,identity;q=0.8", "gzip"),
    ("br;q=0.8,identity;q=0.5,*;q=0", None), ('"gzip"', None), ("gzip br", None), ("gzip:q=1", None),
    ("deflate;q=0.5, gzip;q=31", "gzip"), ("gzip;q=31,deflate;q=51", "gzip"), ("deflate;q=0.5, gzip;q=0.2", "deflate"),
    ("deflate;q=0.5, gzip;q=1;q=0.2", "gzip"), ("deflate;q=0.5,gzip;q=0.", "deflate"),
    ("deflate;q=0.5,gzip;q=0.x", "gzip"), ("deflate;q=-0.5,gzip;q=0.2", "gzip"), ("gzip;nq=1;q=0 ", None),
    ("gzip;q=0, gzip;q=1, gzip;q=0", "gzip"), ("br,identity;q=0.5,gzip;q=0.0001", "gzip"),
]


@pytest.mark.parametrize("accept,expected", ACCEPT_CASES)
def test_accept_encoding_negotiation(server, table, big_item, accept, expected):
    headers, raw = get(server, table, big_item, accept)
    assert headers.get("content-encoding") == expected
    assert decoded(headers, raw)["Item"]["p"] == {"S": big_item}


def test_repeated_accept_encoding_header_uses_the_last(server, table, big_item):
    headers, raw = get(server, table, big_item, [("Accept-Encoding", "identity"), ("Accept-Encoding", "gzip")])
    assert headers["content-encoding"] == "gzip"
    headers, raw = get(server, table, big_item, [("Accept-Encoding", "gzip"), ("Accept-Encoding", "identity")])
    assert "content-encoding" not in headers


def test_compressed_error_and_scan_responses(server, ddb, table, big_item):
    status, headers, raw = post(server.port, "Scan", json.dumps({"TableName": table}).encode(),
                                {"Accept-Encoding": "gzip"})
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert any(i["p"] == {"S": big_item} for i in decoded(headers, raw)["Items"])
    status, headers, raw = post(server.port, "GetItem", b'{"TableName": "nope", "Key": {}}', {"Accept-Encoding": "gzip"})
    assert status == 400 and "content-encoding" not in headers  # small: sent as it is


def test_boto3_with_compressed_responses_verifies_the_crc(server, table, big_item, monkeypatch):
    # botocore does not ask for compression; ask, and inflate the body it parses, as a client
    # that wants compression would. Its CRC32 check runs over the bytes received (the raw
    # http_response): it passes only if x-amz-crc32 is the checksum of the compressed bytes.
    import boto3
    import botocore.endpoint
    c = boto3.client("dynamodb", endpoint_url=server.endpoint, region_name="us-east-1", aws_access_key_id="a",
                     aws_secret_access_key="b", config=botocore.config.Config(retries={"max_attempts": 1}))
    seen = []
    original = botocore.endpoint.convert_to_response_dict

    def inflating(http_response, operation_model):
        response_dict = original(http_response, operation_model)
        if response_dict["headers"].get("Content-Encoding") == "gzip":
            seen.append(len(response_dict["body"]))
            response_dict["body"] = gzip.decompress(response_dict["body"])
        return response_dict

    monkeypatch.setattr(botocore.endpoint, "convert_to_response_dict", inflating)

    def add_header(request, **kw):
        request.headers["Accept-Encoding"] = "gzip"

    c.meta.events.register("before-sign", add_header)
    item = c.get_item(TableName=table, Key={"p": {"S": big_item}})["Item"]
    assert item["x"]["S"] == "x" * (THRESHOLD - 25)
    assert seen and seen[0] < 1000
