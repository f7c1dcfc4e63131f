"""PartiQL: ExecuteStatement, BatchExecuteStatement and ExecuteTransaction through boto3.

Mirrors the Query/Scan/write API cases: key-range reads, filters, projections, paging, ORDER BY,
conditional writes with RETURNING, batches and transactions, indexes, exact AWS messages, and
whether a SELECT ran as GetItem, Query or Scan (the server logs one line per statement).
"""
import pytest
from botocore.exceptions import ClientError

from conftest import unique_name
from raw import call
from wire_helpers import err

BAD = "Statement wasn't well formed, can't be processed: "


def run(ddb, statement, **kw):
    return ddb.execute_statement(Statement=statement, **kw)


def items(ddb, statement, **kw):
    return run(ddb, statement, **kw)["Items"]


def refused(ddb, statement, **kw):
    with pytest.raises(ClientError) as e:
        run(ddb, statement, **kw)
    return err(e)


@pytest.fixture
def filled(ddb, hash_range_table):
    """hash_range_table (pk S, sk N) with a/1..5 (v = 10*sk, every other one tagged) and b/1..2."""
    for sk in range(1, 6):
        tag = {"tag": {"S": "even"}} if sk % 2 == 0 else {}
        ddb.put_item(TableName=hash_range_table,
                     Item={"pk": {"S": "a"}, "sk": {"N": str(sk)}, "v": {"N": str(10 * sk)}, **tag})
    for sk in (1, 2):
        ddb.put_item(TableName=hash_range_table, Item={"pk": {"S": "b"}, "sk": {"N": str(sk)}})
    return hash_range_table


def sks(rows):
    return [int(r["sk"]["N"]) for r in rows]


# --- INSERT and SELECT by key ---------------------------------------------------------------------

def test_insert_literals_and_select_by_key(ddb, hash_table):
    assert run(ddb, f"""INSERT INTO "{hash_table}" VALUE {{'pk': 'k1', 'n': 1E3, 'd': -1.50, 's': 'it''s',
                       'b': true, 'z': NULL, 'l': [1, 'x', [2]], 'm': {{'a': {{'b': 'c'}}}},
                       'ns': <<1, 34, 4.5>>, 'ss': <<'x', 'y'>>, 'gone': MISSING}}""")["Items"] == []
    got = items(ddb, f'SELECT * FROM "{hash_table}" WHERE pk = \'k1\'')
    assert len(got) == 1
    item = got[0]
    assert item["n"] == {"N": "1000"} and item["d"] == {"N": "-1.5"} and item["s"] == {"S": "it's"}
    assert item["b"] == {"BOOL": True} and item["z"] == {"NULL": True} and "gone" not in item
    assert item["l"] == {"L": [{"N": "1"}, {"S": "x"}, {"L": [{"N": "2"}]}]}
    assert item["m"] == {"M": {"a": {"M": {"b": {"S": "c"}}}}}
    assert sorted(item["ns"]["NS"]) == ["1", "34", "4.5"] and sorted(item["ss"]["SS"]) == ["x", "y"]
    # The item is an ordinary item: GetItem sees it.
    assert ddb.get_item(TableName=hash_table, Key={"pk": {"S": "k1"}})["Item"] == item


def test_insert_duplicate_and_invalid_items(ddb, hash_table):
    run(ddb, f"INSERT INTO \"{hash_table}\" VALUE {{'pk': 'dup'}}")
    assert refused(ddb, f"INSERT INTO \"{hash_table}\" VALUE {{'pk': 'dup', 'x': 1}}") == (
        "DuplicateItemException", "Duplicate primary key exists in table")
    assert refused(ddb, f"INSERT INTO \"{hash_table}\" VALUE {{'x': 1}}") == (
        "ValidationException", "Key attribute should be present in the item: Key pk")
    assert refused(ddb, f"INSERT INTO \"{hash_table}\" VALUE {{'pk': 1}}") == (
        "ValidationException", "Key attribute's data type should match its data type in table's schema: Key pk")
    assert refused(ddb, f"INSERT INTO \"{hash_table}\" VALUE {{'pk': 'x', 's': <<>>}}") == (
        "ValidationException", "Empty bags are not supported")
    assert refused(ddb, f"INSERT INTO \"{hash_table}\" VALUE {{'pk': 'x', 's': <<'a', 'a'>>}}") == (
        "ValidationException", "One or more parameter values were invalid: Input collection [a, a] contains duplicates.")
    assert refused(ddb, f"INSERT INTO \"{hash_table}\" VALUE {{'pk': 'x', 'm': {{'n': 1e126}}}}") == (
        "ValidationException",
        "Number overflow. Attempting to store a number with magnitude larger than supported range under root.m.n")
    assert refused(ddb, f"INSERT INTO \"{hash_table}\" VALUE {{'pk': ''}}")[0] == "ValidationException"


def test_parameters(ddb, hash_table):
    run(ddb, f'INSERT INTO "{hash_table}" VALUE {{\'pk\': ?, \'v\': ?, \'bs\': ?}}',
        Parameters=[{"S": "p1"}, {"M": {"x": {"N": "1"}}}, {"BS": [b"\x01", b"\x02"]}])
    got = items(ddb, f'SELECT v.x, bs FROM "{hash_table}" WHERE pk = ?', Parameters=[{"S": "p1"}])
    assert got == [{"x": {"N": "1"}, "bs": {"BS": [b"\x01", b"\x02"]}}]
    assert refused(ddb, f'SELECT * FROM "{hash_table}" WHERE pk = ?') == (
        "ValidationException", "Number of parameters in request and statement don't match.")
    assert refused(ddb, f'SELECT * FROM "{hash_table}" WHERE pk = ?', Parameters=[{"S": "a"}, {"S": "b"}]) == (
        "ValidationException", "Number of parameters in request and statement don't match.")


# --- SELECT: Query ranges, filters, projections ---------------------------------------------------

