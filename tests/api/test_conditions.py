"""ConditionExpression operators and functions, through boto3 (resource API).

Ground truth: scylladb's alternator tests (test_condition_expression.py, test_limits.py), which pass on
AWS, and dynalite's recorded messages. Every comparator, BETWEEN, IN, AND/OR/NOT precedence,
parentheses and every function, with DynamoDB's type rules (values of different types are never
equal nor ordered, a missing attribute compares false except with <>). Document paths, validation,
PutItem/DeleteItem, ReturnValuesOnConditionCheckFailure and the boto3.dynamodb.conditions builders
are in test_condition_requests.py.

Tests marked xfail(strict=True, reason="expr: ...") are known mismatches of the expression layer
(src/expr), listed for its owner.
"""
import decimal

import pytest

from condition_helpers import holds, refused, invalid
from condition_helpers import table  # noqa: F401 -- a fixture: one table per test module
from item_helpers import new_key, put, item

# One value of every type (scylla's list): N, S, BOOL, B, NULL, L, M, SS, NS, BS.
ALL_TYPES = (1, "hello", True, b"xyz", None, ["hello", 42], {"hello": "world"}, {"hello", "world"}, {1, 2, 3},
             {b"xyz", b"hi"})


def same(v1, v2):
    # Python says True == 1; DynamoDB does not.
    return (v1 is True) == (v2 is True) and v1 == v2


# ---- = and <> ------------------------------------------------------------------------------------


def test_eq_every_type_against_value_and_attribute(table):
    for i, value in enumerate(ALL_TYPES):
        key = put(table, a=value, b=value)
        assert holds(table, key, "a = b"), value
        assert holds(table, key, "a = :v", {":v": value}), value
        assert holds(table, key, ":v = a", {":v": value}), value


def test_values_of_different_types_are_never_equal(table):
    for v1 in ALL_TYPES:
        key = put(table, a=v1)
        for v2 in ALL_TYPES:
            assert holds(table, key, "a = :v", {":v": v2}) == same(v1, v2), (v1, v2)
            assert holds(table, key, "a <> :v", {":v": v2}) == (not same(v1, v2)), (v1, v2)


def test_eq_same_type_unequal_and_missing(table):
    key = put(table, a=1)
    assert not holds(table, key, "a = :v", {":v": 2})
    assert not holds(table, key, "q = :v", {":v": 2})
    # A missing attribute is never equal to anything, not even another missing one.
    assert not holds(table, key, "q = z")
    assert not holds(table, new_key(), "q = z")


def test_numbers_compare_numerically(table):
    key = put(table, n=decimal.Decimal("5"), ns={2, 4, 7})
    assert holds(table, key, "n = :v", {":v": decimal.Decimal("5.000")})
    assert holds(table, key, "n = :v", {":v": decimal.Decimal("0.5E1")})
    assert not holds(table, key, "n = :v", {":v": "5"})
    assert holds(table, key, "ns = :v", {":v": {decimal.Decimal("7.0"), 2, 4}})


def test_set_equality_ignores_order(table):
    # Built incrementally so the stored order differs from the request's.
    key = put(table, a={"dog", "chinchilla"})
    table.update_item(Key=key, UpdateExpression="ADD a :v", ExpressionAttributeValues={":v": {"cat", "mouse"}})
    assert holds(table, key, "a = :v", {":v": {"chinchilla", "cat", "dog", "mouse"}})
    assert not holds(table, key, "a <> :v", {":v": {"chinchilla", "cat", "dog", "mouse"}})
    assert holds(table, key, "a <> :v", {":v": {"chinchilla", "cat", "dog"}})


def test_nested_set_and_map_equality(table):
    key = put(table, a={"b": "c", "d": ["e", "f", {"g", "h"}], "i": {"j", "k"}})
    table.update_item(Key=key, UpdateExpression="ADD a.d[2] :v1, a.i :v2",
                      ExpressionAttributeValues={":v1": {"l", "m"}, ":v2": {"n", "o"}})
    expected = {"b": "c", "d": ["e", "f", {"g", "h", "l", "m"}], "i": {"j", "k", "n", "o"}}
    assert item(table, key)["a"] == expected
    assert holds(table, key, "a = :v", {":v": expected})
    wrong = {"b": "c", "d": ["e", "f", {"g", "h", "l", "bad"}], "i": {"j", "k", "n", "o"}}
    assert not holds(table, key, "a = :v", {":v": wrong})
    # Lists compare element by element, in order.
    assert not holds(table, key, "a.d = :v", {":v": ["f", "e", {"g", "h", "l", "m"}]})


