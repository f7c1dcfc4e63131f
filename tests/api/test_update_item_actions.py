"""UpdateItem with an UpdateExpression, through boto3: + and - with exact 38-digit arithmetic and
its errors, list_append and if_not_exists, ADD on numbers and sets, DELETE on sets, upsert
behaviour, every ReturnValues and the validation messages. SET and REMOVE, clauses, paths and names
are in test_update_item.py.

Ground truth: scylladb's alternator tests (test_update_expression.py, test_returnvalues.py,
test_item.py, test_number.py, test_limits.py), which pass on AWS, and dynalite's recorded
updateItem messages. Tests marked xfail(strict=True, reason="expr: ...") are known mismatches of the
expression layer (src/expr), listed for its owner.
"""
import decimal

import boto3.dynamodb.types
import pytest

from item_helpers import new_key, put, item
from update_helpers import D, NO_ATTRIBUTE, BAD_OPERAND, OVERFLOW, UNDERFLOW, update, refused, invalid
from update_helpers import table  # noqa: F401 -- a fixture: one table per test module


@pytest.fixture
def precise_numbers(monkeypatch):
    """Lets boto3 send numbers beyond 38 digits, so the server's checks can be tested."""
    monkeypatch.setattr(boto3.dynamodb.types, "DYNAMODB_CONTEXT", decimal.Context(prec=100))


# ---- + and - ------------------------------------------------------------------------------------


def test_plus_and_minus(table):
    key = new_key()
    update(table, key, "SET b = :val1 + :val2", {":val1": 4, ":val2": 3})
    assert item(table, key) == {**key, "b": 7}
    update(table, key, "SET b = :val1 - :val2", {":val1": 5, ":val2": 2})
    assert item(table, key) == {**key, "b": 3}
    update(table, key, "SET a = b + :v", {":v": 3})
    update(table, key, "SET a = :v + a", {":v": 4})
    update(table, key, "SET c = a - b")
    update(table, key, "SET #nn = :seven - #n", {":seven": 7}, {"#nn": "d", "#n": "b"})
    assert item(table, key) == {**key, "a": 10, "b": 3, "c": 7, "d": 4}
    update(table, key, "SET e = if_not_exists(e, :zero) + :one", {":zero": 0, ":one": 1})
    update(table, key, "SET e = if_not_exists(e, :zero) + :one", {":zero": 0, ":one": 1})
    assert item(table, key)["e"] == 2
    update(table, key, "SET f = :x - :y", {":x": D("-5"), ":y": D("2.50")})
    update(table, key, "SET g = :x + :y", {":x": D("0.1"), ":y": D("-0.1")})
    assert item(table, key)["f"] == D("-7.5") and item(table, key)["g"] == 0


def test_plus_and_minus_operand_types(table):
    key = put(table, a=1, s="dog", l=[1])
    values = {":a": "a", ":b": 1, ":c": b"a", ":d": False, ":e": None, ":f": {"a"}, ":g": {1}, ":h": {b"a"},
              ":i": {}, ":j": []}
    types = {":a": "S", ":c": "B", ":d": "BOOL", ":e": "NULL", ":f": "SS", ":g": "NS", ":h": "BS", ":i": "M",
             ":j": "L"}
    for op in "+-":
        for ref, type_name in types.items():
            assert refused(table, key, f"SET x = a {op} {ref}", {ref: values[ref]}) == invalid(
                f"Incorrect operand type for operator or function; operator or function: {op}, operand type: "
                f"{type_name}"), (op, ref)
        assert refused(table, key, f"SET x = :a {op} :c", {":a": "a", ":c": b"a"}) == invalid(
            f"Incorrect operand type for operator or function; operator or function: {op}, operand type: S")
        # Item attributes of the wrong type are found when applying.
        assert refused(table, key, f"SET x = s {op} :b", {":b": 1}) == BAD_OPERAND
        assert refused(table, key, f"SET x = :b {op} l", {":b": 1}) == BAD_OPERAND
        assert refused(table, key, f"SET x = q {op} :b", {":b": 1}) == NO_ATTRIBUTE


