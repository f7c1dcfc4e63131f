#!/usr/bin/env python3
"""Differential tester: the same random requests to monotable and to DynamoDB Local, answers compared.

    python3 tests/difftest/difftest.py --seed 1 --count 2000 [--monotable-port P | --monotable-binary B]
                                       [--ddb-local-port Q] [--report FILE] [--show-known]

Without ports it starts both peers itself (monotable `serve --in-memory` from build/monotable, DynamoDB
Local through scripts/dynamodb-local.sh). From the seed it makes a few tables (hash-only or
hash+range, S/N/B keys, sometimes a GSI and an LSI), then `count` requests: PutItem, UpdateItem,
DeleteItem, GetItem, Query, Scan, BatchWriteItem, BatchGetItem, TransactWriteItems with random items,
expressions, projections, ReturnValues, and a share of malformed requests (one random defect each).
Every request goes byte for byte to both servers; the answers are normalised (normalise() below lists
what is ignored and why) and compared. Differences are grouped by class (operation + what differs) and
written as a report. known.py explains differences: documented DynamoDB Local departures from AWS
(counted only), differences whose fix belongs to another area of issue 41 and open questions (listed,
not failing). Exit status 1 when an unexplained difference was found.
Deterministic from the seed: the same seed sends the same requests.
"""
import argparse
import collections
import json
import os
import random
import re
import subprocess
import sys
import time
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import gen  # noqa: E402
import known  # noqa: E402
import ops  # noqa: E402
from wire import Peer  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# ---- normalisation ------------------------------------------------------------------------------
# Ignored, with the reason:
# - the error type's namespace ("com.amazonaws.dynamodb.v20120810#" vs "com.amazon.coral.validate#"):
#   SDKs read only the part after '#', and AWS itself uses both namespaces;
# - ConsumedCapacity: the tester does not ask for it, and DynamoDB Local computes it its own way;
# - the order of set members (SS/NS/BS): a set has none, and SDKs compare sets as sets;
# - the order of items where DynamoDB defines none: Scan (across partitions), BatchGetItem's Responses,
#   index Query (items with equal index keys); these are sorted before comparing. Table Query order
#   (by sort key) is compared as is;
# - a table description's volatile fields (ARN, id, times, sizes, status): only key schemas and
#   indexes' names are compared.

def short_type(t):
    return t.split("#")[-1] if isinstance(t, str) else t


def norm_value(v):
    if not isinstance(v, dict) or len(v) != 1:
        return v
    (k, x), = v.items()
    if k in ("SS", "BS") and isinstance(x, list):
        return {k: sorted(x)}
    if k == "NS" and isinstance(x, list):
        try:
            return {k: sorted(x, key=Decimal)}
        except Exception:
            return {k: sorted(map(str, x))}
    if k == "L" and isinstance(x, list):
        return {k: [norm_value(e) for e in x]}
    if k == "M" and isinstance(x, dict):
        return {k: norm_item(x)}
    return v


def norm_item(item):
    if not isinstance(item, dict):
        return item
    return {n: norm_value(v) for n, v in sorted(item.items())}


def canon(x):
    return json.dumps(x, sort_keys=True, ensure_ascii=False)


def normalise(op, status, body, hints):
    if not isinstance(body, dict):
        return {"status": status, "body": body}
    if status != 200:
        return {"status": status, "type": short_type(body.get("__type")),
                "message": body.get("message", body.get("Message")),
                "Item": norm_item(body.get("Item")) if "Item" in body else None,
                "CancellationReasons": [
                    {"Code": r.get("Code"), "Message": r.get("Message"),
                     **({"Item": norm_item(r["Item"])} if "Item" in r else {})}
                    for r in body.get("CancellationReasons", [])] or None}
    b = dict(body)
    b.pop("ConsumedCapacity", None)
    for f in ("Item", "Attributes", "LastEvaluatedKey"):
        if f in b:
            b[f] = norm_item(b[f])
    if "Items" in b:
        b["Items"] = [norm_item(i) for i in b["Items"]]
        if hints.get("unordered"):
            b["Items"].sort(key=canon)
    if "Responses" in b and isinstance(b["Responses"], list):  # TransactGetItems: in request order
        b["Responses"] = [dict(r, Item=norm_item(r["Item"])) if isinstance(r, dict) and "Item" in r else r
                          for r in b["Responses"]]
    if "Responses" in b and isinstance(b["Responses"], dict):
        b["Responses"] = {t: sorted((norm_item(i) for i in items), key=canon) for t, items in b["Responses"].items()}
    if "UnprocessedKeys" in b and not b["UnprocessedKeys"]:
        b.pop("UnprocessedKeys")
    if "UnprocessedItems" in b and not b["UnprocessedItems"]:
        b.pop("UnprocessedItems")
    if "TableDescription" in b:
        d = b["TableDescription"]
        b["TableDescription"] = {"KeySchema": d.get("KeySchema"),
                                 "Indexes": sorted(i["IndexName"] for i in d.get("GlobalSecondaryIndexes", [])
                                                   + d.get("LocalSecondaryIndexes", []))}
    return {"status": status, "body": b}