def test_select_key_ranges_like_query(ddb, filled):
    t = filled
    assert sks(items(ddb, f"SELECT * FROM \"{t}\" WHERE pk = 'a'")) == [1, 2, 3, 4, 5]
    assert sks(items(ddb, f"SELECT * FROM \"{t}\" WHERE pk = 'a' AND sk > 3")) == [4, 5]
    assert sks(items(ddb, f"SELECT * FROM \"{t}\" WHERE pk = 'a' AND 3 >= sk")) == [1, 2, 3]
    assert sks(items(ddb, f"SELECT * FROM \"{t}\" WHERE pk = 'a' AND sk BETWEEN 2 AND 4")) == [2, 3, 4]
    assert sks(items(ddb, f"SELECT * FROM \"{t}\" WHERE pk = 'a' AND sk IN [5, 1]")) == [5, 1]
    assert sks(items(ddb, f"SELECT * FROM \"{t}\" WHERE pk = 'a' AND sk <> 3 AND v < 50")) == [1, 2, 4]
    assert sks(items(ddb, f"SELECT * FROM \"{t}\" WHERE pk = 'a' ORDER BY sk DESC")) == [5, 4, 3, 2, 1]
    assert items(ddb, f"SELECT * FROM \"{t}\" WHERE pk = 'zz'") == []
    # A filter on top of the key range, as Query's FilterExpression.
    assert sks(items(ddb, f"SELECT * FROM \"{t}\" WHERE pk = 'a' AND tag IS NOT MISSING")) == [2, 4]
    assert sks(items(ddb, f"SELECT * FROM \"{t}\" WHERE pk = 'a' AND (sk = 1 OR tag = 'even')")) == [1, 2, 4]


def test_select_scans_without_partition_key(ddb, filled):
    t = filled
    rows = items(ddb, f"SELECT pk, sk FROM \"{t}\"")
    assert sorted((r["pk"]["S"], int(r["sk"]["N"])) for r in rows) == [
        ("a", 1), ("a", 2), ("a", 3), ("a", 4), ("a", 5), ("b", 1), ("b", 2)]
    assert sks(items(ddb, f"SELECT sk FROM \"{t}\" WHERE v >= 40")) == [4, 5]
    assert sorted(sks(items(ddb, f"SELECT sk FROM \"{t}\" WHERE sk = 2"))) == [2, 2]
    assert sorted(sks(items(ddb, f"SELECT sk FROM \"{t}\" WHERE pk = 'a' OR sk = 1"))) == [1, 1, 2, 3, 4, 5]
    assert sorted(sks(items(ddb, f"SELECT sk FROM \"{t}\" WHERE v IS MISSING"))) == [1, 2]
    assert sks(items(ddb, f"SELECT sk FROM \"{t}\" WHERE NOT v IS MISSING AND attribute_type(v, 'N') AND v > 40")) == [5]


def test_select_functions_and_projection(ddb, hash_table):
    ddb.put_item(TableName=hash_table, Item={
        "pk": {"S": "f1"}, "Address": {"S": "7834 24th Kirkland"}, "tags": {"SS": ["a", "b"]},
        "profile": {"M": {"sub": {"S": "deep"}, "sib": {"S": "keep"}}},
        "list": {"L": [{"S": "a"}, {"S": "b"}]}, "nul": {"NULL": True}})
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "f2"}, "Address": {"S": "elsewhere"}})
    where = "pk IN ['f1', 'f2'] AND "

    def keys(cond):
        return sorted(r["pk"]["S"] for r in items(ddb, f'SELECT pk FROM "{hash_table}" WHERE {where}{cond}'))
    assert keys("contains(\"Address\", 'Kirkland')") == ["f1"]
    assert keys("contains(tags, 'a')") == ["f1"]
    assert keys("begins_with(\"Address\", 'else')") == ["f2"]
    assert keys("size(\"list\") = 2") == ["f1"]
    assert keys("nul IS NULL") == ["f1"]
    assert keys("nul IS NOT NULL") == ["f2"]
    assert keys("absent IS NULL") == []
    assert keys("profile.sub = 'deep'") == ["f1"]
    assert keys("NOT begins_with(\"Address\", '7')") == ["f2"]
    got = items(ddb, f'SELECT profile.sub, "list"[1], absent FROM "{hash_table}" WHERE pk = \'f1\'')
    assert got == [{"sub": {"S": "deep"}, "list[1]": {"S": "b"}}]
    assert items(ddb, f'SELECT absent FROM "{hash_table}" WHERE pk = \'f1\'') == [{}]
    assert refused(ddb, f'SELECT a.z, b.z FROM "{hash_table}"') == (
        "ValidationException", "Duplicate identifiers in select clause: z")
    assert refused(ddb, f'SELECT pk FROM "{hash_table}" WHERE pk = \'f1\' AND x < true') == (
        "ValidationException",
        "Incorrect operand type for operator or function; operator or function: <, operand type: BOOL")
    assert refused(ddb, f'SELECT pk FROM "{hash_table}" WHERE attribute_type(pk, \'X\')') == (
        "ValidationException", "Invalid attribute type name found; type: X, valid types: {N,BS,L,B,NULL,M,S,SS,NS,BOOL}")


# --- Paging ---------------------------------------------------------------------------------------

def collect(ddb, statement, limit, **kw):
    pages, token = [], None
    while True:
        extra = {"NextToken": token} if token else {}
        resp = run(ddb, statement, Limit=limit, **extra, **kw)
        pages.append(resp["Items"])
        token = resp.get("NextToken")
        if not token:
            return pages
        assert len(pages) < 20


