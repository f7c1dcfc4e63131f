"""Random requests of every item operation, and malformed variants of them.

`rand_request(rng, tables)` returns (operation, request body, hints); the hints tell the comparer what
DynamoDB leaves unordered in that answer (see difftest.normalise).
"""
import copy

from gen import (BAD_NUMBERS, NAMES, Expr, b64, index_attrs, key_value, rand_item, rand_key, scalar,
                 value)

RETURN_VALUES_PUT = ["NONE", "ALL_OLD"]
RETURN_VALUES_UPDATE = ["NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"]


def maybe_condition(rng, req, t, e, p=0.4):
    if rng.random() < p:
        req["ConditionExpression"] = e.condition(key_names=[n for n, _ in t.key_names()])
        if rng.random() < 0.3:
            req["ReturnValuesOnConditionCheckFailure"] = rng.choice(["ALL_OLD", "NONE"])


def put_item(rng, t):
    e = Expr(rng)
    item = rand_item(rng, t)
    req = {"TableName": t.name, "Item": item}
    if rng.random() < 0.5:
        req["ReturnValues"] = rng.choice(RETURN_VALUES_PUT)
    maybe_condition(rng, req, t, e)
    t.keys.append({n: item[n] for n, _ in t.key_names()})
    return "PutItem", e.attach(req), {}


def update_item(rng, t):
    e = Expr(rng)
    key = rand_key(rng, t)
    req = {"TableName": t.name, "Key": key, "UpdateExpression": e.update(t)}
    if not req["UpdateExpression"]:
        req.pop("UpdateExpression")
    if rng.random() < 0.7:
        req["ReturnValues"] = rng.choice(RETURN_VALUES_UPDATE)
    maybe_condition(rng, req, t, e)
    t.keys.append(key)
    return "UpdateItem", e.attach(req), {}


def delete_item(rng, t):
    e = Expr(rng)
    req = {"TableName": t.name, "Key": rand_key(rng, t, fresh=False)}
    if rng.random() < 0.5:
        req["ReturnValues"] = rng.choice(RETURN_VALUES_PUT)
    maybe_condition(rng, req, t, e)
    return "DeleteItem", e.attach(req), {}


def get_item(rng, t):
    e = Expr(rng)
    req = {"TableName": t.name, "Key": rand_key(rng, t, fresh=rng.random() < 0.1)}
    if rng.random() < 0.5:
        req["ProjectionExpression"] = e.projection(t)
    if rng.random() < 0.3:
        req["ConsistentRead"] = True
    return "GetItem", e.attach(req), {}


def key_condition(rng, e, hash_attr, range_attr, t):
    k = rand_key(rng, t, fresh=False) if t.keys else None
    hv = k[hash_attr[0]] if k and hash_attr[0] in k else key_value(rng, hash_attr[1])
    cond = f"{e.name(hash_attr[0])} = {e.val(hv)}"
    if range_attr and rng.random() < 0.7:
        rn, ty = range_attr
        op = rng.choice(["=", "<", "<=", ">", ">=", "BETWEEN", "begins_with"])
        if op == "BETWEEN":
            lo, hi = key_value(rng, ty), key_value(rng, ty)
            cond += f" AND {e.name(rn)} BETWEEN {e.val(lo)} AND {e.val(hi)}"
        elif op == "begins_with":
            cond += f" AND begins_with({e.name(rn)}, {e.val(key_value(rng, ty))})"
        else:
            cond += f" AND {e.name(rn)} {op} {e.val(key_value(rng, ty))}"
    return cond


def query(rng, t):
    e = Expr(rng)
    hints = {}
    req = {"TableName": t.name}
    r = rng.random()
    if t.gsi and r < 0.3:
        req["IndexName"] = t.gsi[0]
        req["KeyConditionExpression"] = key_condition(rng, e, t.gsi[1], t.gsi[2], t)
        hints["unordered"] = True  # items with equal index keys come in no defined order
    elif t.lsi and r < 0.5:
        req["IndexName"] = t.lsi[0]
        req["KeyConditionExpression"] = key_condition(rng, e, t.hash_key, t.lsi[1], t)
        hints["unordered"] = True
    else:
        req["KeyConditionExpression"] = key_condition(rng, e, t.hash_key, t.range_key, t)
    if rng.random() < 0.3:
        req["FilterExpression"] = e.condition()
    if rng.random() < 0.3:
        req["ScanIndexForward"] = False
    if rng.random() < 0.2:
        req["Select"] = "COUNT"
    elif rng.random() < 0.2 and "IndexName" not in req:
        req["ProjectionExpression"] = e.projection(t)
    if rng.random() < 0.3 and "unordered" not in hints:
        req["Limit"] = rng.randint(1, 3)
    if rng.random() < 0.2:
        req["ConsistentRead"] = True
    return "Query", e.attach(req), hints


