#!/usr/bin/python3
"""monotable benchmark harness: the same workloads against monotable, its peers dynalite and
DynamoDB Local, and an nginx fixed-reply server, in one run, side by side.

    bench/bench.py                 # full run (about 30 minutes on 2 cores: DynamoDB Local loads the
                                   # 1M-item table at ~1,300 items/s)
    bench/bench.py --quick         # short durations, smaller data (about 8 minutes)
    bench/bench.py --own-netns     # the same in a network namespace of its own (only loopback)
    bench/bench.py --skip-dynalite --skip-dynamodb-local   # monotable and nginx only

Prints a Markdown table (throughput, p50/p99 latency, monotable's ratio to each peer) plus
start-up time, idle RSS, bulk-load rate, and for a large table (1M items) on each server its load
rate, RSS (and monotable's disk), Query latency against a small table's, and a full Scan; then what
monotable wrote to its standard error. Needs wrk and nginx (Debian packages) and npm (dynalite is
installed into bench/.deps on first use; DynamoDB Local into .peers by scripts/dynamodb-local.sh,
which also installs Debian's Java 17 when missing).
"""
import argparse
import http.client
import json
import mmap
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers import PEER_LABEL, fmt, peers_of, target_lines, targets_of, workload_table  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LUA = os.path.join(HERE, "lua")
DEPS = os.path.join(HERE, ".deps")
DYNALITE_VERSION = "4.0.0"
AUTH = {"Authorization": "AWS4-HMAC-SHA256 Credential=AKIDBENCH/20240101/us-east-1/dynamodb/aws4_request, "
                         "SignedHeaders=host, Signature=0000", "X-Amz-Date": "20240101T000000Z"}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(port, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            c.request("GET", "/")
            c.getresponse().read()
            return
        except OSError:
            time.sleep(0.01)
    raise RuntimeError(f"nothing answered on port {port}")


class Client:
    """Raw DynamoDB JSON over one keep-alive connection (fast enough to load data)."""

    def __init__(self, port):
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def call(self, op, body):
        headers = {"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810." + op, **AUTH}
        for attempt in range(3):
            try:
                self.conn.request("POST", "/", body=json.dumps(body), headers=headers)
                resp = self.conn.getresponse()
                data = json.loads(resp.read() or b"{}")
                if resp.status != 200:
                    raise RuntimeError(f"{op} failed: {resp.status} {data}")
                return data
            except (http.client.HTTPException, ConnectionError):
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        raise RuntimeError(f"{op}: connection keeps failing")


class Server:
    def __init__(self, name, argv, port, env=None, log=None):
        """log: a file for the server's standard error (otherwise discarded)."""
        self.name, self.port, self.log = name, port, log
        err = open(log, "wb") if log else subprocess.DEVNULL
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err, env=env)
        self.pid = self.proc.pid
        if log:
            err.close()
        wait_http(port)

    def log_lines(self):
        if not self.log:
            return []
        with open(self.log, errors="replace") as f:
            return [line.rstrip("\n") for line in f]

    def rss_kb(self):
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def cpu_seconds(self):
        """The CPU time the server's process has used so far (all its threads)."""
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def settle(self, quiet_share=0.02, window_s=1.0, limit_s=30.0):
        """Waits until the server is idle: less than `quiet_share` of a core used over a window, so
        that a workload is not measured while the previous one's background work (RocksDB's
        flushes and compactions) still runs. Returns how long it was busy (seconds, up to limit_s)."""
        start = time.time()
        before = self.cpu_seconds()
        while True:
            time.sleep(window_s)
            now = self.cpu_seconds()
            if now - before <= quiet_share * window_s or time.time() - start >= limit_s:
                return time.time() - start - window_s
            before = now

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class DynamoDBLocal(Server):
    """DynamoDB Local (Amazon's Java DynamoDB, in memory) as a peer, started by
    scripts/dynamodb-local.sh (`start PORT` installs it on first use, waits until it answers and
    prints the Java process's pid). It is not this process's child: stopped by its pid."""

    SCRIPT = os.path.join(ROOT, "scripts", "dynamodb-local.sh")

    def __init__(self, port, script=SCRIPT):
        self.name, self.port, self.log, self.proc = "dynamodb-local", port, None, None
        out = subprocess.run([script, "start", str(port)], capture_output=True, text=True, timeout=300)
        if out.returncode != 0:
            raise RuntimeError(f"DynamoDB Local did not start: {out.stderr.strip()}")
        self.pid = int(out.stdout.split()[-1])
        wait_http(port)

    def stop(self):
        try:
            os.kill(self.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        for _ in range(200):
            if not os.path.exists(f"/proc/{self.pid}") or _zombie(self.pid):
                return
            time.sleep(0.1)
        os.kill(self.pid, signal.SIGKILL)


def _zombie(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


NETNS_ENV = "MONOTABLE_BENCH_NETNS"


def own_netns_command(argv, is_root):
    """The command that runs the harness again in a network namespace of its own, with only a
    loopback interface: DynamoDB Local cannot be told to bind to loopback only (it listens on every
    interface), and there every interface is loopback. Root needs nothing more; another user gets
    the namespace inside a user namespace of its own (unshare --map-root-user)."""
    return (["unshare", "--net", *([] if is_root else ["--map-root-user"]), "sh", "-c", 'ip link set lo up && exec "$@"',
             "sh", sys.executable, os.path.abspath(__file__), *argv])


def settle_each(servers, names):
    """Waits out each named server in turn (Server.settle); how long each stayed busy."""
    return {n: servers[n].settle() for n in names}


def ensure_dynalite():
    cli = os.path.join(DEPS, "node_modules", "dynalite", "cli.js")
    if not os.path.exists(cli):
        os.makedirs(DEPS, exist_ok=True)
        subprocess.run(["npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", DEPS,
                        f"dynalite@{DYNALITE_VERSION}"], check=True)
    return cli


def create_table(client, name, range_key=None, gsis=0):
    defs = [{"AttributeName": "pk", "AttributeType": "S"}]
    keys = [{"AttributeName": "pk", "KeyType": "HASH"}]
    if range_key:
        defs.append({"AttributeName": "sk", "AttributeType": "N"})
        keys.append({"AttributeName": "sk", "KeyType": "RANGE"})
    body = {"TableName": name, "KeySchema": keys, "AttributeDefinitions": defs,
            "ProvisionedThroughput": {"ReadCapacityUnits": 1000, "WriteCapacityUnits": 1000}}
    if gsis:
        attrs = [("g1", "S"), ("g2", "S"), ("g3", "N")][:gsis]
        body["AttributeDefinitions"] += [{"AttributeName": a, "AttributeType": t} for a, t in attrs]
        body["GlobalSecondaryIndexes"] = [
            {"IndexName": f"by_{a}", "KeySchema": [{"AttributeName": a, "KeyType": "HASH"}],
             "Projection": {"ProjectionType": "ALL"},
             "ProvisionedThroughput": {"ReadCapacityUnits": 1000, "WriteCapacityUnits": 1000}} for a, _ in attrs]
    client.call("CreateTable", body)
    for _ in range(600):  # dynalite creates tables asynchronously
        if client.call("DescribeTable", {"TableName": name})["Table"]["TableStatus"] == "ACTIVE":
            return
        time.sleep(0.05)


def load(port, table, items, workers=4):
    """Loads items with BatchWriteItem from several connections; returns items per second."""
    batches = [items[i:i + 25] for i in range(0, len(items), 25)]

    def run(chunk):
        c = Client(port)
        for batch in chunk:
            req = {table: [{"PutRequest": {"Item": it}} for it in batch]}
            while req:
                resp = c.call("BatchWriteItem", {"RequestItems": req})
                req = resp.get("UnprocessedItems") or None
    start = time.time()
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(run, [batches[i::workers] for i in range(workers)]))
    return len(items) / (time.time() - start)


def item_200(i):
    return {"pk": {"S": f"item{i}"}, "n": {"N": str(i)}, "payload": {"S": "x" * 160}}


def coll_item(p, s, prefix="coll"):
    return {"pk": {"S": f"{prefix}{p}"}, "sk": {"N": str(s)}, "score": {"N": str((s * 37) % 100)},
            "payload": {"S": "y" * 100}}


WRK_LINE = re.compile(r"Requests/sec:\s+([\d.]+)")
PCT = re.compile(r"^\s+(50|99)(?:\.000)?%\s+([\d.]+)(us|ms|s)\s*$", re.M)


def cpu_times():
    """This machine's CPU time counters (/proc/stat): user nice system idle iowait irq softirq steal."""
    with open("/proc/stat") as f:
        return [int(x) for x in f.readline().split()[1:9]]


def steal_percent(before, after):
    """The share of the CPU time between two cpu_times() the hypervisor gave to other guests."""
    d = [a - b for a, b in zip(after, before)]
    return 100.0 * d[7] / sum(d) if sum(d) else 0.0


def wrk(port, script, duration, connections, threads, env):
    before = cpu_times()
    out = subprocess.run(["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{duration}s", "--latency",
                          "-s", os.path.join(LUA, script), f"http://127.0.0.1:{port}/"],
                         capture_output=True, text=True, env={**os.environ, **env}, timeout=duration + 60)
    m = WRK_LINE.search(out.stdout)
    if not m:
        raise RuntimeError("wrk output not understood:\n" + out.stdout + out.stderr)
    lat = {}
    for pct, value, unit in PCT.findall(out.stdout):
        lat[pct] = float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out.stdout)
    return {"rps": float(m.group(1)), "p50_ms": lat.get("50"), "p99_ms": lat.get("99"),
            "non2xx": int(errors.group(1)) if errors else 0, "steal_pct": steal_percent(before, cpu_times())}


