"""bench/bench.py's peers and how its report compares monotable with them: which servers the
workloads run on, the throughput table with monotable's ratio to each peer, and issue 44's
targets checked against a run."""

# The peers monotable is compared with, in the order of the report's columns.
PEERS = ("dynalite", "dynamodb-local")
PEER_LABEL = {"dynalite": "dynalite", "dynamodb-local": "DynamoDB Local"}


def targets_of(servers):
    """The servers the workloads run on (monotable, then each peer started), nginx aside."""
    return [n for n in ("monotable", *PEERS) if n in servers]


def peers_of(targets):
    return [t for t in targets if t in PEERS]


# Issue 44's targets: monotable's rate at least this many times each peer's.
TARGETS = {"GetItem": {"dynalite": 5, "dynamodb-local": 10},
           "PutItem 200 B": {"dynalite": 5, "dynamodb-local": 10},
           "Query 10 items": {"dynalite": 10, "dynamodb-local": 10}}


def target_lines(workloads, targets):
    """One line per target of TARGETS whose peer ran: the ratio measured, the target, met or not."""
    out = []
    for label, wanted in TARGETS.items():
        for peer, times in wanted.items():
            if peer in targets and label in workloads:
                got = workloads[label]["monotable"]["rps"] / workloads[label][peer]["rps"]
                out.append(f"{label}: {got:.1f}x {PEER_LABEL[peer]} (target {times}x) "
                           f"{'met' if got >= times else 'NOT met'}")
    return out


def fmt(x, digits=0):
    return "-" if x is None else f"{x:,.{digits}f}"


def ratio(a, b):
    """a / b as "N.Nx" ("-" when b is zero or missing)."""
    return f"{a / b:.1f}x" if b else "-"


def workload_table(workloads, targets):
    """The throughput table's Markdown lines: per workload, each target's rate, p50 and p99, then
    monotable's rate over each peer's (a column per peer in the run)."""
    peers = peers_of(targets)
    head = "| workload | " + " | ".join(f"{t} req/s | {t} p50 ms | {t} p99 ms" for t in targets)
    lines = [head + "".join(f" | monotable / {PEER_LABEL[p]}" for p in peers) + " |",
             "|" + "---|" * (1 + 3 * len(targets) + len(peers))]
    for label, row in workloads.items():
        cells = []
        for t in targets:
            w = row[t]
            cells += [fmt(w["rps"]), fmt(w["p50_ms"], 2), fmt(w["p99_ms"], 2)]
            if w["non2xx"]:
                cells[-3] += f" ({w['non2xx']} errors)"
        cells += [ratio(row["monotable"]["rps"], row[p]["rps"]) for p in peers]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines
