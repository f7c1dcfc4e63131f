"""What the differential tester knows about the differences it finds.

Three kinds, each matched on the normalised answers (see difftest.normalise; `m` is monotable's,
`d` DynamoDB Local's):

- DEPARTURES: DynamoDB Local departs from AWS. Each names what AWS does, where that is documented or
  recorded, and the tests/api test that pins monotable's answer. These are counted, never reported.
- OTHER_AREA: two refusals of the same request whose wording or order differ, where neither side's
  text is established as AWS's by a source at hand (issue 41's classes of message wording and
  validation order). Listed in the report, not failing; a rule whose case gets an AWS source moves
  to DEPARTURES with a pinning test, or the fix lands and the rule goes.
- OPEN: what AWS does is not established from any source at hand; listed, not failing.

Anything else is an unexplained difference and fails the run.
"""
import re
from decimal import Decimal

DEPARTURES = []
OTHER_AREA = []
OPEN = []


def rule(table, name, source, pinned_by=None):
    def wrap(fn):
        table.append((name, source, pinned_by, fn))
        return fn
    return wrap


def msg(n):
    return n.get("message") or ""


def is_validation(n):
    return n.get("type") == "ValidationException"


# ---- numbers: DynamoDB Local returns non-key numbers as they were written -------------------------

def aws_number(s):
    """The form AWS returns a number in: no exponent, no leading or trailing zeros, no sign on zero."""
    try:
        d = Decimal(s)
    except Exception:
        return s
    if d == 0:
        return "0"
    import decimal
    return format(decimal.Context(prec=80).normalize(d), "f")


def aws_numbers(x):
    if isinstance(x, dict):
        if len(x) == 1 and "N" in x and isinstance(x["N"], str):
            return {"N": aws_number(x["N"])}
        if len(x) == 1 and "NS" in x and isinstance(x["NS"], list):
            return {"NS": sorted((aws_number(v) for v in x["NS"]), key=Decimal)}
        return {k: aws_numbers(v) for k, v in x.items()}
    if isinstance(x, list):
        return [aws_numbers(v) for v in x]
    return x


NUMBERS_SOURCE = ("AWS developer guide, HowItWorks.NamingRulesDataTypes (Number): 'Leading and trailing zeroes "
                  "are trimmed'; DynamoDB Local keeps a non-key number as written ('1e2', '1.0', '0012', '-0')")
NUMBERS_PIN = "tests/api/test_items_basic.py::test_number_normalisation"


def fix_local(d):
    """DynamoDB Local's answer with its numbers in AWS's form (the one documented departure that can be
    undone mechanically, so that it does not hide other differences in the same answer)."""
    return aws_numbers(d)


# ---- departures -----------------------------------------------------------------------------------

@rule(DEPARTURES, "DynamoDB Local answers a wrongly typed JSON member with 500 InternalFailure",
      "AWS answers it with 400 SerializationException: scylladb test/alternator/test_number.py::"
      "test_number_in_json (run against AWS); dynalite test/*.js 'should return SerializationException when "
      "TableName is not a string' and the like (recorded against AWS)",
      "tests/api/test_difftest_pins.py::test_wrong_json_types_are_serialization_errors")
def _local_500(op, req, m, d):
    return d["status"] == 500 and m.get("type") == "SerializationException"


@rule(DEPARTURES, "DynamoDB Local accepts a JSON number or boolean where the API wants a string",
      "same sources as above: {'N': 123} is a SerializationException on AWS",
      "tests/api/test_difftest_pins.py::test_wrong_json_types_are_serialization_errors")
def _local_lenient_json(op, req, m, d):
    return m.get("type") == "SerializationException" and d.get("type") != "SerializationException"


@rule(DEPARTURES, "38-digit precision message",
      "AWS: 'Attempting to store more than 38 significant digits in a Number' (scylladb test_number.py::"
      "test_number_precision_not_allowed matches 'ValidationException.*significant' against AWS); DynamoDB "
      "Local: 'DynamoDB only supports precision up to 38 digits'",
      "tests/api/test_items_basic.py (number limits)")
def _precision(op, req, m, d):
    return "Attempting to store more than 38 significant digits" in msg(m) and \
        "DynamoDB only supports precision up to 38 digits" in msg(d)