def scan(rng, t):
    e = Expr(rng)
    req = {"TableName": t.name}
    if rng.random() < 0.6:
        req["FilterExpression"] = e.condition()
    if rng.random() < 0.2:
        req["Select"] = "COUNT"
    elif rng.random() < 0.3:
        req["ProjectionExpression"] = e.projection(t)
    # No Limit: which items one page of a Scan holds is up to the server's layout.
    return "Scan", e.attach(req), {"unordered": True}


def distinct_keys(rng, t, n):
    out, seen = [], set()
    for _ in range(n * 3):
        k = rand_key(rng, t)
        s = repr(sorted(k.items()))
        if s not in seen:
            seen.add(s)
            out.append(k)
        if len(out) == n:
            break
    return out


def batch_write(rng, t):
    reqs = []
    for k in distinct_keys(rng, t, rng.randint(1, 6)):
        if rng.random() < 0.7:
            item = rand_item(rng, t, key=k)
            t.keys.append(k)
            reqs.append({"PutRequest": {"Item": item}})
        else:
            reqs.append({"DeleteRequest": {"Key": k}})
    return "BatchWriteItem", {"RequestItems": {t.name: reqs}}, {}


def batch_get(rng, t):
    e = Expr(rng)
    spec = {"Keys": distinct_keys(rng, t, rng.randint(1, 5))}
    if rng.random() < 0.4:
        spec["ProjectionExpression"] = e.projection(t)
        e.attach(spec)
    return "BatchGetItem", {"RequestItems": {t.name: spec}}, {"unordered": True}


def transact_write(rng, t):
    actions = []
    for k in distinct_keys(rng, t, rng.randint(1, 4)):
        e = Expr(rng)
        kind = rng.choice(["Put", "Update", "Delete", "ConditionCheck"])
        if kind == "Put":
            a = {"TableName": t.name, "Item": rand_item(rng, t, key=k)}
            t.keys.append(k)
        elif kind == "Update":
            a = {"TableName": t.name, "Key": k, "UpdateExpression": e.update(t)}
            t.keys.append(k)
        else:
            a = {"TableName": t.name, "Key": k}
        if kind == "ConditionCheck" or rng.random() < 0.4:
            a["ConditionExpression"] = e.condition(key_names=[n for n, _ in t.key_names()])
        e.attach(a)
        actions.append({kind: a})
    return "TransactWriteItems", {"TransactItems": actions}, {}


def paged_query(rng, t):
    """A Query read to its end through pages of a random Limit (compared as the pages' union)."""
    op, req, hints = query(rng, t)
    req["Limit"] = rng.randint(1, 4)
    return op, req, dict(hints, paginate=True)


def paged_scan(rng, t):
    """A Scan read to its end through pages of a random Limit, sometimes as a parallel Scan of 2-4
    segments (compared as the union of every page of every segment)."""
    op, req, hints = scan(rng, t)
    if rng.random() < 0.7:
        req["Limit"] = rng.randint(1, 5)
    hints = dict(hints, paginate=True)
    if rng.random() < 0.5:
        req["TotalSegments"] = rng.randint(2, 4)
        hints["segments"] = True
    return op, req, hints


def transact_get(rng, t):
    items = []
    for k in distinct_keys(rng, t, rng.randint(1, 4)):
        e = Expr(rng)
        g = {"TableName": t.name, "Key": k}
        if rng.random() < 0.4:
            g["ProjectionExpression"] = e.projection(t)
        items.append({"Get": e.attach(g)})
    return "TransactGetItems", {"TransactItems": items}, {}


LEGACY_OPS = {"EQ": 1, "NE": 1, "LT": 1, "LE": 1, "GT": 1, "GE": 1, "BEGINS_WITH": 1, "CONTAINS": 1,
              "NOT_CONTAINS": 1, "BETWEEN": 2, "IN": 2, "NULL": 0, "NOT_NULL": 0}