QUERY_ROUNDS = 5


def interleaved_p50(port, script, duration, rounds, variants):
    """p50 at one connection of each variant (name -> wrk environment), measured in `rounds`
    alternating rounds of duration / rounds seconds each (at least 1 s): each variant's median
    p50 and rate, and its p50 in each round."""
    runs = {name: [] for name in variants}
    for _ in range(rounds):
        for name, env in variants.items():
            runs[name].append(wrk(port, script, max(1, round(duration / rounds)), 1, 1, env))
    med = statistics.median
    return {name: {"p50_ms": med(r["p50_ms"] for r in rs), "rps": med(r["rps"] for r in rs),
                   "rounds_p50_ms": [r["p50_ms"] for r in rs]} for name, rs in runs.items()}


def nginx_conf(workdir, port, workers=2, name="nginx"):
    """Writes bench/nginx.conf (the fixed reply) for `port` with `workers` worker processes into
    workdir/<name>.conf, with a pid file of its own; returns its path."""
    conf = os.path.join(workdir, f"{name}.conf")
    with open(os.path.join(HERE, "nginx.conf")) as f:
        text = f.read().replace("__PORT__", str(port)).replace("worker_processes 2;", f"worker_processes {workers};")
    with open(conf, "w") as f:
        f.write(text.replace("monotable-bench-nginx.pid", f"monotable-bench-{name}.pid"))
    return conf


NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def _first_answer_ms(argv, port):
    """Starts `argv` and returns the milliseconds from process start to its first served request
    (GET / answered 200) and the process."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while True:
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=1)
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            if s.recv(100).startswith(b"HTTP/1.1 200"):
                s.close()
                break
            s.close()
        except OSError:
            time.sleep(0.0002)
    return (time.perf_counter() - t0) * 1000, proc


def _start_once(binary, data=None, port=None):
    """Milliseconds from process start to the first served request (GET /), the process and its
    data directory (a fresh one unless given)."""
    port = port or free_port()
    data = data or tempfile.mkdtemp(prefix="mt-start-")
    ms, proc = _first_answer_ms([binary, "serve", "--port", str(port), "--data", data], port)
    return ms, proc, data


def _start_in_memory_ms(binary):
    """The same for the in-memory engine (what a test suite would start)."""
    port = free_port()
    ms, proc = _first_answer_ms([binary, "serve", "--port", str(port), "--in-memory"], port)
    proc.terminate()
    proc.wait()
    return ms


def _start_nginx_ms():
    """The same for nginx with one worker answering the fixed reply: an HTTP server that stores
    nothing, started the same way on the same machine."""
    port = free_port()
    workdir = tempfile.mkdtemp(prefix="mt-start-nginx-")
    conf = nginx_conf(workdir, port, workers=1, name="nginx-start")
    ms, proc = _first_answer_ms([NGINX, "-c", conf, "-p", workdir], port)
    proc.terminate()
    proc.wait()
    shutil.rmtree(workdir, ignore_errors=True)
    return ms


def _start_cost(pid):
    """The started process's minor page faults so far and its main thread's CPU time in ms."""
    with open(f"/proc/{pid}/stat") as f:
        minor_faults = int(f.read().rsplit(")", 1)[1].split()[7])
    with open(f"/proc/{pid}/schedstat") as f:  # the thread group leader's: run ns, wait ns, slices
        main_ms = int(f.read().split()[0]) / 1e6
    return minor_faults, main_ms


def page_fault_us(pages=4096, rounds=5):
    """What a first touch of an anonymous page costs on this machine (a page fault), in us: the
    median of `rounds` times touching fresh pages, less the same loop over pages already there."""
    costs = []
    for _ in range(rounds):
        m = mmap.mmap(-1, pages * mmap.PAGESIZE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        t0 = time.perf_counter()
        for i in range(0, pages * mmap.PAGESIZE, mmap.PAGESIZE):
            m[i] = 1
        fresh = time.perf_counter() - t0
        t0 = time.perf_counter()
        for i in range(0, pages * mmap.PAGESIZE, mmap.PAGESIZE):
            m[i] = 2
        touched = time.perf_counter() - t0
        m.close()
        costs.append((fresh - touched) / pages * 1e6)
    return statistics.median(costs)


def _stop(proc, data):
    proc.terminate()
    proc.wait()
    shutil.rmtree(data, ignore_errors=True)


def _true_ms():
    t0 = time.perf_counter()
    subprocess.run(["true"], check=True)
    return (time.perf_counter() - t0) * 1000


def restart_ms(binary, server, data):
    """A restart of `server` (monotable) on the data the run left in `data`: the clean stop's
    seconds (SIGTERM), then start to the first served request and to the answer of a DescribeTable
    of the large table, after that stop and again after a kill -9 of the restarted server (with
    nothing saved at a clean stop, the start counts every table's items)."""
    t0 = time.perf_counter()
    server.proc.terminate()
    server.proc.wait()
    out = {"stop_s": time.perf_counter() - t0}
    for how in ("after_clean_stop", "after_kill_9"):
        port = free_port()
        ms, proc, _ = _start_once(binary, data, port)
        try:
            t1 = time.perf_counter()
            table = Client(port).call("DescribeTable", {"TableName": "bench_big"})["Table"]
            out[how] = {"first_answer_ms": ms, "describe_ms": ms + (time.perf_counter() - t1) * 1000,
                        "item_count": table["ItemCount"]}
        finally:
            proc.send_signal(signal.SIGKILL if how == "after_clean_stop" else signal.SIGTERM)
            proc.wait()
    return out


def startup_ms(binary, runs=7):
    """Start to first served request (GET /, fresh data directory), medians of `runs` starts:
    back to back, and each after a second of idle (when a virtual machine's idle vCPUs make any
    process start slowly: the harness times `true` the same two ways for reference). Back to back
    also, in turn with those starts, the in-memory engine's start and nginx's (one worker) for
    reference. Also the idle RSS one second after start."""
    warm, idle, rss, true_warm, true_idle, faults, main_ms = [], [], [], [], [], [], []
    in_memory, nginx = [], []
    for _ in range(runs):
        ms, proc, data = _start_once(binary)
        warm.append(ms)
        cost = _start_cost(proc.pid)
        faults.append(cost[0])
        main_ms.append(cost[1])
        _stop(proc, data)
        true_warm.append(_true_ms())
        in_memory.append(_start_in_memory_ms(binary))
        nginx.append(_start_nginx_ms())
    for _ in range(runs):
        time.sleep(1.0)
        true_idle.append(_true_ms())
        time.sleep(1.0)
        ms, proc, data = _start_once(binary)
        idle.append(ms)
        time.sleep(1.0)
        with open(f"/proc/{proc.pid}/status") as f:
            rss += [int(l.split()[1]) for l in f if l.startswith("VmRSS:")]
        _stop(proc, data)
    med = statistics.median
    return {"back_to_back_ms": med(warm), "after_idle_ms": med(idle), "true_back_to_back_ms": med(true_warm),
            "true_after_idle_ms": med(true_idle), "page_faults": med(faults), "main_thread_cpu_ms": med(main_ms),
            "page_fault_us": page_fault_us(), "in_memory_ms": med(in_memory), "nginx_one_worker_ms": med(nginx)}, med(rss)


def du_mb(path):
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(root, f))
            except OSError:
                pass
    return total / 1e6


