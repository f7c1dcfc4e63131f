"""The web console on the API's port (src/console): GET /console/... serves the embedded files
with their content types, cache headers and validators, on the same keep-alive connections as
the DynamoDB API, which stays POST / (and keeps checking signatures when configured)."""
import gzip
import http.client
import json
import re

import pytest

from conftest import Server


def get(conn, path, headers=None):
    conn.request("GET", path, headers=headers or {})
    resp = conn.getresponse()
    return resp.status, resp.reason, {k.lower(): v for k, v in resp.getheaders()}, resp.read()


@pytest.fixture
def conn(server):
    c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    yield c
    c.close()


@pytest.fixture(scope="module")
def present(server):
    c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    status, _, _, body = get(c, "/console/")
    c.close()
    if status == 404 and b"absent" in body:
        pytest.skip("this monotable was built without the console (no npm)")
    return True


def test_start_line_names_the_console(server):
    # The first line stays "monotable listening on ..."; the console's line follows it.
    line = server.proc.stdout.readline()
    assert line.startswith("web console: ")


def test_bare_path_redirects_to_the_folder(conn):
    status, reason, headers, body = get(conn, "/console?table=shop")
    assert (status, reason) == (301, "Moved Permanently")
    assert headers["location"] == "/console/?table=shop"
    assert body == b""


def test_page_gzip_and_identity_on_one_keep_alive_connection(conn, present):
    status, _, gz_headers, gz_body = get(conn, "/console/", {"Accept-Encoding": "gzip, br"})
    assert status == 200
    assert gz_headers["content-type"] == "text/html; charset=utf-8"
    assert gz_headers["content-encoding"] == "gzip"
    assert gz_headers["cache-control"] == "no-cache"
    assert gz_headers["vary"] == "Accept-Encoding"
    assert "connect-src 'self'" in gz_headers["content-security-policy"]
    assert int(gz_headers["content-length"]) == len(gz_body)
    page = gzip.decompress(gz_body)
    status, _, headers, body = get(conn, "/console/index.html")
    assert status == 200 and "content-encoding" not in headers
    assert body == page
    assert b'<div id="app"></div>' in page


def test_assets_are_immutable_with_their_types(conn, present):
    _, _, _, page = get(conn, "/console/")
    assets = re.findall(rb'(?:src|href)="/console/(assets/[^"]+)"', page)
    assert any(a.endswith(b".js") for a in assets)
    for asset in assets:
        status, _, headers, body = get(conn, "/console/" + asset.decode())
        assert status == 200
        assert headers["cache-control"] == "public, max-age=31536000, immutable"
        kind = "text/javascript" if asset.endswith(b".js") else "text/css"
        assert headers["content-type"] == kind + "; charset=utf-8"
        assert headers["x-content-type-options"] == "nosniff"
        assert len(body) > 100


def test_if_none_match_answers_not_modified(conn, present):
    _, _, headers, _ = get(conn, "/console/", {"Accept-Encoding": "gzip"})
    status, reason, again, body = get(conn, "/console/", {"Accept-Encoding": "gzip", "If-None-Match": headers["etag"]})
    assert (status, reason, body) == (304, "Not Modified", b"")
    assert again["etag"] == headers["etag"]
    status, _, _, _ = get(conn, "/console/", {"If-None-Match": headers["etag"]})  # the other encoding's tag
    assert status == 200


def test_missing_files_and_client_routes(conn, present):
    assert get(conn, "/console/assets/nothing-123.js")[0] == 404
    status, _, headers, _ = get(conn, "/console/tables/shop")
    assert status == 200 and headers["content-type"].startswith("text/html")


def test_api_stays_post_root_beside_the_console(conn, server, present):
    get(conn, "/console/")
    body = json.dumps({})
    conn.request("POST", "/", body=body, headers={"Content-Type": "application/x-amz-json-1.0",
                                                  "X-Amz-Target": "DynamoDB_20120810.ListTables"})
    resp = conn.getresponse()
    assert resp.status == 200
    assert "TableNames" in json.loads(resp.read())
    # DynamoDB answers any path with the API: a POST to /console/ is an API call, not a file.
    conn.request("POST", "/console/", body=body, headers={"Content-Type": "application/x-amz-json-1.0",
                                                          "X-Amz-Target": "DynamoDB_20120810.ListTables"})
    resp = conn.getresponse()
    assert resp.status == 200 and "TableNames" in json.loads(resp.read())


