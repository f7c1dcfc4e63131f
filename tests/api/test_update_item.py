"""UpdateItem with an UpdateExpression, through boto3: SET (=, +, -, if_not_exists, list_append),
REMOVE (including list elements), ADD on numbers and sets, DELETE on sets, each clause once,
overlapping and conflicting paths, exact 38-digit arithmetic and its errors, key attributes,
paths whose parent does not exist, upsert behaviour, every ReturnValues and the validation messages.

Ground truth: scylladb's alternator tests (test_update_expression.py, test_returnvalues.py,
test_item.py, test_number.py, test_limits.py), which pass on AWS, and dynalite's recorded
updateItem messages. Tests marked xfail(strict=True, reason="expr: ...") are known mismatches of the
expression layer (src/expr), listed for its owner.
"""
import decimal
import uuid

import boto3
import boto3.dynamodb.types
import botocore.config
import pytest
from botocore.exceptions import ClientError

from conftest import make_resource_table, unique_name
from item_helpers import new_key, put, item

VALIDATION = "ValidationException"
D = decimal.Decimal

NO_ATTRIBUTE = "The provided expression refers to an attribute that does not exist in the item"
BAD_OPERAND = "An operand in the update expression has an incorrect data type"
BAD_PATH = "The document path provided in the update expression is invalid for update"
OVERFLOW = "Number overflow. Attempting to store a number with magnitude larger than supported range"
UNDERFLOW = "Number underflow. Attempting to store a number with magnitude smaller than supported range"


@pytest.fixture(scope="module")
def table(ddb, resource):
    return make_resource_table(ddb, resource, "upd")


@pytest.fixture(scope="module")
def range_table(ddb, resource):
    return make_resource_table(ddb, resource, "upd-range", range_key=True)


@pytest.fixture
def precise_numbers(monkeypatch):
    """Lets boto3 send numbers beyond 38 digits, so the server's checks can be tested."""
    monkeypatch.setattr(boto3.dynamodb.types, "DYNAMODB_CONTEXT", decimal.Context(prec=100))


def update(table, key, expression, values=None, names=None, **kwargs):
    kwargs.update(Key=key, UpdateExpression=expression)
    if values is not None:
        kwargs["ExpressionAttributeValues"] = values
    if names is not None:
        kwargs["ExpressionAttributeNames"] = names
    return table.update_item(**kwargs)


def refused(table, key, expression, values=None, names=None, **kwargs):
    with pytest.raises(ClientError) as e:
        update(table, key, expression, values, names, **kwargs)
    err = e.value.response["Error"]
    assert err["Code"] == VALIDATION, err
    return err["Message"]


def invalid(detail):
    return "Invalid UpdateExpression: " + detail


# ---- SET ----------------------------------------------------------------------------------------


def test_set(table):
    key = new_key()
    update(table, key, "SET b = :val1", {":val1": 4})
    assert item(table, key) == {**key, "b": 4}
    update(table, key, "SET x = :val1, y = :val1", {":val1": 5})
    assert item(table, key) == {**key, "b": 4, "x": 5, "y": 5}
    update(table, key, "set b = :v", {":v": "four"})  # keywords are case-insensitive
    update(table, key, "  sEt   x=:v  ", {":v": 6})  # and whitespace is free
    assert item(table, key) == {**key, "b": "four", "x": 6, "y": 5}


def test_set_every_type_and_empty_values(table):
    key = new_key()
    values = {":s": "", ":b": b"", ":l": [], ":m": {}, ":n": None, ":t": False, ":ss": {"x"}, ":ns": {1}, ":bs": {b"x"}}
    update(table, key, "SET s = :s, b = :b, l = :l, m = :m, n = :n, t = :t, ss = :ss, ns = :ns, bs = :bs", values)
    assert item(table, key) == {**key, **{k[1:]: v for k, v in values.items()}}


def test_empty_set_value_refused(table):
    key = new_key()
    assert refused(table, key, "SET a = :v", {":v": set()}) == (
        "ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: "
        "An number set  may not be empty for key :v")
    assert item(table, key) is None