def legacy_conditions(rng, names):
    out = {}
    for n in rng.sample(names, rng.randint(1, 2)):
        op = rng.choice(list(LEGACY_OPS))
        arity = LEGACY_OPS[op]
        vals = [scalar(rng, rng.choice("SN"), small=True) for _ in range(arity)]
        if op == "BETWEEN":
            vals = sorted([{"N": rng.choice(["-1", "0", "1", "10"])} for _ in range(2)], key=lambda v: float(v["N"]))
        cond = {"ComparisonOperator": op}
        if arity:
            cond["AttributeValueList"] = vals
        out[n] = cond
    return out


def legacy(rng, t):
    """The legacy parameters: Expected, AttributeUpdates, AttributesToGet, KeyConditions, QueryFilter,
    ScanFilter, ConditionalOperator."""
    names = [n for n in NAMES if n not in {k for k, _ in t.key_names()}]
    kind = rng.choice(["put", "update", "get", "query", "scan"])
    if kind == "put":
        req = {"TableName": t.name, "Item": rand_item(rng, t)}
        t.keys.append({n: req["Item"][n] for n, _ in t.key_names()})
        if rng.random() < 0.6:
            req["Expected"] = {n: rng.choice([{"Exists": False}, {"Value": scalar(rng, "S", small=True)},
                                              {"Exists": True, "Value": scalar(rng, "N", small=True)}])
                               for n in rng.sample(names, rng.randint(1, 2))}
        return "PutItem", req, {}
    if kind == "update":
        key = rand_key(rng, t)
        t.keys.append(key)
        ups = {}
        for n in rng.sample(names, rng.randint(1, 3)):
            action = rng.choice(["PUT", "ADD", "DELETE"])
            if action == "PUT":
                ups[n] = {"Action": "PUT", "Value": value(rng)}
            elif action == "ADD":
                ups[n] = {"Action": "ADD", "Value": rng.choice([{"N": "1"}, {"SS": ["x"]}, {"L": [{"N": "1"}]}])}
            else:
                ups[n] = {"Action": "DELETE"} if rng.random() < 0.5 else {"Action": "DELETE", "Value": {"SS": ["x"]}}
        req = {"TableName": t.name, "Key": key, "AttributeUpdates": ups,
               "ReturnValues": rng.choice(["NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"])}
        if rng.random() < 0.4:
            req["Expected"] = legacy_conditions(rng, names)
            if len(req["Expected"]) > 1:
                req["ConditionalOperator"] = rng.choice(["AND", "OR"])
        return "UpdateItem", req, {}
    if kind == "get":
        req = {"TableName": t.name, "Key": rand_key(rng, t), "AttributesToGet": rng.sample(names, rng.randint(1, 3))}
        return "GetItem", req, {}
    if kind == "query":
        k = rand_key(rng, t, fresh=False)
        req = {"TableName": t.name, "KeyConditions": {t.hash_key[0]: {
            "ComparisonOperator": "EQ", "AttributeValueList": [k[t.hash_key[0]]]}}}
        if rng.random() < 0.5:
            req["QueryFilter"] = legacy_conditions(rng, names)
        return "Query", req, {}
    req = {"TableName": t.name, "ScanFilter": legacy_conditions(rng, names)}
    if len(req["ScanFilter"]) > 1:
        req["ConditionalOperator"] = rng.choice(["AND", "OR"])
    return "Scan", req, {"unordered": True}


GOOD = [(put_item, 5), (update_item, 5), (delete_item, 2), (get_item, 4), (query, 4), (scan, 2),
        (batch_write, 2), (batch_get, 2), (transact_write, 2), (paged_query, 1), (paged_scan, 1),
        (transact_get, 1), (legacy, 2)]


# ---- malformed requests -------------------------------------------------------------------------

def malformed(rng, tables):
    """A good request with one random defect."""
    t = rng.choice(tables)
    op, req, hints = weighted(rng, GOOD)(rng, t)
    req = copy.deepcopy(req)
    defect = rng.choice(DEFECTS)
    defect(rng, t, op, req)
    return op, req, hints


