"""TransactWriteItems / TransactGetItems / BatchGetItem: shapes, atomicity, idempotency."""
import re

import pytest
from botocore.exceptions import ClientError
from conftest import unique_name
from wire_helpers import err

CANCELLED = "Transaction cancelled, please refer cancellation reasons for specific reasons "


def put(table, pk, **attrs):
    return {"Put": {"TableName": table, "Item": {"pk": {"S": pk}, **attrs}}}


def test_write_then_get_across_two_tables(ddb, hash_table, hash_range_table):
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "old"}})
    resp = ddb.transact_write_items(TransactItems=[
        put(hash_table, "a", v={"N": "1"}),
        {"Put": {"TableName": hash_range_table, "Item": {"pk": {"S": "a"}, "sk": {"N": "1"}}}},
        {"Delete": {"TableName": hash_table, "Key": {"pk": {"S": "old"}}}},
    ], ReturnConsumedCapacity="TOTAL")
    caps = {c["TableName"]: c["CapacityUnits"] for c in resp["ConsumedCapacity"]}
    assert caps == {hash_table: 4.0, hash_range_table: 2.0}  # transactional writes cost double
    got = ddb.transact_get_items(TransactItems=[
        {"Get": {"TableName": hash_table, "Key": {"pk": {"S": "a"}}}},
        {"Get": {"TableName": hash_table, "Key": {"pk": {"S": "old"}}}},
        {"Get": {"TableName": hash_range_table, "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}}}},
    ], ReturnConsumedCapacity="TOTAL")
    assert got["Responses"] == [{"Item": {"pk": {"S": "a"}, "v": {"N": "1"}}}, {},
                                {"Item": {"pk": {"S": "a"}, "sk": {"N": "1"}}}]
    caps = {c["TableName"]: c["CapacityUnits"] for c in got["ConsumedCapacity"]}
    assert caps == {hash_table: 4.0, hash_range_table: 2.0}


def test_two_actions_on_one_item_refused(ddb, hash_table):
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[put(hash_table, "x"),
                                                {"Delete": {"TableName": hash_table, "Key": {"pk": {"S": "x"}}}}])
    assert err(e) == ("ValidationException", "Transaction request cannot include multiple operations on one item")
    assert "Item" not in ddb.get_item(TableName=hash_table, Key={"pk": {"S": "x"}})


def test_invalid_action_applies_nothing(ddb, hash_table):
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[put(hash_table, "ok"),
                                                {"Put": {"TableName": hash_table, "Item": {"nokey": {"S": "x"}}}}])
    assert err(e) == ("TransactionCanceledException", CANCELLED + "[None, ValidationError]")
    assert e.value.response["CancellationReasons"] == [
        {"Code": "None"},
        {"Code": "ValidationError", "Message": "One or more parameter values were invalid: Missing the key pk in the item"}]
    assert "Item" not in ddb.get_item(TableName=hash_table, Key={"pk": {"S": "ok"}})


def test_client_request_token_is_idempotent(ddb, hash_table):
    items = [put(hash_table, "t1", n={"N": "1"})]
    ddb.transact_write_items(TransactItems=items, ClientRequestToken="token-1")
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "t1"}, "n": {"N": "2"}})
    # The replay does not apply the put again.
    ddb.transact_write_items(TransactItems=items, ClientRequestToken="token-1")
    assert ddb.get_item(TableName=hash_table, Key={"pk": {"S": "t1"}})["Item"]["n"] == {"N": "2"}
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[put(hash_table, "t2")], ClientRequestToken="token-1")
    assert err(e)[0] == "IdempotentParameterMismatchException"


def test_more_than_100_actions(ddb, hash_table):
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[put(hash_table, f"k{i}") for i in range(101)])
    assert err(e)[0] == "ValidationException"
    assert "Member must have length less than or equal to 100" in err(e)[1]