# ---- numbers ------------------------------------------------------------------------------------


def test_arithmetic_is_exact_to_38_digits(table, precise_numbers):
    key = new_key()
    update(table, key, "SET b = :val1 + :val2", {":val1": D("1"), ":val2": D("10000000000000000000000")})
    assert item(table, key)["b"] == D("10000000000000000000001")
    update(table, key, "SET b = :val2 - :val1", {":val1": D("1"), ":val2": D("10000000000000000000000")})
    assert item(table, key)["b"] == D("9999999999999999999999")
    big = D("12345678901234567890123456789012345678")
    update(table, key, "SET c = :big + :one, d = :one - :big", {":big": big, ":one": 1})
    got = item(table, key)
    assert got["c"] == D("12345678901234567890123456789012345679")
    assert got["d"] == D("-12345678901234567890123456789012345677")
    update(table, key, "SET e = :x + :y", {":x": D("99999999999999999999999999999999999999"), ":y": 1})
    assert item(table, key)["e"] == D("1E+38")
    update(table, key, "SET f = :pi", {":pi": D("3.1415926535897932384626433832795028841")})
    update(table, key, "SET f = f + :x", {":x": D("1E-37")})
    assert item(table, key)["f"] == D("3.1415926535897932384626433832795028842")
    update(table, key, "ADD g :x", {":x": D("-0.5")})
    update(table, key, "ADD g :x", {":x": D("1.25")})
    assert item(table, key)["g"] == D("0.75")


def test_arithmetic_overflow_and_underflow(table, precise_numbers):
    key = new_key()
    assert refused(table, key, "SET b = :val1 + :val2", {":val1": D("9e125"), ":val2": D("9e125")}) == OVERFLOW
    assert refused(table, key, "SET b = :val1 - :val2", {":val1": D("9e125"), ":val2": D("-9e125")}) == OVERFLOW
    assert refused(table, key, "SET b = :val1 - :val2", {":val1": D("2E-130"), ":val2": D("1.5E-130")}) == UNDERFLOW
    max_number = D("9.9999999999999999999999999999999999999E+125")
    update(table, key, "SET n = :v", {":v": max_number})
    assert refused(table, key, "SET n = n + :v", {":v": D("1E+125")}) == OVERFLOW
    assert refused(table, key, "ADD n :v", {":v": D("1E+125")}) == OVERFLOW
    assert item(table, key)["n"] == max_number


def test_arithmetic_beyond_38_digits_is_an_overflow(table):
    key = new_key()
    assert refused(table, key, "SET b = :val1 - :val2", {":val1": D("1e50"), ":val2": D("1")}) == OVERFLOW
    assert refused(table, key, "SET b = :val1 + :val2", {":val1": D("1e50"), ":val2": D("1")}) == OVERFLOW


# ---- list_append and if_not_exists --------------------------------------------------------------


def test_list_append(table):
    key = new_key()
    update(table, key, "SET a = list_append(:val1, :val2)", {":val1": [4, "hello"], ":val2": ["hi", 7]})
    assert item(table, key)["a"] == [4, "hello", "hi", 7]
    update(table, key, "SET a = :val1", {":val1": ["hi", 2]})
    update(table, key, "SET a = list_append(a, :val1)", {":val1": [4, "hello"]})
    update(table, key, "SET a = list_append(:val1, a)", {":val1": ["dog"]})
    assert item(table, key)["a"] == ["dog", "hi", 2, 4, "hello"]
    update(table, key, "SET b = list_append(a, :val1)", {":val1": ["cat"]})
    update(table, key, "SET c = list_append(a, b)")
    assert item(table, key)["c"] == ["dog", "hi", 2, 4, "hello", "dog", "hi", 2, 4, "hello", "cat"]
    update(table, key, "SET #name1 = list_append(#name2,:val1)", {":val1": [8]}, {"#name1": "a", "#name2": "a"})
    assert item(table, key)["a"] == ["dog", "hi", 2, 4, "hello", 8]
    update(table, key, "SET d = list_append(if_not_exists(d, :empty), :v)", {":empty": [], ":v": [1]})
    update(table, key, "SET d = list_append(if_not_exists(d, :empty), :v)", {":empty": [], ":v": [2]})
    assert item(table, key)["d"] == [1, 2]