def test_ne(table):
    key = put(table, a=1, b=2, c=1)
    assert holds(table, key, "a <> :v", {":v": 3})
    assert holds(table, key, "a <> b")
    assert not holds(table, key, "a <> c")
    assert holds(table, key, "a <> :v", {":v": "1"})  # another type: not equal
    assert holds(table, key, "z <> :v", {":v": 1})  # missing: not equal
    assert holds(table, key, "q <> z")  # two missing attributes: not equal either
    assert holds(table, new_key(), "q <> z")


# ---- <, <=, >, >= --------------------------------------------------------------------------------

ORDER_CASES = {
    # op: [(attribute, constant, expected), ...] with a=1, b='cat', c=b'cat'
    "<": [("a", 2, True), ("a", 1, False), ("a", 0, False), ("b", "dog", True), ("b", "cat", False),
          ("b", "aardvark", False), ("c", b"dog", True), ("c", b"cat", False), ("c", b"aardvark", False)],
    "<=": [("a", 2, True), ("a", 1, True), ("a", 0, False), ("b", "dog", True), ("b", "cat", True),
           ("b", "aardvark", False), ("c", b"dog", True), ("c", b"cat", True), ("c", b"aardvark", False)],
    ">": [("a", 0, True), ("a", 1, False), ("a", 2, False), ("b", "aardvark", True), ("b", "cat", False),
          ("b", "dog", False), ("c", b"aardvark", True), ("c", b"cat", False), ("c", b"dog", False)],
    ">=": [("a", 0, True), ("a", 1, True), ("a", 2, False), ("b", "aardvark", True), ("b", "cat", True),
           ("b", "dog", False), ("c", b"aardvark", True), ("c", b"cat", True), ("c", b"dog", False)],
}
MIRROR = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


@pytest.mark.parametrize("op", ["<", "<=", ">", ">="])
def test_order_comparators(table, op):
    key = put(table, a=1, b="cat", c=b"cat", x=[1, 2, 3], two=2)
    for attr, constant, expected in ORDER_CASES[op]:
        assert holds(table, key, f"{attr} {op} :v", {":v": constant}) == expected, (attr, op, constant)
        # The same comparison written the other way round.
        assert holds(table, key, f":v {MIRROR[op]} {attr}", {":v": constant}) == expected, (attr, op, constant)
    # Different types, or a missing attribute: false, not an error.
    assert not holds(table, key, f"a {op} :v", {":v": "17"})
    assert not holds(table, key, f"q {op} :v", {":v": "17"})
    assert not holds(table, key, f":v {op} q", {":v": "17"})
    assert not holds(table, key, f"q {op} z")
    # An item attribute of a type that has no order: false too.
    assert not holds(table, key, f"x {op} :v", {":v": 1})
    assert not holds(table, key, f":v {op} x", {":v": 1})
    # Two attributes of the item.
    assert holds(table, key, f"a {op} two") == (op in ("<", "<="))


@pytest.mark.parametrize("op", ["<", "<=", ">", ">="])
def test_order_comparator_refuses_unorderable_constant(table, op):
    key = put(table, a=1)
    message = invalid(f"Incorrect operand type for operator or function; operator or function: {op}, operand type: L")
    assert refused(table, key, f"a {op} :v", {":v": [1, 2]}) == message
    assert refused(table, key, f":v {op} a", {":v": [1, 2]}) == message


def test_binary_compares_as_unsigned_bytes(table):
    key = put(table, b=bytearray([127]))
    assert holds(table, key, "b < :v", {":v": bytearray([128])})
    assert holds(table, key, "b <= :v", {":v": bytearray([128])})
    assert holds(table, key, "b BETWEEN :lo AND :hi", {":lo": bytearray([126]), ":hi": bytearray([128])})
    key = put(table, b=bytearray([128]))
    assert holds(table, key, "b > :v", {":v": bytearray([127])})
    assert holds(table, key, "b >= :v", {":v": bytearray([127])})


