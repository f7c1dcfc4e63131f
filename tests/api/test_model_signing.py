"""`monotable model apply|seed|verify|diff --endpoint` sign their requests with SigV4, with the key
and region the AWS CLI would use (environment, ~/.aws/credentials, ~/.aws/config, --profile,
--region): a server started with --credentials (which checks signatures) accepts them, and a wrong
secret gets the server's own error. A recording endpoint shows which key, region and session
token each source gives."""
import http.server
import json
import os
import re
import shutil
import subprocess
import threading

import boto3
import pytest

from conftest import ROOT, Server

BLOG = os.path.join(ROOT, "examples", "models", "blog.yaml")


def run(binary, home, *args, **env):
    """`monotable model ARGS` with HOME=home and no AWS_* variables but `env`'s."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    out = subprocess.run([binary, "model", *args], capture_output=True, text=True, timeout=300,
                         env={**clean, "HOME": str(home), **env})
    return out.returncode, out.stdout, out.stderr


def aws_file(home, name, text):
    os.makedirs(home / ".aws", exist_ok=True)
    (home / ".aws" / name).write_text(text)


@pytest.fixture
def secured(binary, tmp_path):
    creds = tmp_path / "server-credentials"
    creds.write_text("AKMODEL modelsecret\nAKDEV devsecret\n")
    s = Server(binary, ["--in-memory", "--credentials", str(creds)])
    yield s
    s.kill()


def tables(server):
    ddb = boto3.client("dynamodb", endpoint_url=server.endpoint, region_name="us-east-1",
                       aws_access_key_id="AKMODEL", aws_secret_access_key="modelsecret")
    return sorted(ddb.list_tables()["TableNames"])


def test_unsigned_and_wrong_secret_get_the_servers_errors(binary, secured, tmp_path):
    rc, _, err = run(binary, tmp_path, "apply", BLOG, "--endpoint", secured.endpoint)
    assert rc == 2 and "MissingAuthenticationTokenException: Request is missing Authentication Token" in err
    rc, _, err = run(binary, tmp_path, "apply", BLOG, "--endpoint", secured.endpoint,
                     AWS_ACCESS_KEY_ID="AKMODEL", AWS_SECRET_ACCESS_KEY="wrong")
    assert rc == 2
    assert "InvalidSignatureException: The request signature we calculated does not match" in err
    rc, _, err = run(binary, tmp_path, "apply", BLOG, "--endpoint", secured.endpoint,
                     AWS_ACCESS_KEY_ID="AKNOBODY", AWS_SECRET_ACCESS_KEY="x")
    assert rc == 2 and "UnrecognizedClientException" in err
    assert tables(secured) == []


def test_environment_key_applies_seeds_and_verifies(binary, secured, tmp_path):
    env = {"AWS_ACCESS_KEY_ID": "AKMODEL", "AWS_SECRET_ACCESS_KEY": "modelsecret"}
    for step in ("apply", "seed", "verify"):
        rc, out, err = run(binary, tmp_path, step, BLOG, "--endpoint", secured.endpoint, "--items", "100", **env)
        assert rc == 0, (step, out, err)
    assert tables(secured) == ["Blog"]
    # Without --endpoint, AWS_ENDPOINT_URL_DYNAMODB (then AWS_ENDPOINT_URL) names it, as for the AWS CLI.
    rc, out, err = run(binary, tmp_path, "apply", BLOG, AWS_ENDPOINT_URL_DYNAMODB=secured.endpoint, **env)
    assert rc == 0 and "exists" in out, out + err
    rc, out, err = run(binary, tmp_path, "apply", BLOG, AWS_ENDPOINT_URL=secured.endpoint, **env)
    assert rc == 0 and "exists" in out, out + err
    rc, _, err = run(binary, tmp_path, "apply", BLOG, **env)
    assert rc == 2 and "--endpoint URL (or AWS_ENDPOINT_URL_DYNAMODB)" in err
    # diff --endpoint counts the items on the live table, signed too.
    rc, out, err = run(binary, tmp_path, "diff", BLOG, BLOG, "--endpoint", secured.endpoint, **env)
    assert rc == 0, out + err


def test_shared_credentials_file_profiles(binary, secured, tmp_path):
    aws_file(tmp_path, "credentials", "[default]\naws_access_key_id = AKMODEL\naws_secret_access_key = modelsecret\n\n"
                                      "# a comment\n[dev]\naws_access_key_id=AKDEV\naws_secret_access_key=devsecret\n"
                                      "[broken]\naws_access_key_id = AKDEV\n")
    rc, out, err = run(binary, tmp_path, "apply", BLOG, "--endpoint", secured.endpoint)  # [default]
    assert rc == 0, out + err
    # --profile, and AWS_PROFILE; the table exists by now: the call was accepted.
    rc, out, err = run(binary, tmp_path, "apply", BLOG, "--endpoint", secured.endpoint, "--profile", "dev")
    assert rc == 0 and "exists" in out, out + err
    rc, out, err = run(binary, tmp_path, "apply", BLOG, "--endpoint", secured.endpoint, AWS_PROFILE="dev")
    assert rc == 0 and "exists" in out, out + err
    # --profile wins over the environment's key, as in the AWS CLI.
    rc, out, err = run(binary, tmp_path, "apply", BLOG, "--endpoint", secured.endpoint, "--profile", "dev",
                       AWS_ACCESS_KEY_ID="AKMODEL", AWS_SECRET_ACCESS_KEY="wrong")
    assert rc == 0, out + err
    # AWS_SHARED_CREDENTIALS_FILE names another file.
    other = tmp_path / "elsewhere"
    other.write_text("[default]\naws_access_key_id = AKMODEL\naws_secret_access_key = wrong\n")
    rc, _, err = run(binary, tmp_path, "apply", BLOG, "--endpoint", secured.endpoint,
                     AWS_SHARED_CREDENTIALS_FILE=str(other))
    assert rc == 2 and "InvalidSignatureException" in err
    rc, _, err = run(binary, tmp_path, "apply", BLOG, "--endpoint", secured.endpoint, "--profile", "nope")
    assert rc == 2 and "The config profile (nope) could not be found" in err
    rc, _, err = run(binary, tmp_path, "apply", BLOG, "--endpoint", secured.endpoint, "--profile", "broken")
    assert rc == 2 and "only one of aws_access_key_id and aws_secret_access_key" in err


class Recorder(http.server.BaseHTTPRequestHandler):
    seen = []

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        Recorder.seen.append({k.lower(): v for k, v in self.headers.items()})
        body = json.dumps({"__type": "com.amazonaws.dynamodb.v20120810#AccessDeniedException",
                           "message": "recorded"}).encode()
        self.send_response(400)
        self.send_header("Content-Type", "application/x-amz-json-1.0")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def recorder():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    Recorder.seen = []
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def signed_by(binary, home, endpoint, *args, **env):
    """The first request's Authorization credential scope and session token header."""
    Recorder.seen = []
    rc, _, err = run(binary, home, "apply", BLOG, "--endpoint", endpoint, *args, **env)
    assert rc == 2 and "AccessDeniedException: recorded" in err, err
    headers = Recorder.seen[0]
    auth = headers.get("authorization", "")
    scope = auth.split("Credential=")[1].split(",")[0] if auth else None
    return scope, headers.get("x-amz-security-token"), headers