def test_list_append_refusals(table):
    key = put(table, s="x", l=[1])
    assert refused(table, key, "SET a = LIST_APPEND(:val1, :val2)", {":val1": [4], ":val2": ["hi"]}) == invalid(
        "Invalid function name; function: LIST_APPEND")
    assert refused(table, key, "SET a = list_append(:val1)", {":val1": ["a"]}) == invalid(
        "Incorrect number of operands for operator or function; operator or function: list_append, "
        "number of operands: 1")
    assert refused(table, key, "SET a = list_append(:v1, :v2, :v3)", {":v1": [4], ":v2": [7], ":v3": ["a"]}) == invalid(
        "Incorrect number of operands for operator or function; operator or function: list_append, "
        "number of operands: 3")
    values = {":a": "a", ":b": 1, ":c": b"a", ":d": True, ":e": None, ":f": {"a"}, ":g": {1}, ":h": {b"a"}, ":i": {}}
    types = {":a": "S", ":b": "N", ":c": "B", ":d": "BOOL", ":e": "NULL", ":f": "SS", ":g": "NS", ":h": "BS",
             ":i": "M"}
    for ref, type_name in types.items():
        assert refused(table, key, f"SET a = list_append({ref}, l)", {ref: values[ref]}) == invalid(
            f"Incorrect operand type for operator or function; operator or function: list_append, "
            f"operand type: {type_name}"), ref
    assert refused(table, key, "SET a = list_append(l, s)") == BAD_OPERAND
    assert refused(table, key, "SET a = list_append(q, l)") == NO_ATTRIBUTE
    assert refused(table, key, "SET a = f(b,c,d)") == invalid("Invalid function name; function: f")
    assert refused(table, key, "SET a = f123_hi(b,c,d)") == invalid("Invalid function name; function: f123_hi")


def test_list_append_cannot_nest(table):
    assert refused(table, new_key(), "SET a = list_append(list_append(:v1, :v2), :v3)",
                   {":v1": ["a"], ":v2": ["1"], ":v3": ["hi"]}) == invalid(
        "The function is not allowed to be used this way in an expression; function: list_append")


def test_if_not_exists(table):
    key = new_key()
    update(table, key, "SET a = if_not_exists(a, :val1)", {":val1": 2})
    assert item(table, key)["a"] == 2
    update(table, key, "SET a = if_not_exists(a, :val1)", {":val1": 3})
    assert item(table, key)["a"] == 2
    update(table, key, "SET b = if_not_exists(c, :val1)", {":val1": 4})
    assert item(table, key)["b"] == 4
    update(table, key, "SET b = if_not_exists(a, :val1)", {":val1": 6})  # a exists: its value is copied
    assert item(table, key)["b"] == 2
    update(table, key, "SET m = :m", {":m": {"x": {"y": 1}}})
    update(table, key, "SET z = if_not_exists(m.x.y, :v), w = if_not_exists(m.x.q, :v)", {":v": 9})
    assert item(table, key)["z"] == 1 and item(table, key)["w"] == 9


def test_if_not_exists_refusals(table):
    key = new_key()
    needs_path = invalid("Operator or function requires a document path; operator or function: if_not_exists")
    assert refused(table, key, "SET b = if_not_exists(if_not_exists(a, :val2), :val1)",
                   {":val1": 6, ":val2": 3}) == needs_path
    assert refused(table, key, "SET b = if_not_exists(:val2, :val1)", {":val1": 6, ":val2": 3}) == needs_path
    assert refused(table, key, "SET b = if_not_exists(:val2, :val1)", {":val1": 6}) == invalid(
        "An expression attribute value used in expression is not defined; attribute value: :val2")
    assert refused(table, key, "SET a = if_not_exists(c)") == invalid(
        "Incorrect number of operands for operator or function; operator or function: if_not_exists, "
        "number of operands: 1")
    assert refused(table, key, "SET b = if_not_exists(non@sense, :val1)", {":val1": 6}).startswith(
        invalid("Syntax error"))
    assert refused(table, key, "SET c = if_not_exists(c, :val1+:val2)", {":val1": 5, ":val2": 4}).startswith(
        invalid("Syntax error"))