def test_strings_compare_by_utf8_bytes(table):
    key = put(table, s="\uffff", t="\U0001f600")
    # In UTF-8, U+FFFF (ef bf bf) sorts before U+1F600 (f0 9f 98 80); in UTF-16 it would be after.
    assert holds(table, key, "s < t")
    assert holds(table, key, "s < :v", {":v": "\U0001f600"})


# ---- BETWEEN ------------------------------------------------------------------------------------


def test_between(table):
    key = put(table, a=1, b="cat", c=b"cat", x=0, y=2)
    assert holds(table, key, "a BETWEEN :lo AND :hi", {":lo": 0, ":hi": 2})
    assert holds(table, key, "a BETWEEN :lo AND :hi", {":lo": 1, ":hi": 1})  # inclusive
    assert holds(table, key, "b BETWEEN :lo AND :hi", {":lo": "aardvark", ":hi": "dog"})
    assert holds(table, key, "b BETWEEN :lo AND :hi", {":lo": "cat", ":hi": "cat"})
    assert holds(table, key, "c BETWEEN :lo AND :hi", {":lo": b"aardvark", ":hi": b"dog"})
    assert holds(table, key, "c BETWEEN :lo AND :hi", {":lo": b"cat", ":hi": b"cat"})
    assert holds(table, key, "a BETWEEN x AND y")  # every operand from the item
    assert holds(table, key, "a between x and y")  # keywords are case-insensitive
    assert not holds(table, key, "a BETWEEN :lo AND :hi", {":lo": 2, ":hi": 7})
    assert not holds(table, key, "b BETWEEN :lo AND :hi", {":lo": "dog", ":hi": "zebra"})
    assert not holds(table, key, "c BETWEEN :lo AND :hi", {":lo": b"dog", ":hi": b"zebra"})
    assert not holds(table, key, "a BETWEEN :lo AND :hi", {":lo": "0", ":hi": "2"})  # another type
    assert not holds(table, key, "q BETWEEN :lo AND :hi", {":lo": 0, ":hi": 2})  # missing
    assert not holds(table, key, "q BETWEEN z AND x")


def test_between_bounds_from_the_request_are_checked(table):
    key = put(table, a=1)
    assert refused(table, key, "a BETWEEN :lo AND :hi", {":lo": 2, ":hi": 1}) == invalid(
        "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; "
        "lower bound operand: AttributeValue: {N:2}, upper bound operand: AttributeValue: {N:1}")
    assert refused(table, key, "a BETWEEN :lo AND :hi", {":lo": 2, ":hi": "dog"}) == invalid(
        "The BETWEEN operator requires same data type for lower and upper bounds; "
        "lower bound operand: AttributeValue: {N:2}, upper bound operand: AttributeValue: {S:dog}")
    assert refused(table, key, "a BETWEEN :lo AND :hi", {":lo": [1, 2], ":hi": [2, 3]}) == invalid(
        "Incorrect operand type for operator or function; operator or function: BETWEEN, operand type: L")


def test_between_bounds_from_the_item_are_just_false(table):
    key = put(table, a=1, two=2, x=[1, 2, 3], y=[2, 3, 4])
    assert not holds(table, key, "a BETWEEN x AND y")
    assert not holds(table, key, "a BETWEEN two AND :v", {":v": 1})
    assert not holds(table, key, "a BETWEEN :v AND two", {":v": 3})
    assert not holds(table, key, "a BETWEEN two AND :v", {":v": "dog"})


# ---- IN -----------------------------------------------------------------------------------------


def test_in(table):
    for value in ALL_TYPES:
        key = put(table, a=value, b=value)
        assert holds(table, key, "a IN (b)"), value
        assert holds(table, key, "a IN (:v)", {":v": value}), value
    key = put(table, a=74)
    values = {f":val{i}": i for i in range(99)}
    assert holds(table, key, "a IN ({})".format(",".join(values)), values)
    table.put_item(Item={**key, "a": 174})
    assert not holds(table, key, "a IN ({})".format(",".join(values)), values)
    # Unlike Expected's IN, the candidates may have different types.
    assert holds(table, key, "a IN (:x, :y)", {":x": "dog", ":y": 174})
    assert not holds(table, key, "q IN (:x, :y)", {":x": "dog", ":y": 174})