def test_set_copies_attributes(table):
    key = put(table, a="hello")
    update(table, key, "SET b = a")
    assert item(table, key) == {**key, "a": "hello", "b": "hello"}
    assert refused(table, key, "SET c = z") == NO_ATTRIBUTE
    # Operands are read from the item as it was: y = x does not see the new x.
    assert refused(table, key, "SET x = :val1, y = x", {":val1": 4}) == NO_ATTRIBUTE
    update(table, key, "SET a = a")
    assert refused(table, key, "SET z = z") == NO_ATTRIBUTE
    update(table, key, "SET #one = #two", names={"#one": "c", "#two": "a"})
    assert item(table, key) == {**key, "a": "hello", "b": "hello", "c": "hello"}
    update(table, key, "SET n = pk")  # key attributes can be read
    assert item(table, key)["n"] == key["pk"]


def test_name_tokens(table):
    key = new_key()
    for name in ("alnum", "Alpha_Numeric_123", "A123_"):
        update(table, key, f"SET {name} = :v", {":v": 1})
    assert item(table, key) == {**key, "alnum": 1, "Alpha_Numeric_123": 1, "A123_": 1}
    for bad in ("_123", "_abc", "123a", "123", "hi-there", "hi$there", '"hithere"', "!hithere"):
        assert refused(table, key, f"SET {bad} = :v", {":v": 1}).startswith(invalid("Syntax error; token: ")), bad
    silly = "3can include any character!.#="
    for ref in ("#Alpha_Numeric_123", "#123a", "#123", "#_"):
        update(table, key, f"SET {ref} = :v", {":v": ref}, {ref: silly})
        assert item(table, key)[silly] == ref
    for ref in (":Alpha_Numeric_123", ":123a", ":123", ":_"):
        update(table, key, f"SET a = {ref}", {ref: ref})
        assert item(table, key)["a"] == ref
    assert refused(table, key, "SET a = :", {":a": 7}).startswith(invalid("Syntax error; token: "))
    assert refused(table, key, "SET # = :v", {":v": 7}, {"#a": silly}).startswith(invalid("Syntax error; token: "))
    assert refused(table, key, "SET :a = :b", {":a": 1, ":b": 2}) == invalid(
        'Syntax error; token: ":a", near: "SET :a ="')


def test_syntax_errors(table):
    # dynalite's list, recorded against DynamoDB.
    for expression in ["whatever", "set a", "add a", "delete a", "set a=set", "remove a = b", "add a = b",
                       "delete a = b", "delete a b", "delete a if_not_exist(b)", "add abort b",
                       "add a if_not_exist(b)", "remove a b", "set a b", "set :a = b", "add :a b", "delete :a b",
                       "remove :a", "set a = b / c", "set a = b * c", 'set a[1] = "eight"', "set a[1] = 1",
                       "SET a = if_not_exist(a, 100)", "SET if_not_exist(a, b) = a", "set (a = (b + c))",
                       "set a = (b.c).d + e", "set a = (b.c)[0] + e", "set a = b + c + d", "HELLO b = :v",
                       "SET a = :v,", "SET a = _f(b)"]:
        message = refused(table, new_key(), expression)
        assert message.startswith(invalid("Syntax error; ")), (expression, message)
    assert refused(table, new_key(), "whatever") == invalid('Syntax error; token: "whatever", near: "whatever"')
    assert refused(table, new_key(), "set a") == invalid('Syntax error; token: "<EOF>", near: "a"')
    assert refused(table, new_key(), "SET a = :v + :v + :v", {":v": 1}) == invalid(
        'Syntax error; token: "+", near: ":v + :v"')


def test_reserved_words(table):
    values = {":a": "a", ":b": "a"}
    names = {"#a": "a", "#b": "b"}
    assert refused(table, new_key(), " set #a = :a set abOrt = :b ", values, names) == invalid(
        "Attribute name is a reserved keyword; reserved keyword: abOrt")
    assert refused(table, new_key(), " remove Absolute ") == invalid(
        "Attribute name is a reserved keyword; reserved keyword: Absolute")