# ---- ADD and DELETE -----------------------------------------------------------------------------


def test_add_numbers(table):
    key = put(table, a=3, b="hi")
    update(table, key, "ADD a :val1", {":val1": 4})
    assert item(table, key)["a"] == 7
    update(table, key, "ADD c :val1, a :val2", {":val1": 7, ":val2": -10})  # an absent number starts at 0
    assert item(table, key) == {**key, "a": -3, "b": "hi", "c": 7}
    assert refused(table, key, "ADD a :val1", {":val1": "hello"}) == invalid(
        "Incorrect operand type for operator or function; operator: ADD, operand type: STRING")
    assert refused(table, key, "ADD b :val1", {":val1": 1}) == BAD_OPERAND


def test_add_sets(table):
    key = put(table, a={"dog", "cat", "mouse"}, b="hi", n={1, 2})
    update(table, key, "ADD a :val1", {":val1": {"pig"}})
    assert item(table, key)["a"] == {"dog", "cat", "mouse", "pig"}
    update(table, key, "ADD a :val1, n :val2", {":val1": {"cat", "lynx"}, ":val2": {2, 3}})
    got = item(table, key)
    assert got["a"] == {"dog", "cat", "mouse", "pig", "lynx"} and got["n"] == {1, 2, 3}
    update(table, key, "ADD bs :v, ss :w", {":v": {b"x", b"y"}, ":w": {"s"}})  # new sets
    assert item(table, key)["bs"] == {b"x", b"y"} and item(table, key)["ss"] == {"s"}
    assert refused(table, key, "ADD a :val1", {":val1": "hello"}) == invalid(
        "Incorrect operand type for operator or function; operator: ADD, operand type: STRING")
    assert refused(table, key, "ADD a :val1", {":val1": {1}}) == BAD_OPERAND  # NS into SS
    assert refused(table, key, "ADD b :val1", {":val1": {"x"}}) == BAD_OPERAND  # into a string


def test_add_and_delete_operand_types(table):
    # dynalite's recorded messages.
    for expression, value, op, type_name in [
        ("add a.b :a", None, "ADD", "NULL"), ("delete a.b :a", None, "DELETE", "NULL"),
        ("add a.b :a", False, "ADD", "BOOLEAN"), ("delete a.b :a", False, "DELETE", "BOOLEAN"),
        ("add a.b :a", b"a", "ADD", "BINARY"), ("delete a.b :a", b"a", "DELETE", "BINARY"),
        ("add a.b :a", {"a": [1]}, "ADD", "MAP"), ("delete a.b :a", {"a": [1]}, "DELETE", "MAP"),
        ("add a.b :a", [1], "ADD", "LIST"), ("delete a.b :a", [1], "DELETE", "LIST"),
        ("delete a.b :a", 1, "DELETE", "NUMBER"), ("delete a.b :a", "a", "DELETE", "STRING"),
        ("set b = list_append(:a, a), c = if_not_exists(a) add a.b :a", "a", "ADD", "STRING"),
    ]:
        assert refused(table, new_key(), expression, {":a": value}) == invalid(
            f"Incorrect operand type for operator or function; operator: {op}, operand type: {type_name}"), expression


def test_delete_from_sets(table):
    key = put(table, a={"dog", "cat", "mouse"}, b="hi", n={1, 2, 3})
    update(table, key, "DELETE a :val1", {":val1": {"cat", "mouse"}})
    assert item(table, key)["a"] == {"dog"}
    update(table, key, "DELETE a :val1, n :val2", {":val1": {"pig"}, ":val2": {2, 5}})  # absent members: no-op
    assert item(table, key)["a"] == {"dog"} and item(table, key)["n"] == {1, 3}
    update(table, key, "DELETE a :val1", {":val1": {"dog"}})  # an emptied set disappears
    assert item(table, key) == {**key, "b": "hi", "n": {1, 3}}
    update(table, key, "DELETE a :val1", {":val1": {"dog"}})  # an absent attribute: no-op
    assert item(table, key) == {**key, "b": "hi", "n": {1, 3}}
    assert refused(table, key, "DELETE n :val1", {":val1": {"1"}}) == BAD_OPERAND
    assert refused(table, key, "DELETE b :val1", {":val1": {"hi"}}) == BAD_OPERAND


