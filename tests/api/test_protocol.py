"""Wire protocol: health check, targets, content types, checksums, request ids, size limit, CORS.

Expected values are DynamoDB's own (dynalite's connection tests were recorded against AWS): bare
`__type` bodies without a message for protocol errors, the `<UnknownOperationException/>` 404
page, the response Content-Type following the request's, and 413 for bodies over 16 MB.
"""
import http.client
import json
import re
import socket
import time
import zlib

import pytest

from raw import call, crc_ok, post

REQUEST_ID = re.compile(r"^[0-9A-Z]{52}$")
LIST_TABLES = "DynamoDB_20120810.ListTables"


def request(port, method, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request(method, "/", body=body, headers=headers or {})
    resp = conn.getresponse()
    raw = resp.read()
    conn.close()
    return resp.status, {k.lower(): v for k, v in resp.getheaders()}, raw


def lower(headers):
    return {k.lower(): v for k, v in headers.items()}


# ---- health check and non-POST methods -------------------------------------------------------


def test_get_is_health_check(server):
    # AWS names the host the client addressed (dynamodb.<region>.amazonaws.com); so do we.
    status, headers, raw = request(server.port, "GET", headers={"Host": "dynamodb.us-east-1.amazonaws.com"})
    assert status == 200
    assert raw == b"healthy: dynamodb.us-east-1.amazonaws.com "  # the trailing space is AWS's
    assert headers["content-length"] == "42"
    assert headers["x-amz-crc32"] == "3128867991"
    assert crc_ok(headers, raw)
    assert REQUEST_ID.match(headers["x-amzn-requestid"])


def test_health_check_names_configured_region_without_host(start_server):
    s = start_server("--in-memory", "--region", "eu-west-2")
    sock = socket.create_connection(("127.0.0.1", s.port), timeout=30)
    sock.sendall(b"GET / HTTP/1.0\r\n\r\n")
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    sock.close()
    assert data.startswith(b"HTTP/1.0 200 ")
    assert data.split(b"\r\n\r\n", 1)[1] == b"healthy: dynamodb.eu-west-2.amazonaws.com "


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH"])
def test_other_methods_are_404(server, method):
    status, headers, raw = request(server.port, method)
    assert status == 404
    assert raw == b"<UnknownOperationException/>\n"
    assert headers["x-amz-crc32"] == "3552371480"
    assert headers["content-length"] == "29"
    assert REQUEST_ID.match(headers["x-amzn-requestid"])


def test_options_without_origin_is_404(server):
    status, _, raw = request(server.port, "OPTIONS")
    assert status == 404
    assert raw == b"<UnknownOperationException/>\n"


# ---- content types ---------------------------------------------------------------------------


@pytest.mark.parametrize("content_type", [None, "whatever", "application/x-amz-json-1.1", "application/jsonasdf"])
def test_body_with_wrong_content_type_is_404(server, content_type):
    headers = {"X-Amz-Target": LIST_TABLES}
    if content_type:
        headers["Content-Type"] = content_type
    status, headers, raw = request(server.port, "POST", body="{}", headers=headers)
    assert status == 404
    assert raw == b"<UnknownOperationException/>\n"
    assert headers["x-amz-crc32"] == "3552371480"


@pytest.mark.parametrize("content_type,expected", [
    ("application/x-amz-json-1.0", "application/x-amz-json-1.0"),
    ("application/json", "application/json"),
    ("application/json;charset=utf-8", "application/json"),
    ("  application/json  ;   asfd", "application/json"),
    ("application/x-amz-json-1.0; charset=utf-8", "application/x-amz-json-1.0"),
])
def test_response_content_type_follows_request(server, content_type, expected):
    status, headers, raw = post(server.port, LIST_TABLES, "{}", content_type=content_type)
    assert status == 200
    assert lower(headers)["content-type"] == expected
    assert isinstance(json.loads(raw)["TableNames"], list)
    assert lower(headers)["content-length"] == str(len(raw))


# ---- targets ---------------------------------------------------------------------------------


def test_missing_target_and_body_is_unknown_operation(server):
    status, headers, raw = request(server.port, "POST")
    assert status == 400
    assert json.loads(raw) == {"__type": "com.amazon.coral.service#UnknownOperationException"}
    assert headers["x-amz-crc32"] == "1368724161"
    assert headers["content-type"] == "application/json"
    assert REQUEST_ID.match(headers["x-amzn-requestid"])


@pytest.mark.parametrize("target", [None, "whatever", "DynamoDB_20120810.ListTable",
                                    "DynamoDB_20120810.", "DynamoDBStreams_20120810.ListTables",
                                    "DynamoDB_20120810.ListTables.Extra"])
def test_unknown_target_is_unknown_operation(server, target):
    status, headers, raw = post(server.port, target, "{}")
    assert status == 400
    assert raw == b'{"__type":"com.amazon.coral.service#UnknownOperationException"}'
    assert lower(headers)["x-amz-crc32"] == "1368724161"
    assert lower(headers)["content-type"] == "application/x-amz-json-1.0"


# ---- malformed bodies ------------------------------------------------------------------------


@pytest.mark.parametrize("content_type", ["application/json", "application/x-amz-json-1.0",
                                          "application/json;", "application/json;blahblah"])
def test_malformed_json_is_serialization_exception(server, content_type):
    status, headers, raw = post(server.port, LIST_TABLES, "hi", content_type=content_type)
    assert status == 400
    assert raw == b'{"__type":"com.amazon.coral.service#SerializationException"}'
    assert lower(headers)["x-amz-crc32"] == "3948637019"
    expected = "application/x-amz-json-1.0" if "amz" in content_type else "application/json"
    assert lower(headers)["content-type"] == expected


def test_malformed_json_is_checked_before_the_target(server):
    status, _, raw = post(server.port, "whatever", "{bad")
    assert status == 400
    assert json.loads(raw) == {"__type": "com.amazon.coral.service#SerializationException"}


def test_known_target_without_body_is_serialization_exception(server):
    status, _, raw = post(server.port, LIST_TABLES, b"")
    assert status == 400
    assert json.loads(raw) == {"__type": "com.amazon.coral.service#SerializationException"}


def test_truncated_json_is_serialization_exception(server):
    status, _, raw = post(server.port, LIST_TABLES, '{"Limit": 1')
    assert status == 400
    assert json.loads(raw) == {"__type": "com.amazon.coral.service#SerializationException"}


def test_json_array_body_is_start_of_list(server):
    status, parsed, _ = call(server.port, "ListTables", [])
    assert status == 400
    assert parsed == {"__type": "com.amazon.coral.service#SerializationException",
                      "Message": "Start of list found where not expected"}


@pytest.mark.parametrize("body", ['"abc"', "123", "true", "null"])
def test_json_scalar_body_is_bare_serialization_exception(server, body):
    status, parsed, _ = call(server.port, "ListTables", body)
    assert status == 400
    assert parsed == {"__type": "com.amazon.coral.service#SerializationException"}


def test_unknown_and_null_members_are_ignored(server):
    status, parsed, _ = call(server.port, "ListTables", {"hi": "yo", "stuff": "things",
                                                         "ExclusiveStartTableName": None, "Limit": None})
    assert status == 200
    assert isinstance(parsed["TableNames"], list)


# ---- response headers ------------------------------------------------------------------------


def test_crc32_matches_body_on_success_and_error(server):
    for op, body in [("ListTables", "{}"), ("DescribeTable", '{"TableName": "no-such-table-here"}')]:
        status, headers, raw = post(server.port, "DynamoDB_20120810." + op, body)
        assert crc_ok(headers, raw)
        assert int(lower(headers)["x-amz-crc32"]) == zlib.crc32(raw)
    status, headers, raw = post(server.port, "DynamoDB_20120810.DescribeTable", '{"TableName": "no-such-table-here"}')
    assert status == 400
    assert json.loads(raw) == {"__type": "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
                               "message": "Requested resource not found: Table: no-such-table-here not found"}


def test_request_ids_are_present_and_unique(server):
    ids = set()
    for _ in range(5):
        _, headers, _ = post(server.port, LIST_TABLES, "{}")
        rid = lower(headers)["x-amzn-requestid"]
        assert REQUEST_ID.match(rid)
        ids.add(rid)
    assert len(ids) == 5


def test_sdk_sees_request_id_and_verifies_crc(ddb):
    resp = ddb.list_tables()
    meta = resp["ResponseMetadata"]
    assert REQUEST_ID.match(meta["RequestId"])
    assert int(meta["HTTPHeaders"]["x-amz-crc32"]) >= 0
    assert meta["HTTPStatusCode"] == 200


def test_keep_alive_serves_several_requests_on_one_connection(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    for _ in range(3):
        conn.request("POST", "/", body="{}", headers={"Content-Type": "application/x-amz-json-1.0",
                                                      "X-Amz-Target": LIST_TABLES})
        resp = conn.getresponse()
        assert resp.status == 200
        resp.read()
    conn.close()


def _read_response(f):
    status = int(f.readline().split()[1])
    headers = {}
    for line in iter(f.readline, b"\r\n"):
        name, _, value = line.decode().partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, json.loads(f.read(int(headers["content-length"])) or b"{}")


def test_pipelined_requests_are_answered_in_order(server):
    # Three requests in one write: answered one after the other in the order sent, whether the
    # request runs on the connection's I/O thread (ListTables, an unknown operation) or on a worker
    # (Query).
    def raw_request(target, body):
        return (f"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-amz-json-1.0\r\n"
                f"X-Amz-Target: {target}\r\nContent-Length: {len(body)}\r\n\r\n{body}").encode()
    s = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    s.sendall(raw_request(LIST_TABLES, "{}") +
              raw_request("DynamoDB_20120810.Query", json.dumps({
                  "TableName": "no_such_table_pipelined", "KeyConditionExpression": "pk = :v",
                  "ExpressionAttributeValues": {":v": {"S": "x"}}})) +
              raw_request("DynamoDB_20120810.NoSuchOperation", "{}"))
    f = s.makefile("rb")
    status, body = _read_response(f)
    assert status == 200 and "TableNames" in body
    status, body = _read_response(f)
    assert status == 400 and body["__type"].endswith("#ResourceNotFoundException")
    status, body = _read_response(f)
    assert status == 400 and body["__type"].endswith("#UnknownOperationException")
    f.close()
    s.close()


def _raw_request(target, body, extra_headers="", version="1.1"):
    return (f"POST / HTTP/{version}\r\nHost: localhost\r\nContent-Type: application/x-amz-json-1.0\r\n"
            f"X-Amz-Target: {target}\r\n{extra_headers}Content-Length: {len(body)}\r\n\r\n{body}").encode()


def test_request_arriving_a_few_bytes_at_a_time_is_answered(server):
    # The header and the body split across many small writes (and a pause between them): the
    # server parses what it has and reads on until the request is whole, twice on one connection.
    s = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    f = s.makefile("rb")
    for _ in range(2):
        data = _raw_request(LIST_TABLES, '{"Limit": 5}')
        for i in range(0, len(data), 7):
            s.sendall(data[i:i + 7])
            time.sleep(0.002)
        status, body = _read_response(f)
        assert status == 200 and "TableNames" in body
    f.close()
    s.close()


def test_chunked_request_body_is_answered(server):
    s = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    s.sendall(b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-amz-json-1.0\r\n"
              b"X-Amz-Target: " + LIST_TABLES.encode() + b"\r\nTransfer-Encoding: chunked\r\n\r\n"
              b"5\r\n{\"Lim\r\n7\r\nit\": 3}\r\n0\r\n\r\n")
    f = s.makefile("rb")
    status, body = _read_response(f)
    assert status == 200 and "TableNames" in body
    f.close()
    s.close()


@pytest.mark.parametrize("cut", ["header", "body"])
def test_connection_closed_mid_request_leaves_the_server_serving(server, cut):
    data = _raw_request(LIST_TABLES, '{"Limit": 5}')
    s = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    s.sendall(data[:20] if cut == "header" else data[:-3])
    s.shutdown(socket.SHUT_WR)
    assert s.recv(100) == b""  # closed without an answer
    s.close()
    assert _alive(server.port)


def test_http10_request_is_answered_then_closed(server):
    s = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    s.sendall(_raw_request(LIST_TABLES, "{}", version="1.0"))
    f = s.makefile("rb")
    status, body = _read_response(f)
    assert status == 200 and "TableNames" in body
    assert f.read() == b""  # HTTP/1.0 without keep-alive: the server closes
    f.close()
    s.close()


# ---- request size limit ----------------------------------------------------------------------


def _alive(port):
    status, _, raw = request(port, "GET")
    return status == 200 and raw.startswith(b"healthy:")


def test_declared_17mb_body_is_413_before_it_is_sent(server):
    size = 17 * 1024 * 1024
    s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    s.sendall((f"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-amz-json-1.0\r\n"
               f"X-Amz-Target: {LIST_TABLES}\r\nContent-Length: {size}\r\n\r\n").encode())
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    assert data.startswith(b"HTTP/1.1 413 ")
    assert _alive(server.port)


def test_streamed_17mb_body_does_not_crash_the_server(server):
    body = b"a" * (17 * 1024 * 1024)
    try:
        status, _, _ = request(server.port, "POST", body=body,
                               headers={"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": LIST_TABLES})
        assert status == 413
    except (BrokenPipeError, ConnectionResetError):
        pytest.fail("the server must read the body and answer 413")
    assert _alive(server.port)


def test_streamed_17mb_body_gets_413(server):
    body = b"a" * (17 * 1024 * 1024)
    status, _, _ = request(server.port, "POST", body=body,
                           headers={"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": LIST_TABLES})
    assert status == 413


def test_exactly_16mb_body_is_not_413(server):
    body = b"a" * (16 * 1024 * 1024)
    status, headers, raw = request(server.port, "POST", body=body, headers={"X-Amz-Target": LIST_TABLES})
    assert status == 404  # read in full, then refused for the missing content type, as AWS does
    assert raw == b"<UnknownOperationException/>\n"


# ---- CORS ------------------------------------------------------------------------------------


def test_cors_preflight(server):
    status, headers, raw = request(server.port, "OPTIONS", headers={
        "Origin": "http://example.com",
        "Access-Control-Request-Headers": "content-type,x-amz-target,authorization",
        "Access-Control-Request-Method": "POST"})
    assert status == 200
    assert raw == b""
    assert headers["access-control-allow-origin"] == "*"
    assert headers["access-control-allow-headers"] == "content-type,x-amz-target,authorization"
    assert headers["access-control-allow-methods"] == "POST"
    assert headers["access-control-max-age"] == "172800"
    assert headers["content-length"] == "0"
    assert REQUEST_ID.match(headers["x-amzn-requestid"])


def test_cors_preflight_without_request_headers(server):
    status, headers, _ = request(server.port, "OPTIONS", headers={"Origin": "whatever"})
    assert status == 200
    assert headers["access-control-allow-origin"] == "*"
    assert "access-control-allow-headers" not in headers
    assert "access-control-allow-methods" not in headers


def test_cors_header_on_normal_and_error_responses(server):
    status, headers, _ = post(server.port, LIST_TABLES, "{}", headers={"Origin": "whatever"})
    assert status == 200
    assert lower(headers)["access-control-allow-origin"] == "*"
    status, headers, raw = post(server.port, "whatever", "{}", headers={"Origin": "whatever"})
    assert status == 400
    assert lower(headers)["access-control-allow-origin"] == "*"
    assert json.loads(raw) == {"__type": "com.amazon.coral.service#UnknownOperationException"}


def test_no_cors_header_without_origin(server):
    _, headers, _ = post(server.port, LIST_TABLES, "{}")
    assert "access-control-allow-origin" not in lower(headers)


def test_body_ending_in_a_truncated_utf8_sequence(server):
    # Found by the HTTP fuzzer: a multi-byte UTF-8 lead byte as the last byte of the body.
    for tail in (b"\xe8", b"\xf3\x80", b"\xc3"):
        status, _, raw = request(server.port, "POST", body=b'{"TableName":"a' + tail,
                                 headers={"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": LIST_TABLES})
        assert status == 400
        assert b"SerializationException" in raw
    assert _alive(server.port)