def test_batch_get_over_tables_with_missing_keys(ddb, hash_table, hash_range_table):
    for i in range(5):
        ddb.put_item(TableName=hash_table, Item={"pk": {"S": f"b{i}"}, "v": {"N": str(i)}})
    ddb.put_item(TableName=hash_range_table, Item={"pk": {"S": "z"}, "sk": {"N": "9"}})
    resp = ddb.batch_get_item(RequestItems={
        hash_table: {"Keys": [{"pk": {"S": f"b{i}"}} for i in range(7)], "ConsistentRead": True},
        hash_range_table: {"Keys": [{"pk": {"S": "z"}, "sk": {"N": "9"}}]},
    }, ReturnConsumedCapacity="TOTAL")
    got = sorted(int(i["v"]["N"]) for i in resp["Responses"][hash_table])
    assert got == [0, 1, 2, 3, 4]
    assert resp["Responses"][hash_range_table] == [{"pk": {"S": "z"}, "sk": {"N": "9"}}]
    assert resp["UnprocessedKeys"] == {}
    caps = {c["TableName"]: c["CapacityUnits"] for c in resp["ConsumedCapacity"]}
    assert caps == {hash_table: 7.0, hash_range_table: 0.5}  # rounded per item, missing items cost too


def test_batch_get_validation(ddb, hash_table):
    with pytest.raises(ClientError) as e:
        ddb.batch_get_item(RequestItems={hash_table: {"Keys": [{"pk": {"S": "a"}}, {"pk": {"S": "a"}}]}})
    assert err(e) == ("ValidationException", "Provided list of item keys contains duplicates")
    with pytest.raises(ClientError) as e:
        ddb.batch_get_item(RequestItems={hash_table: {"Keys": [{"pk": {"S": f"k{i}"}} for i in range(101)]}})
    assert err(e)[0] == "ValidationException"
    with pytest.raises(ClientError) as e:
        ddb.batch_get_item(RequestItems={hash_table: {"Keys": [{"wrong": {"S": "a"}}]}})
    assert err(e) == ("ValidationException", "The provided key element does not match the schema")


# ---- which refusals cancel the transaction and which refuse the request --------------------------
# Ground truth: ScyllaDB alternator's test_transact.py (run against AWS): a key of the wrong type
# in one action is a TransactionCanceledException whose reason for that action is ValidationError
# and None for every other (only the first invalid action is reported, no condition is evaluated);
# expression errors, ReturnValuesOnConditionCheckFailure values, two actions on one item and a
# payload over 4 MB are a ValidationException for the whole request.


def cancelled(e):
    assert err(e)[0] == "TransactionCanceledException"
    return e.value.response["CancellationReasons"]


def test_per_action_key_errors_cancel_and_item_size_by_action_kind(ddb, hash_table, hash_range_table):
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[
            {"Put": {"TableName": hash_table, "Item": {"pk": {"N": "7"}}}},        # wrong key type
            {"Put": {"TableName": hash_table, "Item": {"pk": {"N": "8"}}}},        # not reached
            {"Put": {"TableName": hash_table, "Item": {"pk": {"S": "c"}},       # false, not evaluated
                     "ConditionExpression": "attribute_exists(pk)"}}])
    assert err(e)[1] == CANCELLED + "[ValidationError, None, None]"
    assert cancelled(e) == [
        {"Code": "ValidationError",
         "Message": "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N"},
        {"Code": "None"}, {"Code": "None"}]
    # A ConditionCheck / Delete / Update key that does not match the schema.
    for action in [
        {"ConditionCheck": {"TableName": hash_range_table, "Key": {"pk": {"S": "a"}},
                            "ConditionExpression": "attribute_exists(pk)"}},
        {"Delete": {"TableName": hash_table, "Key": {"pk": {"S": "a"}, "x": {"S": "b"}}}},
        {"Update": {"TableName": hash_range_table, "Key": {"pk": {"S": "a"}, "sk": {"S": "1"}},
                    "UpdateExpression": "SET v = :v", "ExpressionAttributeValues": {":v": {"N": "1"}}}},
    ]:
        with pytest.raises(ClientError) as e:
            ddb.transact_write_items(TransactItems=[put(hash_table, "fine"), action])
        assert cancelled(e) == [{"Code": "None"},
                                {"Code": "ValidationError", "Message": "The provided key element does not match the schema"}]
    # A Put item over 400 KB is refused before the transaction opens (its size is known from the
    # request); an Update growing its item over 400 KB cancels it (recorded on AWS by
    # paritysuite/dynamodb-conformance, tier3/limits/itemSizeBySurface).
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[put(hash_table, "small"), put(hash_table, "big", x={"S": "x" * 409600})])
    assert err(e) == ("ValidationException", "Item size has exceeded the maximum allowed size")
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "grow"}})
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[put(hash_table, "small"), {"Update": {
            "TableName": hash_table, "Key": {"pk": {"S": "grow"}}, "UpdateExpression": "SET x = :x",
            "ExpressionAttributeValues": {":x": {"S": "x" * 409600}}}}])
    assert cancelled(e) == [{"Code": "None"}, {"Code": "ValidationError",
                                               "Message": "Item size to update has exceeded the maximum allowed size"}]
    # Exactly 409,600 bytes fit, in a Put and in an Update.
    ddb.transact_write_items(TransactItems=[put(hash_table, "at", x={"S": "x" * (409600 - 7)})])  # pk+"at"+x = 7
    ddb.transact_write_items(TransactItems=[{"Update": {
        "TableName": hash_table, "Key": {"pk": {"S": "grow"}}, "UpdateExpression": "SET x = :x",
        "ExpressionAttributeValues": {":x": {"S": "x" * (409600 - 9)}}}}])  # pk+"grow"+x = 9
    for pk in ("fine", "big", "small", "c"):
        assert "Item" not in ddb.get_item(TableName=hash_table, Key={"pk": {"S": pk}})