def test_limit_and_next_token(ddb, filled):
    t = filled
    pages = collect(ddb, f"SELECT sk FROM \"{t}\" WHERE pk = 'a'", 2)
    assert [sks(p) for p in pages] == [[1, 2], [3, 4], [5]]
    first = run(ddb, f"SELECT sk FROM \"{t}\" WHERE pk = 'a'", Limit=2)
    assert first["LastEvaluatedKey"] == {"pk": {"S": "a"}, "sk": {"N": "2"}}
    # Limit counts items read, before the filter.
    pages = collect(ddb, f"SELECT sk FROM \"{t}\" WHERE pk = 'a' AND v > 30", 3)
    assert [sks(p) for p in pages] == [[], [4, 5]]
    scanned = collect(ddb, f"SELECT pk, sk FROM \"{t}\"", 3)
    assert sum(len(p) for p in scanned) == 7
    # Several partitions, ordered by ORDER BY pk DESC, paged across the partition boundary.
    pages = collect(ddb, f"SELECT pk, sk FROM \"{t}\" WHERE pk IN ['a', 'b'] ORDER BY pk DESC", 3)
    rows = [(r["pk"]["S"], int(r["sk"]["N"])) for p in pages for r in p]
    assert rows == [("b", 2), ("b", 1), ("a", 5), ("a", 4), ("a", 3), ("a", 2), ("a", 1)]
    pages = collect(ddb, f"SELECT pk, sk FROM \"{t}\" WHERE pk IN ['b', 'a'] ORDER BY pk, sk DESC", 4)
    rows = [(r["pk"]["S"], int(r["sk"]["N"])) for p in pages for r in p]
    assert rows == [("a", 5), ("a", 4), ("a", 3), ("a", 2), ("a", 1), ("b", 2), ("b", 1)]


def test_next_token_errors(ddb, filled):
    t = filled
    token = run(ddb, f"SELECT sk FROM \"{t}\" WHERE pk = 'a'", Limit=1)["NextToken"]
    assert refused(ddb, f"SELECT sk FROM \"{t}\" WHERE pk = 'b'", NextToken=token) == (
        "ValidationException", "The provided starting key is invalid")
    assert refused(ddb, f"SELECT sk FROM \"{t}\" WHERE pk = 'a'", NextToken="not-a-token") == (
        "ValidationException", "Invalid NextToken")


def test_order_by_rules(ddb, filled):
    t = filled
    assert refused(ddb, f"SELECT sk FROM \"{t}\" ORDER BY sk") == (
        "ValidationException", "Must have WHERE clause in the statement when using ORDER BY clause.")
    assert refused(ddb, f"SELECT sk FROM \"{t}\" WHERE pk = 'a' ORDER BY v DESC") == (
        "ValidationException", "Attribute v in ORDER BY clause must be part of the primary key")
    assert refused(ddb, f"SELECT sk FROM \"{t}\" WHERE pk > 'a' ORDER BY sk") == (
        "ValidationException",
        "Must have at least one non-optional hash key condition in WHERE clause when using ORDER BY clause.")
    assert refused(ddb, f"SELECT sk FROM \"{t}\" WHERE pk IN ['a', 'b'] ORDER BY sk DESC") == (
        "ValidationException",
        "Must have hash key in ORDER BY clause when more than one hash key condition specified in WHERE clause.")
    assert refused(ddb, f"SELECT * FROM \"{t}\" WHERE pk = 'a' AND x = '1' OR pk = 'a' AND sk = 2") == (
        "ValidationException", "Overlapping conditions with range keys are not supported in where clause")


# --- UPDATE and DELETE ----------------------------------------------------------------------------

def test_update_set_remove_and_returning(ddb, hash_table):
    ddb.put_item(TableName=hash_table, Item={
        "pk": {"S": "u"}, "n": {"N": "5"}, "keep": {"S": "same"},
        "m": {"M": {"l": {"L": [{"N": "1"}, {"N": "2"}]}}}, "ss": {"SS": ["a"]}, "gone": {"S": "x"}})
    t = hash_table
    got = items(ddb, f"UPDATE \"{t}\" SET n = n + 1, m.l[1] = 'two' SET ss = set_add(ss, <<'b'>>) REMOVE gone "
                     f"WHERE pk = 'u' RETURNING ALL NEW *")
    assert got[0]["n"] == {"N": "6"} and got[0]["m"] == {"M": {"l": {"L": [{"N": "1"}, {"S": "two"}]}}}
    assert sorted(got[0]["ss"]["SS"]) == ["a", "b"] and "gone" not in got[0]
    assert items(ddb, f"UPDATE \"{t}\" SET n = n - 2 WHERE pk = 'u' RETURNING MODIFIED NEW *") == [{"n": {"N": "4"}}]
    assert items(ddb, f"UPDATE \"{t}\" SET n = 7 WHERE pk = 'u' RETURNING MODIFIED OLD *") == [{"n": {"N": "4"}}]
    assert items(ddb, f"UPDATE \"{t}\" SET n = 8 WHERE pk = 'u' RETURNING ALL OLD *")[0]["keep"] == {"S": "same"}
    assert items(ddb, f"UPDATE \"{t}\" REMOVE nothere WHERE pk = 'u' RETURNING MODIFIED NEW *") == []
    assert items(ddb, f"UPDATE \"{t}\" SET l = list_append(if_not_exists(l, []), [1]) WHERE pk = 'u'") == []
    item = ddb.get_item(TableName=t, Key={"pk": {"S": "u"}})["Item"]
    assert item["n"] == {"N": "8"} and item["l"] == {"L": [{"N": "1"}]}