def test_signatures_still_checked_when_the_console_is_served(binary, tmp_path):
    creds = tmp_path / "credentials"
    creds.write_text("AKCONSOLE secret\n")
    s = Server(binary, ["--in-memory", "--credentials", str(creds)])
    try:
        c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=30)
        status, _, _, body = get(c, "/console/")
        assert status in (200, 404)  # the files are public (404: built without the console)
        c.request("POST", "/", body="{}", headers={"Content-Type": "application/x-amz-json-1.0",
                                                   "X-Amz-Target": "DynamoDB_20120810.ListTables"})
        resp = c.getresponse()
        assert resp.status == 400
        assert "MissingAuthenticationToken" in json.loads(resp.read())["__type"]
        c.close()
    finally:
        s.kill()


def signed_get(port, path, key, secret):
    """GET path signed with SigV4 (service dynamodb, us-east-1) as the console's aws4fetch signs it."""
    import botocore.auth
    import botocore.awsrequest
    import botocore.credentials
    url = f"http://127.0.0.1:{port}{path}"
    req = botocore.awsrequest.AWSRequest(method="GET", url=url, data=b"")
    botocore.auth.SigV4Auth(botocore.credentials.Credentials(key, secret), "dynamodb", "us-east-1").add_auth(req)
    return dict(req.headers.items())


def test_heat_map_wants_a_signature_when_credentials_are_configured(binary, tmp_path):
    """GET /monotable/heat shows key values: with --credentials it is answered only to a request
    signed by a key allowed the table (403 with AWS's error otherwise); without, it stays open."""
    import boto3
    creds = tmp_path / "credentials"
    creds.write_text("AKHEAT secret\nAKOTHER othersecret other*\n")
    s = Server(binary, ["--in-memory", "--credentials", str(creds)])
    try:
        ddb = boto3.client("dynamodb", endpoint_url=s.endpoint, region_name="us-east-1", aws_access_key_id="AKHEAT",
                           aws_secret_access_key="secret")
        ddb.create_table(TableName="hot", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                         BillingMode="PAY_PER_REQUEST")
        ddb.put_item(TableName="hot", Item={"pk": {"S": "secret-key-value"}})
        c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=30)
        status, _, headers, body = get(c, "/monotable/heat?table=hot")
        assert status == 403 and b"secret-key-value" not in body
        refused = json.loads(body)
        assert refused["__type"].endswith("#MissingAuthenticationTokenException")
        assert refused["message"] == "Request is missing Authentication Token"
        # A wrong secret, an unknown key, a key not allowed this table.
        for key, secret, error in [("AKHEAT", "wrong", "InvalidSignatureException"),
                                   ("AKNOBODY", "x", "UnrecognizedClientException"),
                                   ("AKOTHER", "othersecret", "AccessDeniedException")]:
            status, _, _, body = get(c, "/monotable/heat?table=hot", signed_get(s.port, "/monotable/heat?table=hot",
                                                                               key, secret))
            assert status == 403 and json.loads(body)["__type"].endswith("#" + error), (key, body)
        # Signed by a key that may read the table: the heat map.
        status, _, _, body = get(c, "/monotable/heat?table=hot", signed_get(s.port, "/monotable/heat?table=hot",
                                                                           "AKHEAT", "secret"))
        assert status == 200 and "table" in json.loads(body)
        # The signature covers the query string: another table's name with this signature is refused.
        headers = signed_get(s.port, "/monotable/heat?table=hot", "AKHEAT", "secret")
        status, _, _, body = get(c, "/monotable/heat?table=other", headers)
        assert status == 403 and json.loads(body)["__type"].endswith("#InvalidSignatureException")
        c.close()
    finally:
        s.kill()


def test_heat_map_is_open_without_credentials(conn, server):
    import boto3
    ddb = boto3.client("dynamodb", endpoint_url=server.endpoint, region_name="us-east-1", aws_access_key_id="x",
                       aws_secret_access_key="y")
    name = "heat_open"
    ddb.create_table(TableName=name, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}], BillingMode="PAY_PER_REQUEST")
    status, _, _, body = get(conn, f"/monotable/heat?table={name}")
    assert status == 200 and "table" in json.loads(body)