def test_region_and_session_token_sources(binary, tmp_path, recorder):
    aws_file(tmp_path, "config", "[default]\nregion = eu-north-1\n[profile cfg]\nregion = ap-south-1\n"
                                 "aws_access_key_id = AKCFG\naws_secret_access_key = cfgsecret\n")
    env = {"AWS_ACCESS_KEY_ID": "AKENV", "AWS_SECRET_ACCESS_KEY": "s"}
    scope, token, headers = signed_by(binary, tmp_path, recorder, **env)
    assert scope.startswith("AKENV/") and scope.endswith("/eu-north-1/dynamodb/aws4_request")  # [default]'s region
    assert token is None and headers["host"] == recorder.removeprefix("http://")
    assert "x-amz-date" in headers and "SignedHeaders=content-type;host;x-amz-date;x-amz-target" in \
        headers["authorization"]
    assert signed_by(binary, tmp_path, recorder, AWS_DEFAULT_REGION="us-west-2", **env)[0].endswith(
        "/us-west-2/dynamodb/aws4_request")
    assert signed_by(binary, tmp_path, recorder, AWS_REGION="sa-east-1", AWS_DEFAULT_REGION="us-west-2",
                     **env)[0].endswith("/sa-east-1/dynamodb/aws4_request")
    assert signed_by(binary, tmp_path, recorder, "--region", "ca-central-1", AWS_REGION="sa-east-1",
                     **env)[0].endswith("/ca-central-1/dynamodb/aws4_request")
    # A key in the config file's profile, with its region.
    scope, _, _ = signed_by(binary, tmp_path, recorder, "--profile", "cfg")
    assert scope.startswith("AKCFG/") and scope.endswith("/ap-south-1/dynamodb/aws4_request")
    # A session token is sent and signed.
    scope, token, headers = signed_by(binary, tmp_path, recorder, AWS_SESSION_TOKEN="TOKEN123", **env)
    assert token == "TOKEN123" and "x-amz-security-token" in headers["authorization"]
    # No key anywhere: unsigned, region us-east-1 unused.
    os.remove(tmp_path / ".aws" / "config")
    scope, _, headers = signed_by(binary, tmp_path, recorder)
    assert scope is None and "x-amz-date" not in headers