def test_in_limits(table):
    key = put(table, a=1)
    assert refused(table, key, "a IN ()") == invalid('Syntax error; token: ")", near: "()"')
    values = {f":v{i}": i for i in range(101)}
    assert refused(table, key, "a IN ({})".format(", ".join(values)), values) == invalid(
        "The IN operator is provided with too many operands; number of operands: 101")


# ---- AND, OR, NOT, parentheses ------------------------------------------------------------------


def test_and_or_not(table):
    key = put(table, a=1, b=2, c=3)
    assert holds(table, key, "a < b AND b < c")
    assert holds(table, key, "a < b aNd b < c")
    assert not holds(table, key, "a < b AND c < b")
    assert holds(table, key, "a < b OR b < c")
    assert holds(table, key, "b < a OR b < c")
    assert holds(table, key, "a < b oR b < c")
    assert not holds(table, key, "b < a OR c < b")
    assert holds(table, key, "NOT b < a")
    assert holds(table, key, "nOt b < a")
    assert not holds(table, key, "NOT a < b")
    assert holds(table, key, "NOT NOT NOT NOT a < b")
    assert holds(table, key, "(a < b OR b < a) AND (b < c AND (a < b OR b < c))")


def test_precedence(table):
    key = put(table, a=1, b=2, c=3)
    # AND binds tighter than OR: a<b OR (c<b AND b<c).
    assert holds(table, key, "a < b OR c < b AND b < c")
    assert not holds(table, key, "(a < b OR c < b) AND c < b")
    assert holds(table, key, "c < b AND b < c OR a < b")
    # NOT binds tighter than AND: (NOT a<b) AND c<b.
    assert not holds(table, key, "NOT a < b AND c < b")
    assert holds(table, key, "NOT c < b AND a < b")
    assert holds(table, key, "NOT a < b OR b < c")
    assert not holds(table, key, "NOT (a < b OR b < c)")
    # BETWEEN's AND belongs to BETWEEN.
    assert holds(table, key, "b BETWEEN a AND c AND a < b")
    assert not holds(table, key, "b BETWEEN a AND c AND b < a")
    # Comparisons bind tighter than NOT.
    assert holds(table, key, "NOT attribute_exists(q) AND a = :v OR a = :w", {":v": 9, ":w": 1})


def test_redundant_parentheses_refused(table):
    key = put(table, a=1)
    assert holds(table, key, "(a = :v)", {":v": 1})
    assert holds(table, key, "a = :v AND (a = :v)", {":v": 1})
    assert refused(table, key, "((a = :v))", {":v": 1}) == invalid("The expression has redundant parentheses;")
    assert refused(table, key, "a = :v AND ((a = :v))", {":v": 1}) == invalid(
        "The expression has redundant parentheses;")


# ---- functions ----------------------------------------------------------------------------------


def test_attribute_exists_and_not_exists(table):
    key = put(table, a=1, m={"x": 1, "y": {"z": None}}, l=[1, {"q": 2}])
    assert holds(table, key, "attribute_exists (a)")
    assert not holds(table, key, "attribute_exists (z)")
    assert holds(table, key, "attribute_not_exists (z)")
    assert not holds(table, key, "attribute_not_exists (a)")
    assert holds(table, key, "attribute_exists(m.y.z)")  # a NULL value exists
    assert holds(table, key, "attribute_exists(l[1].q)")
    assert holds(table, key, "attribute_not_exists(l[2])")
    assert holds(table, key, "attribute_not_exists(a.x)")  # a is a number
    assert holds(table, key, "attribute_not_exists(m[0])")  # m is a map


def test_attribute_exists_needs_a_path(table):
    key = put(table, a=1)
    for fn in ("attribute_exists", "attribute_not_exists"):
        assert refused(table, key, f"{fn} (:v)", {":v": 3}) == invalid(
            f"Operator or function requires a document path; operator or function: {fn}")


