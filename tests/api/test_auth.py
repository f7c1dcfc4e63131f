"""SigV4 authentication: off by default; with credentials configured, AWS's errors for every
way a request can be badly signed, presigned query-string requests, per-key table rules."""
import datetime
import http.client
import json

import boto3
import botocore.auth
import botocore.awsrequest
import botocore.config
import botocore.credentials
import pytest
from botocore.exceptions import ClientError
from wire_helpers import err


@pytest.fixture(scope="module")
def secured(binary, tmp_path_factory):
    from conftest import Server
    creds = tmp_path_factory.mktemp("auth") / "credentials"
    creds.write_text("# key secret [tables]\nAKIDADMIN adminsecret\nAKIDLIMITED limitedsecret orders* users\n")
    s = Server(binary, ["--in-memory", "--credentials", str(creds)])
    yield s
    s.stop()


def client(server, key, secret):
    return boto3.client("dynamodb", endpoint_url=server.endpoint, region_name="us-east-1", aws_access_key_id=key,
                        aws_secret_access_key=secret, config=botocore.config.Config(retries={"max_attempts": 1}))


def make(c, name):
    c.create_table(TableName=name, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                   AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}], BillingMode="PAY_PER_REQUEST")


def test_right_credentials_work(secured):
    c = client(secured, "AKIDADMIN", "adminsecret")
    make(c, "orders-1")
    c.put_item(TableName="orders-1", Item={"pk": {"S": "a"}})
    assert c.get_item(TableName="orders-1", Key={"pk": {"S": "a"}})["Item"] == {"pk": {"S": "a"}}


def test_wrong_secret(secured):
    with pytest.raises(ClientError) as e:
        client(secured, "AKIDADMIN", "wrong").list_tables()
    assert err(e) == ("InvalidSignatureException",
                      "The request signature we calculated does not match the signature you provided. Check your "
                      "AWS Secret Access Key and signing method. Consult the service documentation for details.")


def test_unknown_key(secured):
    with pytest.raises(ClientError) as e:
        client(secured, "AKIDNOBODY", "x").list_tables()
    assert err(e) == ("UnrecognizedClientException", "The security token included in the request is invalid.")


def raw(server, headers, body=b"{}"):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("POST", "/", body=body, headers={"Content-Type": "application/x-amz-json-1.0",
                                                   "X-Amz-Target": "DynamoDB_20120810.ListTables", **headers})
    resp = conn.getresponse()
    return resp.status, json.loads(resp.read())


def test_missing_and_malformed_authorization(secured):
    status, body = raw(secured, {})
    assert status == 400
    assert body["__type"] == "com.amazon.coral.service#MissingAuthenticationTokenException"
    assert body["message"] == "Request is missing Authentication Token"
    status, body = raw(secured, {"Authorization": "AWS4-HMAC-SHA256 Credential=AKIDADMIN/20240101/us-east-1/dynamodb/aws4_request"})
    assert body["__type"] == "com.amazon.coral.service#IncompleteSignatureException"
    assert body["message"].startswith("Authorization header requires 'Signature' parameter. "
                                      "Authorization header requires 'SignedHeaders' parameter. "
                                      "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.")


class _Clock:
    """Stands in for botocore.auth's `datetime` module so a request can be signed at a chosen time."""

    def __init__(self, when):
        outer = self

        class FixedDatetime(datetime.datetime):
            @classmethod
            def utcnow(cls):
                return outer.when

        self.when = when
        self.datetime = FixedDatetime


def signed_headers(server, key, secret, when, body=b"{}", monkeypatch=None):
    req = botocore.awsrequest.AWSRequest(method="POST", url=f"{server.endpoint}/", data=body, headers={
        "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810.ListTables"})
    signer = botocore.auth.SigV4Auth(botocore.credentials.Credentials(key, secret), "dynamodb", "us-east-1")
    saved = botocore.auth.datetime
    botocore.auth.datetime = _Clock(when)
    try:
        signer.add_auth(req)
    finally:
        botocore.auth.datetime = saved
    return dict(req.headers.items())