def test_request_level_errors_refuse_the_whole_request(ddb, hash_table):
    for action, pattern in [
        ({"ConditionExpression": "attribute_exists(#xyz)"}, "#xyz"),
        ({"ConditionExpression": "pk = :xyz"}, ":xyz"),
        ({"ConditionExpression": "attribute_exists(pk)", "ExpressionAttributeNames": {"#xyz": "x"}}, "unused.*#xyz"),
        ({"ConditionExpression": "attribute_exists(pk)", "ExpressionAttributeValues": {":xyz": {"N": "7"}}},
         "unused.*:xyz"),
        ({"ConditionExpression": "hello!"}, "Syntax error"),
        ({"ReturnValuesOnConditionCheckFailure": "dog", "ConditionExpression": "attribute_exists(pk)"},
         "[rR]eturnValuesOnConditionCheckFailure"),
    ]:
        # Even next to an action whose key is wrong: the request is refused before any action.
        with pytest.raises(ClientError) as e:
            ddb.transact_write_items(TransactItems=[
                {"Put": {"TableName": hash_table, "Item": {"pk": {"N": "1"}}}},
                {"Put": {"TableName": hash_table, "Item": {"pk": {"S": "p"}}, **action}}])
        assert err(e)[0] == "ValidationException", action
        assert re.search(pattern, err(e)[1]), err(e)
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[put(hash_table, "same"), put(hash_table, "same")])
    assert err(e) == ("ValidationException", "Transaction request cannot include multiple operations on one item")
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[put(hash_table, "a"), put("no-such-table-here", "a")])
    assert err(e)[0] == "ResourceNotFoundException"


def test_condition_failures_list_every_action(ddb, hash_table):
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "exists"}, "v": {"N": "1"}})
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[
            put(hash_table, "n1"),
            {"ConditionCheck": {"TableName": hash_table, "Key": {"pk": {"S": "missing"}},
                                "ConditionExpression": "attribute_exists(pk)"}},
            {"Put": {"TableName": hash_table, "Item": {"pk": {"S": "exists"}}, "ConditionExpression": "attribute_not_exists(pk)",
                     "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}}])
    assert err(e)[1] == CANCELLED + "[None, ConditionalCheckFailed, ConditionalCheckFailed]"
    assert cancelled(e) == [
        {"Code": "None"},
        {"Code": "ConditionalCheckFailed", "Message": "The conditional request failed"},
        {"Code": "ConditionalCheckFailed", "Message": "The conditional request failed",
         "Item": {"pk": {"S": "exists"}, "v": {"N": "1"}}}]


def test_transact_get_items_key_errors_cancel_other_errors_refuse(ddb, hash_table, hash_range_table):
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "g"}})
    with pytest.raises(ClientError) as e:
        ddb.transact_get_items(TransactItems=[
            {"Get": {"TableName": hash_table, "Key": {"pk": {"S": "g"}}}},
            {"Get": {"TableName": hash_table, "Key": {"pk": {"N": "1"}}}},
            {"Get": {"TableName": hash_range_table, "Key": {"pk": {"S": "g"}}}}])
    assert err(e)[1] == CANCELLED + "[None, ValidationError, None]"
    assert cancelled(e) == [{"Code": "None"},
                            {"Code": "ValidationError", "Message": "The provided key element does not match the schema"},
                            {"Code": "None"}]
    get = {"TableName": hash_table, "Key": {"pk": {"S": "g"}}}
    with pytest.raises(ClientError) as e:
        ddb.transact_get_items(TransactItems=[
            {"Get": {"TableName": hash_table, "Key": {"pk": {"N": "1"}}}},
            {"Get": {**get, "ProjectionExpression": "#xx", "ExpressionAttributeNames": {"#xx": "x", "#qq": "q"}}}])
    assert err(e)[0] == "ValidationException" and re.search("unused.*#qq", err(e)[1])
    with pytest.raises(ClientError) as e:
        ddb.transact_get_items(TransactItems=[{"Get": {**get, "ProjectionExpression": "#zz"}}])
    assert err(e)[0] == "ValidationException" and "#zz" in err(e)[1]
    with pytest.raises(ClientError) as e:
        ddb.transact_get_items(TransactItems=[{"Get": get}, {"Get": get}])
    assert err(e) == ("ValidationException", "Transaction request cannot include multiple operations on one item")
    with pytest.raises(ClientError) as e:
        ddb.transact_get_items(TransactItems=[{"Get": get}, {"Get": {**get, "TableName": "no-such-table-here"}}])
    assert err(e)[0] == "ResourceNotFoundException"