def test_attribute_type(table):
    type_values = [("S", "hello"), ("SS", {"hello", "world"}), ("N", 2), ("NS", {1, 2}), ("B", b"dog"),
                   ("BS", {b"dog", b"cat"}), ("BOOL", True), ("NULL", None), ("L", [1, "dog"]), ("M", {"a": 3})]
    key = put(table, **{f"a{i}": v for i, (_, v) in enumerate(type_values)}, m={"l": [{"n": 1}]})
    for i, (expected_type, _) in enumerate(type_values):
        assert holds(table, key, f"attribute_type (a{i}, :t)", {":t": expected_type})
        wrong_type = type_values[(i + 1) % len(type_values)][0]
        assert not holds(table, key, f"attribute_type (a{i}, :t)", {":t": wrong_type})
    assert holds(table, key, "attribute_type(m.l[0].n, :t)", {":t": "N"})
    assert not holds(table, key, "attribute_type(q, :t)", {":t": "N"})
    # The documentation asks for a path, but a value works too.
    assert holds(table, key, "attribute_type (:v, :t)", {":v": 0, ":t": "N"})


def test_attribute_type_refusals(table):
    key = put(table, a=1, b="N")
    assert refused(table, key, "attribute_type (a, :t)", {":t": "DOG"}) == invalid(
        "Invalid attribute type name found; type: DOG, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}")
    # The type must come from ExpressionAttributeValues.
    assert refused(table, key, "attribute_type (a, b)").startswith(invalid(""))


def test_begins_with(table):
    key = put(table, a="hello", b=b"hi there", n=5, e="\u00e9\U0001d11e")
    assert holds(table, key, "begins_with(a, :v)", {":v": "hell"})
    assert holds(table, key, "begins_with(a, :v)", {":v": ""})
    assert not holds(table, key, "begins_with(a, :v)", {":v": "dog"})
    assert holds(table, key, "begins_with(b, :v)", {":v": b"hi"})
    assert not holds(table, key, "begins_with(b, :v)", {":v": "hi"})  # a string is not a binary prefix
    assert holds(table, key, "begins_with(e, :v)", {":v": "\u00e9"})
    # An item attribute of the wrong type, or a missing one: false.
    assert not holds(table, key, "begins_with(n, :v)", {":v": "5"})
    assert not holds(table, key, "begins_with(c, :v)", {":v": "dog"})
    assert not holds(table, key, "begins_with(c, a)")
    # The arguments may be any operands, in either order.
    assert holds(table, key, "begins_with(:v, a)", {":v": "hellohi"})
    table.update_item(Key=key, UpdateExpression="SET c = :v", ExpressionAttributeValues={":v": "he"})
    assert holds(table, key, "begins_with(a, c)")


def test_begins_with_refuses_constant_of_wrong_type(table):
    key = put(table, a="hello")
    message = invalid("Incorrect operand type for operator or function; operator or function: begins_with, "
                      "operand type: N")
    assert refused(table, key, "begins_with(a, :v)", {":v": 2}) == message
    assert refused(table, key, "begins_with(c, :v)", {":v": 2}) == message


def test_contains(table):
    key = put(table, a="hello", b={2, 4, 7}, c=[2, 4, 7], d=b"hi there", e=["hi", {1, 2}, [3, 4]],
              ss={"x", "y"}, bs={b"x"}, n=5, m={"x": 1}, u="\u00e9\U0001d11e")
    assert holds(table, key, "contains(a, :v)", {":v": "ell"})
    assert not holds(table, key, "contains(a, :v)", {":v": "dog"})
    assert holds(table, key, "contains(u, :v)", {":v": "\U0001d11e"})
    assert holds(table, key, "contains(b, :v)", {":v": 4})  # set membership
    assert not holds(table, key, "contains(b, :v)", {":v": "4"})
    assert holds(table, key, "contains(ss, :v)", {":v": "y"})
    assert holds(table, key, "contains(bs, :v)", {":v": b"x"})
    assert holds(table, key, "contains(c, :v)", {":v": 4})  # list membership
    assert not holds(table, key, "contains(c, :v)", {":v": 5})
    assert holds(table, key, "contains(d, :v)", {":v": b"here"})  # binary substring
    assert not holds(table, key, "contains(d, :v)", {":v": b"dog"})
    assert not holds(table, key, "contains(d, :v)", {":v": {1, 2}})
    assert holds(table, key, "contains(e, :v)", {":v": {1, 2}})  # lists hold any type
    assert holds(table, key, "contains(e, :v)", {":v": [3, 4]})
    assert not holds(table, key, "contains(e, :v)", {":v": "h"})
    assert not holds(table, key, "contains(ss, :v)", {":v": {"x"}})  # a subset is not a member
    assert not holds(table, key, "contains(n, :v)", {":v": 5})
    assert not holds(table, key, "contains(m, :v)", {":v": "x"})  # maps have no members
    assert not holds(table, key, "contains(q, :v)", {":v": "x"})
    assert holds(table, key, "contains(:v, a)", {":v": "oh hello there"})