def test_type_mismatches_found_when_applying(table):
    # dynalite's recorded cases.
    key = new_key()
    update(table, key, "set b = :b, c = :c, d = :d", {":b": {"a": {"1"}}, ":c": 1, ":d": {1}})
    for expression, value in [("delete d :a", {"1"}), ("delete b :a", {1}), ("delete b.a :a", {1}),
                              ("delete b.a :a", {b"a"}), ("delete c :a", {1}), ("add b :a", {1}), ("add d :a", 1),
                              ("set e = pk + :a", 1), ("set e = b - :a", 1),
                              ("set e = list_append(d, if_not_exists(f, :a))", [])]:
        assert refused(table, key, expression, {":a": value}) == BAD_OPERAND, expression


def test_nested_add_and_delete(table):
    key = put(table, m={"n": 1, "s": {"a", "b"}, "l": [1, {"x", "y"}]})
    update(table, key, "ADD m.n :one, m.s :c, m.l[0] :one, m.l[1] :z, m.fresh :one",
           {":one": 1, ":c": {"c"}, ":z": {"z"}})
    assert item(table, key)["m"] == {"n": 2, "s": {"a", "b", "c"}, "l": [2, {"x", "y", "z"}], "fresh": 1}
    update(table, key, "DELETE m.s :ab, m.l[1] :xyz", {":ab": {"a", "b", "c"}, ":xyz": {"x", "y"}})
    assert item(table, key)["m"] == {"n": 2, "l": [2, {"z"}], "fresh": 1}


def test_complex_update(table):
    # dynalite's 'should update nested attributes' (its key attribute 'a' is our 'pk').
    key = new_key()
    update(table, key, "set b = :b, c = :c", {":b": {"a": 1, "b": 2, "c": 3}, ":c": [1, 3]})
    got = update(table, key, "set b.c=((c[1])+(b.a)),b.a = pk,c[1] = pk, c[4] = b.a - b.b, c[2] = b.c "
                             "add c[8] :b, c[6] :a", {":a": 2, ":b": {"a"}}, ReturnValues="UPDATED_NEW")
    p = key["pk"]
    assert got["Attributes"] == {"b": {"a": p, "c": 4}, "c": [p, 3, 2]}
    assert item(table, key) == {**key, "b": {"a": p, "b": 2, "c": 4}, "c": [1, p, 3, -1, 2, {"a"}]}


# ---- upsert -------------------------------------------------------------------------------------


def test_update_creates_missing_item(table):
    key = new_key()
    update(table, key, "SET a = :v", {":v": 3})
    assert item(table, key) == {**key, "a": 3}
    key = new_key()
    update(table, key, "ADD n :v, s :s", {":v": 8, ":s": {"cat"}})
    assert item(table, key) == {**key, "n": 8, "s": {"cat"}}
    key = new_key()
    table.update_item(Key=key)  # no update at all: an item with just the key
    assert item(table, key) == key
    key = new_key()
    table.update_item(Key=key, ConditionExpression="attribute_not_exists(pk)")
    assert item(table, key) == key


def test_update_that_only_removes_does_not_create_item(table):
    for expression, values in [("REMOVE a", None), ("REMOVE a, b.c, d[1]", None), ("DELETE s :s", {":s": {"x"}}),
                               ("REMOVE a DELETE s :s", {":s": {"x"}})]:
        key = new_key()
        got = update(table, key, expression, values, ReturnValues="ALL_NEW")
        assert "Attributes" not in got, expression
        assert item(table, key) is None, expression
    # But a removal together with a SET creates the item.
    key = new_key()
    update(table, key, "REMOVE a SET b = :v", {":v": 1})
    assert item(table, key) == {**key, "b": 1}