def test_update_conditions_and_errors(ddb, server, hash_table):
    t = hash_table
    ddb.put_item(TableName=t, Item={"pk": {"S": "c"}, "name": {"S": "alpha"}, "n": {"N": "5"}})
    assert refused(ddb, f"UPDATE \"{t}\" SET data = 'new' WHERE pk = 'ghost'") == (
        "ConditionalCheckFailedException", "The conditional request failed")
    assert "Item" not in ddb.get_item(TableName=t, Key={"pk": {"S": "ghost"}})
    # (This botocore predates ReturnValuesOnConditionCheckFailure on ExecuteStatement: raw request.)
    status, body, _ = call(server.port, "ExecuteStatement", {
        "Statement": f"UPDATE \"{t}\" SET n = 9 WHERE pk = 'c' AND \"name\" = 'beta'",
        "ReturnValuesOnConditionCheckFailure": "ALL_OLD"})
    assert status == 400 and body["__type"].endswith("#ConditionalCheckFailedException")
    assert body["Item"]["n"] == {"N": "5"}
    assert items(ddb, f"UPDATE \"{t}\" SET n = 9 WHERE pk = 'c' AND \"name\" = 'alpha' AND n < 6 "
                      f"RETURNING MODIFIED NEW *") == [{"n": {"N": "9"}}]
    assert refused(ddb, f"UPDATE \"{t}\" SET n = 1 WHERE \"name\" = 'alpha'") == (
        "ValidationException", "Where clause does not contain a mandatory equality on all key attributes")
    assert refused(ddb, f"UPDATE \"{t}\" SET n = 1") == (
        "ValidationException", "Where clause does not contain a mandatory equality on all key attributes")
    assert refused(ddb, f"UPDATE \"{t}\" SET pk = 'x' WHERE pk = 'c'") == (
        "ValidationException",
        "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key")
    assert refused(ddb, f"UPDATE \"{t}\" SET l = list_append(nolist, [1]) WHERE pk = 'c'") == (
        "ValidationException", "The provided expression refers to an attribute that does not exist in the item")
    assert refused(ddb, f"UPDATE \"{t}\" SET o = set_add(n, <<'x'>>) WHERE pk = 'c'") == (
        "ValidationException", f"The first argument to SET_ADD must equal the assignment value at 1:{len(t) + 19}:7")
    assert refused(ddb, f"UPDATE \"{t}\".\"idx\" SET n = 1 WHERE pk = 'c'") == (
        "ValidationException", "This operation is not supported on an index")
    assert refused(ddb, f"UPDATE \"{t}\" SET n = 1 WHERE pk = 'c' AND pk = 'd'") == (
        "ValidationException", "Multiple conditions on same key pk. Only single item Update/Insert/Delete are supported")


def test_update_with_composite_key(ddb, filled):
    t = filled
    assert refused(ddb, f"UPDATE \"{t}\" SET v = 0 WHERE pk = 'a'") == (
        "ValidationException", "Where clause does not contain a mandatory equality on all key attributes")
    assert items(ddb, f"UPDATE \"{t}\" SET v = 0 WHERE sk = 3 AND pk = 'a' RETURNING MODIFIED NEW *") == [
        {"v": {"N": "0"}}]
    assert refused(ddb, f"UPDATE \"{t}\" SET v = 0 WHERE pk = 'a' AND sk = '3'") == (
        "ValidationException", "Key attribute's data type should match its data type in table's schema: Key sk")


def test_delete(ddb, hash_table):
    t = hash_table
    ddb.put_item(TableName=t, Item={"pk": {"S": "d"}, "data": {"S": "gone"}})
    assert refused(ddb, f"DELETE FROM \"{t}\" WHERE pk = 'd' RETURNING MODIFIED OLD *") == (
        "ValidationException",
        "Invalid returning clause: RETURNING MODIFIED OLD *. Only RETURNING ALL OLD * is allowed in DELETE statements.")
    assert refused(ddb, f"DELETE FROM \"{t}\" WHERE pk = 'd' AND data = 'other'") == (
        "ConditionalCheckFailedException", "The conditional request failed")
    assert items(ddb, f"DELETE FROM \"{t}\" WHERE pk = 'd' AND data = 'gone' RETURNING ALL OLD *") == [
        {"pk": {"S": "d"}, "data": {"S": "gone"}}]
    assert items(ddb, f"DELETE FROM \"{t}\" WHERE pk = 'd' RETURNING ALL OLD *") == []
    # An absent item is no error, even with a condition.
    assert items(ddb, f"DELETE FROM \"{t}\" WHERE pk = 'absent' AND data = 'x'") == []
    assert refused(ddb, f"DELETE FROM \"{t}\" WHERE data = 'gone'") == (
        "ValidationException", "Where clause does not contain a mandatory equality on all key attributes")


# --- Errors and capacity --------------------------------------------------------------------------

def test_statement_errors(ddb, hash_table):
    t = hash_table
    assert refused(ddb, f'SELECT * FROM "{t}" WHERE') == ("ValidationException", BAD + "Unexpected term")
    assert refused(ddb, f"SELECT * FROM \"{t}\" WHERE pk = 'a' AND") == (
        "ValidationException", BAD + "Missing right-hand side expression of infix operator")
    assert refused(ddb, "SLECT * FROM x") == ("ValidationException", BAD + "Expected data manipulation")
    assert refused(ddb, f"SELECT * FROM \"{t}\" WHERE pad = 'none'") == ("ValidationException", BAD + "Unexpected keyword")
    assert refused(ddb, f"SELECT * FROM \"{t}\" x") == ("ValidationException", "Aliasing is not supported")
    assert refused(ddb, f'SELECT * FROM "{t}-missing" WHERE pk = \'a\'') == (
        "ResourceNotFoundException", "Requested resource not found")
    assert refused(ddb, f'SELECT * FROM "{t}"."nope" WHERE pk = \'a\'') == (
        "ValidationException", "The table does not have the specified index")
    assert refused(ddb, f"EXISTS(SELECT * FROM \"{t}\" WHERE pk = 'a' AND x IS MISSING)") == (
        "ValidationException", "EXISTS can only be used in ExecuteTransaction write requests.")
    assert refused(ddb, f"SELECT * FROM \"{t}\" WHERE pk = 'a' LIMIT 1") == (
        "ValidationException", "Unsupported clause: LIMIT")


