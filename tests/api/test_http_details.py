"""HTTP details of DynamoDB's endpoint: the Server and Date headers on every answer, CORS as AWS
answers a browser, DescribeEndpoints and the health check naming the address the client used, and
a request line or header block too large answered with 400 rather than a closed socket.

Where AWS's behaviour comes from: ScyllaDB's alternator tests run against AWS (test_http_headers.py:
DynamoDB sends Server and Date on success and error answers; test_cors.py: with an Origin every
answer has Access-Control-Allow-Origin: * and Access-Control-Expose-Headers, only the preflight
has Access-Control-Max-Age and echoes the requested headers and methods; test_health.py: GET /
answers "healthy: <the host in the URL>", other paths a 4xx; test_describe_endpoints.py: the one
endpoint returned is the address the client can use; PR #23442's reproducer: a 17,000-character
URL gets 400 Bad Request, not a signature error)."""
import email.utils
import http.client
import json
import socket
import time

import pytest

LIST_TABLES = "DynamoDB_20120810.ListTables"


def request(port, method, path="/", body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request(method, path, body=body, headers=headers or {})
    resp = conn.getresponse()
    raw = resp.read()
    conn.close()
    return resp.status, {k.lower(): v for k, v in resp.getheaders()}, raw


def raw_exchange(port, data):
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.sendall(data)
    out = b""
    while True:
        try:
            chunk = s.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        out += chunk
    s.close()
    return out


def assert_server_and_date(headers):
    assert headers["server"] == "Server"
    when = email.utils.parsedate_to_datetime(headers["date"])
    assert abs(when.timestamp() - time.time()) < 5
    assert headers["date"].endswith(" GMT")


@pytest.mark.parametrize("method,target,body,status", [
    ("POST", LIST_TABLES, "{}", 200),
    ("POST", "DynamoDB_20120810.DescribeTable", '{"TableName": "nope"}', 400),
    ("POST", "whatever", "{}", 400),
    ("GET", None, None, 200),
    ("PUT", None, None, 404),
])
def test_server_and_date_on_every_answer(server, method, target, body, status):
    headers = {"Content-Type": "application/x-amz-json-1.0"}
    if target:
        headers["X-Amz-Target"] = target
    got, headers, _ = request(server.port, method, body=body, headers=headers)
    assert got == status
    assert_server_and_date(headers)


def test_server_and_date_through_boto3(ddb):
    headers = ddb.list_tables()["ResponseMetadata"]["HTTPHeaders"]
    assert headers["server"] == "Server" and "date" in headers


def test_server_and_date_on_413(server):
    size = 17 * 1024 * 1024
    out = raw_exchange(server.port, (f"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0\r\n"
                                     f"X-Amz-Target: {LIST_TABLES}\r\nContent-Length: {size}\r\n\r\n").encode())
    head = out.split(b"\r\n\r\n")[0].decode()
    assert head.startswith("HTTP/1.1 413 ")
    assert "\r\nServer: Server\r\n" in head and "\r\nDate: " in head


# ---- CORS ------------------------------------------------------------------------------------


CORS_HEADERS = ["access-control-allow-origin", "access-control-allow-credentials", "access-control-expose-headers",
                "access-control-max-age", "access-control-allow-methods", "access-control-allow-headers"]


@pytest.mark.parametrize("method", ["OPTIONS", "GET", "POST"])
def test_no_cors_headers_without_origin(server, method):
    _, headers, _ = request(server.port, method)
    for h in CORS_HEADERS:
        assert h not in headers


@pytest.mark.parametrize("method", ["OPTIONS", "GET", "POST"])
def test_cors_answer_to_a_browser(server, method):
    asked = {"Origin": "http://example.com/", "Access-Control-Request-Method": "dog",
             "Access-Control-Request-Headers": "cat, meerkat, mouse"}
    status, headers, _ = request(server.port, method, headers=asked)
    assert headers["access-control-allow-origin"] == "*"
    exposed = [h.strip().lower() for h in headers["access-control-expose-headers"].split(",")]
    assert {"x-amzn-requestid", "x-amzn-errortype", "x-amz-crc32"} <= set(exposed)
    if method == "OPTIONS":
        assert status == 200
        assert headers["access-control-max-age"] == "172800"
        assert headers["access-control-allow-methods"] == "dog"
        assert headers["access-control-allow-headers"] == "cat, meerkat, mouse"
    else:
        for h in ["access-control-max-age", "access-control-allow-methods", "access-control-allow-headers"]:
            assert h not in headers


# ---- the address the client used --------------------------------------------------------------


def test_health_check_names_the_host_addressed(server):
    status, headers, raw = request(server.port, "GET")
    assert status == 200
    assert raw == f"healthy: 127.0.0.1:{server.port} ".encode()
    assert headers["content-type"] == "text/plain"
    status, _, raw = request(server.port, "GET", headers={"Host": "dynamodb.us-east-1.amazonaws.com"})
    assert raw == b"healthy: dynamodb.us-east-1.amazonaws.com "
    status, _, raw = request(server.port, "GET", path="/?probe=1", headers={"Host": "db.local:8000"})
    assert status == 200 and raw == b"healthy: db.local:8000 "


def test_health_check_without_host_names_the_region(server):
    out = raw_exchange(server.port, b"GET / HTTP/1.0\r\n\r\n")
    assert out.split(b"\r\n\r\n", 1)[1] == b"healthy: dynamodb.us-east-1.amazonaws.com "


@pytest.mark.parametrize("path", ["/abc", "/-", "/index.htm", "/a/b"])
def test_health_check_answers_on_the_root_only(server, path):
    status, _, raw = request(server.port, "GET", path=path)
    assert 400 <= status <= 404
    assert raw == b"<UnknownOperationException/>\n"


def test_describe_endpoints_returns_the_address_used(server, ddb):
    endpoints = ddb.describe_endpoints()["Endpoints"]
    assert endpoints == [{"Address": f"127.0.0.1:{server.port}", "CachePeriodInMinutes": 1440}]
    status, _, raw = request(server.port, "POST", body="{}", headers={
        "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810.DescribeEndpoints",
        "Host": "dynamodb.eu-west-1.amazonaws.com"})
    assert json.loads(raw)["Endpoints"][0]["Address"] == "dynamodb.eu-west-1.amazonaws.com"
    # A client that follows the answer reaches this server again.
    import boto3
    again = boto3.client("dynamodb", endpoint_url="http://" + endpoints[0]["Address"], region_name="us-east-1",
                         aws_access_key_id="a", aws_secret_access_key="b")
    assert again.describe_endpoints()["Endpoints"] == endpoints


# ---- request line and headers too large -------------------------------------------------------


def _alive(port):
    status, _, raw = request(port, "GET")
    return status == 200 and raw.startswith(b"healthy:")


def test_long_url_is_400(server):
    out = raw_exchange(server.port, (f"POST /{'x' * 17000} HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0\r\n"
                                     f"X-Amz-Target: {LIST_TABLES}\r\nContent-Length: 2\r\n\r\n{{}}").encode())
    assert out.startswith(b"HTTP/1.1 400 ")
    assert b"InvalidSignatureException" not in out
    assert _alive(server.port)


def test_url_under_the_limit_is_served(server):
    status, _, raw = request(server.port, "POST", path="/" + "x" * 8000, body="{}",
                             headers={"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": LIST_TABLES})
    assert status == 200 and "TableNames" in json.loads(raw)


@pytest.mark.parametrize("shape", ["one-huge-header", "many-headers"])
def test_headers_too_large_are_400(server, shape):
    if shape == "one-huge-header":
        extra = "X-Big: " + "y" * (70 * 1024) + "\r\n"
    else:
        extra = "".join(f"X-H{i}: {'z' * 100}\r\n" for i in range(1000))
    out = raw_exchange(server.port, (f"POST / HTTP/1.1\r\nHost: x\r\n{extra}Content-Type: application/x-amz-json-1.0\r\n"
                                     f"X-Amz-Target: {LIST_TABLES}\r\nContent-Length: 2\r\n\r\n{{}}").encode())
    assert out.startswith(b"HTTP/1.1 400 ")
    head = out.split(b"\r\n\r\n")[0].decode()
    assert "\r\nServer: Server\r\n" in head and "\r\nConnection: close" in head
    assert _alive(server.port)


def test_headers_under_the_limit_are_served(server):
    headers = {f"X-H{i}": "z" * 100 for i in range(300)}
    headers.update({"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": LIST_TABLES})
    status, _, raw = request(server.port, "POST", body="{}", headers=headers)
    assert status == 200
