"""One DynamoDB endpoint spoken to over raw HTTP with SigV4-signed JSON requests.

The differential tester sends the very same bytes to monotable and to DynamoDB Local, so it does not
go through boto3's client (which validates parameters and would refuse the malformed requests), only
through botocore's signer. `Peer.call(op, body)` returns (HTTP status, parsed JSON or None).
"""
import http.client
import json

from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

CREDENTIALS = Credentials("AKIDTEST", "secret")
REGION = "us-east-1"


class Peer:
    def __init__(self, name, port):
        self.name = name
        self.port = port
        self.conn = None

    def _connection(self):
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        return self.conn

    def call(self, op, body):
        data = body if isinstance(body, (bytes, str)) else json.dumps(body)
        if isinstance(data, str):
            data = data.encode()
        url = f"http://127.0.0.1:{self.port}/"
        req = AWSRequest(method="POST", url=url, data=data, headers={
            "Content-Type": "application/x-amz-json-1.0",
            "X-Amz-Target": "DynamoDB_20120810." + op,
        })
        SigV4Auth(CREDENTIALS, "dynamodb", REGION).add_auth(req)
        headers = dict(req.headers.items())
        for attempt in range(2):
            conn = self._connection()
            try:
                conn.request("POST", "/", body=data, headers=headers)
                resp = conn.getresponse()
                raw = resp.read()
                break
            except (http.client.HTTPException, OSError):
                # A server may close a kept-alive connection after an error answer; reconnect once.
                conn.close()
                self.conn = None
                if attempt == 1:
                    raise
        if resp.getheader("Connection", "").lower() == "close":
            conn.close()
            self.conn = None
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = {"__unparsed__": raw[:200].decode("utf-8", "replace")}
        return resp.status, parsed

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None