def test_consumed_capacity(ddb, hash_table):
    t = hash_table
    run(ddb, f"INSERT INTO \"{t}\" VALUE {{'pk': 'cc', 'data': 'x'}}")
    cap = run(ddb, f"SELECT * FROM \"{t}\" WHERE pk = 'cc'", ReturnConsumedCapacity="TOTAL")["ConsumedCapacity"]
    assert cap["TableName"] == t and cap["CapacityUnits"] == 0.5
    cap = run(ddb, f"SELECT * FROM \"{t}\" WHERE pk = 'none'", ConsistentRead=True,
              ReturnConsumedCapacity="TOTAL")["ConsumedCapacity"]
    assert cap["CapacityUnits"] == 1.0
    cap = run(ddb, f"INSERT INTO \"{t}\" VALUE {{'pk': 'cc2'}}", ReturnConsumedCapacity="TOTAL")["ConsumedCapacity"]
    assert cap["CapacityUnits"] == 1.0
    cap = run(ddb, f"DELETE FROM \"{t}\" WHERE pk = 'absent'", ReturnConsumedCapacity="TOTAL")["ConsumedCapacity"]
    assert cap["CapacityUnits"] == 1.0
    assert "ConsumedCapacity" not in run(ddb, f"SELECT * FROM \"{t}\" WHERE pk = 'cc'")


# --- Indexes --------------------------------------------------------------------------------------

