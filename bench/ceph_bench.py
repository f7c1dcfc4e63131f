#!/usr/bin/python3
"""monotable on Ceph RADOS beside monotable on RocksDB, and one server against two over one cluster.

    bench/ceph_bench.py                          # starts a loopback cluster (scripts/ceph), ~3 minutes
    bench/ceph_bench.py --ceph-conf /etc/ceph/ceph.conf --pool NAME   # an existing cluster

The same workloads as bench/bench.py (GetItem, PutItem 200 B, Query of 10 items; wrk with
bench/lua) against: a server on RocksDB (the default engine), one server on the cluster, and two
servers on the same cluster at once (half the connections each, throughputs added). For the
cluster runs it also reports where the CPU went during each workload (CPU seconds per 1,000
requests of the servers, of the OSDs and of the monitors/manager, from /proc): on one machine that
is the profile that says what limits throughput. Prints a Markdown table.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (the harness: servers, loading, wrk)

ROOT = bench.ROOT
WORKLOADS = [
    ("GetItem", "getitem.lua", {"BENCH_TABLE": "bench_items"}),
    ("PutItem 200 B", "putitem.lua", {"BENCH_TABLE": "bench_items", "BENCH_ITEM_BYTES": "200"}),
    ("Query 10 items", "query.lua", {"BENCH_TABLE": "bench_coll10"}),
]


def processes(name):
    """pids of the processes whose command is `name`."""
    out = subprocess.run(["pgrep", "-x", name], capture_output=True, text=True)
    return [int(p) for p in out.stdout.split()]


def cpu_of(pids):
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except OSError:
            pass
    return total


def load_data(port, items, partitions):
    client = bench.Client(port)
    bench.create_table(client, "bench_items")
    bench.create_table(client, "bench_coll10", range_key=True)
    bench.load(port, "bench_items", [bench.item_200(i) for i in range(items)])
    bench.load(port, "bench_coll10", [bench.coll_item(p, s) for p in range(partitions) for s in range(10)])


def run_workload(ports, script, env, duration, connections):
    """wrk against every port at once (connections split between them); added rps, worst p50/p99."""
    results = [None] * len(ports)

    def one(i, port):
        results[i] = bench.wrk(port, script, duration, max(1, connections // len(ports)), 1, env)
    threads = [threading.Thread(target=one, args=(i, p)) for i, p in enumerate(ports)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {"rps": sum(r["rps"] for r in results), "p50_ms": max(r["p50_ms"] for r in results),
            "p99_ms": max(r["p99_ms"] for r in results), "non2xx": sum(r["non2xx"] for r in results)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ceph-conf", help="an existing cluster's ceph.conf (default: start a loopback one)")
    ap.add_argument("--pool", default="dyn")
    ap.add_argument("--duration", type=int, default=10)
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--items", type=int, default=2000)
    ap.add_argument("--partitions", type=int, default=200)
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "monotable"))
    args = ap.parse_args()

    base = None
    conf = args.ceph_conf
    if not conf:
        base = os.path.join(tempfile.gettempdir(), "mt-ceph-bench")
        env = dict(os.environ, BASE=base, MONPORT0="50789")
        subprocess.run([os.path.join(ROOT, "scripts", "ceph", "start-ceph.sh")], env=env, check=True,
                       stdout=subprocess.DEVNULL, timeout=300)
        conf = os.path.join(base, "ceph.conf")
    workdir = tempfile.mkdtemp(prefix="mt-ceph-bench-")
    servers = []
    try:
        def start(name, *flags):
            port = bench.free_port()
            server = bench.Server(name, [args.binary, "serve", "--host", "127.0.0.1", "--port", str(port), *flags],
                                  port, log=os.path.join(workdir, name + ".log"))
            servers.append(server)
            return server

        rocks = start("rocksdb", "--data", os.path.join(workdir, "data"))
        namespace = "bench-" + uuid.uuid4().hex[:8]
        ceph_flags = ("--ceph", conf, "--pool", args.pool, "--ceph-namespace", namespace)
        ceph1 = start("ceph-1", *ceph_flags)
        ceph2 = start("ceph-2", *ceph_flags)
        for server in (rocks, ceph1):
            started = time.time()
            load_data(server.port, args.items, args.partitions)
            print(f"loaded {server.name}: {args.items + 10 * args.partitions} items in {time.time() - started:.1f} s",
                  file=sys.stderr)
        env = {"BENCH_ITEMS": str(args.items), "BENCH_PARTITIONS": str(args.partitions)}
        rows = []
        for label, script, extra in WORKLOADS:
            e = {**env, **extra}
            r_rocks = run_workload([rocks.port], script, e, args.duration, args.connections)
            profile = {}
            r_ceph = {}
            for key, ports, monotables in (("one", [ceph1.port], [ceph1.pid]),
                                           ("two", [ceph1.port, ceph2.port], [ceph1.pid, ceph2.pid])):
                osds, mons = processes("ceph-osd"), processes("ceph-mon") + processes("ceph-mgr")
                before = (cpu_of(monotables), cpu_of(osds), cpu_of(mons), time.time())
                r_ceph[key] = run_workload(ports, script, e, args.duration, args.connections)
                after = (cpu_of(monotables), cpu_of(osds), cpu_of(mons), time.time())
                requests = r_ceph[key]["rps"] * (after[3] - before[3])
                profile[key] = [1000 * (a - b) / max(requests, 1) for a, b in zip(after[:3], before[:3])]
            rows.append((label, r_rocks, r_ceph, profile))

        print(f"\n{args.connections} connections, {args.duration} s per run; one server: all connections; "
              f"two servers: half each, throughputs added.\n")
        print("| workload | RocksDB req/s (p50) | Ceph, 1 server req/s (p50) | Ceph/RocksDB | Ceph, 2 servers req/s (p50) "
              "| 2 servers / 1 |")
        print("|---|---|---|---|---|---|")
        for label, r, c, _ in rows:
            print(f"| {label} | {r['rps']:,.0f} ({r['p50_ms']:.2f} ms) | {c['one']['rps']:,.0f} ({c['one']['p50_ms']:.2f} ms) "
                  f"| {c['one']['rps'] / r['rps']:.3f} | {c['two']['rps']:,.0f} ({c['two']['p50_ms']:.2f} ms) "
                  f"| {c['two']['rps'] / c['one']['rps']:.2f} |")
        print("\nCPU seconds per 1,000 requests on the cluster (monotable servers / OSDs / monitors and manager):\n")
        print("| workload | 1 server | 2 servers |")
        print("|---|---|---|")
        for label, _, _, p in rows:
            cell = lambda v: f"{v[0]:.2f} / {v[1]:.2f} / {v[2]:.2f}"  # noqa: E731
            print(f"| {label} | {cell(p['one'])} | {cell(p['two'])} |")
        errors = sum(r["non2xx"] + c["one"]["non2xx"] + c["two"]["non2xx"] for _, r, c, _ in rows)
        print(f"\nnon-2xx answers in all runs: {errors}")
    finally:
        for server in servers:
            server.stop()
        if base:
            subprocess.run([os.path.join(ROOT, "scripts", "ceph", "stop-ceph.sh")], env=dict(os.environ, BASE=base),
                           stdout=subprocess.DEVNULL)
    return 0


if __name__ == "__main__":
    sys.exit(main())