@rule(DEPARTURES, "non-numeric number message",
      "AWS: 'The parameter cannot be converted to a numeric value: X' (scylladb test_number.py::"
      "test_invalid_numbers matches 'ValidationException.*numeric' against AWS); DynamoDB Local: "
      "'A value provided cannot be converted into a number'",
      "tests/api/test_difftest_pins.py::test_bad_number_message")
def _numeric(op, req, m, d):
    return "The parameter cannot be converted to a numeric value" in msg(m) and \
        "A value provided cannot be converted into a number" in msg(d)


@rule(DEPARTURES, "UpdateItem with only REMOVE/DELETE actions creates a missing item in DynamoDB Local",
      "AWS leaves the item absent: scylladb test/alternator/test_item.py::test_update_item_non_existent (run "
      "against AWS: UpdateExpression='REMOVE a' and AttributeUpdates DELETE on a missing item do not create it)",
      "tests/api/test_difftest_pins.py::test_remove_or_delete_only_update_does_not_create_item")
def _remove_only_creates(op, req, m, d):
    return op == "UpdateItem" and removals_only(req) and m["status"] == 200 and d["status"] == 200 and \
        "Attributes" not in m["body"]


def removals_only(req):
    """An UpdateItem whose actions only remove attributes or set members (REMOVE/DELETE, or the legacy
    AttributeUpdates DELETE)."""
    if "UpdateExpression" in req:
        return not re.search(r"\b(SET|ADD)\b", str(req["UpdateExpression"]))
    ups = req.get("AttributeUpdates")
    return isinstance(ups, dict) and bool(ups) and all(
        isinstance(u, dict) and u.get("Action") == "DELETE" for u in ups.values())


@rule(DEPARTURES, "Query filter on a key attribute's nested path",
      "AWS: 'Filter Expression can only contain non-primary key attributes: Primary key attribute: X' (dynalite "
      "test/query.js, recorded against AWS); DynamoDB Local reports 'Key attributes must be scalars ...'",
      "tests/api/test_query.py (filter on key attributes)")
def _query_filter_key(op, req, m, d):
    return op == "Query" and msg(m).startswith("Filter Expression can only contain non-primary key attributes") \
        and msg(d).startswith("Key attributes must be scalars")


@rule(DEPARTURES, "missing table message",
      "AWS: 'Requested resource not found' (monotable's tests/api/test_query.py, test_table_lifecycle.py); "
      "DynamoDB Local: 'Cannot do operations on a non-existent table'",
      "tests/api/test_table_lifecycle.py")
def _not_found(op, req, m, d):
    return m.get("type") == d.get("type") == "ResourceNotFoundException" and \
        msg(d) == "Cannot do operations on a non-existent table"


@rule(DEPARTURES, "DynamoDB Local holds item operations' table names to 3..255 characters",
      "AWS's item, batch and transaction operations take a table name or ARN of 1..1024 characters "
      "(the API reference's TableName for GetItem/PutItem/...; paritysuite dynamodb-conformance "
      "error-messages/putItem.test.ts, recorded on AWS): a 2-character name is simply not found; "
      "DynamoDB Local answers 'Invalid table/index name.  Table/index names must be between 3 and 255 ...'",
      "tests/api/test_request_messages.py::test_item_operation_table_names")
def _short_item_table_name(op, req, m, d):
    return m.get("type") == "ResourceNotFoundException" and is_validation(d) and \
        msg(d).startswith("Invalid table/index name.") and \
        op not in ("CreateTable", "DescribeTable", "DeleteTable", "UpdateTable")


@rule(DEPARTURES, "DynamoDB Local does not enforce some member constraints (ReturnConsumedCapacity, ReturnItemCollectionMetrics, an empty ReturnValues, an empty AttributesToGet)",
      "API reference: ReturnConsumedCapacity is one of INDEXES | TOTAL | NONE, ReturnItemCollectionMetrics one "
      "of SIZE | NONE, ReturnValues one of its five values, AttributesToGet has at least 1 member; AWS's request "
      "validation refuses the rest ('1 validation error detected: ... failed to satisfy constraint: Member must "
      "...') before anything else",
      "tests/api/test_difftest_pins.py::test_enum_members_are_validated")