def test_parentheses_around_values(table):
    key = put(table, b=2, c=3)
    update(table, key, "SET a = (b)")
    update(table, key, "SET d = (b + c)")
    assert item(table, key) == {**key, "a": 2, "b": 2, "c": 3, "d": 5}


def test_empty_update_expression(table):
    assert refused(table, new_key(), "") == invalid("The expression can not be empty;")


def test_expression_size_limit(table):
    key = new_key()
    spaces = " " * 4085
    update(table, key, f"SET{spaces}a = :val", {":val": 1})  # 4096 bytes
    assert item(table, key) == {**key, "a": 1}
    assert refused(table, key, f"SET {spaces}a = :val", {":val": 1}) == invalid(
        "Expression size has exceeded the maximum allowed size; expression size: 4097")


# ---- clauses and paths --------------------------------------------------------------------------


def test_each_clause_at_most_once(table):
    values = {":a": "a", ":b": "a"}
    names = {"#a": "a", "#b": "b"}
    for expression, section in [("set a = #a set c = :a", "SET"), ("remove #a set c = b remove e", "REMOVE"),
                                ("add #a :a set c = b add e :b", "ADD"),
                                ("delete #a :a set c = b delete #b :b", "DELETE"),
                                ("SET a = :a REMOVE b SET c = :b", "SET")]:
        assert refused(table, new_key(), expression, values, names) == invalid(
            f'The "{section}" section can only be used once in an update expression;'), expression


def test_clauses_in_any_order(table):
    key = put(table, a=1, b=2, s={"x", "y"})
    update(table, key, "REMOVE a SET c = :v ADD n :one DELETE s :x", {":v": 3, ":one": 1, ":x": {"x"}})
    assert item(table, key) == {**key, "b": 2, "c": 3, "n": 1, "s": {"y"}}
    update(table, key, "DELETE s :y ADD n :one SET d = :v REMOVE b", {":v": 4, ":one": 1, ":y": {"y"}})
    assert item(table, key) == {**key, "c": 3, "d": 4, "n": 2}


def test_removed_attribute_can_still_be_read(table):
    key = put(table, a="hello")
    update(table, key, "REMOVE a SET b = a")
    assert item(table, key) == {**key, "b": "hello"}
    update(table, key, "SET c = b REMOVE b")
    assert item(table, key) == {**key, "c": "hello"}


def test_overlapping_paths_refused(table):
    # dynalite's recorded cases (the key attribute 'a' renamed to 'k'):
    names = {"#c": "c", "#d": "[3]"}
    for expression, one, two in [
        ("set d[1] = k, d.b = k, c[1].k = k, #c = if_not_exists(k)", "[c, [1], k]", "[c]"),
        ("set c.b.#c = k, c = k, #d = k", "[c, b, c]", "[c]"),
        ("set k = b remove k, #c, #d", "[k]", "[k]"),
        ("set #c[3].#d = k, #c[3] = k", "[c, [3], [3]]", "[c, [3]]"),
        ("remove c, #c.k, #d", "[c]", "[c, k]"),
        ("remove k, #c, k, #d", "[k]", "[k]"),
    ]:
        assert refused(table, new_key(), expression, names=names) == invalid(
            "Two document paths overlap with each other; must remove or rewrite one of these paths; "
            f"path one: {one}, path two: {two}"), expression
    # scylla's list: the check is symbolic, whatever the item holds.
    for expression in ["SET a = :val1, a.b = :val2", "SET a.b = :val1, a = :val2", "SET a.b = :val1, a.b = :val2",
                       "SET a.b = :val1, a.b.c = :val2", "SET a.b.c = :val1, a.b = :val2",
                       "SET a.b = :val1, a.b.c.d.e = :val2", "SET a = :val1, a[1] = :val2",
                       "SET a[1] = :val1, a = :val2", "SET a[1] = :val1, a[1] = :val2",
                       "SET a[1][1] = :val1, a[1] = :val2", "SET a[1] = :val1, a[1][1][1][1] = :val2",
                       "SET a = :val1 REMOVE a", "REMOVE a SET a = :val1"]:
        message = refused(table, new_key(), expression, {":val1": 2, ":val2": "there"})
        assert message.startswith(invalid("Two document paths overlap with each other; ")), (expression, message)
    # Paths are compared after names are resolved.
    assert refused(table, new_key(), "SET #a1 = :v1, #a2 = :v2", {":v1": 1, ":v2": 2}, {"#a1": "a", "#a2": "a"}) == (
        invalid("Two document paths overlap with each other; must remove or rewrite one of these paths; "
                "path one: [a], path two: [a]"))


