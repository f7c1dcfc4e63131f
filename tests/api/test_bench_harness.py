"""bench/bench.py's own clients against a real server: the loader stores what it is given, and the
full-Scan client, which reads each page's Count and LastEvaluatedKey without parsing the items,
follows every page to the end and counts every item once (its figures are in bench/RESULTS.md)."""
import importlib.util
import os

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
