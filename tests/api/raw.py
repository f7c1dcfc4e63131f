"""Raw HTTP access to the server, for requests no SDK would send (bad JSON, wrong types, ...)."""
import json
import http.client
import zlib


def post(endpoint_port, target, body, content_type="application/x-amz-json-1.0", headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", endpoint_port, timeout=30)
    h = {"Content-Type": content_type}
    if target is not None:
        h["X-Amz-Target"] = target
    h.update(headers or {})
    data = body if isinstance(body, (bytes, str)) else json.dumps(body)
    conn.request("POST", "/", body=data, headers=h)
    resp = conn.getresponse()
    raw = resp.read()
    conn.close()
    return resp.status, dict(resp.getheaders()), raw


def call(port, op, body, **kw):
    """POSTs a DynamoDB operation; returns (status, parsed json or None, headers)."""
    status, headers, raw = post(port, "DynamoDB_20120810." + op, body, **kw)
    try:
        parsed = json.loads(raw) if raw else None
    except ValueError:
        parsed = None
    return status, parsed, headers


def crc_ok(headers, raw):
    return int(headers["x-amz-crc32"]) == zlib.crc32(raw) & 0xFFFFFFFF