def _enum_not_validated(op, req, m, d):
    return is_validation(m) and re.search(r"at '(returnConsumedCapacity|returnItemCollectionMetrics)'", msg(m)) \
        and "returnConsumedCapacity" not in msg(d) and "returnItemCollectionMetrics" not in msg(d) or \
        is_validation(m) and re.search(r"at '\w+' failed to satisfy constraint: Member must", msg(m)) \
        and (d["status"] == 200 or d.get("type") == "ConditionalCheckFailedException")


@rule(DEPARTURES, "DynamoDB Local prints a Java ByteBuffer for a binary operand in messages",
      "'java.nio.HeapByteBuffer[...]' is DynamoDB Local's Java toString; monotable prints the base64 value")
def _bytebuffer(op, req, m, d):
    return "java.nio.HeapByteBuffer" in msg(d) and is_validation(m)


@rule(DEPARTURES, "REMOVE of a nested path from a missing item",
      "AWS ignores it silently (scylladb alternator tests verified on AWS); DynamoDB Local answers 'The document "
      "path provided in the update expression is invalid for update'",
      "tests/api/test_update_item.py::test_remove_nested_path_from_missing_item_is_ignored")
def _remove_nested_missing(op, req, m, d):
    return op == "UpdateItem" and m["status"] == 200 and removals_only(req) and \
        msg(d).startswith("The document path provided in the update expression is invalid for update")


@rule(DEPARTURES, "reserved word as a path element (after a '.', or 'size' followed by '.' or '[')",
      "AWS developer guide, Expressions.ExpressionAttributeNames / ReservedWords: a reserved word cannot be used "
      "as an attribute name in an expression (monotable refuses it at any path position; DynamoDB Local accepts "
      "it after a '.')",
      "tests/api/test_difftest_pins.py::test_reserved_word_in_nested_path")
def _reserved_nested(op, req, m, d):
    return "Attribute name is a reserved keyword" in msg(m) and (
        d["status"] == 200 or d.get("type") in ("ConditionalCheckFailedException", "TransactionCanceledException"))


@rule(DEPARTURES, "numerically equal keys in one BatchGetItem",
      "AWS compares keys as values: {'N': '1'} and {'N': '1.0'} are the same key, 'Provided list of item keys "
      "contains duplicates' (dynalite test/batchGetItem.js, recorded against AWS)",
      "tests/api/test_difftest_pins.py::test_batch_get_numerically_equal_keys_are_duplicates")
def _numeric_duplicates(op, req, m, d):
    return op == "BatchGetItem" and msg(m) == "Provided list of item keys contains duplicates" and d["status"] == 200


@rule(DEPARTURES, "DynamoDB Local accepts an empty ExpressionAttributeValues map in a request without expressions",
      "AWS refuses ExpressionAttributeValues whenever the request has no expression using them: "
      "'ExpressionAttributeValues can only be specified when using expressions: KeyConditionExpression and "
      "FilterExpression are null' (dynalite's validations, recorded against AWS, test the member's presence, not its "
      "size); DynamoDB Local lets an empty map through (and refuses it, like AWS, when an expression is present: "
      "'ExpressionAttributeValues must not be empty')",
      "tests/api/test_difftest_pins.py::test_empty_expression_attribute_values_are_refused")
def _empty_values(op, req, m, d):
    return is_validation(m) and "ExpressionAttributeValues" in msg(m) and \
        req.get("ExpressionAttributeValues") == {} and d["status"] == 200


@rule(DEPARTURES, "DynamoDB Local checks a legacy Expected condition before validating AttributeUpdates' values",
      "AWS validates the request's values first (dynalite's validations, recorded against AWS, refuse a bad number "
      "in AttributeUpdates before any item is read)",
      "tests/api/test_difftest_pins.py::test_attribute_updates_values_checked_before_condition")
def _values_before_expected(op, req, m, d):
    return op == "UpdateItem" and "AttributeUpdates" in req and is_validation(m) and \
        d.get("type") == "ConditionalCheckFailedException" and \
        re.search(r"significant digits|numeric value|overflow|underflow|empty", msg(m)) is not None