def test_contains_same_attribute_twice_refused(table):
    key = put(table, a="hello", a1="hello")
    assert holds(table, key, "contains(a, a1)")
    assert refused(table, key, "contains(a, a)").startswith(invalid(""))


def test_size(table):
    key = put(table, a="hello", b={2, 4, 7}, c=[2, "dog", 7], d=b"hi there", e={"x": 2, "y": {"m": 3, "n": 4}},
              f=5, g=True, h=None, es="", l=[[1, 2]])
    for attr, size in [("a", 5), ("b", 3), ("c", 3), ("d", 8), ("e", 2), ("e.y", 2), ("es", 0), ("l[0]", 2)]:
        assert holds(table, key, f"size({attr}) = :v", {":v": size}), attr
        assert not holds(table, key, f"size({attr}) = :v", {":v": size + 1}), attr
    # Numbers, booleans and NULL have no size: the comparison is false.
    for attr in ("f", "g", "h", "q"):
        assert not holds(table, key, f"size({attr}) = :v", {":v": 1}), attr
        assert not holds(table, key, f"size({attr}) > :v", {":v": 0}), attr
    assert not holds(table, key, "size(a) = :v", {":v": "dog"})  # compared with a non-number
    assert holds(table, key, "size(a) = f")
    assert holds(table, key, "size(a) > size(b)")
    assert holds(table, key, "size(a) <> :v", {":v": 4})
    assert holds(table, key, "size(a) < :v", {":v": 7})
    assert holds(table, key, "size(a) <= :v", {":v": 5})
    assert holds(table, key, "size(a) > :v", {":v": 2})
    assert holds(table, key, "size(a) >= :v", {":v": 5})
    assert holds(table, key, "size(a) BETWEEN :lo AND :hi", {":lo": 1, ":hi": 5})
    assert holds(table, key, "size(a) IN (:lo, :hi)", {":lo": 1, ":hi": 5})


def test_size_of_string_counts_utf16_code_units(table):
    key = put(table, u="\u00e9\U0001d11e", e="\u00e9")
    assert holds(table, key, "size(e) = :v", {":v": 1})
    assert holds(table, key, "size(u) = :v", {":v": 3})


def test_function_misuse_refused(table):
    key = put(table, a="hello")
    assert refused(table, key, "size(a, a) = :v", {":v": 5}) == invalid(
        "Incorrect number of operands for operator or function; operator or function: size, number of operands: 2")
    assert refused(table, key, "size(a)") == invalid(
        "The function is not allowed to be used this way in an expression; function: size")
    assert refused(table, key, "attribute_exists(a) < :v", {":v": 1}) == invalid(
        "The function is not allowed to be used this way in an expression; function: attribute_exists")
    assert refused(table, key, "dog(a) = :v", {":v": 5}) == invalid("Invalid function name; function: dog")
    # Function names are case-sensitive.
    assert refused(table, key, "BEGINS_WITH(a, :v)", {":v": "h"}) == invalid(
        "Invalid function name; function: BEGINS_WITH")
    # A bare operand is not a condition.
    assert refused(table, key, "a") == invalid('Syntax error; token: "<EOF>", near: "a"')
    assert refused(table, key, "NOT a") == invalid('Syntax error; token: "<EOF>", near: "a"')


def test_update_functions_not_allowed_in_conditions(table):
    key = put(table, a="hello")
    for fn in ("if_not_exists", "list_append"):
        message = refused(table, key, f"{fn}(a, a) = :v", {":v": 5})
        assert message.startswith(invalid("")) and "not allowed" in message and fn in message, message