# ---- ReturnValues -------------------------------------------------------------------------------


def test_return_values_none(table):
    key = put(table, a="hi", b="dog")
    assert "Attributes" not in update(table, key, "SET b = :val", {":val": "cat"})
    assert "Attributes" not in update(table, key, "SET b = :val", {":val": "cat"}, ReturnValues="NONE")
    for bad in ("none", "DOG"):
        assert refused(table, key, "SET a = :val", {":val": 1}, ReturnValues=bad) == (
            f"1 validation error detected: Value '{bad}' at 'returnValues' failed to satisfy constraint: "
            "Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]")


def test_return_values_all_old(table):
    key = put(table, a="hi", b="dog")
    got = update(table, key, "SET b = :val", {":val": "cat"}, ReturnValues="ALL_OLD")
    assert got["Attributes"] == {**key, "a": "hi", "b": "dog"}
    got = update(table, new_key(), "SET b = :val", {":val": "cat"}, ReturnValues="ALL_OLD")
    assert "Attributes" not in got


def test_return_values_updated_old(table):
    key = put(table, a="hi", b="dog")
    got = update(table, key, "SET b = :val, c = :val2", {":val": "cat", ":val2": "hello"}, ReturnValues="UPDATED_OLD")
    assert got["Attributes"] == {"b": "dog"}
    got = update(table, key, "SET b = :val", {":val": "cat"}, ReturnValues="UPDATED_OLD")
    assert got["Attributes"] == {"b": "cat"}  # same value again still counts
    got = update(table, key, "REMOVE b", ReturnValues="UPDATED_OLD")
    assert got["Attributes"] == {"b": "cat"}
    got = update(table, key, "SET b = :val", {":val": "cat"}, ReturnValues="UPDATED_OLD")
    assert "Attributes" not in got
    got = update(table, key, "SET b = :val, d = :val2", {":val": "dog", ":val2": "lion"}, ReturnValues="UPDATED_OLD")
    assert got["Attributes"] == {"b": "cat"}
    got = update(table, key, "SET b = :val, d = :val2", {":val": "cat", ":val2": "tiger"}, ReturnValues="UPDATED_OLD")
    assert got["Attributes"] == {"b": "dog", "d": "lion"}
    got = update(table, key, "ADD n :one", {":one": 1}, ReturnValues="UPDATED_OLD")
    assert "Attributes" not in got


def test_return_values_all_new(table):
    key = put(table, a="hi", b="dog")
    got = update(table, key, "SET b = :val", {":val": "cat"}, ReturnValues="ALL_NEW")
    assert got["Attributes"] == {**key, "a": "hi", "b": "cat"}
    got = update(table, key, "REMOVE b", ReturnValues="ALL_NEW")
    assert got["Attributes"] == {**key, "a": "hi"}
    key = new_key()
    got = update(table, key, "SET b = :val", {":val": "cat"}, ReturnValues="ALL_NEW")
    assert got["Attributes"] == {**key, "b": "cat"}


def test_return_values_updated_new(table):
    key = put(table, a="hi", b="dog")
    got = update(table, key, "SET b = :val, c = :val2", {":val": "cat", ":val2": "hello"}, ReturnValues="UPDATED_NEW")
    assert got["Attributes"] == {"b": "cat", "c": "hello"}
    got = update(table, key, "REMOVE b", ReturnValues="UPDATED_NEW")
    assert "Attributes" not in got
    got = update(table, key, "SET a = :val, b = :val2 REMOVE c", {":val": "dog", ":val2": "tiger"},
                 ReturnValues="UPDATED_NEW")
    assert got["Attributes"] == {"a": "dog", "b": "tiger"}
    key = put(table, a=1)
    got = update(table, key, "SET a = a + :val", {":val": 1}, ReturnValues="UPDATED_NEW")
    assert got["Attributes"] == {"a": 2}
    # A new item's key attributes are not among the updated ones.
    got = update(table, new_key(), "SET a = :val", {":val": 1}, ReturnValues="UPDATED_NEW")
    assert got["Attributes"] == {"a": 1}