@rule(DEPARTURES, "Scan of an index: DynamoDB Local evaluates the filter on the table's items",
      "AWS evaluates a Scan's filter on the index entries, where an attribute the index does not project is absent "
      "(an unkeyed PartiQL read of an index, which AWS serves as a Scan, accepts such a filter and matches nothing; a "
      "keyed one is refused: nubo-db/dynoxide's PartiQL select, 'Captured eu-west-2 2026-08-15'); DynamoDB Local's "
      "ScanFunction evaluates the filter on the whole item",
      "tests/api/test_index_reads.py::test_scan_filter_sees_only_what_the_index_projects")
def _scan_index_filter(op, req, m, d):
    return op == "Scan" and "IndexName" in req and ("FilterExpression" in req or "ScanFilter" in req) and \
        m["status"] == d["status"] == 200


@rule(DEPARTURES, "two transaction actions on numerically equal keys ('1e2' and '1E+2')",
      "AWS stores a number by value (developer guide, HowItWorks.NamingRulesDataTypes: leading and trailing zeroes "
      "are trimmed), so both actions name one item: 'Transaction request cannot include multiple operations on one "
      "item' (the message as recorded on AWS: paritysuite dynamodb-conformance tier3/error-messages/"
      "transactWriteItems, scylladb test_transact.py::test_transact_write_items_multi_action_conflict); DynamoDB "
      "Local compares the keys as written",
      "tests/api/test_transactions.py::test_numerically_equal_keys_are_one_item")
def _transaction_same_item(op, req, m, d):
    return op in ("TransactWriteItems", "TransactGetItems") and \
        msg(m) == "Transaction request cannot include multiple operations on one item" and \
        msg(d) != msg(m)


UPDATE_ON_ITEM = ("The provided expression refers to an attribute that does not exist in the item",
                  "An operand in the update expression has an incorrect data type",
                  "The document path provided in the update expression is invalid for update",
                  "Item size to update has exceeded the maximum allowed size")


@rule(DEPARTURES, "a transaction's Update failing on the item it reads: DynamoDB Local refuses the whole request",
      "AWS cancels the transaction with a ValidationError reason for that action (API reference, "
      "TransactionCanceledException: 'a similar validation error occurs because of changes made by the "
      "transaction'; an Update growing its item over 400 KB, recorded on AWS by paritysuite dynamodb-conformance "
      "tier3/limits/itemSizeBySurface); DynamoDB Local answers a plain ValidationException with the UpdateItem text",
      "tests/api/test_transactions.py::test_update_errors_found_on_the_item_cancel_the_transaction")
def _update_cancels(op, req, m, d):
    reasons = m.get("CancellationReasons") or []
    return op == "TransactWriteItems" and m.get("type") == "TransactionCanceledException" and is_validation(d) and \
        msg(d).startswith(UPDATE_ON_ITEM) and \
        any(r.get("Code") == "ValidationError" and (r.get("Message") or "").startswith(UPDATE_ON_ITEM) for r in reasons)



# ---- other areas ----------------------------------------------------------------------------------

@rule(OTHER_AREA, "(b) constraint-message wording: '1 validation error detected' form vs DynamoDB Local's own",
      "issue 41 class 9")
def _constraint_wording(op, req, m, d):
    return is_validation(m) and is_validation(d) and re.match(r"\d+ validation errors? detected", msg(m)) and \
        not re.match(r"\d+ validation errors? detected", msg(d))


KEY_MESSAGES_M = ("The provided key element does not match the schema", "One or more parameter values were invalid: "
                  "Missing the key", "One or more parameter values were invalid: Type mismatch for key",
                  "One or more parameter values were invalid: The AttributeValue for a key attribute")
KEY_MESSAGES_D = ("The number of conditions on the keys is invalid", "One of the required keys was not given a value",
                  "One or more parameter values were invalid: Type mismatch for key",
                  "One or more parameter values are not valid. The AttributeValue for a key attribute",
                  "Invalid attribute value type", "The provided key element does not match the schema")