def payload_refusal(e):
    """AWS's text (as a client library recorded it: 'Transaction payload size cannot exceed 4MB. Payload
    Size: : Transaction payload size cannot exceed 4MB. Payload Size: 4306456') with the size measured."""
    size = re.search(r"Payload Size: (\d+)$", err(e)[1])
    assert size and int(size.group(1)) > 4 * 1024 * 1024, err(e)
    sentence = "Transaction payload size cannot exceed 4MB. Payload Size: "
    return sentence + ": " + sentence + size.group(1)


def test_payload_limit_is_4_mb_of_written_items(ddb, hash_table):
    blob = "x" * 100_000
    # 41 items of ~100 KB (4.1 million bytes) fit in 4 MB; 42 do not.
    ddb.transact_write_items(TransactItems=[put(hash_table, f"a{i:02}", x={"S": blob}) for i in range(41)])
    assert "Item" in ddb.get_item(TableName=hash_table, Key={"pk": {"S": "a40"}})
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[put(hash_table, f"b{i:02}", x={"S": blob}) for i in range(42)])
    assert err(e) == ("ValidationException", payload_refusal(e))
    assert "Item" not in ddb.get_item(TableName=hash_table, Key={"pk": {"S": "b00"}})
    # The limit is on what the request carries: deleting more than 4 MB of items is fine.
    for i in range(41, 45):
        ddb.put_item(TableName=hash_table, Item={"pk": {"S": f"a{i:02}"}, "x": {"S": blob}})
    ddb.transact_write_items(TransactItems=[
        {"Delete": {"TableName": hash_table, "Key": {"pk": {"S": f"a{i:02}"}}}} for i in range(45)])
    assert ddb.scan(TableName=hash_table, Select="COUNT")["Count"] == 0


# ---- ground truth recorded on AWS (paritysuite/dynamodb-conformance, tier3 transactions) -------------

EMPTY_KEY = ("One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain "
             "an empty {} value. Key: pk")


@pytest.fixture
def binary_table(ddb):
    name = unique_name()
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "B"}])
    return name


def test_key_value_errors_as_aws_sorts_them(ddb, hash_table, binary_table):
    def one(action):
        with pytest.raises(ClientError) as e:
            ddb.transact_write_items(TransactItems=[action])
        return e

    # Wrong type / non-scalar key: cancelled, the Put naming the type, the others the schema.
    e = one({"Put": {"TableName": hash_table, "Item": {"pk": {"L": [{"S": "x"}]}}}})
    assert err(e)[1] == CANCELLED + "[ValidationError]"
    assert cancelled(e) == [{"Code": "ValidationError", "Message": "One or more parameter values were invalid: "
                                                                   "Type mismatch for key pk expected: S actual: L"}]
    upd = lambda t, key: {"Update": {"TableName": t, "Key": {"pk": key}, "UpdateExpression": "SET a = :v",
                                     "ExpressionAttributeValues": {":v": {"S": "x"}}}}
    dele = lambda t, key: {"Delete": {"TableName": t, "Key": {"pk": key}}}
    check = lambda t, key: {"ConditionCheck": {"TableName": t, "Key": {"pk": key},
                                               "ConditionExpression": "attribute_not_exists(pk)"}}
    for make in (upd, dele, check):
        for key in ({"N": "5"}, {"L": [{"S": "x"}]}):
            assert cancelled(one(make(hash_table, key))) == [
                {"Code": "ValidationError", "Message": "The provided key element does not match the schema"}]
    # An empty string or binary key value is refused up front, for the whole request.
    for table, value, kind in [(hash_table, {"S": ""}, "string"), (binary_table, {"B": b""}, "binary")]:
        for action in ({"Put": {"TableName": table, "Item": {"pk": value}}}, upd(table, value), dele(table, value),
                       check(table, value)):
            assert err(one(action)) == ("ValidationException", EMPTY_KEY.format(kind))
        # ... even after an action whose key has the wrong type.
        with pytest.raises(ClientError) as e:
            ddb.transact_write_items(TransactItems=[
                {"Put": {"TableName": hash_table, "Item": {"pk": {"N": "1"}}}}, dele(table, value)])
        assert err(e) == ("ValidationException", EMPTY_KEY.format(kind))
    # TransactGetItems: an empty Key cancels with a ValidationError; an empty value refuses the request.
    with pytest.raises(ClientError) as e:
        ddb.transact_get_items(TransactItems=[{"Get": {"TableName": hash_table, "Key": {}}}])
    assert err(e)[1] == CANCELLED + "[ValidationError]"
    with pytest.raises(ClientError) as e:
        ddb.transact_get_items(TransactItems=[{"Get": {"TableName": hash_table, "Key": {"pk": {"S": ""}}}}])
    assert err(e) == ("ValidationException", EMPTY_KEY.format("string"))


