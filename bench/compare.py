#!/usr/bin/python3
"""Two builds of monotable side by side: is a change faster or slower than its spread?

    bench/compare.py --baseline /path/to/old/monotable --candidate build/monotable [--rounds 3]

Both servers run at once on the embedded default (RocksDB, a data directory each; `--in-memory`:
the in-memory engine; `--ceph CONF [--pool P]`: a Ceph cluster, a RADOS namespace each), loaded
with the same tables as bench/bench.py. Then, for each workload, the two are measured one after the other,
`--rounds` times, alternating which goes first, with every server quiet before each run (a
shared VM drifts within minutes, so alternation, not one long run, is what makes the figures
comparable). Prints per workload each round's requests/s, the median of each build, the ratio
candidate/baseline of the medians, and the spread: the largest relative distance of one build's
rounds from its median. The rule (DEVELOPERS.md): a difference smaller than the spread is none.
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (the harness: servers, loading, wrk)

WORKLOADS = [
    ("GetItem", "getitem.lua", {"BENCH_TABLE": "bench_items"}),
    ("PutItem 200 B", "putitem.lua", {"BENCH_TABLE": "bench_items", "BENCH_ITEM_BYTES": "200"}),
    ("Query 10 items", "query.lua", {"BENCH_TABLE": "bench_coll10"}),
    ("BatchWriteItem x25", "batchwrite.lua", {"BENCH_TABLE": "bench_bulk"}),
    ("PutItem, 3 GSIs", "gsiwrite.lua", {"BENCH_TABLE": "bench_gsi"}),
]


def start(name, binary, workdir, args):
    port = bench.free_port()
    if args.in_memory:
        store = ["--in-memory"]
    elif args.ceph:
        store = ["--ceph", args.ceph, "--pool", args.pool, "--ceph-namespace", f"compare-{name}-{uuid.uuid4().hex[:8]}"]
    else:
        store = ["--data", os.path.join(workdir, name)]
    return bench.Server(name, [binary, "serve", "--host", "127.0.0.1", "--port", str(port), *store], port,
                        log=os.path.join(workdir, name + ".log"))


def load_tables(port, items, partitions):
    c = bench.Client(port)
    bench.create_table(c, "bench_items")
    bench.create_table(c, "bench_coll10", range_key=True)
    bench.create_table(c, "bench_bulk")
    bench.create_table(c, "bench_gsi", gsis=3)
    bench.load(port, "bench_items", [bench.item_200(i) for i in range(items)])
    bench.load(port, "bench_coll10", [bench.coll_item(p, s) for p in range(partitions) for s in range(10)])


def spread(values):
    m = statistics.median(values)
    return max(abs(v - m) / m for v in values)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", required=True, help="the monotable binary to compare against")
    ap.add_argument("--candidate", default=os.path.join(bench.ROOT, "build", "monotable"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--duration", type=int, default=10)
    ap.add_argument("--connections", type=int, default=32)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--ceph", help="a cluster's ceph.conf: both servers on Ceph RADOS instead of RocksDB")
    ap.add_argument("--pool", default="dyn")
    ap.add_argument("--in-memory", action="store_true", help="both servers on the in-memory engine")
    ap.add_argument("--only", action="append", help="run only the workloads with these names")
    args = ap.parse_args()

    workdir = tempfile.mkdtemp(prefix="mt-compare-")
    servers = {}
    try:
        servers["baseline"] = start("baseline", args.baseline, workdir, args)
        servers["candidate"] = start("candidate", args.candidate, workdir, args)
        # Smaller tables on a cluster (loading there is slower); the scripts read what was loaded.
        items, partitions = (2000, 200) if args.ceph else (10_000, 1000)
        sizes = {"BENCH_ITEMS": str(items), "BENCH_PARTITIONS": str(partitions)}
        for s in servers.values():
            load_tables(s.port, items, partitions)
        rows = []
        for label, script, env in WORKLOADS:
            if args.only and label not in args.only:
                continue
            rps = {"baseline": [], "candidate": []}
            for r in range(args.rounds):
                order = ["baseline", "candidate"] if r % 2 == 0 else ["candidate", "baseline"]
                for name in order:
                    bench.settle_each(servers, list(servers))
                    w = bench.wrk(servers[name].port, script, args.duration, args.connections, args.threads,
                                  {**sizes, **env})
                    if w["non2xx"]:
                        raise RuntimeError(f"{name}: {w['non2xx']} error answers during {label}")
                    rps[name].append(w["rps"])
            rows.append((label, rps))
            b, c = (statistics.median(rps[n]) for n in ("baseline", "candidate"))
            print(f"{label}: baseline {[round(v) for v in rps['baseline']]} candidate "
                  f"{[round(v) for v in rps['candidate']]} -> {c / b:.3f}", flush=True)
        print()
        print(f"{args.rounds} alternating rounds of {args.duration} s, {args.connections} connections, "
              f"{args.threads} wrk thread(s), both on "
              f"{'the in-memory engine' if args.in_memory else 'Ceph RADOS' if args.ceph else 'RocksDB'}")
        print("| workload | baseline req/s (median) | candidate req/s (median) | candidate/baseline | spread |")
        print("|---|---|---|---|---|")
        for label, rps in rows:
            b, c = (statistics.median(rps[n]) for n in ("baseline", "candidate"))
            s = max(spread(rps["baseline"]), spread(rps["candidate"]))
            print(f"| {label} | {b:,.0f} | {c:,.0f} | {c / b:.3f} | ±{100 * s:.1f} % |")
    finally:
        for s in servers.values():
            s.stop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