@rule(DEPARTURES, "a transaction action whose key does not match its table: DynamoDB Local refuses the request, or evaluates conditions, or words the reason otherwise",
      "AWS cancels the transaction with a ValidationError reason for the first such action ('Type mismatch for key', "
      "'The provided key element does not match the schema'; paritysuite dynamodb-conformance tier3/error-messages/"
      "transactWriteItems, captured on AWS; scylladb test_transact.py::"
      "test_transact_write_cancellation_reasons_validationerror, run against AWS: only the first invalid action is "
      "reported, the others None, no condition evaluated); DynamoDB Local answers a ValidationException, or a "
      "cancellation without reasons or with conditions evaluated, with its own key messages",
      "tests/api/test_transactions.py::test_per_action_key_errors_cancel_and_item_size_by_action_kind")
def _key_cancels(op, req, m, d):
    reasons = m.get("CancellationReasons") or []
    local_reasons = d.get("CancellationReasons") or []
    local_key_error = msg(d).startswith(KEY_MESSAGES_D) or \
        any(r.get("Code") == "ValidationError" for r in local_reasons)
    return op in ("TransactWriteItems", "TransactGetItems") and m.get("type") == "TransactionCanceledException" and \
        d.get("type") in ("ValidationException", "TransactionCanceledException") and local_key_error and \
        any(r.get("Code") == "ValidationError" and (r.get("Message") or "").startswith(KEY_MESSAGES_M) for r in reasons)


@rule(OTHER_AREA, "(b) key validation: message wording and which check wins", "issue 41 class 9")
def _key_messages(op, req, m, d):
    return is_validation(m) and is_validation(d) and msg(m).startswith(KEY_MESSAGES_M) and \
        msg(d).startswith(KEY_MESSAGES_D)


@rule(OTHER_AREA, "(b) message wording: set duplicates, projection overlap", "issue 41 class 9")
def _small_wording(op, req, m, d):
    pairs = [("One or more parameter values were invalid: Input collection",) * 2,
             ("Invalid ProjectionExpression: Two document paths overlap",) * 2]
    return is_validation(m) and is_validation(d) and any(msg(m).startswith(a) and msg(d).startswith(b)
                                                         for a, b in pairs)


@rule(OTHER_AREA, "(b) validation order: request validated before the table lookup",
      "issue 41 class 9 (monotable validates values and expressions first, as dynalite's AWS recordings do for "
      "value checks; DynamoDB Local looks the table up first)")
def _validate_before_lookup(op, req, m, d):
    return is_validation(m) and d.get("type") == "ResourceNotFoundException"


@rule(OTHER_AREA, "(b) validation order: two errors in one request, each side reports another",
      "issue 41 class 9 (both are ValidationExceptions; which check runs first)")
def _validation_order(op, req, m, d):
    return is_validation(m) and is_validation(d) and msg(m) != msg(d)


# ---- open -----------------------------------------------------------------------------------------

@rule(OPEN, "update expression: which failing action is reported first",
      "monotable reports the first failing operand in its evaluation order; DynamoDB Local may report another "
      "action's error ('document path ... invalid for update', 'incorrect data type'); no AWS recording found")
def _update_order(op, req, m, d):
    texts = ("The provided expression refers to an attribute that does not exist in the item",
             "The document path provided in the update expression is invalid for update",
             "An operand in the update expression has an incorrect data type")
    return op in ("UpdateItem", "TransactWriteItems") and msg(m).startswith(texts) and msg(d).startswith(texts)


@rule(OPEN, "ConditionExpression with a nested path into a key attribute",
      "DynamoDB Local refuses it ('Key attributes must be scalars ...'); dynalite (AWS recordings) checks only "
      "projections, filters and update actions; monotable evaluates the condition")
def _condition_key_path(op, req, m, d):
    return msg(d).startswith("Key attributes must be scalars") and "ConditionExpression" in canon_req(req) and \
        m.get("type") in (None, "ConditionalCheckFailedException", "TransactionCanceledException")


@rule(OPEN, "DELETE's operand type message: DynamoDB Local adds ', typeSet: ALLOWED_FOR_DELETE_OPERAND'",
      "no AWS recording found")
def _typeset(op, req, m, d):
    return "typeSet:" in msg(d) and msg(d).startswith(msg(m))


@rule(OPEN, "reserved word in an expression vs unused ExpressionAttributeNames: which is reported",
      "monotable reports the syntax error first; DynamoDB Local the unused name")