def test_conflicting_paths_refused(table):
    names = {"#b": "b", "#c": "c", "#d": "[3]"}
    for expression, one, two in [
        ("set #c[3].#d = k, #c.#d[3] = if_not_exists(k)", "[c, [3], [3]]", "[c, [3], [3]]"),
        ("remove k.#c set k[1] = #d", "[k, c]", "[k, [1]]"),
    ]:
        assert refused(table, new_key(), expression, names={k: v for k, v in names.items() if k in expression}) == (
            invalid("Two document paths conflict with each other; must remove or rewrite one of these paths; "
                    f"path one: {one}, path two: {two}")), expression
    for expression in ["SET a.b = :val1, a[1] = :val2", "SET a.b.c = :val1, a.b[2] = :val2"]:
        message = refused(table, new_key(), expression, {":val1": 2, ":val2": "there"})
        assert message.startswith(invalid("Two document paths conflict with each other; ")), (expression, message)


def test_non_overlapping_nested_updates(table):
    key = put(table, a={"x": 3, "y": 4, "c": {"y": 3}}, b={"x": 1, "y": 2})
    update(table, key, "SET a.b = :val1, a.c.d = :val2, b.x = :val3 REMOVE a.x, b.y",
           {":val1": 10, ":val2": "dog", ":val3": 17})
    assert item(table, key) == {**key, "a": {"y": 4, "b": 10, "c": {"y": 3, "d": "dog"}}, "b": {"x": 17}}


def test_dot_in_a_name_reference_is_literal(table):
    key = put(table, a={"b": 1})
    update(table, key, "SET #a = :val1", {":val1": 3}, {"#a": "a.b"})
    assert item(table, key) == {**key, "a.b": 3, "a": {"b": 1}}


def test_nested_set_and_read(table):
    key = put(table, a={"b": 3, "c": {"x": 7, "y": 8}, "l": ["hi", {"x": {"y": [3, 5, 7]}}]}, d=5)
    update(table, key, "SET z = a.c.x")
    update(table, key, "SET a.c.x = :v, a.n = :n", {":v": 70, ":n": "new"})
    update(table, key, "SET a.l[1].#name.y[1] = :val1", {":val1": 9}, {"#name": "x"})
    update(table, key, "SET a.w = a.l[1].#name.y[1]", names={"#name": "x"})
    update(table, key, "SET a.b = :v", {":v": {"now": "a map"}})  # a nested value of another type
    assert item(table, key) == {**key, "d": 5, "z": 7, "a": {"b": {"now": "a map"}, "c": {"x": 70, "y": 8}, "n": "new",
                                                             "l": ["hi", {"x": {"y": [3, 9, 7]}}], "w": 9}}


def test_list_elements(table):
    key = put(table, a=["one", "two", "three"])
    update(table, key, "SET a[1] = :val1", {":val1": "hello"})
    assert item(table, key)["a"] == ["one", "hello", "three"]
    # Past the end: appended; several are appended in index order.
    update(table, key, "SET a[7] = :val1", {":val1": "end"})
    update(table, key, "SET a[84] = :v1, a[37] = :v2, a[17] = :v3, a[50] = :v4",
           {":v1": "a1", ":v2": "a2", ":v3": "a3", ":v4": "a4"})
    assert item(table, key)["a"] == ["one", "hello", "three", "end", "a3", "a2", "a4", "a1"]
    # An index must be a literal integer.
    assert refused(table, key, "SET a[:xyz] = :val1", {":val1": "x", ":xyz": 1}).startswith(invalid("Syntax error"))
    assert refused(table, key, "SET a[#xyz] = :val1", {":val1": "x"}).startswith(invalid("Syntax error"))


