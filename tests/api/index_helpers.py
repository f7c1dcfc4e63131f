"""Shared by the index tests (test_indexes.py, test_multi_attribute_indexes.py): key-schema and
index builders, and batch-put and paged-read helpers on the client API (error checks and
attribute-value builders are in wire_helpers.py)."""


def ks(*pairs):
    return [{"AttributeName": n, "KeyType": t} for n, t in pairs]


def ad(*pairs):
    return [{"AttributeName": n, "AttributeType": t} for n, t in pairs]


def index(name, keys, projection="ALL", include=None):
    p = {"ProjectionType": projection}
    if include:
        p["NonKeyAttributes"] = include
    return {"IndexName": name, "KeySchema": keys, "Projection": p}


def put_all(ddb, table, items):
    for i in range(0, len(items), 25):
        ddb.batch_write_item(RequestItems={table: [{"PutRequest": {"Item": it}} for it in items[i:i + 25]]})


def read_all(ddb, op, **kw):
    items, pages, start = [], [], None
    while True:
        args = dict(kw)
        if start:
            args["ExclusiveStartKey"] = start
        resp = getattr(ddb, op)(**args)
        pages.append(resp)
        items += resp.get("Items", [])
        start = resp.get("LastEvaluatedKey")
        if not start:
            return items, pages


def keyset(items, *names):
    return sorted(tuple(next(iter(i[n].values())) for n in names) for i in items)