def msg_shape(m):
    """A message with its request-specific parts (quoted values, names, numbers) blanked, for grouping."""
    import re
    if not isinstance(m, str):
        return m
    m = re.sub(r"Value '[^']*'", "Value '…'", m)
    m = re.sub(r"\[[^\]]*\]", "[…]", m)
    m = re.sub(r"(token|near|Key|key|keys|value|name|path): .*", r"\1: …", m)
    return m[:160]


def resort(n, hints):
    """Sorts again what normalise() sorted (after known.fix_local rewrote numbers, which sort by text)."""
    b = n.get("body")
    if isinstance(b, dict):
        if hints.get("unordered") and isinstance(b.get("Items"), list):
            b["Items"].sort(key=canon)
        if isinstance(b.get("Responses"), dict):
            for items in b["Responses"].values():
                items.sort(key=canon)
    return n


def classify(op, na, nb):
    """The class of a difference: a short stable string used to group the report."""
    ea, eb = na.get("type"), nb.get("type")
    if na["status"] != nb["status"] or ea != eb:
        return f"{op}: monotable {na['status']} {ea or 'OK'} / DynamoDB Local {nb['status']} {eb or 'OK'}"
    if ea:
        if na.get("message") != nb.get("message"):
            return f"{ea} message: {msg_shape(na.get('message'))!r} / {msg_shape(nb.get('message'))!r}"
        if na.get("CancellationReasons") != nb.get("CancellationReasons"):
            return f"{op}: {ea} CancellationReasons differ"
        return f"{op}: {ea} Item differs"
    fa, fb = na["body"], nb["body"]
    fields = sorted(k for k in set(fa) | set(fb) if fa.get(k) != fb.get(k))
    return f"{op}: result differs in {','.join(fields)}"


# ---- running ------------------------------------------------------------------------------------

class Differences:
    def __init__(self):
        self.by_class = {"unexplained": collections.OrderedDict(), "other": collections.OrderedDict(),
                         "open": collections.OrderedDict()}
        self.known = collections.Counter()
        self.compared = 0

    def add(self, kind, cls, example):
        entry = self.by_class[kind].setdefault(cls, {"count": 0, "examples": []})
        entry["count"] += 1
        if len(entry["examples"]) < 3:
            entry["examples"].append(example)

    def unexplained(self):
        return sum(e["count"] for e in self.by_class["unexplained"].values())


def paged_call(peer, op, req, hints):
    """All pages of a Query or Scan (every segment of a parallel Scan), merged into one answer: the
    items in the order the pages gave them, Count and ScannedCount summed. Which items a page or a
    segment holds is up to the server; what all of them hold together is not. The first error ends it."""
    items, count, scanned = [], 0, 0
    segments = req.get("TotalSegments") if hints.get("segments") else None
    for segment in range(segments or 1):
        page = dict(req, Segment=segment) if segments else dict(req)
        for _ in range(200):
            status, body = peer.call(op, page)
            if status != 200 or not isinstance(body, dict):
                return status, body
            items.extend(body.get("Items", []))
            count += body.get("Count", 0)
            scanned += body.get("ScannedCount", 0)
            if "LastEvaluatedKey" not in body:
                break
            page = dict(page, ExclusiveStartKey=body["LastEvaluatedKey"])
    merged = {"Count": count, "ScannedCount": scanned}
    if req.get("Select") != "COUNT":
        merged["Items"] = items
    return 200, merged


def send_both(peers, op, req, hints, diffs):
    """Sends one request to both peers; returns the normalised answers and whether they differ in a way
    that is not a known DynamoDB Local departure."""
    if hints.get("paginate"):
        (a_status, a_body), (b_status, b_body) = (paged_call(p, op, req, hints) for p in peers)
    else:
        a_status, a_body = peers[0].call(op, req)
        b_status, b_body = peers[1].call(op, req)
    na, nb = normalise(op, a_status, a_body, hints), normalise(op, b_status, b_body, hints)
    diffs.compared += 1
    if na == nb:
        return na, nb, False
    fixed = resort(known.fix_local(nb), hints)
    if fixed == na:
        diffs.known["numbers: " + known.NUMBERS_SOURCE[:60] + "..."] += 1
        return na, nb, True
    k = known.match(op, req, na, fixed)
    example = {"request": req, "monotable": na, "dynamodb_local": fixed}
    if k is None:
        diffs.add("unexplained", classify(op, na, fixed), example)
    elif k[0] == "known":
        diffs.known[k[1]] += 1
    else:
        diffs.add(k[0], f"{k[1]} | {classify(op, na, fixed)}", example)
    return na, nb, True