def test_skewed_date(secured):
    old = datetime.datetime.utcnow() - datetime.timedelta(minutes=20)
    status, body = raw(secured, signed_headers(secured, "AKIDADMIN", "adminsecret", old))
    assert body["__type"] == "com.amazon.coral.service#InvalidSignatureException"
    assert body["message"].startswith("Signature expired: " + old.strftime("%Y%m%dT%H%M%SZ") + " is now earlier than ")
    fine = datetime.datetime.utcnow() - datetime.timedelta(minutes=5)
    status, body = raw(secured, signed_headers(secured, "AKIDADMIN", "adminsecret", fine))
    assert status == 200 and "TableNames" in body


def test_tampered_body_is_refused(secured):
    headers = signed_headers(secured, "AKIDADMIN", "adminsecret", datetime.datetime.utcnow(), b'{"Limit": 5}')
    status, body = raw(secured, headers, b'{"Limit": 6}')
    assert body["__type"] == "com.amazon.coral.service#InvalidSignatureException"


def test_presigned_query_string(secured):
    req = botocore.awsrequest.AWSRequest(method="POST", url=f"{secured.endpoint}/", data=b"{}", headers={
        "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810.ListTables"})
    botocore.auth.SigV4QueryAuth(botocore.credentials.Credentials("AKIDADMIN", "adminsecret"), "dynamodb",
                                 "us-east-1", expires=60).add_auth(req)
    path = req.url[len(secured.endpoint):]
    conn = http.client.HTTPConnection("127.0.0.1", secured.port, timeout=10)
    conn.request("POST", path, body=b"{}", headers={"Content-Type": "application/x-amz-json-1.0",
                                                     "X-Amz-Target": "DynamoDB_20120810.ListTables"})
    resp = conn.getresponse()
    assert resp.status == 200, resp.read()
    conn = http.client.HTTPConnection("127.0.0.1", secured.port, timeout=10)
    conn.request("POST", path.replace("X-Amz-Signature=", "X-Amz-Signature=0"), body=b"{}",
                 headers={"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810.ListTables"})
    assert json.loads(conn.getresponse().read())["__type"] == "com.amazon.coral.service#InvalidSignatureException"


def test_per_key_table_rules(secured):
    admin = client(secured, "AKIDADMIN", "adminsecret")
    make(admin, "users")
    make(admin, "secrets")
    limited = client(secured, "AKIDLIMITED", "limitedsecret")
    limited.put_item(TableName="users", Item={"pk": {"S": "u"}})
    with pytest.raises(ClientError) as e:
        limited.get_item(TableName="secrets", Key={"pk": {"S": "x"}})
    assert err(e) == ("AccessDeniedException", "User: arn:aws:iam::000000000000:user/AKIDLIMITED is not authorized "
                      "to perform: dynamodb:GetItem on resource: arn:aws:dynamodb:us-east-1:000000000000:table/secrets")
    with pytest.raises(ClientError) as e:
        limited.batch_get_item(RequestItems={"users": {"Keys": [{"pk": {"S": "u"}}]},
                                             "secrets": {"Keys": [{"pk": {"S": "x"}}]}})
    assert err(e)[0] == "AccessDeniedException"


def test_authentication_is_off_by_default(server):
    # The shared test server has no credentials: anything goes, as with DynamoDB Local.
    assert "TableNames" in client(server, "anything", "whatever").list_tables()


def test_partiql_statements_obey_table_rules(secured):
    admin = client(secured, "AKIDADMIN", "adminsecret")
    make(admin, "secrets2")
    admin.put_item(TableName="secrets2", Item={"pk": {"S": "x"}})
    limited = client(secured, "AKIDLIMITED", "limitedsecret")
    with pytest.raises(ClientError) as e:
        limited.execute_statement(Statement='SELECT * FROM "secrets2"')
    assert err(e)[0] == "AccessDeniedException"
    with pytest.raises(ClientError) as e:
        limited.batch_execute_statement(Statements=[{"Statement": 'DELETE FROM "secrets2" WHERE pk = \'x\''}])
    assert err(e)[0] == "AccessDeniedException"
    with pytest.raises(ClientError) as e:
        limited.execute_transaction(TransactStatements=[{"Statement": 'SELECT * FROM "secrets2" WHERE pk = \'x\''}])
    assert err(e)[0] == "AccessDeniedException"
    assert "Item" in admin.get_item(TableName="secrets2", Key={"pk": {"S": "x"}})


# ---- the Authorization header's shape (AWS as ScyllaDB's test_authorization.py recorded it, and
# dynalite's notes of AWS's messages) ---------------------------------------------------------------

