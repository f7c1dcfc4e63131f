"""UpdateItem with an UpdateExpression, through boto3: SET (= and copies between attributes),
REMOVE (including list elements), the syntax and reserved words, each clause once, overlapping and
conflicting paths, nested paths and list elements, key attributes, paths whose parent does not
exist, the item size limit, undefined and unused names and values, path depth and the validation
messages. Arithmetic, list_append, if_not_exists, ADD, DELETE, upsert and ReturnValues are in
test_update_item_actions.py.

Ground truth: scylladb's alternator tests (test_update_expression.py, test_returnvalues.py,
test_item.py, test_number.py, test_limits.py), which pass on AWS, and dynalite's recorded
updateItem messages. Tests marked xfail(strict=True, reason="expr: ...") are known mismatches of the
expression layer (src/expr), listed for its owner.
"""
import uuid

import pytest

from conftest import make_resource_table
from item_helpers import new_key, put, item
from update_helpers import D, NO_ATTRIBUTE, BAD_PATH, update, refused, invalid
from update_helpers import table  # noqa: F401 -- a fixture: one table per test module


@pytest.fixture(scope="module")
def range_table(ddb, resource):
    return make_resource_table(ddb, resource, "upd-range", range_key=True)


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