def test_request_level_errors_come_before_tables_and_duplicates(ddb, hash_table):
    missing = {"Put": {"TableName": "no-such-table-here", "Item": {"pk": {"S": "a"}}}}
    syntax = {"ConditionCheck": {"TableName": hash_table, "Key": {"pk": {"S": "cc"}},
                                 "ConditionExpression": "attribute_not_exists("}}
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[missing, syntax])
    assert err(e) == ("ValidationException", 'Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "("')
    unused = {"ConditionCheck": {"TableName": hash_table, "Key": {"pk": {"S": "cc"}},
                                 "ConditionExpression": "attribute_not_exists(pk)",
                                 "ExpressionAttributeValues": {":v": {"S": "x"}}}}
    message = "Value provided in ExpressionAttributeValues unused in expressions: keys: {:v}"
    for items in ([missing, unused], [unused, missing], [put(hash_table, "cc"), unused]):
        with pytest.raises(ClientError) as e:
            ddb.transact_write_items(TransactItems=items)
        assert err(e) == ("ValidationException", message)
    assert "Item" not in ddb.get_item(TableName=hash_table, Key={"pk": {"S": "cc"}})
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[put(hash_table, "d"), {"Delete": {"TableName": hash_table,
                                                                                  "Key": {"pk": {"S": "d"}}}}],
                                 ReturnConsumedCapacity="BOGUS")
    assert err(e) == ("ValidationException", "1 validation error detected: Value 'BOGUS' at 'returnConsumedCapacity' "
                                             "failed to satisfy constraint: Member must satisfy enum value set: "
                                             "[INDEXES, TOTAL, NONE]")


def test_payload_counts_keys_and_expression_values_of_every_action(ddb, hash_table):
    """The 4 MB is the transaction's payload, what its request carries (ScyllaDB alternator's
    test_transact.py, run against AWS: 'the size of the transaction request ... is what matters'):
    an Update's values count as a Put's item does."""
    blob = "x" * 100_000
    updates = [{"Update": {"TableName": hash_table, "Key": {"pk": {"S": f"u{i:02}"}}, "UpdateExpression": "SET x = :x",
                           "ExpressionAttributeValues": {":x": {"S": blob}}}} for i in range(42)]
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=updates)
    assert err(e) == ("ValidationException", payload_refusal(e))
    assert "Item" not in ddb.get_item(TableName=hash_table, Key={"pk": {"S": "u00"}})
    checks = [{"ConditionCheck": {"TableName": hash_table, "Key": {"pk": {"S": f"c{i:02}"}},
                                  "ConditionExpression": "attribute_not_exists(x) OR x <> :x",
                                  "ExpressionAttributeValues": {":x": {"S": blob}}}} for i in range(42)]
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=checks)
    assert err(e) == ("ValidationException", payload_refusal(e))
    # Under the limit, the same Updates go through.
    ddb.transact_write_items(TransactItems=updates[:41])
    assert ddb.get_item(TableName=hash_table, Key={"pk": {"S": "u40"}})["Item"]["x"] == {"S": blob}
    for i in range(41):
        ddb.delete_item(TableName=hash_table, Key={"pk": {"S": f"u{i:02}"}})


