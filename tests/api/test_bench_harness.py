"""bench/bench.py's own clients against a real server: the loader stores what it is given, and the
full-Scan client, which reads each page's Count and LastEvaluatedKey without parsing the items,
follows every page to the end and counts every item once (its figures are in bench/RESULTS.md).
Also the peers' wiring: the report's ratio column per peer and the targets, the network namespace
command, and DynamoDB Local started, loaded, scanned and stopped as the harness does it."""
import importlib.util
import os
import shutil

import pytest

from conftest import ROOT, unique_name


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench", os.path.join(ROOT, "bench", "bench.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_load_then_full_scan_over_several_pages(server, ddb, bench):
    name = unique_name("bench")
    bench.create_table(bench.Client(server.port), name, range_key=True)
    # 1,100 items of ~3 KB: ~3.4 MB, so the Scan without a Limit answers in pages of 1 MB.
    items = [{**bench.coll_item(p, s), "payload": {"S": "y" * 3000}} for p in range(110) for s in range(10)]
    rate = bench.load(server.port, name, items)
    assert rate > 0
    pages = 0
    start = None
    while True:  # the pages boto3 sees, for comparison
        resp = ddb.scan(TableName=name, Select="COUNT", **({"ExclusiveStartKey": start} if start else {}))
        pages += 1
        start = resp.get("LastEvaluatedKey")
        if not start:
            break
    assert pages >= 3
    seconds, count = bench.full_scan(server.port, name)
    assert count == len(items)
    assert seconds > 0
    assert bench.count_items(server.port, name) == len(items)


def test_full_scan_of_items_whose_values_quote_the_page_members(server, ddb, bench):
    # Values that spell the page's member names appear escaped in the JSON, so they neither count
    # nor start a LastEvaluatedKey.
    name = unique_name("bench")
    bench.create_table(bench.Client(server.port), name, range_key=True)
    tricky = '"Count":7,"LastEvaluatedKey":{"pk":{"S":"x"}}'
    items = [{"pk": {"S": f"k{p}"}, "sk": {"N": str(s)}, "payload": {"S": tricky + "z" * 4000}}
             for p in range(60) for s in range(5)]
    bench.load(server.port, name, items)
    _, count = bench.full_scan(server.port, name)
    assert count == len(items)


def test_full_scan_of_an_empty_table(server, bench):
    name = unique_name("bench")
    bench.create_table(bench.Client(server.port), name)
    assert bench.full_scan(server.port, name)[1] == 0


def w(rps, non2xx=0):
    return {"rps": rps, "p50_ms": 1.0, "p99_ms": 2.0, "non2xx": non2xx}


def test_report_has_a_ratio_column_per_peer(bench):
    workloads = {"GetItem": {"monotable": w(20000), "dynalite": w(4000), "dynamodb-local": w(1000, non2xx=3)},
                 "Query 10 items": {"monotable": w(9000), "dynalite": w(300), "dynamodb-local": w(900)}}
    targets = bench.targets_of({"nginx": 1, "dynamodb-local": 1, "monotable": 1, "dynalite": 1})
    assert targets == ["monotable", "dynalite", "dynamodb-local"]
    head, rule, get, query = bench.workload_table(workloads, targets)
    assert head.endswith("| monotable / dynalite | monotable / DynamoDB Local |")
    assert rule.count("---|") == 1 + 3 * 3 + 2
    cells = [c.strip() for c in get.strip("|").split("|")]
    assert cells[0] == "GetItem" and cells[7] == "1,000 (3 errors)" and cells[-2:] == ["5.0x", "20.0x"]
    assert query.endswith("| 30.0x | 10.0x |")
    # Issue 44's targets, checked against the run.
    lines = bench.target_lines(workloads, targets)
    assert "GetItem: 5.0x dynalite (target 5x) met" in lines
    assert "GetItem: 20.0x DynamoDB Local (target 10x) met" in lines
    assert "Query 10 items: 10.0x DynamoDB Local (target 10x) met" in lines
    assert "Query 10 items: 30.0x dynalite (target 10x) met" in lines
    workloads["GetItem"]["dynamodb-local"] = w(2500)
    assert "GetItem: 8.0x DynamoDB Local (target 10x) NOT met" in bench.target_lines(workloads, targets)


def test_report_without_peers_has_no_ratio_column(bench):
    workloads = {"GetItem": {"monotable": w(20000)}}
    targets = bench.targets_of({"monotable": 1, "nginx": 1, "nginx one worker": 1})
    assert targets == ["monotable"]
    head, rule, get = bench.workload_table(workloads, targets)
    assert head == "| workload | monotable req/s | monotable p50 ms | monotable p99 ms |"
    assert get == "| GetItem | 20,000 | 1.00 | 2.00 |"
    assert bench.target_lines(workloads, targets) == []


def test_own_network_namespace_command(bench):
    root = bench.own_netns_command(["--quick"], True)
    assert root[:2] == ["unshare", "--net"] and "--map-root-user" not in root
    assert root[-2:] == [os.path.join(ROOT, "bench", "bench.py"), "--quick"]
    assert "ip link set lo up" in root[root.index("-c") + 1]
    assert "--map-root-user" in bench.own_netns_command([], False)


@pytest.mark.skipif(shutil.which("java") is None, reason="no Java for DynamoDB Local")
def test_dynamodb_local_peer_is_started_loaded_scanned_and_stopped(bench):
    """The peer as the harness runs it: started by scripts/dynamodb-local.sh, the harness's own
    clients against it, measured by its pid, stopped by it."""
    peer = bench.DynamoDBLocal(bench.free_port())
    try:
        assert peer.rss_kb() > 0 and peer.cpu_seconds() > 0
        client = bench.Client(peer.port)
        bench.create_table(client, "bench_peer", range_key=True)
        rate = bench.load(peer.port, "bench_peer", [bench.coll_item(p, s) for p in range(20) for s in range(10)])
        assert rate > 0
        assert bench.full_scan(peer.port, "bench_peer")[1] == 200
        assert bench.count_items(peer.port, "bench_peer") == 200
    finally:
        peer.stop()
    assert not os.path.exists(f"/proc/{peer.pid}") or bench._zombie(peer.pid)