def test_select_on_indexes(ddb):
    t = unique_name()
    ddb.create_table(
        TableName=t, BillingMode="PAY_PER_REQUEST",
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"} for a in ("pk", "sk", "g", "l")],
        GlobalSecondaryIndexes=[
            {"IndexName": "gsi-all", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
             "Projection": {"ProjectionType": "ALL"}},
            {"IndexName": "gsi-keys", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
             "Projection": {"ProjectionType": "KEYS_ONLY"}}],
        LocalSecondaryIndexes=[
            {"IndexName": "lsi-keys", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                    {"AttributeName": "l", "KeyType": "RANGE"}],
             "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    for i in range(3):
        run(ddb, f"INSERT INTO \"{t}\" VALUE {{'pk': 'p', 'sk': '{i}', 'g': 'G', 'l': 'l{2 - i}', 'x': {i}}}")
    run(ddb, f"INSERT INTO \"{t}\" VALUE {{'pk': 'q', 'sk': '0', 'x': 9}}")
    assert sorted(r["sk"]["S"] for r in items(ddb, f"SELECT * FROM \"{t}\".\"gsi-all\" WHERE g = 'G' AND x > 0")) == [
        "1", "2"]
    assert len(items(ddb, f"SELECT * FROM \"{t}\".\"gsi-all\"")) == 3  # sparse: q has no g
    assert refused(ddb, f"SELECT * FROM \"{t}\".\"gsi-all\" WHERE g = 'G'", ConsistentRead=True) == (
        "ValidationException", "Strongly consistent read is not supported on Global Secondary Indexes")
    assert refused(ddb, f"SELECT pk FROM \"{t}\".\"gsi-keys\" WHERE g = 'G' AND x = 1") == (
        "ValidationException",
        "One or more parameter values were invalid: Secondary index gsi-keys does not project one or more filter "
        "attributes: [x]")
    assert refused(ddb, f"SELECT x FROM \"{t}\".\"gsi-keys\" WHERE g = 'G'") == (
        "ValidationException", "One or more parameter values were invalid: Global secondary index gsi-keys does not "
                               "project [x]")
    # Keyed on the index (a Query) the WHERE may name only what the index projects, on an LSI too;
    # unkeyed (a Scan) it is evaluated on the index entries, where x is absent (AWS, as
    # nubo-db/dynoxide captured it, eu-west-2 2026-08-15).
    assert refused(ddb, f"SELECT pk FROM \"{t}\".\"lsi-keys\" WHERE pk = 'p' AND x = 1") == (
        "ValidationException",
        "One or more parameter values were invalid: Secondary index lsi-keys does not project one or more filter "
        "attributes: [x]")
    assert items(ddb, f"SELECT pk FROM \"{t}\".\"gsi-keys\" WHERE x = 1") == []
    assert items(ddb, f"SELECT pk FROM \"{t}\".\"lsi-keys\" WHERE x = 1 OR x = 2") == []
    assert len(items(ddb, f"SELECT pk FROM \"{t}\".\"gsi-keys\" WHERE attribute_type(x, 'N') OR g = 'G'")) == 3
    # An LSI orders by its own sort key and fetches what it does not project from the table.
    got = items(ddb, f"SELECT l, x FROM \"{t}\".\"lsi-keys\" WHERE pk = 'p'")
    assert [(r["l"]["S"], r["x"]["N"]) for r in got] == [("l0", "2"), ("l1", "1"), ("l2", "0")]
    got = items(ddb, f"SELECT l FROM \"{t}\".\"lsi-keys\" WHERE pk = 'p' AND l > 'l0' ORDER BY l DESC")
    assert [r["l"]["S"] for r in got] == ["l2", "l1"]


# --- BatchExecuteStatement ------------------------------------------------------------------------

def test_batch_execute_statement(ddb, server, hash_table):
    t = hash_table
    ddb.put_item(TableName=t, Item={"pk": {"S": "b1"}, "val": {"S": "here"}})
    status, resp, _ = call(server.port, "BatchExecuteStatement", {"Statements": [
        {"Statement": f"SELECT * FROM \"{t}\" WHERE pk = 'b1'", "ConsistentRead": True},
        {"Statement": f"SELECT * FROM \"{t}\" WHERE pk = ?", "Parameters": [{"S": "missing"}]},
        {"Statement": f"SLECT * FROM \"{t}\" WHERE pk = 'b1'"},
        {"Statement": f"INSERT INTO \"{t}\" VALUE {{'pk': 'b1'}}"},
        {"Statement": f"UPDATE \"{t}\" SET touched = 'yes' WHERE pk = 'b1' AND val = 'wrong'",
         "ReturnValuesOnConditionCheckFailure": "ALL_OLD"},
        {"Statement": f"SELECT * FROM \"{t}\" WHERE val = 'here'"},
        {"Statement": f"INSERT INTO \"{t}\" VALUE {{'pk': 'b2'}}"},
        {"Statement": f"SELECT * FROM \"{t}-missing\" WHERE pk = 'x'"},
    ], "ReturnConsumedCapacity": "TOTAL"})
    assert status == 200
    r = resp["Responses"]
    assert r[0] == {"TableName": t, "Item": {"pk": {"S": "b1"}, "val": {"S": "here"}}}
    assert r[1] == {"TableName": t}
    assert r[2] == {"Error": {"Code": "ValidationError", "Message": BAD + "Expected data manipulation"}}
    assert r[3] == {"TableName": t, "Error": {"Code": "DuplicateItem",
                                              "Message": "Duplicate primary key exists in table"}}
    assert r[4]["Error"]["Code"] == "ConditionalCheckFailed" and r[4]["TableName"] == t
    assert r[4]["Error"]["Item"] == {"pk": {"S": "b1"}, "val": {"S": "here"}}
    assert r[5] == {"TableName": t, "Error": {
        "Code": "ValidationError",
        "Message": "Select statements within BatchExecuteStatement must specify the primary key in the where clause."}}
    assert r[6] == {"TableName": t}
    assert r[7] == {"Error": {"Code": "ResourceNotFound", "Message": "Requested resource not found"}}
    # Only the statements that succeeded are charged: 1 (strong) + 0.5 (missing, eventual) + 1 (insert).
    assert [(c["TableName"], c["CapacityUnits"]) for c in resp["ConsumedCapacity"]] == [(t, 2.5)]
    assert ddb.batch_execute_statement(Statements=[{"Statement": f"SELECT * FROM \"{t}\" WHERE pk = 'b1'"}])[
        "Responses"] == [{"TableName": t, "Item": {"pk": {"S": "b1"}, "val": {"S": "here"}}}]
    assert "Item" in ddb.get_item(TableName=t, Key={"pk": {"S": "b2"}})
    none = ddb.batch_execute_statement(Statements=[{"Statement": f"INSERT INTO \"{t}\" VALUE {{'pk': 'b1'}}"}],
                                       ReturnConsumedCapacity="TOTAL")
    assert "ConsumedCapacity" not in none


# --- ExecuteTransaction ---------------------------------------------------------------------------

def tx(ddb, *statements, **kw):
    return ddb.execute_transaction(TransactStatements=[{"Statement": s} for s in statements], **kw)


def tx_refused(ddb, *statements, **kw):
    with pytest.raises(ClientError) as e:
        tx(ddb, *statements, **kw)
    return e.value.response


def test_transaction_writes_are_atomic(ddb, hash_table, hash_range_table):
    t, r = hash_table, hash_range_table
    ddb.put_item(TableName=t, Item={"pk": {"S": "x1"}, "n": {"N": "1"}})
    ddb.put_item(TableName=t, Item={"pk": {"S": "x3"}, "Awards": {"N": "1"}})
    resp = tx(ddb, f"INSERT INTO \"{t}\" VALUE {{'pk': 'new'}}",
              f"UPDATE \"{t}\" SET n = n + 1 WHERE pk = 'x1'",
              f"INSERT INTO \"{r}\" VALUE {{'pk': 'a', 'sk': 1}}",
              f"EXISTS(SELECT * FROM \"{t}\" WHERE pk = 'x3' AND Awards = 1)",
              f"DELETE FROM \"{t}\" WHERE pk = 'nothing'",
              ReturnConsumedCapacity="TOTAL")
    caps = {c["TableName"]: c["CapacityUnits"] for c in resp["ConsumedCapacity"]}
    assert caps == {t: 8.0, r: 2.0}  # transactional writes cost double; EXISTS is charged as a write
    assert ddb.get_item(TableName=t, Key={"pk": {"S": "x1"}})["Item"]["n"] == {"N": "2"}
    # One failing statement cancels all of them.
    resp = tx_refused(ddb, f"UPDATE \"{t}\" SET n = 100 WHERE pk = 'x1'",
                      f"EXISTS(SELECT * FROM \"{t}\" WHERE pk = 'x3' AND Awards IS MISSING)",
                      f"INSERT INTO \"{t}\" VALUE {{'pk': 'new'}}",
                      f"UPDATE \"{t}\" SET n = 1 WHERE pk = 'ghost'")
    assert resp["Error"]["Code"] == "TransactionCanceledException"
    assert resp["Error"]["Message"] == ("Transaction cancelled, please refer cancellation reasons for specific reasons "
                                        "[None, ConditionalCheckFailed, DuplicateItem, ConditionalCheckFailed]")
    assert resp["CancellationReasons"] == [
        {"Code": "None"},
        {"Code": "ConditionalCheckFailed", "Message": "The conditional request failed"},
        {"Code": "DuplicateItem", "Message": "Duplicate primary key exists in table"},
        {"Code": "ConditionalCheckFailed", "Message": "The conditional request failed"}]
    assert ddb.get_item(TableName=t, Key={"pk": {"S": "x1"}})["Item"]["n"] == {"N": "2"}


def test_transaction_validation(ddb, hash_table):
    t = hash_table

    def message(*statements):
        return tx_refused(ddb, *statements)["Error"]["Message"]
    assert message(f"UPDATE \"{t}\" SET a = 'v' WHERE pk = 'x' RETURNING ALL NEW *") == (
        "Validation failed in TransactStatements[0]: RETURNING clause is not supported in ExecuteTransaction.")
    assert message(f"SELECT * FROM \"{t}\" WHERE pk = 'x'", f"UPDATE \"{t}\" SET a = 1 WHERE pk = 'y'") == (
        "ExecuteTransaction API does not support both read and write operations in the same request.")
    assert message(f"SELECT * FROM \"{t}\".\"idx\" WHERE pk = 'x'") == (
        "Validation failed in TransactStatements[0]: Reads on indices are not supported within transactions.")
    assert message(f"SELECT * FROM \"{t}\" WHERE a = 'x'") == (
        "Validation failed in TransactStatements[0]: Select statements within ExecuteTransaction must specify the "
        "primary key in the where clause.")
    assert message(f"INSERT INTO \"{t}\" VALUE {{'pk': 'ok'}}", f"SELECT * FROM \"{t}\" WHERE") == (
        "Validation failed in TransactStatements[1]: " + BAD + "Unexpected term")
    assert message(f"EXISTS(SELECT * FROM \"{t}\" WHERE pk = 'x')", f"INSERT INTO \"{t}\" VALUE {{'pk': 'y'}}") == (
        "Validation failed in TransactStatements[0]: EXISTS() must contain a single item read with additional "
        "condition")
    assert message(f"INSERT INTO \"{t}\" VALUE {{'pk': 'same'}}", f"DELETE FROM \"{t}\" WHERE pk = 'same'") == (
        "Transaction request cannot include multiple operations on one item")
    assert tx_refused(ddb, f"UPDATE \"{t}-missing\" SET a = 1 WHERE pk = 'x'")["Error"]["Code"] == (
        "ResourceNotFoundException")
    assert "Item" not in ddb.get_item(TableName=t, Key={"pk": {"S": "ok"}})


def test_transaction_statement_key_errors_cancel(ddb, hash_table):
    """A statement whose key is missing or of another type than the table's cancels the transaction:
    ValidationError for it (the first such statement), None for every other, as TransactWriteItems
    does for an action whose key does not match (recorded on AWS: paritysuite dynamodb-conformance,
    scylladb test_transact.py); DynamoDB Local's ExecuteTransaction maps exactly these two PartiQL
    messages to a cancellation. An empty key value still refuses the request."""
    t = hash_table
    mismatch = "Key attribute's data type should match its data type in table's schema: Key pk"
    for statements, index, message in [
        ([f"INSERT INTO \"{t}\" VALUE {{'pk': 'ok'}}", f"INSERT INTO \"{t}\" VALUE {{'pk': 5}}"], 1, mismatch),
        ([f"INSERT INTO \"{t}\" VALUE {{'x': 'b'}}", f"INSERT INTO \"{t}\" VALUE {{'pk': 5}}"], 0,
         "Key attribute should be present in the item: Key pk"),
        ([f"UPDATE \"{t}\" SET a = 1 WHERE pk = 5", f"DELETE FROM \"{t}\" WHERE pk = 'ok'"], 0, mismatch),
        ([f"DELETE FROM \"{t}\" WHERE pk = 'ok'", f"EXISTS(SELECT * FROM \"{t}\" WHERE pk = 5 AND a = 1)"], 1, mismatch),
        ([f"SELECT * FROM \"{t}\" WHERE pk = 'ok'", f"SELECT * FROM \"{t}\" WHERE pk = 7"], 1, mismatch),
    ]:
        resp = tx_refused(ddb, *statements)
        codes = ["ValidationError" if i == index else "None" for i in range(len(statements))]
        assert resp["Error"]["Code"] == "TransactionCanceledException", statements
        assert resp["Error"]["Message"] == ("Transaction cancelled, please refer cancellation reasons for specific "
                                            "reasons [" + ", ".join(codes) + "]")
        assert resp["CancellationReasons"] == [{"Code": c, "Message": message} if c != "None" else {"Code": c}
                                               for c in codes]
    assert tx_refused(ddb, f"INSERT INTO \"{t}\" VALUE {{'pk': 'ok'}}", f"INSERT INTO \"{t}\" VALUE {{'pk': ''}}")[
        "Error"]["Message"] == ("Validation failed in TransactStatements[1]: One or more parameter values are not valid. "
                                "The AttributeValue for a key attribute cannot contain an empty string value. Key: pk")
    assert "Item" not in ddb.get_item(TableName=t, Key={"pk": {"S": "ok"}})


def test_transaction_reads(ddb, hash_table, hash_range_table):
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "r1"}, "data": {"S": "here"}})
    ddb.put_item(TableName=hash_range_table, Item={"pk": {"S": "r"}, "sk": {"N": "1"}, "v": {"N": "1"}})
    resp = tx(ddb, f"SELECT data FROM \"{hash_table}\" WHERE pk = 'r1'",
              f"SELECT * FROM \"{hash_table}\" WHERE pk = 'absent'",
              f"SELECT * FROM \"{hash_range_table}\" WHERE pk = 'r' AND sk = 1",
              ReturnConsumedCapacity="TOTAL")
    assert resp["Responses"] == [{"Item": {"data": {"S": "here"}}}, {},
                                 {"Item": {"pk": {"S": "r"}, "sk": {"N": "1"}, "v": {"N": "1"}}}]
    caps = {c["TableName"]: c["CapacityUnits"] for c in resp["ConsumedCapacity"]}
    assert caps == {hash_table: 4.0, hash_range_table: 2.0}