def _items_of(op, req):
    """The items and keys inside a request, for a defect to spoil."""
    out = []
    if "Item" in req:
        out.append(req["Item"])
    if "Key" in req:
        out.append(req["Key"])
    for reqs in req.get("RequestItems", {}).values():
        if isinstance(reqs, dict):
            out.extend(reqs.get("Keys", []))
        else:
            for w in reqs:
                out.extend(w.get("PutRequest", {}).get("Item", {}) and [w["PutRequest"]["Item"]])
                out.extend(w.get("DeleteRequest", {}).get("Key", {}) and [w["DeleteRequest"]["Key"]])
    for a in req.get("TransactItems", []):
        for body in a.values():
            out.extend([body[f] for f in ("Item", "Key") if f in body])
    return out


def d_bad_number(rng, t, op, req):
    items = _items_of(op, req)
    if items:
        rng.choice(items)[rng.choice(NAMES)] = {"N": rng.choice(BAD_NUMBERS)}


def d_bad_key_number(rng, t, op, req):
    items = _items_of(op, req)
    if items and t.hash_key[1] == "N":
        rng.choice(items)[t.hash_key[0]] = {"N": rng.choice(BAD_NUMBERS)}
    elif items:
        rng.choice(items)[t.hash_key[0]] = {"S": ""} if t.hash_key[1] == "S" else {"B": ""}


def d_wrong_key_type(rng, t, op, req):
    items = _items_of(op, req)
    if items:
        other = {"S": {"N": "1"}, "N": {"S": "1"}, "B": {"S": "x"}}[t.hash_key[1]]
        rng.choice(items)[t.hash_key[0]] = other


def d_missing_key(rng, t, op, req):
    items = _items_of(op, req)
    if items:
        victim = t.range_key[0] if t.range_key and rng.random() < 0.5 else t.hash_key[0]
        rng.choice(items).pop(victim, None)


def d_extra_key_attr(rng, t, op, req):
    if "Key" in req:
        req["Key"][rng.choice(["a", "name", "ñame"])] = {"S": "x"}


def d_bad_set(rng, t, op, req):
    items = _items_of(op, req)
    if items:
        bad = rng.choice([{"SS": []}, {"NS": []}, {"BS": []}, {"SS": ["a", "a"]}, {"NS": ["1", "1.0"]},
                          {"BS": [b64(b"a"), b64(b"a")]}, {"NS": ["1", "x"]}, {"SS": [1]}])
        rng.choice(items)[rng.choice(NAMES)] = bad


def d_bad_value_shape(rng, t, op, req):
    items = _items_of(op, req)
    if items:
        bad = rng.choice([{}, {"S": "a", "N": "1"}, {"X": "1"}, {"S": 5}, {"BOOL": "true"}, {"NULL": False},
                          {"B": "!!notbase64"}, {"L": {}}, {"M": []}, {"N": 1}, "str", None])
        rng.choice(items)[rng.choice(NAMES)] = bad