WRITES = {"PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"}


def touched_keys(op, req, tables):
    """(table, key) for every item a write request names, as far as its shape allows."""
    by_name = {t.name: t for t in tables}
    bodies = []
    if isinstance(req.get("TableName"), str):
        bodies.append((req["TableName"], req))
    if isinstance(req.get("RequestItems"), dict):
        for name, reqs in req["RequestItems"].items():
            for w in reqs if isinstance(reqs, list) else []:
                for inner in (w.values() if isinstance(w, dict) else []):
                    if isinstance(inner, dict):
                        bodies.append((name, inner))
    if isinstance(req.get("TransactItems"), list):
        for a in req["TransactItems"]:
            for inner in (a.values() if isinstance(a, dict) else []):
                if isinstance(inner, dict):
                    bodies.append((inner.get("TableName"), inner))
    out = []
    for name, body in bodies:
        t = by_name.get(name) if isinstance(name, str) else None
        if t is None:
            continue
        for f in ("Item", "Key"):
            src = body.get(f)
            if isinstance(src, dict) and all(n in src for n, _ in t.key_names()):
                out.append((t, {n: src[n] for n, _ in t.key_names()}))
    return out


def check_stored(peers, op, req, tables, diffs):
    """After a write both servers answered alike, reads back every item the request named from both
    (consistently) and compares them: a write can agree in its answer and still store different
    items. Returns True when something differed (the caller then resyncs)."""
    differed = False
    for t, key in touched_keys(op, req, tables):
        get = {"TableName": t.name, "Key": key, "ConsistentRead": True}
        answers = [p.call("GetItem", get) for p in peers]
        if any(status != 200 for status, _ in answers):
            continue
        na, nb = (normalise("GetItem", s, b, {}) for s, b in answers)
        if na != known.fix_local(nb):
            diffs.add("unexplained", f"{op}: same answer, different stored item",
                      {"request": req, "monotable": na, "dynamodb_local": known.fix_local(nb)})
            differed = True
    return differed


def resync(peers, op, req, tables):
    """After the two servers answered a write differently, copy DynamoDB Local's version of every item
    the request named into monotable, so that one difference does not cascade into every later read."""
    for t, key in touched_keys(op, req, tables):
        status, body = peers[1].call("GetItem", {"TableName": t.name, "Key": key, "ConsistentRead": True})
        if status != 200:
            continue
        if "Item" in body:
            peers[0].call("PutItem", {"TableName": t.name, "Item": body["Item"]})
        else:
            peers[0].call("DeleteItem", {"TableName": t.name, "Key": key})


def run(seed, count, peers, malformed_share=0.25, log=None):
    rng = random.Random(seed)
    diffs = Differences()
    tables = []
    for i in range(rng.randint(2, 4)):
        t = gen.rand_table(rng, f"difftest_{seed}_{i}")
        req = gen.create_table_request(t)
        na, nb, _ = send_both(peers, "CreateTable", req, {}, diffs)
        if na["status"] != 200 or nb["status"] != 200:
            continue
        tables.append(t)
    if not tables:
        raise RuntimeError("no table could be created on both peers")
    try:
        for n in range(count):
            op, req, hints = ops.rand_request(rng, tables, malformed_share)
            na, nb, differ = send_both(peers, op, req, hints, diffs)
            # A REMOVE/DELETE-only update of a missing item creates it in DynamoDB Local only (a known
            # departure), with the same answer from both when nothing is returned: resync those too.
            removal_only = op == "UpdateItem" and known.removals_only(req)
            if (differ and op in WRITES) or removal_only:
                resync(peers, op, req, tables)
            elif op in WRITES and check_stored(peers, op, req, tables, diffs):
                resync(peers, op, req, tables)
            # Follow a Query's pages while both servers agree on where the next one starts.
            pages = 0
            while (op == "Query" and not hints.get("paginate") and na == nb and na["status"] == 200 and "LastEvaluatedKey" in na["body"]
                   and pages < 20):
                req = dict(req, ExclusiveStartKey=na["body"]["LastEvaluatedKey"])
                na, nb, _ = send_both(peers, op, req, hints, diffs)
                pages += 1
            if log and n % 500 == 499:
                print(f"  seed {seed}: {n + 1}/{count} requests, {diffs.unexplained()} unexplained differences",
                      file=log, flush=True)
    finally:
        for t in tables:
            for p in peers:
                p.call("DeleteTable", {"TableName": t.name})
    return diffs