def count_items(port, table):
    """Items in a table, counted by Scan with Select COUNT (one page per MB scanned)."""
    return full_scan(port, table, Select="COUNT")[1]


def full_scan(port, table, **request):
    """A full sequential Scan of a table over one keep-alive connection, page after page: seconds and
    items returned (request: extra Scan parameters, e.g. Select). The client reads each page's Count and LastEvaluatedKey without parsing its
    items (json.loads of a 1 MB page took longer than the server needed to build it, so a parsing
    client timed itself); the benchmark's items have no attribute of either name."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    headers = {"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810.Scan", **AUTH}
    decoder = json.JSONDecoder()
    start, count = None, 0
    t0 = time.time()
    while True:
        body = {"TableName": table, **request}
        if start:
            body["ExclusiveStartKey"] = start
        conn.request("POST", "/", body=json.dumps(body), headers=headers)
        resp = conn.getresponse()
        page = resp.read()
        if resp.status != 200:
            raise RuntimeError(f"Scan failed: {resp.status} {page[:300]!r}")
        count += int(SCAN_COUNT.search(page).group(1))
        at = page.rfind(b'"LastEvaluatedKey"')
        if at < 0:
            return time.time() - t0, count
        tail = page[at:at + 65536].decode()
        start, _ = decoder.raw_decode(tail, tail.index("{"))


SCAN_COUNT = re.compile(rb'"Count"\s*:\s*(\d+)')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--duration", type=int)
    ap.add_argument("--connections", type=int, default=32)
    # One wrk thread: on the 2-core machine the server under test holds one core, and two wrk
    # threads then share the other, each running up to a few milliseconds while the other's
    # connections wait for it (perf sched, bench/RESULTS.md session 16): their p99 measured wrk.
    ap.add_argument("--threads", type=int, default=1, help="wrk threads (default 1)")
    ap.add_argument("--big-items", type=int, help="items in the large table (default 1,000,000; quick: 200,000)")
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "monotable"))
    ap.add_argument("--skip-dynalite", action="store_true")
    ap.add_argument("--skip-dynamodb-local", action="store_true")
    ap.add_argument("--own-netns", action="store_true",
                    help="run everything in a network namespace of its own (only loopback; DynamoDB Local "
                         "listens on every interface)")
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args()
    if args.own_netns and os.environ.get(NETNS_ENV) != "1":
        # The peers are installed first: the namespace has no network to fetch them.
        if not args.skip_dynalite:
            ensure_dynalite()
        if not args.skip_dynamodb_local:
            subprocess.run([DynamoDBLocal.SCRIPT, "install"], check=True, stdout=subprocess.DEVNULL)
        return subprocess.call(own_netns_command(sys.argv[1:], os.geteuid() == 0), env={**os.environ, NETNS_ENV: "1"})
    duration = args.duration or (3 if args.quick else 10)
    big = args.big_items or (200_000 if args.quick else 1_000_000)
    results = {"duration_s": duration, "connections": args.connections, "threads": args.threads, "big_items": big}

    workdir = tempfile.mkdtemp(prefix="mt-bench-")
    servers = {}
    try:
        servers["monotable"] = Server("monotable", [args.binary, "serve", "--port", str(mt_port := free_port()),
                                                    "--data", os.path.join(workdir, "mt")], mt_port,
                                      log=os.path.join(workdir, "monotable.log"))
        if not args.skip_dynalite:
            cli = ensure_dynalite()
            servers["dynalite"] = Server("dynalite", ["node", cli, "--port", str(dl_port := free_port())], dl_port)
        if not args.skip_dynamodb_local:
            servers["dynamodb-local"] = DynamoDBLocal(free_port())
        ng_port = free_port()
        servers["nginx"] = Server("nginx", [NGINX, "-c", nginx_conf(workdir, ng_port), "-p", workdir], ng_port)
        # The same reply from a single worker process: one serving thread, as monotable's I/O thread.
        ng1_port = free_port()
        conf1 = nginx_conf(workdir, ng1_port, workers=1, name="nginx-one-worker")
        servers["nginx one worker"] = Server("nginx one worker", [NGINX, "-c", conf1, "-p", workdir], ng1_port)

        results["idle_rss_kb"] = {n: s.rss_kb() for n, s in servers.items() if not n.startswith("nginx")}
        targets = targets_of(servers)
        for name in targets:
            c = Client(servers[name].port)
            create_table(c, "bench_items")
            create_table(c, "bench_coll10", range_key=True)
            create_table(c, "bench_coll100", range_key=True)
            create_table(c, "bench_bulk")
            create_table(c, "bench_gsi", gsis=3)
            load(servers[name].port, "bench_items", [item_200(i) for i in range(10_000)])
            load(servers[name].port, "bench_coll10", [coll_item(p, s) for p in range(1000) for s in range(10)])
            load(servers[name].port, "bench_coll100", [coll_item(p, s) for p in range(100) for s in range(100)])

        workloads = [
            ("GetItem", "getitem.lua", {"BENCH_TABLE": "bench_items"}),
            ("PutItem 200 B", "putitem.lua", {"BENCH_TABLE": "bench_items", "BENCH_ITEM_BYTES": "200"}),
            ("PutItem 4 KB", "putitem.lua", {"BENCH_TABLE": "bench_items", "BENCH_ITEM_BYTES": "4096"}),
            ("Query 10 items", "query.lua", {"BENCH_TABLE": "bench_coll10", "BENCH_PARTITIONS": "1000"}),
            ("Query 100 items + filter", "query.lua",
             {"BENCH_TABLE": "bench_coll100", "BENCH_PARTITIONS": "100", "BENCH_FILTER": "1"}),
            ("BatchWriteItem x25", "batchwrite.lua", {"BENCH_TABLE": "bench_bulk"}),
            ("PutItem, 3 GSIs", "gsiwrite.lua", {"BENCH_TABLE": "bench_gsi"}),
        ]
        rows = {}
        for label, script, env in workloads:
            rows[label] = {}
            for t in targets:
                # Every server quiet, not only the one measured: the other's background work (after
                # 10 s of 4 KB PutItems monotable compacts for 1-3 s) would otherwise run during this run.
                others = settle_each(servers, [n for n in targets if n != t])
                busy = servers[t].settle()
                rows[label][t] = {**wrk(servers[t].port, script, duration, args.connections, args.threads, env),
                                  "settled_s": busy, "others_settled_s": others}
        results["workloads"] = rows
        # Every BatchWriteItem puts a new item (the script's keys are distinct across wrk threads):
        # the items stored, against the writes answered, show the load wrote what it claims.
        results["bulk_items_stored"] = {t: count_items(servers[t].port, "bench_bulk") for t in targets}
        # The HTTP ceiling against GetItem: on a shared virtual machine the ceiling itself moves by
        # 20-30 % within minutes, so nginx and monotable's GetItem run back to back, three times
        # alternately; the share is the median of the three pairs' ratios. Each server's rate is
        # the better of a run with the harness's wrk threads and one with twice as many, the same
        # rule for both: nginx's two workers may want more than one wrk thread, and with one wrk
        # thread on a core of its own either server may be waiting for the load generator.
        pairs = []
        for _ in range(3):
            settle_each(servers, targets)
            get_tries = [wrk(servers["monotable"].port, "getitem.lua", duration, args.connections, t,
                             {"BENCH_TABLE": "bench_items"}) for t in (args.threads, 2 * args.threads)]
            get = max(get_tries, key=lambda w: w["rps"])
            tries = [wrk(ng_port, "getitem.lua", duration, args.connections, t, {"BENCH_TABLE": "bench_items"})
                     for t in (args.threads, 2 * args.threads)]
            ceiling = max(tries, key=lambda w: w["rps"])
            pairs.append({"monotable": get, "monotable_tries": get_tries, "nginx": ceiling, "nginx_tries": tries,
                          "share": get["rps"] / ceiling["rps"]})
        results["nginx_pairs"] = pairs
        rows["GetItem"]["nginx"] = sorted(pairs, key=lambda p: p["share"])[1]["nginx"]
        # The PutItem workloads' requests against the fixed reply (nginx reads each body and drops
        # it): what 32 connections of such requests cost this machine's loopback TCP and the load
        # generator with nothing stored, with the ceiling's two workers and with one.
        settle_each(servers, targets)
        results["nginx_puts"] = {
            n: {label: wrk(servers[n].port, "putitem.lua", duration, args.connections, args.threads,
                           {"BENCH_TABLE": "bench_items", "BENCH_ITEM_BYTES": size})
                for label, size in (("PutItem 200 B", "200"), ("PutItem 4 KB", "4096"))}
            for n in ("nginx", "nginx one worker")}

        # Full scan of a 10k-item table no workload wrote to, on each target.
        results["scan_10k"] = {t: full_scan(servers[t].port, "bench_coll10") for t in targets}

        # The large table, on each target: load rate, RSS (and monotable's disk), Query latency on
        # it against the 10k-item table, and a full Scan. Loaded one target at a time, each with
        # the machine to itself.
        partitions = big // 10
        results["big"] = {}
        for t in targets:
            srv = servers[t]
            settle_each(servers, targets)
            create_table(Client(srv.port), "bench_big", range_key=True)
            t0 = time.time()
            rate = load(srv.port, "bench_big", [coll_item(p, s, "coll") for p in range(partitions) for s in range(10)])
            big_row = {"load_items_per_s": rate, "load_s": time.time() - t0}
            time.sleep(2)
            big_row["rss_kb"] = srv.rss_kb()
            # Disk once the compactions are over: while one runs, its inputs and outputs are both
            # on disk (measured 2 s after the load, it read 153-228 MB in session 24's runs).
            settle_each(servers, targets)
            big_row["disk_mb"] = du_mb(os.path.join(workdir, "mt")) if t == "monotable" else None
            # The 10k-item table against the large one twice: over 1,000 of its collections spread
            # across it (the 10k-item table's working set: only the table's size differs, not what
            # the caches can hold), and over all of them (most reads then miss the range cache).
            # In alternating rounds, so that the machine's drift over the half minute (p50 at one
            # connection moved 36-51 us from one 2 s round to the next on one server) falls on
            # all three alike.
            big_row.update(interleaved_p50(srv.port, "query.lua", duration, QUERY_ROUNDS, {
                "query_10k": {"BENCH_TABLE": "bench_coll10", "BENCH_PARTITIONS": "1000"},
                "query_big_same": {"BENCH_TABLE": "bench_big", "BENCH_PARTITIONS": "1000",
                                   "BENCH_STRIDE": str(max(1, partitions // 1000))},
                "query_big": {"BENCH_TABLE": "bench_big", "BENCH_PARTITIONS": str(partitions)}}))
            big_row["scan_s"], big_row["scan_items"] = full_scan(srv.port, "bench_big")
            results["big"][t] = big_row
        results["bulk_batchwrite_items_per_s"] = {t: rows["BatchWriteItem x25"][t]["rps"] * 25 for t in targets}
        # What the server said during the run: RocksDB's warnings (a write stall or stop among them)
        # explain a tail that the figures alone do not.
        results["monotable_log"] = servers["monotable"].log_lines()
        # A restart on everything the run wrote (the large table and the workloads' tables).
        results["restart"] = restart_ms(args.binary, servers.pop("monotable"), os.path.join(workdir, "mt"))
    finally:
        for s in servers.values():
            s.stop()
        shutil.rmtree(workdir, ignore_errors=True)

    # Measured on a settled machine: the workloads leave gigabytes of dirty pages whose writeback
    # would otherwise stall the fsyncs of a fresh data directory.
    os.sync()
    time.sleep(2)
    results["startup_ms"], results["startup_idle_rss_kb"] = startup_ms(args.binary)
    report(results, targets)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)


def report(r, targets):
    print(f"\n## Throughput and latency ({r['duration_s']} s per run, {r['connections']} connections, "
          f"wrk with {r['threads']} thread{'s' if r['threads'] > 1 else ''})\n")
    print("\n".join(workload_table(r["workloads"], targets)))
    checks = target_lines(r["workloads"], targets)
    if checks:
        print("\nTargets: " + "; ".join(checks))
    # On a shared virtual machine the hypervisor may run other guests on this machine's cores
    # ("steal"): a run with a high share was measured on less than two cores.
    print("\nSeconds each server stayed busy before each run (the previous workload's background work, waited "
          "out; " + " / ".join(targets) + "): " +
          "; ".join(f"{label} " + " / ".join(f"{row[t].get('settled_s', 0):.1f}" for t in targets)
                    for label, row in r["workloads"].items()))
    print("Seconds the other server stayed busy before each run, waited out too (" + " / ".join(targets) + "): " +
          "; ".join(f"{label} " + " / ".join(f"{sum(row[t].get('others_settled_s', {}).values()):.1f}" for t in targets)
                    for label, row in r["workloads"].items()))
    print("\nCPU time stolen by the hypervisor during each run (% of both cores, " + " / ".join(targets) + "): " +
          "; ".join(f"{label} " + " / ".join(f"{row[t].get('steal_pct', 0):.1f}" for t in targets)
                    for label, row in r["workloads"].items()))
    def tries(ws):
        return " and ".join(f"{fmt(w['rps'])} p99 {w['p99_ms']:.2f} ms" for w in ws)

    print(f"\nnginx fixed reply (HTTP ceiling) against monotable's GetItem right before it, each the better of "
          f"{r['threads']} and {2 * r['threads']} wrk threads: " +
          "; ".join(f"{fmt(p['nginx']['rps'])} req/s ({tries(p['nginx_tries'])}) against {fmt(p['monotable']['rps'])} "
                    f"({tries(p['monotable_tries'])}) = {100 * p['share']:.0f}%" for p in r["nginx_pairs"]) +
          f"; median share {100 * sorted(p['share'] for p in r['nginx_pairs'])[1]:.0f}%")
    if "nginx_puts" in r:
        print("nginx fixed reply driven by the PutItem scripts (bodies read and dropped; two workers / one worker): " +
              "; ".join(f"{label} " + " / ".join(f"{fmt(r['nginx_puts'][n][label]['rps'])} req/s p99 "
                                                 f"{r['nginx_puts'][n][label]['p99_ms']:.2f} ms"
                                                 for n in ("nginx", "nginx one worker"))
                        for label in ("PutItem 200 B", "PutItem 4 KB")))
    st = r["startup_ms"]
    print(f"\nStart to first served request (median): {st['back_to_back_ms']:.1f} ms back to back, "
          f"{st['after_idle_ms']:.1f} ms after 1 s of idle (this machine's `true`: {st['true_back_to_back_ms']:.1f} ms "
          f"and {st['true_after_idle_ms']:.1f} ms); idle RSS after start: {r['startup_idle_rss_kb'] / 1024:.1f} MB")
    if "in_memory_ms" in st:
        print(f"Back to back, the same way: monotable on its in-memory engine {st['in_memory_ms']:.1f} ms; nginx with one "
              f"worker (the fixed reply, nothing stored) {st['nginx_one_worker_ms']:.1f} ms")
    if "page_faults" in st:
        print(f"At its first answer (back to back, medians) the server had taken {st['page_faults']:.0f} page faults "
              f"and its main thread had run {st['main_thread_cpu_ms']:.1f} ms; a page fault costs "
              f"{st['page_fault_us']:.1f} us on this machine")
    if "restart" in r:
        rs = r["restart"]
        print(f"Restart on the run's data ({r['big_items']:,}-item table included): clean stop {rs['stop_s']:.2f} s; " +
              "; ".join(f"{how.replace('_', ' ')}: first answer {rs[how]['first_answer_ms']:,.0f} ms, the large "
                        f"table's DescribeTable (ItemCount {rs[how]['item_count']:,}) {rs[how]['describe_ms']:,.0f} ms"
                        for how in ("after_clean_stop", "after_kill_9")))
    print("Idle RSS with the benchmark tables created: " +
          ", ".join(f"{t} {kb / 1024:.1f} MB" for t, kb in r["idle_rss_kb"].items()))
    print("Bulk load (BatchWriteItem, wrk): " +
          ", ".join(f"{t} {fmt(v)} items/s" for t, v in r["bulk_batchwrite_items_per_s"].items()) +
          "; items stored afterwards (requests in flight when wrk stops still count): " + ", ".join(
              f"{t} {fmt(n)} for {fmt(r['bulk_batchwrite_items_per_s'][t] * r['duration_s'])} puts answered"
              for t, n in r["bulk_items_stored"].items()))
    n = r["big_items"]
    print(f"\n## A {n:,}-item table ({n // 10:,} collections of 10 items of ~130 B; loaded by a Python client, "
          "BatchWriteItem from 4 connections)\n")
    peers = peers_of(targets)
    print("| | " + " | ".join(targets) + "".join(f" | monotable faster than {PEER_LABEL[p]} by" for p in peers) + " |")
    print("|" + "---|" * (1 + len(targets) + len(peers)))
    big = r["big"]

    def line(label, cell, faster=None):
        out = f"| {label} | " + " | ".join(cell(big[t]) for t in targets)
        out += "".join(" | " + (f"{faster(big['monotable'], big[p]):.1f}x" if faster else "") for p in peers)
        print(out + " |")

    line("load, items/s", lambda b: f"{fmt(b['load_items_per_s'])} ({b['load_s']:.1f} s)",
         lambda m, d: m["load_items_per_s"] / d["load_items_per_s"])
    line("RSS after the load, MB", lambda b: f"{b['rss_kb'] / 1024:.1f}")
    line("disk after the load, MB", lambda b: "-" if b["disk_mb"] is None else f"{b['disk_mb']:.1f}")
    line("Query p50 at 1 connection, 10k-item table (its 1,000 collections), ms",
         lambda b: f"{b['query_10k']['p50_ms']:.3f}", lambda m, d: d["query_10k"]["p50_ms"] / m["query_10k"]["p50_ms"])
    line(f"Query p50 at 1 connection, {n:,}-item table, 1,000 of its collections, ms",
         lambda b: f"{b['query_big_same']['p50_ms']:.3f}",
         lambda m, d: d["query_big_same"]["p50_ms"] / m["query_big_same"]["p50_ms"])
    line(f"Query p50, {n:,} / 10k items, 1,000 collections each",
         lambda b: f"{b['query_big_same']['p50_ms'] / b['query_10k']['p50_ms']:.2f}")
    line(f"Query p50 at 1 connection, {n:,}-item table, all {n // 10:,} collections, ms",
         lambda b: f"{b['query_big']['p50_ms']:.3f}", lambda m, d: d["query_big"]["p50_ms"] / m["query_big"]["p50_ms"])
    line(f"Query p50, {n:,} / 10k items, all collections of each",
         lambda b: f"{b['query_big']['p50_ms'] / b['query_10k']['p50_ms']:.2f}")
    line("full Scan, s (items returned)", lambda b: f"{b['scan_s']:.2f} ({b['scan_items']:,})",
         lambda m, d: d["scan_s"] / m["scan_s"])
    line("full Scan, items/s", lambda b: fmt(b["scan_items"] / b["scan_s"]),
         lambda m, d: (m["scan_items"] / m["scan_s"]) / (d["scan_items"] / d["scan_s"]))
    log = r.get("monotable_log", [])
    print(f"\nmonotable's standard error during the run: {len(log)} line{'' if len(log) == 1 else 's'}" +
          "".join(f"\n    {line}" for line in log[:20]) + ("\n    ..." if len(log) > 20 else ""))
    print("\nFull scan of 10k items: " + ", ".join(f"{t} {s:.3f} s ({c:,} items)" for t, (s, c) in r["scan_10k"].items()))


if __name__ == "__main__":
    sys.exit(main())