def _reserved_first(op, req, m, d):
    return "reserved keyword" in msg(m) and "unused in expressions" in msg(d)


@rule(OPEN, "Query: LastEvaluatedKey when the page ends exactly at Limit",
      "API reference, Query: 'If LastEvaluatedKey is not empty, it does not necessarily mean that there is more "
      "data in the result set'; monotable returns it whenever Limit items were evaluated, DynamoDB Local sometimes "
      "looks ahead")
def _lek_at_limit(op, req, m, d):
    return op == "Query" and "Limit" in req and m["status"] == d["status"] == 200 and \
        "LastEvaluatedKey" in m["body"] and "LastEvaluatedKey" not in d["body"]


@rule(OPEN, "expression checked before the item's key (or the reverse)",
      "monotable checks key paths / expressions before reading the item; DynamoDB Local may evaluate the "
      "condition first")
def _expr_before_condition(op, req, m, d):
    return is_validation(m) and d.get("type") == "ConditionalCheckFailedException" and \
        msg(m).startswith("Key attributes must be scalars")


@rule(OPEN, "a number written with non-ASCII decimal digits ('\u0661')",
      "DynamoDB Local (Java BigDecimal) accepts Unicode decimal digits; monotable refuses them as non-numeric; "
      "no AWS recording found")
def _unicode_digits(op, req, m, d):
    return "The parameter cannot be converted to a numeric value" in msg(m) and \
        re.search(r"[^\x00-\x7f]", msg(m).rsplit(":", 1)[-1]) is not None


@rule(OPEN, "legacy DELETE of set members from an index key attribute of a missing item",
      "DynamoDB Local: 'Updates on index keys must be of the same data type as the key attribute'; monotable "
      "ignores the DELETE (the item is absent, nothing is written); no AWS recording found")
def _index_key_delete(op, req, m, d):
    return op == "UpdateItem" and m["status"] == 200 and \
        msg(d).startswith("Updates on index keys must be of the same data type")


@rule(OPEN, "GSI projection refusal: the same attributes listed in another order",
      "AWS's wording 'Global secondary index X does not project [a, b]' (paritysuite dynamodb-conformance, PartiQL, "
      "characterised on AWS); monotable lists the names in the order the request names them, DynamoDB Local in its "
      "Java HashSet's order; AWS's order for several names is not recorded")
def _projection_order(op, req, m, d):
    pre = "One or more parameter values were invalid: Global secondary index "
    return msg(m).startswith(pre) and msg(d).startswith(pre) and msg(m) != msg(d) and \
        sorted(msg(m).rsplit("[", 1)[-1].rstrip("]").split(", ")) == sorted(msg(d).rsplit("[", 1)[-1].rstrip("]").split(", "))


@rule(OPEN, "a ConditionCheck's failure reason: DynamoDB Local ends it with a period",
      "AWS's reason text 'The conditional request failed' (no period) is recorded for Put actions (paritysuite "
      "dynamodb-conformance tier3/error-messages/transactWriteItems; PynamoDB issues #1143/#1225 quote AWS answers); "
      "no AWS recording of a ConditionCheck's reason was found, monotable uses the same text for every action")
def _condition_check_period(op, req, m, d):
    mr, dr = m.get("CancellationReasons") or [], d.get("CancellationReasons") or []
    if op != "TransactWriteItems" or len(mr) != len(dr) or not mr:
        return False
    differs = False
    for a, b in zip(mr, dr):
        if a == b:
            continue
        if a.get("Code") == b.get("Code") == "ConditionalCheckFailed" and \
                (a.get("Message"), b.get("Message")) == ("The conditional request failed", "The conditional request failed."):
            differs = True
            continue
        return False
    return differs


def canon_req(req):
    import json
    return json.dumps(req)


def match(op, req, m, d):
    """(kind, name) of the first rule that explains the difference, or None."""
    for kind, table in (("known", DEPARTURES), ("other", OTHER_AREA), ("open", OPEN)):
        for name, _source, _pinned, fn in table:
            try:
                if fn(op, req, m, d):
                    return kind, name
            except (KeyError, TypeError, AttributeError, IndexError):
                continue
    return None