def test_numerically_equal_keys_are_one_item(ddb):
    """AWS stores a number key by value (developer guide, HowItWorks.NamingRulesDataTypes: leading and
    trailing zeroes are trimmed), so '1e2' and '1E+2' name the same item and two actions on them are
    'multiple operations on one item' (DynamoDB Local compares them as written and accepts)."""
    name = unique_name()
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "N"}])
    for a, b in [("1e2", "1E+2"), ("100", "100.0"), ("0.5", "5E-1"), ("-0", "0")]:
        with pytest.raises(ClientError) as e:
            ddb.transact_write_items(TransactItems=[
                {"Put": {"TableName": name, "Item": {"pk": {"N": a}}}},
                {"ConditionCheck": {"TableName": name, "Key": {"pk": {"N": b}},
                                    "ConditionExpression": "attribute_not_exists(pk)"}}])
        assert err(e) == ("ValidationException", "Transaction request cannot include multiple operations on one item")
        with pytest.raises(ClientError) as e:
            ddb.transact_get_items(TransactItems=[{"Get": {"TableName": name, "Key": {"pk": {"N": a}}}},
                                                  {"Get": {"TableName": name, "Key": {"pk": {"N": b}}}}])
        assert err(e) == ("ValidationException", "Transaction request cannot include multiple operations on one item")
    assert ddb.scan(TableName=name, Select="COUNT")["Count"] == 0


def test_update_errors_found_on_the_item_cancel_the_transaction(ddb, hash_table):
    """An Update whose expression fails on the item it reads (an operand attribute absent, a wrong
    operand type) cancels the transaction with a ValidationError reason, as an Update growing its item
    over 400 KB does (recorded on AWS by paritysuite tier3/limits/itemSizeBySurface; the API reference,
    TransactionCanceledException: 'a similar validation error occurs because of changes made by the
    transaction'); DynamoDB Local answers a plain ValidationException instead."""
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "upd"}, "s": {"S": "text"}})
    for expression, message in [
        ("SET a = b + :v", "The provided expression refers to an attribute that does not exist in the item"),
        ("SET a = s + :v", "An operand in the update expression has an incorrect data type"),
    ]:
        with pytest.raises(ClientError) as e:
            ddb.transact_write_items(TransactItems=[
                put(hash_table, "other"),
                {"Update": {"TableName": hash_table, "Key": {"pk": {"S": "upd"}}, "UpdateExpression": expression,
                            "ExpressionAttributeValues": {":v": {"N": "1"}}}}])
        assert err(e) == ("TransactionCanceledException", CANCELLED + "[None, ValidationError]")
        assert cancelled(e) == [{"Code": "None"}, {"Code": "ValidationError", "Message": message}]
    assert "Item" not in ddb.get_item(TableName=hash_table, Key={"pk": {"S": "other"}})
    ddb.delete_item(TableName=hash_table, Key={"pk": {"S": "upd"}})


def test_transact_get_items_over_4_mb_is_refused(ddb, hash_table):
    """API reference, TransactGetItems: 'The aggregate size of the items in the transaction cannot exceed
    4 MB' and DynamoDB 'rejects the entire TransactGetItems request' when it does. AWS's text is not
    recorded; the answer is DynamoDB Local's (a ValidationException, 'Payload in response is too large.'
    followed by the bytes summed up to the item that crossed the limit)."""
    blob = "x" * 400_000
    for i in range(11):
        ddb.put_item(TableName=hash_table, Item={"pk": {"S": f"g{i:02}"}, "x": {"S": blob}})
    gets = [{"Get": {"TableName": hash_table, "Key": {"pk": {"S": f"g{i:02}"}}}} for i in range(11)]
    assert len(ddb.transact_get_items(TransactItems=gets[:10])["Responses"]) == 10  # 4,000,060 bytes
    with pytest.raises(ClientError) as e:
        ddb.transact_get_items(TransactItems=gets)
    assert err(e) == ("ValidationException", "Payload in response is too large.4400066")
    # Absent items weigh nothing.
    missing = [{"Get": {"TableName": hash_table, "Key": {"pk": {"S": f"none{i}"}}}} for i in range(50)]
    assert len(ddb.transact_get_items(TransactItems=gets[:10] + missing)["Responses"]) == 60
    for i in range(11):
        ddb.delete_item(TableName=hash_table, Key={"pk": {"S": f"g{i:02}"}})