def d_expr_syntax(rng, t, op, req):
    field = next((f for f in ("ConditionExpression", "UpdateExpression", "KeyConditionExpression",
                              "FilterExpression", "ProjectionExpression") if f in req), None)
    if field is None:
        req["ConditionExpression"] = rng.choice(["", "a =", "attribute_exists()", "a = = b", "(a = b",
                                                 "size(a)", "a IN ()", "#missing = :missing", "a BETWEEN b"])
        return
    s = req[field]
    mutation = rng.choice(["truncate", "paren", "unknown_name", "unknown_value", "unused_value",
                           "unused_name", "empty", "reserved", "function"])
    if mutation == "truncate":
        req[field] = s[: max(1, len(s) * 2 // 3)]
    elif mutation == "paren":
        req[field] = "(" + s
    elif mutation == "unknown_name":
        req[field] = s + (", #zz" if field == "ProjectionExpression" else " AND #zz = :zz" if "Condition" in field
                          or "Filter" in field else ", #zz" if field == "ProjectionExpression" else " REMOVE #zz")
    elif mutation == "unknown_value":
        req[field] = s.replace(":v0", ":nope", 1) if ":v0" in s else s + " AND a = :nope"
    elif mutation == "unused_value":
        req.setdefault("ExpressionAttributeValues", {})[":unused"] = {"S": "x"}
    elif mutation == "unused_name":
        req.setdefault("ExpressionAttributeNames", {})["#unused"] = "x"
    elif mutation == "empty":
        req[field] = ""
    elif mutation == "reserved":
        req[field] = s.replace(req.get("ExpressionAttributeNames", {}) and next(iter(req["ExpressionAttributeNames"]))
                               or "#", "size", 1)
    else:
        req[field] = s + rng.choice([" AND nofunc(a)", " AND size(a, b) > :v0", " AND begins_with(a)",
                                     " AND contains(a)", " AND attribute_type(a, :v0, :v0)"])


def d_bad_enum(rng, t, op, req):
    field = rng.choice(["ReturnValues", "Select", "ReturnConsumedCapacity", "ReturnItemCollectionMetrics",
                        "ReturnValuesOnConditionCheckFailure"])
    req[field] = rng.choice(["", "all_old", "BOGUS", "UPDATED_NEW", "ALL_ATTRIBUTES", "COUNT", "TOTAL"])


def d_bad_table(rng, t, op, req):
    name = rng.choice(["", "ab", "no_such_table_x", "bad name!", "x" * 256, "dt-missing"])
    if "TableName" in req:
        req["TableName"] = name
    elif "RequestItems" in req:
        req["RequestItems"] = {name: next(iter(req["RequestItems"].values()))}
    else:
        for a in req.get("TransactItems", []):
            for body in a.values():
                body["TableName"] = name


def d_wrong_json_type(rng, t, op, req):
    field = rng.choice(list(req.keys()))
    req[field] = rng.choice([5, "x", [], {}, True, None])


def d_legacy_mix(rng, t, op, req):
    if op in ("PutItem", "DeleteItem", "UpdateItem"):
        req["Expected"] = {"a": {"Exists": False}}
    elif op in ("Query", "Scan"):
        req["ScanFilter" if op == "Scan" else "QueryFilter"] = {
            "a": {"ComparisonOperator": "NOT_NULL"}}
    else:
        req["Unknown"] = 1


def d_bad_limit(rng, t, op, req):
    if op in ("Query", "Scan"):
        # (No fractional Limit for a Scan: both servers take it as a limit, and a limited Scan's page
        # depends on the server's layout.)
        req["Limit"] = rng.choice([0, -1, "x"] + ([1.5] if op == "Query" else []))
    elif op == "TransactWriteItems":
        req["TransactItems"] = []
    elif op in ("BatchWriteItem", "BatchGetItem"):
        req["RequestItems"] = {}


def d_update_conflict(rng, t, op, req):
    if op == "UpdateItem":
        e = rng.choice(["SET a = :x, a = :x", "SET a = :x REMOVE a", "SET a.b = :x, a = :x",
                        "SET #k = :x", "REMOVE #k", "ADD a :x, a :x", "SET a[0] = :x, a[0] = :x",
                        "ADD a.b :x", "DELETE a :x", "SET a = :x + :x", "SET a = list_append(:x, :x)"])
        req["UpdateExpression"] = e
        req["ExpressionAttributeValues"] = {":x": rng.choice([value(rng), {"N": "1"}, {"SS": ["q"]}])}
        req["ExpressionAttributeNames"] = {"#k": t.hash_key[0]} if "#k" in e else None
        if req["ExpressionAttributeNames"] is None:
            req.pop("ExpressionAttributeNames")
        req.pop("ConditionExpression", None)


def d_index(rng, t, op, req):
    if op in ("Query", "Scan"):
        req["IndexName"] = rng.choice(["nope", "gsi1", "lsi1", "", "x" * 300])


def d_scalar_in_key_cond(rng, t, op, req):
    if op == "Query":
        req["ExpressionAttributeValues"] = {k: (scalar(rng, "S") if rng.random() < 0.5 else {"S": ""})
                                            for k in req.get("ExpressionAttributeValues", {})}


DEFECTS = [d_bad_number, d_bad_key_number, d_wrong_key_type, d_missing_key, d_extra_key_attr, d_bad_set,
           d_bad_value_shape, d_expr_syntax, d_expr_syntax, d_bad_enum, d_bad_table, d_wrong_json_type,
           d_legacy_mix, d_bad_limit, d_update_conflict, d_update_conflict, d_index, d_scalar_in_key_cond]


def weighted(rng, pairs):
    total = sum(w for _, w in pairs)
    x = rng.uniform(0, total)
    for f, w in pairs:
        x -= w
        if x <= 0:
            return f
    return pairs[-1][0]


def rand_request(rng, tables, malformed_share=0.25):
    if rng.random() < malformed_share:
        return malformed(rng, tables)
    t = rng.choice(tables)
    return weighted(rng, GOOD)(rng, t)


__all__ = ["rand_request", "index_attrs"]
