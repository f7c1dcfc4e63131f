"""`monotable model apply | seed | verify` against a started server: every example model's tables are
created, seeded and every access pattern verified on live data; a model whose pattern reads other
entities, a Scan and items that match no template fail verify."""
import glob
import json
import os
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "models", "*.yaml")))
BROKEN = os.path.join(ROOT, "tests", "workbench", "models")


def model(binary, *args):
    out = subprocess.run([binary, "model", *args], capture_output=True, text=True, timeout=300)
    return out.returncode, out.stdout, out.stderr


def test_there_are_examples():
    assert len(EXAMPLES) >= 6


@pytest.mark.parametrize("path", EXAMPLES, ids=[os.path.basename(p) for p in EXAMPLES])
def test_example_applies_seeds_and_verifies(binary, start_server, path):
    server = start_server("--in-memory")
    rc, out, err = model(binary, "apply", path, "--endpoint", server.endpoint)
    assert rc == 0, out + err
    assert "created" in out
    ddb = server.client()
    for table in ddb.list_tables()["TableNames"]:
        assert ddb.describe_table(TableName=table)["Table"]["TableStatus"] == "ACTIVE"
    rc, out, err = model(binary, "seed", path, "--endpoint", server.endpoint, "--items", "600")
    assert rc == 0, out + err
    rc, out, err = model(binary, "verify", path, "--endpoint", server.endpoint, "--items", "600")
    assert rc == 0, out + err
    assert out.rstrip().endswith("OK"), out
    assert "FAIL" not in out, out
    assert "(items read: monotable's explain header)" in out, out


def test_apply_creates_indexes_with_projections_and_is_repeatable(binary, start_server):
    server = start_server("--in-memory")
    path = os.path.join(ROOT, "examples", "models", "ecommerce.yaml")
    assert model(binary, "apply", path, "--endpoint", server.endpoint)[0] == 0
    table = server.client().describe_table(TableName="Store")["Table"]
    gsis = {g["IndexName"]: g for g in table["GlobalSecondaryIndexes"]}
    assert set(gsis) == {"GSI1", "GSI2"}
    assert gsis["GSI1"]["Projection"] == {"ProjectionType": "ALL"}
    assert gsis["GSI2"]["Projection"]["ProjectionType"] == "INCLUDE"
    assert sorted(gsis["GSI2"]["Projection"]["NonKeyAttributes"]) == ["name", "priceCents", "stock"]
    assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    rc, out, _ = model(binary, "apply", path, "--endpoint", server.endpoint)
    assert rc == 0 and "exists" in out


def test_verify_fails_a_pattern_that_reads_other_entities(binary, start_server):
    server = start_server("--in-memory")
    path = os.path.join(BROKEN, "filter-needed.yaml")
    for step in ("apply", "seed"):
        assert model(binary, step, path, "--endpoint", server.endpoint)[0] == 0
    rc, out, _ = model(binary, "verify", path, "--endpoint", server.endpoint)
    assert rc == 1, out
    line = next(l for l in out.splitlines() if l.startswith("organisationWithUsers"))
    assert "FAIL: reads" in line and "other entities" in line, line


def test_verify_fails_a_scan_and_reports_drift(binary, start_server):
    server = start_server("--in-memory")
    path = os.path.join(BROKEN, "scan.yaml")
    for step in ("apply", "seed"):
        assert model(binary, step, path, "--endpoint", server.endpoint)[0] == 0
    rc, out, _ = model(binary, "verify", path, "--endpoint", server.endpoint)
    assert rc == 1 and "FAIL: scans" in out, out
    assert "0 match no entity template" in out
    server.client().put_item(TableName="Shop", Item={"PK": {"S": "JUNK#1"}, "SK": {"S": "X"}})
    rc, out, _ = model(binary, "verify", path, "--endpoint", server.endpoint)
    assert rc == 1
    assert "1 match no entity template (e.g. JUNK#1 / X)" in out, out


def test_unreachable_endpoint_and_bad_usage(binary):
    path = EXAMPLES[0]
    rc, _, err = model(binary, "apply", path, "--endpoint", "http://127.0.0.1:1")
    assert rc == 2 and "CreateTable failed" in err
    rc, _, err = model(binary, "seed", path)
    assert rc == 2 and "--endpoint" in err


def test_diff_counts_the_backfill_on_the_endpoint(binary, start_server):
    server = start_server("--in-memory")
    old = os.path.join(ROOT, "examples", "models", "saas.yaml")
    new = os.path.join(ROOT, "tests", "workbench", "diff", "saas-v2.yaml")
    for step in ("apply", "seed"):
        assert model(binary, step, old, "--endpoint", server.endpoint, "--items", "300")[0] == 0
    # 300 tickets seeded (the largest entity); two of them deleted by hand: the plan counts 298.
    ddb = server.client()
    tickets = [i for i in ddb.scan(TableName="HelpDesk")["Items"] if i["PK"]["S"].startswith("TICKET#")]
    assert len(tickets) == 300
    for t in tickets[:2]:
        ddb.delete_item(TableName="HelpDesk", Key={"PK": t["PK"], "SK": t["SK"]})
    rc, out, err = model(binary, "diff", old, new, "--endpoint", server.endpoint)
    assert rc == 1, out + err
    assert "entity Ticket: rewrite (298 items)" in out, out
    assert "entity Ticket: backfill (298 items)" in out, out
    assert "pattern organisationWithUsers: breaks" in out


def test_dynamodb_toolbox_import_checks_and_applies(binary, start_server, tmp_path):
    """TableDTO + EntityDTO JSON -> a model file: check accepts it, apply creates the DTO's table
    with its GSI and LSI, and what the DTOs cannot say (keys computed in code) is a warning."""
    fixtures = os.path.join(ROOT, "tests", "workbench", "models", "dynamodb-toolbox")
    rc, out, err = model(binary, "import", os.path.join(fixtures, "table.json"),
                         os.path.join(fixtures, "entities.json"), "--from", "dynamodb-toolbox")
    assert rc == 0, err
    assert "warning import.key-template (entity Order)" in err, err
    assert "warning import.key-template (entity Customer): key attribute gsi1sk" in err, err
    path = tmp_path / "shop.json"
    path.write_text(out)
    rc, report, err = model(binary, "check", str(path))
    assert rc == 0, report + err
    server = start_server("--in-memory")
    rc, applied, err = model(binary, "apply", str(path), "--endpoint", server.endpoint)
    assert rc == 0, applied + err
    table = server.client().describe_table(TableName="Shop")["Table"]
    assert {k["AttributeName"]: k["KeyType"] for k in table["KeySchema"]} == {"pk": "HASH", "sk": "RANGE"}
    assert [g["IndexName"] for g in table["GlobalSecondaryIndexes"]] == ["byEmail"]
    assert [i["IndexName"] for i in table["LocalSecondaryIndexes"]] == ["byCreated"]
    types = {a["AttributeName"]: a["AttributeType"] for a in table["AttributeDefinitions"]}
    assert types["lsi1sk"] == "N"


def test_dynamodb_toolbox_import_rejects_what_is_no_dto(binary, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"models": {}}')
    rc, out, err = model(binary, "import", str(bad), "--from", "dynamodb-toolbox")
    assert rc == 2 and out == ""
    assert "neither a TableDTO" in err, err
    rc, _, err = model(binary, "import", str(bad), str(bad), "--from", "onetable")
    assert rc == 2 and "one file" in err, err


@pytest.mark.parametrize("source,fixture,extra,tables", [
    ("nosql-workbench", "nosql-workbench/online-shop.json", [], {"OnlineShop": (["GSI1", "GSI2"], []), "Sessions": ([], [])}),
    ("onetable", "onetable/saas-crm.json", ["--table", "Crm"], {"Crm": (["gs1", "gs2"], ["ls1"])}),
    ("dynamodb-toolbox", "dynamodb-toolbox-v2.7/library.json", [], {"Library": (["byAuthor", "byIsbn"], ["byDue"])}),
], ids=["nosql-workbench", "onetable", "dynamodb-toolbox"])
def test_full_fixture_imports_checks_applies_and_seeds(binary, start_server, tmp_path, source, fixture, extra, tables):
    """A full export of each tool (tests/workbench/models/...) -> a model file that check accepts,
    apply creates with every index, and seed fills: the imported templates build real keys."""
    rc, out, err = model(binary, "import", os.path.join(BROKEN, fixture), "--from", source, *extra)
    assert rc == 0, err
    path = tmp_path / "imported.json"
    path.write_text(out)
    rc, report, err = model(binary, "check", str(path))
    assert rc == 0, report + err
    server = start_server("--in-memory")
    for step in ("apply", "seed"):
        rc, done, err = model(binary, step, str(path), "--endpoint", server.endpoint, *(
            ["--items", "50"] if step == "seed" else []))
        assert rc == 0, (step, done + err)
    ddb = server.client()
    for name, (gsis, lsis) in tables.items():
        table = ddb.describe_table(TableName=name)["Table"]
        assert sorted(g["IndexName"] for g in table.get("GlobalSecondaryIndexes", [])) == gsis
        assert sorted(i["IndexName"] for i in table.get("LocalSecondaryIndexes", [])) == lsis
        assert ddb.scan(TableName=name, Select="COUNT")["Count"] > 0


def test_import_shapes_found_on_real_files(binary, tmp_path):
    """Issue 42, hand-written in the shapes real public files have: a OneTable key `${_type}#` is
    the model's name (a pattern with no input reads that partition), and TableDTOs without an
    EntityDTO warn that the model file has no entity yet."""
    schema = tmp_path / "clubs.json"
    schema.write_text(json.dumps({
        "format": "onetable:1.1.0",
        "indexes": {"primary": {"hash": "pk", "sort": "sk"}},
        "models": {"Member": {"pk": {"type": "string", "value": "${_type}#"},
                              "sk": {"type": "string", "value": "${_type}#${memberId}"},
                              "memberId": {"type": "string"}}}}))
    rc, out, err = model(binary, "import", str(schema), "--from", "onetable")
    assert rc == 0, err
    imported = json.loads(out)
    assert imported["entities"]["Member"]["keys"] == {"pk": "Member#", "sk": "Member#{memberId}"}
    imported["accessPatterns"] = [{"name": "listMembers", "operation": "Query", "inputs": [],
                                   "entities": ["Member"], "limit": 20, "rps": 5}]
    path = tmp_path / "clubs-model.json"
    path.write_text(json.dumps(imported))
    rc, report, err = model(binary, "check", str(path))
    assert rc == 0, report + err
    assert ':pk = "Member#"' in report, report

    table = tmp_path / "table.json"
    table.write_text(json.dumps({"tableName": "Ledger", "partitionKey": {"name": "id", "type": "string"}}))
    rc, out, err = model(binary, "import", str(table), "--from", "dynamodb-toolbox")
    assert rc == 0, err
    assert "warning import.no-entity (table Ledger)" in err, err