def test_remove(table):
    key = put(table, a="hello", b="hi", m={"b": 3, "c": ["hi", {"x": {"y": [3, 5, 7]}, "q": 2}]})
    update(table, key, "REMOVE a")
    assert item(table, key) == {**key, "b": "hi", "m": {"b": 3, "c": ["hi", {"x": {"y": [3, 5, 7]}, "q": 2}]}}
    update(table, key, "REMOVE m.c[1].x.y[1], m.c[1].q")
    assert item(table, key)["m"] == {"b": 3, "c": ["hi", {"x": {"y": [3, 7]}}]}
    update(table, key, "REMOVE zz, m.zz, m.c[17]")  # absent targets: nothing to do
    assert item(table, key)["m"] == {"b": 3, "c": ["hi", {"x": {"y": [3, 7]}}]}


def test_remove_list_elements_use_original_indexes(table):
    key = put(table, a=[2, 3, 4, 5, 6, 7])
    update(table, key, "REMOVE a[1] SET a[3] = :val", {":val": 17})
    assert item(table, key)["a"] == [2, 4, 17, 6, 7]
    table.put_item(Item={**key, "a": [2, 3, 4, 5, 6, 7]})
    update(table, key, "SET a[3] = :val REMOVE a[1]", {":val": 17})
    assert item(table, key)["a"] == [2, 4, 17, 6, 7]
    table.put_item(Item={**key, "a": [0, 1, 2, 3, 4]})
    update(table, key, "REMOVE a[0], a[4], a[2]")
    assert item(table, key)["a"] == [1, 3]


def test_remove_last_member_leaves_empty_container(table):
    key = put(table, a={"b": 1}, l=[1])
    update(table, key, "REMOVE a.b, l[0]")
    assert item(table, key) == {**key, "a": {}, "l": []}


def test_path_whose_parent_is_missing_or_not_a_container(table):
    key = put(table, a="hello", b=["hi"], c={"1": "a"})
    for expression in ["SET a.c = :v", "SET b.c = :v", "SET q.c = :v", "SET a[0] = :v", "SET q[0] = :v",
                       "SET c[1] = :v", "SET b[0].x = :v", "REMOVE a.c", "REMOVE b.c", "REMOVE q.c", "REMOVE a[0]",
                       "REMOVE q[0]", "REMOVE c[1]", "ADD a.c :v", "ADD q.c :v", "ADD c[1] :v", "DELETE a.c :v",
                       "DELETE q[1] :v", "DELETE c[1] :v"]:
        values = {":v": {"x"}} if expression.startswith(("ADD", "DELETE")) else {":v": 7} if ":v" in expression else None
        assert refused(table, key, expression, values) == BAD_PATH, expression
    assert item(table, key) == {**key, "a": "hello", "b": ["hi"], "c": {"1": "a"}}
    # On a missing item, SET of a nested path fails the same way...
    fresh = new_key()
    assert refused(table, fresh, "SET c.c = :v", {":v": 7}) == BAD_PATH
    assert refused(table, fresh, "SET b[0] = :v", {":v": 7}) == BAD_PATH
    assert item(table, fresh) is None


def test_remove_nested_path_from_missing_item_is_ignored(table):
    # ...but REMOVE of a nested path from a missing item is silently ignored (scylla, verified on AWS).
    key = new_key()
    update(table, key, "REMOVE x.y")
    update(table, key, "REMOVE x[0]")
    assert item(table, key) is None