def first_diff(a, b, path=""):
    """The first place two normalised answers differ, as 'path: a != b' (for the report)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k, "<absent>") != b.get(k, "<absent>"):
                return first_diff(a.get(k, "<absent>"), b.get(k, "<absent>"), f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_diff(x, y, f"{path}[{i}]")
    return f"{path}: {canon(a)[:300]} != {canon(b)[:300]}"


def report(seed, count, diffs, out):
    """Writes the report; returns the number of unexplained differences."""
    total = diffs.unexplained()
    out.write(f"# difftest seed {seed}, {count} requests ({diffs.compared} compared): {total} unexplained "
              f"differences; {sum(diffs.known.values())} known DynamoDB Local departures; "
              f"{sum(e['count'] for e in diffs.by_class['other'].values())} in other areas; "
              f"{sum(e['count'] for e in diffs.by_class['open'].values())} open\n")
    for k, n in sorted(diffs.known.items()):
        out.write(f"#   known departure x{n}: {k}\n")
    for kind, title in (("unexplained", "UNEXPLAINED"), ("other", "OTHER AREA"), ("open", "OPEN")):
        for cls, e in sorted(diffs.by_class[kind].items(), key=lambda kv: -kv[1]["count"]):
            out.write(f"\n## {title}: {cls}  (x{e['count']})\n")
            for ex in e["examples"]:
                out.write("request:        " + canon(ex["request"])[:1500] + "\n")
                out.write("monotable:      " + canon(ex["monotable"])[:1500] + "\n")
                out.write("DynamoDB Local: " + canon(ex["dynamodb_local"])[:1500] + "  (numbers in AWS form)\n")
                out.write("first diff:     " + first_diff(ex["monotable"], ex["dynamodb_local"]) + "\n")
    return total


# ---- peers --------------------------------------------------------------------------------------

def free_port():
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start_monotable(binary, data_dir=None):
    """Starts monotable on a free loopback port (in memory, or on RocksDB in data_dir)."""
    storage = ["--data", data_dir] if data_dir else ["--in-memory"]
    proc = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", "0", *storage],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    if "listening on" not in line:
        proc.kill()
        raise RuntimeError(f"monotable did not start: {line!r}")
    return proc, int(line.split()[3].split(":")[1])


def start_dynamodb_local():
    port = free_port()
    out = subprocess.run([os.path.join(ROOT, "scripts", "dynamodb-local.sh"), "start", str(port)],
                         check=True, stdout=subprocess.PIPE, text=True, timeout=300)
    return int(out.stdout.strip().splitlines()[-1]), port


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, action="append", help="repeatable; default 1")
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--malformed-share", type=float, default=0.25)
    ap.add_argument("--monotable-port", type=int)
    ap.add_argument("--monotable-binary", default=os.path.join(ROOT, "build", "monotable"))
    ap.add_argument("--monotable-engine", choices=["memory", "rocksdb"], default="memory",
                    help="the engine of the monotable the tester starts (RocksDB in a temporary directory)")
    ap.add_argument("--ddb-local-port", type=int)
    ap.add_argument("--report", help="file for the report (default: stdout)")
    args = ap.parse_args()
    procs = []
    data_dir = None
    try:
        mport = args.monotable_port
        if mport is None:
            if args.monotable_engine == "rocksdb":
                import tempfile
                data_dir = tempfile.mkdtemp(prefix="difftest-rocksdb-")
            proc, mport = start_monotable(args.monotable_binary, data_dir)
            procs.append(proc)
        dport = args.ddb_local_port
        if dport is None:
            pid, dport = start_dynamodb_local()
            procs.append(pid)
        peers = [Peer("monotable", mport), Peer("DynamoDB Local", dport)]
        out = open(args.report, "w") if args.report else sys.stdout
        total = 0
        for seed in args.seed or [1]:
            t0 = time.time()
            diffs = run(seed, args.count, peers, args.malformed_share, log=sys.stderr)
            total += report(seed, args.count, diffs, out)
            print(f"seed {seed}: {diffs.compared} requests compared in {time.time() - t0:.1f}s", file=sys.stderr)
        if out is not sys.stdout:
            out.close()
        return 1 if total else 0
    finally:
        for p in procs:
            if isinstance(p, int):
                try:
                    os.kill(p, 15)
                except OSError:
                    pass
            else:
                p.terminate()
                p.wait(timeout=30)
        if data_dir:
            import shutil
            shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