def self_signed(tmp_path, name, san):
    cert, key = tmp_path / f"{name}.pem", tmp_path / f"{name}.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", f"/CN={name}", "-addext", f"subjectAltName={san}"],
                   check=True, capture_output=True)
    return cert, key


def tls_endpoint(server):
    return "https://127.0.0.1:" + re.search(r" tls (\d+)", server.first_line).group(1)


@pytest.mark.skipif(shutil.which("openssl") is None, reason="no openssl to make a certificate")
def test_https_endpoint_verifies_the_certificate_and_signs(binary, tmp_path):
    """https:// as for AWS itself: the certificate checked against AWS_CA_BUNDLE (or the profile's
    ca_bundle, or the system's CAs) and the host name, the request signed inside TLS."""
    cert, key = self_signed(tmp_path, "localhost-ip", "IP:127.0.0.1")
    creds = tmp_path / "server-credentials"
    creds.write_text("AKMODEL modelsecret\n")
    s = Server(binary, ["--in-memory", "--credentials", str(creds), "--tls-port", "0", "--tls-cert", str(cert),
                        "--tls-key", str(key)])
    try:
        endpoint = tls_endpoint(s)
        env = {"AWS_ACCESS_KEY_ID": "AKMODEL", "AWS_SECRET_ACCESS_KEY": "modelsecret"}
        rc, _, err = run(binary, tmp_path, "apply", BLOG, "--endpoint", endpoint, **env)
        assert rc == 2 and "certificate verify failed" in err, err  # not a CA this machine trusts
        rc, out, err = run(binary, tmp_path, "apply", BLOG, "--endpoint", endpoint, AWS_CA_BUNDLE=str(cert), **env)
        assert rc == 0 and "Blog: created" in out, out + err
        assert tables(s) == ["Blog"]
        rc, _, err = run(binary, tmp_path, "apply", BLOG, "--endpoint", endpoint, AWS_CA_BUNDLE=str(cert),
                         AWS_ACCESS_KEY_ID="AKMODEL", AWS_SECRET_ACCESS_KEY="wrong")
        assert rc == 2 and "InvalidSignatureException" in err
        # The profile's ca_bundle in ~/.aws/config.
        aws_file(tmp_path, "config", f"[default]\nca_bundle = {cert}\n")
        rc, out, err = run(binary, tmp_path, "apply", BLOG, "--endpoint", endpoint, **env)
        assert rc == 0 and "exists" in out, out + err
    finally:
        s.kill()
    # A certificate for another name: refused even though its CA is given.
    other, other_key = self_signed(tmp_path, "elsewhere", "DNS:elsewhere.example")
    s = Server(binary, ["--in-memory", "--tls-port", "0", "--tls-cert", str(other), "--tls-key", str(other_key)])
    try:
        endpoint = tls_endpoint(s)
        rc, _, err = run(binary, tmp_path, "apply", BLOG, "--endpoint", endpoint, AWS_CA_BUNDLE=str(other))
        assert rc == 2 and "certificate verify failed" in err, err
    finally:
        s.kill()