SPACES_ONLY = "AWS4-HMAC-SHA256 Credential=AKIDADMIN/2/3/4/aws4_request SignedHeaders=x-amz-date;host Signature=123"


def test_space_separated_components_are_parsed_and_expiry_reported(secured):
    # AWS reads components separated by spaces only; the date is checked before the scope.
    status, body = raw(secured, {"X-Amz-Date": "20170101T010101Z", "Authorization": SPACES_ONLY})
    assert status == 400
    assert body["__type"] == "com.amazon.coral.service#InvalidSignatureException"
    assert body["message"].startswith("Signature expired: 20170101T010101Z is now earlier than ")
    assert body["message"].endswith(" - 15 min.)")


def test_future_signature_is_not_yet_current(secured):
    status, body = raw(secured, {"X-Amz-Date": "30200101T010101Z", "Authorization": SPACES_ONLY})
    assert body["__type"] == "com.amazon.coral.service#InvalidSignatureException"
    assert body["message"].startswith("Signature not yet current: 30200101T010101Z is still later than ")
    assert body["message"].endswith(" + 15 min.)")
    soon = datetime.datetime.utcnow() + datetime.timedelta(minutes=16)
    status, body = raw(secured, signed_headers(secured, "AKIDADMIN", "adminsecret", soon))
    assert body["message"].startswith("Signature not yet current: " + soon.strftime("%Y%m%dT%H%M%SZ"))
    fine = datetime.datetime.utcnow() + datetime.timedelta(minutes=5)
    status, body = raw(secured, signed_headers(secured, "AKIDADMIN", "adminsecret", fine))
    assert status == 200 and "TableNames" in body


@pytest.mark.parametrize("separator", [" ", ",", ", ", " , ", "\t"])
def test_valid_signature_with_any_separator(secured, separator):
    headers = signed_headers(secured, "AKIDADMIN", "adminsecret", datetime.datetime.utcnow())
    algorithm, rest = headers["Authorization"].split(" ", 1)
    parts = [p.strip() for p in rest.split(",")]
    headers["Authorization"] = algorithm + " " + separator.join(parts)
    status, body = raw(secured, headers)
    assert status == 200 and "TableNames" in body


@pytest.mark.parametrize("present,missing", [
    ("Credential=AKIDADMIN/20240101/us-east-1/dynamodb/aws4_request", ["Signature", "SignedHeaders"]),
    ("SignedHeaders=host Signature=abc", ["Credential"]),
    ("Credential=AKIDADMIN/20240101/us-east-1/dynamodb/aws4_request Signature=abc", ["SignedHeaders"]),
    ("Credential=AKIDADMIN/20240101/us-east-1/dynamodb/aws4_request SignedHeaders=host", ["Signature"]),
    ("", ["Credential", "Signature", "SignedHeaders"]),
    ("Credential= SignedHeaders=host Signature=abc", ["Credential"]),
])
def test_missing_components_are_incomplete_signature(secured, present, missing):
    auth = ("AWS4-HMAC-SHA256 " + present).strip()
    status, body = raw(secured, {"X-Amz-Date": "20240101T000000Z", "Authorization": auth})
    assert status == 400
    assert body["__type"] == "com.amazon.coral.service#IncompleteSignatureException"
    expected = "".join(f"Authorization header requires '{m}' parameter. " for m in missing)
    assert body["message"] == expected + "Authorization=" + auth


def test_component_without_equal_sign_is_incomplete_signature(secured):
    auth = "AWS4-HMAC-SHA256 Signature=b,    Credential,    SignedHeaders"
    status, body = raw(secured, {"X-Amz-Date": "20240101T000000Z", "Authorization": auth})
    assert body["__type"] == "com.amazon.coral.service#IncompleteSignatureException"
    assert body["message"] == ("'Credential' not a valid key=value pair (missing equal-sign) in Authorization header: "
                               "'AWS4-HMAC-SHA256 Signature=b,    Credential,    SignedHeaders'.")


def test_compressed_body_is_signed_as_sent(secured):
    import gzip
    body = gzip.compress(b'{"Limit": 5}')
    headers = signed_headers(secured, "AKIDADMIN", "adminsecret", datetime.datetime.utcnow(), body)
    status, parsed = raw(secured, {**headers, "Content-Encoding": "gzip"}, body)
    assert status == 200 and "TableNames" in parsed