def test_return_values_updated_new_on_new_item_with_every_action(table):
    # dynalite's 'should just add valid ADD actions if nothing exists'.
    values = {":c": {"a", "b"}, ":d": 5, ":e": {"a", "b"}, ":f": ["a", 1]}
    for expression, names in [("REMOVE b DELETE c :c ADD d :d, e :e SET f = :f", None),
                              ("ADD #e :e,#d :d DELETE #c :c REMOVE #b SET #f = :f",
                               {"#b": "b", "#c": "c", "#d": "d", "#e": "e", "#f": "f"})]:
        key = new_key()
        got = update(table, key, expression, values, names, ReturnValues="UPDATED_NEW")
        assert got["Attributes"] == {"d": 5, "e": {"a", "b"}, "f": ["a", 1]}
        assert item(table, key) == {**key, "d": 5, "e": {"a", "b"}, "f": ["a", 1]}


def test_return_values_nested(table):
    key = put(table, a={"b": "dog", "c": [1, 2, 3]}, d="cat")
    got = update(table, key, "SET a.b = :val", {":val": "hi"}, ReturnValues="ALL_OLD")
    assert got["Attributes"] == {**key, "a": {"b": "dog", "c": [1, 2, 3]}, "d": "cat"}
    steps = [
        ("UPDATED_OLD", "SET a.b = :val", {":val": "yo"}, {"a": {"b": "hi"}}),
        ("UPDATED_OLD", "SET a.c[1] = :val", {":val": 7}, {"a": {"c": [2]}}),
        ("UPDATED_OLD", "SET a.c[1] = :val, a.b = :val2", {":val": 8, ":val2": "dog"}, {"a": {"b": "yo", "c": [7]}}),
        ("UPDATED_NEW", "SET a.b = :val", {":val": "hello"}, {"a": {"b": "hello"}}),
        ("UPDATED_NEW", "SET a.c[1] = :val", {":val": 4}, {"a": {"c": [4]}}),
        ("UPDATED_NEW", "SET a.c[1] = :val, a.b = :val2", {":val": 3, ":val2": "dog"}, {"a": {"b": "dog", "c": [3]}}),
        ("ALL_NEW", "SET a.b = :val", {":val": "hi"}, {**key, "a": {"b": "hi", "c": [1, 3, 3]}, "d": "cat"}),
        ("ALL_NEW", "SET a.c[1] = :val", {":val": 4}, {**key, "a": {"b": "hi", "c": [1, 4, 3]}, "d": "cat"}),
        ("ALL_NEW", "SET a.c[1] = :val, a.b = :val2", {":val": 3, ":val2": "dog"},
         {**key, "a": {"b": "dog", "c": [1, 3, 3]}, "d": "cat"}),
        ("UPDATED_OLD", "REMOVE a.c[1], a.c[3]", None, {"a": {"c": [3]}}),  # a.c[3] did not exist
        ("UPDATED_OLD", "SET a.x1 = :val", {":val": 8}, None),  # a new sub-attribute has no old value
        ("UPDATED_NEW", "SET a.x2 = :val", {":val": 8}, {"a": {"x2": 8}}),
        ("UPDATED_NEW", "SET a.c[100] = :val", {":val": 70}, None),  # appended, so a.c[100] is not there
        ("UPDATED_NEW", "REMOVE a.c[1]", None, {"a": {"c": [70]}}),  # the element that moved into a.c[1]
    ]
    for return_values, expression, values, expected in steps:
        got = update(table, key, expression, values, ReturnValues=return_values)
        if expected is None:
            assert "Attributes" not in got, expression
        else:
            assert got["Attributes"] == expected, expression


def test_return_values_on_missing_item_update_that_only_removes(table):
    for return_values in ("ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"):
        key = new_key()
        assert "Attributes" not in update(table, key, "REMOVE b", ReturnValues=return_values)
        assert item(table, key) is None
