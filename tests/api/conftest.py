"""API test harness: starts monotable servers on free ports and hands out real AWS clients.

`server` is one server shared by the whole session (tests use unique table names), in-memory unless
`--monotable-engine rocksdb` puts it on RocksDB in a temporary directory (`partitioned`: the
partitioned test engine, where every write takes the distributed contract's logged path; `ceph`:
the Ceph RADOS engine on the cluster MONOTABLE_CEPH_CONF names, pool MONOTABLE_CEPH_POOL (default
dyn), in a RADOS namespace of the session's own);
`start_server` starts extra servers (e.g. RocksDB under a temp dir) that the test controls.
"""
import os
import signal
import subprocess
import tempfile
import time
import uuid

import boto3
import botocore.config
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def pytest_addoption(parser):
    parser.addoption("--monotable-binary", default=os.path.join(ROOT, "build", "monotable"))
    parser.addoption("--monotable-engine", choices=["memory", "rocksdb", "partitioned", "ceph"], default="memory",
                     help="engine of the shared server: in-memory, RocksDB in a temporary directory, or "
                          "the partitioned test engine (in memory)")


class Server:
    def __init__(self, binary, args):
        self.args = args
        # stderr goes to a file: a pipe nobody reads would block the server once it filled up.
        self.log = tempfile.NamedTemporaryFile(prefix="monotable-", suffix=".log", delete=False)
        self.proc = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", "0", *args],
                                     stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.proc.stdout.readline()
        self.first_line = line
        if "listening on" not in line:
            self.proc.wait(timeout=10)
            with open(self.log.name) as f:
                err = f.read()
            raise RuntimeError(f"monotable did not start: {line!r} {err!r}")
        self.port = int(line.split()[3].split(":")[1])
        self.endpoint = f"http://127.0.0.1:{self.port}"

    def client(self, service="dynamodb", **config):
        cfg = botocore.config.Config(retries={"max_attempts": 1}, **config)
        return boto3.client(service, endpoint_url=self.endpoint, region_name="us-east-1",
                            aws_access_key_id="AKIDTEST", aws_secret_access_key="secret", config=cfg)

    def kill(self, sig=signal.SIGKILL):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(timeout=30)

    def stop(self):
        self.kill(signal.SIGTERM)


@pytest.fixture(scope="session")
def binary(request):
    path = request.config.getoption("--monotable-binary")
    if not os.path.exists(path):
        pytest.exit(f"monotable binary not found at {path}; build first", returncode=2)
    return os.path.abspath(path)


@pytest.fixture(scope="session")
def server(binary, request, tmp_path_factory):
    # Two I/O loops whatever the machine's default, so requests run on more than one thread.
    if request.config.getoption("--monotable-engine") == "rocksdb":
        s = Server(binary, ["--data", str(tmp_path_factory.mktemp("shared-server")), "--threads", "2"])
    elif request.config.getoption("--monotable-engine") == "ceph":
        conf = os.environ.get("MONOTABLE_CEPH_CONF")
        if not conf:
            pytest.exit("--monotable-engine ceph needs MONOTABLE_CEPH_CONF (a cluster's ceph.conf)", returncode=2)
        s = Server(binary, ["--ceph", conf, "--pool", os.environ.get("MONOTABLE_CEPH_POOL", "dyn"),
                            "--ceph-namespace", "pytest-" + uuid.uuid4().hex[:12], "--threads", "2"])
    elif request.config.getoption("--monotable-engine") == "partitioned":
        s = Server(binary, ["--in-memory", "--test-engine", "partitioned", "--threads", "2"])
    else:
        s = Server(binary, ["--in-memory", "--threads", "2"])
    yield s
    s.stop()


@pytest.fixture
def start_server(binary):
    started = []

    def start(*args):
        s = Server(binary, list(args))
        started.append(s)
        return s

    yield start
    for s in started:
        s.kill()


@pytest.fixture(scope="session")
def ddb(server):
    return server.client()


@pytest.fixture(scope="session")
def resource(server):
    """boto3's resource API (Table objects, plain Python values) on the shared server."""
    return boto3.resource("dynamodb", endpoint_url=server.endpoint, region_name="us-east-1",
                          aws_access_key_id="AKIDTEST", aws_secret_access_key="secret",
                          config=botocore.config.Config(retries={"max_attempts": 1}))


def create_pk_table(client, prefix="tbl", range_type=None):
    """Creates a PAY_PER_REQUEST table with string hash key 'pk' (and range key 'sk' of `range_type`,
    "S" or "N"); returns its name."""
    name = unique_name(prefix)
    schema = [{"AttributeName": "pk", "KeyType": "HASH"}]
    definitions = [{"AttributeName": "pk", "AttributeType": "S"}]
    if range_type:
        schema.append({"AttributeName": "sk", "KeyType": "RANGE"})
        definitions.append({"AttributeName": "sk", "AttributeType": range_type})
    client.create_table(TableName=name, KeySchema=schema, AttributeDefinitions=definitions,
                        BillingMode="PAY_PER_REQUEST")
    return name


def make_resource_table(ddb, resource, prefix, range_key=False):
    """A PAY_PER_REQUEST table with string hash key 'pk' (and number range key 'sk'), as a resource Table."""
    return resource.Table(create_pk_table(ddb, prefix, "N" if range_key else None))


def unique_name(prefix="tbl"):
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def table_name():
    return unique_name()


@pytest.fixture
def hash_table(ddb):
    """A PAY_PER_REQUEST table with a string hash key 'pk'."""
    return create_pk_table(ddb)


@pytest.fixture
def hash_range_table(ddb):
    """A PAY_PER_REQUEST table with string hash key 'pk' and number range key 'sk'."""
    return create_pk_table(ddb, range_type="N")