def test_transaction_client_request_token(ddb, hash_table):
    t = hash_table
    ddb.put_item(TableName=t, Item={"pk": {"S": "idem"}, "n": {"N": "0"}})
    statements = [f"UPDATE \"{t}\" SET n = n + 1 WHERE pk = 'idem'"]
    tx(ddb, *statements, ClientRequestToken="partiql-token-1")
    tx(ddb, *statements, ClientRequestToken="partiql-token-1")
    assert ddb.get_item(TableName=t, Key={"pk": {"S": "idem"}})["Item"]["n"] == {"N": "1"}
    resp = tx_refused(ddb, f"UPDATE \"{t}\" SET n = n + 2 WHERE pk = 'idem'", ClientRequestToken="partiql-token-1")
    assert resp["Error"]["Code"] == "IdempotentParameterMismatchException"


# --- Observability: how each statement ran --------------------------------------------------------

def test_statements_log_how_they_ran(start_server):
    server = start_server("--in-memory")
    ddb = server.client()
    t = unique_name()
    ddb.create_table(TableName=t, BillingMode="PAY_PER_REQUEST",
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                           {"AttributeName": "sk", "AttributeType": "N"}])
    run(ddb, f"INSERT INTO \"{t}\" VALUE {{'pk': 'a', 'sk': 1}}")
    run(ddb, f"SELECT * FROM \"{t}\" WHERE pk = 'a' AND sk = 1")
    run(ddb, f"SELECT * FROM \"{t}\" WHERE pk = 'a' AND sk > 0")
    run(ddb, f"SELECT * FROM \"{t}\" WHERE pk IN ['a', 'b']")
    run(ddb, f"SELECT * FROM \"{t}\" WHERE pk = 'a' OR pk = 'b'")
    run(ddb, f"SELECT * FROM \"{t}\" WHERE sk = 1")
    run(ddb, f"SELECT * FROM \"{t}\" WHERE pk = 'a' OR sk = 1")
    run(ddb, f"UPDATE \"{t}\" SET x = 1 WHERE pk = 'a' AND sk = 1")
    run(ddb, f"DELETE FROM \"{t}\" WHERE pk = 'a' AND sk = 1")
    server.stop()
    with open(server.log.name) as f:
        lines = [l for l in f.read().splitlines() if l.startswith("partiql:")]
    assert lines == [
        f"partiql: INSERT on {t} ran as PutItem",
        f"partiql: SELECT on {t} ran as GetItem",
        f"partiql: SELECT on {t} ran as Query",
        f"partiql: SELECT on {t} ran as Query",
        f"partiql: SELECT on {t} ran as Query",
        f"partiql: SELECT on {t} ran as Scan",
        f"partiql: SELECT on {t} ran as Scan",
        f"partiql: UPDATE on {t} ran as UpdateItem",
        f"partiql: DELETE on {t} ran as DeleteItem",
    ]