def test_key_attributes_cannot_be_updated(table, range_table):
    p = uuid.uuid4().hex
    rkey = {"pk": p, "sk": 1}
    message = "One or more parameter values were invalid: Cannot update attribute {}. This attribute is part of the key"
    for name in ("pk", "sk"):
        for expression, values in [(f"SET {name} = :v", {":v": 4}), (f"REMOVE {name}", None),
                                   (f"ADD {name} :v", {":v": 4}), (f"DELETE {name} :v", {":v": {"cat", "mouse"}}),
                                   (f"SET {name}.x = :v", {":v": 4}), (f"SET x = :v REMOVE {name}", {":v": 1})]:
            assert refused(range_table, rkey, expression, values) == message.format(name), expression
    # dynalite's cases on a hash key (its key attribute 'a' is our 'pk').
    for expression, values in [("add pk.b :a", {":a": 1}), ("delete pk :a", {":a": {1}}),
                               ("remove d set b = :a, pk = :a", {":a": 1}), ("delete b :a remove pk", {":a": {1}}),
                               ("set pk = pk.b + pk[1]", None)]:
        assert refused(table, new_key(), expression, values) == message.format("pk"), expression
    # Non-key attributes, and reading keys, are fine.
    update(range_table, rkey, "SET a = :v, n = pk, nn = sk + sk", {":v": 4})
    assert range_table.get_item(Key=rkey, ConsistentRead=True)["Item"] == {**rkey, "a": 4, "n": p, "nn": 2}
    update(range_table, rkey, "REMOVE a, n, nn")
    assert range_table.get_item(Key=rkey, ConsistentRead=True)["Item"] == rkey


def test_item_size_limit(table):
    key = new_key()
    assert refused(table, key, "SET b = :b, c = :c",
                   {":b": "a" * 409599, ":c": D("1" * 38 + "E+88")}) == (
        "Item size to update has exceeded the maximum allowed size")
    assert item(table, key) is None


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


# ---- names and values ---------------------------------------------------------------------------


def test_undefined_and_unused_references(table):
    key = new_key()
    assert refused(table, key, "SET b = :val1", {":val2": 4}) == invalid(
        "An expression attribute value used in expression is not defined; attribute value: :val1")
    assert refused(table, key, "SET b = :val1") == invalid(
        "An expression attribute value used in expression is not defined; attribute value: :val1")
    assert refused(table, key, "SET #name = :val1", {":val1": 4}, {"#wrongname": "hello"}) == invalid(
        "An expression attribute name used in the document path is not defined; attribute name: #name")
    assert refused(table, key, "SET #name = :val1", {":val1": 4}) == invalid(
        "An expression attribute name used in the document path is not defined; attribute name: #name")
    assert refused(table, key, "SET a = :val1", {":val1": 3, ":val2": 4}) == (
        "Value provided in ExpressionAttributeValues unused in expressions: keys: {:val2}")
    assert refused(table, key, "SET #a = :val1", {":val1": 3}, {"#a": "hello", "#b": "hi"}) == (
        "Value provided in ExpressionAttributeNames unused in expressions: keys: {#b}")
    assert refused(table, key, "SET #one = #two", names={"#one": "c", "#two": "a", "#three": "z"}) == (
        "Value provided in ExpressionAttributeNames unused in expressions: keys: {#three}")
    message = refused(table, key, "remove a set b = list_append(b, if_not_exists(a, :a))", {":a": "a", ":b": "a"},
                      {"#a": "a", "#b": "b"}, ConditionExpression="a = :b")
    assert message in ("Value provided in ExpressionAttributeNames unused in expressions: keys: {#a, #b}",
                       "Value provided in ExpressionAttributeNames unused in expressions: keys: {#b, #a}")


def test_path_depth_32_accepted(table):
    key = put(table, a=1)
    assert refused(table, key, "SET a" + ".b" * 31 + " = :v", {":v": 1}) == BAD_PATH


def test_path_depth_33_refused(table):
    assert refused(table, new_key(), "SET a" + ".b" * 32 + " = :v", {":v": 1}) == invalid(
        "The document path has too many nesting levels; nesting levels: 33")