# --- Item collections: the size limit of tables with an LSI ----------------------------------------

def test_partiql_writes_respect_the_item_collection_limit(start_server, monkeypatch):
    # A 300,000-byte limit (the 10 GB one, scaled down); items projected into the LSI count twice,
    # so two 60 KB items fit in a collection and a third, or a growing update, does not.
    monkeypatch.setenv("MONOTABLE_ITEM_COLLECTION_LIMIT_BYTES", "300000")
    ddb = start_server("--in-memory").client()
    t = unique_name()
    ddb.create_table(TableName=t, BillingMode="PAY_PER_REQUEST",
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
                     AttributeDefinitions=[{"AttributeName": a, "AttributeType": ty}
                                           for a, ty in (("pk", "S"), ("sk", "N"), ("l", "S"))],
                     LocalSecondaryIndexes=[{"IndexName": "lsi", "Projection": {"ProjectionType": "ALL"},
                                             "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                           {"AttributeName": "l", "KeyType": "RANGE"}]}])
    blob = [{"S": "x" * 60_000}]
    insert = f"INSERT INTO \"{t}\" VALUE {{'pk': 'full', 'sk': ?, 'l': ?, 'payload': ?}}"
    for i in range(2):
        run(ddb, insert, Parameters=[{"N": str(i)}, {"S": f"l{i}"}, *blob])
    limit = ("ItemCollectionSizeLimitExceededException", "Item collection size limit exceeded")
    assert refused(ddb, insert, Parameters=[{"N": "2"}, {"S": "l2"}, *blob]) == limit
    assert refused(ddb, f"UPDATE \"{t}\" SET more = ? WHERE pk = 'full' AND sk = 1", Parameters=blob) == limit
    batch = ddb.batch_execute_statement(Statements=[
        {"Statement": insert, "Parameters": [{"N": "3"}, {"S": "l3"}, *blob]},
        {"Statement": f"INSERT INTO \"{t}\" VALUE {{'pk': 'other', 'sk': 0, 'payload': ?}}", "Parameters": blob}])
    assert batch["Responses"][0]["Error"] == {"Code": "ItemCollectionSizeLimitExceeded",
                                              "Message": "Item collection size limit exceeded"}
    assert "Error" not in batch["Responses"][1]
    grow = {"Statement": f"UPDATE \"{t}\" SET more = ? WHERE pk = 'full' AND sk = 0", "Parameters": blob}
    with pytest.raises(ClientError) as e:
        ddb.execute_transaction(TransactStatements=[
            {"Statement": f"INSERT INTO \"{t}\" VALUE {{'pk': 'other', 'sk': 1}}"}, grow])
    assert e.value.response["Error"]["Code"] == "TransactionCanceledException"
    assert [r["Code"] for r in e.value.response["CancellationReasons"]] == ["None", "ItemCollectionSizeLimitExceeded"]
    assert len(items(ddb, f"SELECT sk FROM \"{t}\" WHERE pk = 'full'")) == 2
    assert len(items(ddb, f"SELECT sk FROM \"{t}\" WHERE pk = 'other'")) == 1
    # Deletes and shrinking updates pass; then the collection has room again.
    run(ddb, f"UPDATE \"{t}\" REMOVE payload WHERE pk = 'full' AND sk = 1")
    run(ddb, f"DELETE FROM \"{t}\" WHERE pk = 'full' AND sk = 0")
    run(ddb, insert, Parameters=[{"N": "2"}, {"S": "l2"}, *blob])
    tx(ddb, f"UPDATE \"{t}\" SET more = 'y' WHERE pk = 'full' AND sk = 2")
