"""Random tables, items, expressions and requests for the differential tester (deterministic from a
random.Random the caller seeds).

Every request is a plain JSON-able dict in DynamoDB's wire format. Attribute names are drawn from a
pool of awkward ones (reserved words, unicode, dots, spaces, '#' and ':'), numbers from a pool of
awkward ones (38 digits, exponents at both ends of the range, negative zero, trailing zeros).
"""
import base64

# Names that expressions must reach through ExpressionAttributeNames, and a few plain ones.
NAMES = ["a", "b", "name", "size", "status", "data", "count", "ñame", "名前", "a.b", "x y", "#h", ":c",
         "Ünï", "z_9", "value", "L", "emoji😀"]
PLAIN = {"a", "b", "z_9", "L"}  # usable bare in an expression (not reserved, plain characters)

NUMBERS = ["0", "-0", "1", "-1", "1.5", "-1.50", "10", "100", "1e2", "1E+2", "0.001", "1e-3", "1.0",
           "0012", "12345678901234567890123456789012345678", "-12345678901234567890123456789012345678",
           "9.9999999999999999999999999999999999999E+125", "-9.9999999999999999999999999999999999999E+125",
           "1E-130", "-1E-130", "0.00000000000000000000000000000000000001", "1.2345678901234567890123456789012345678E-100",
           "3.14159", "2.5e10", "-7", "42", "0.0", "1000000000000000000000000000000000000000000"]
BAD_NUMBERS = ["1.23456789012345678901234567890123456789E-100", "", " 1", "1 ", "abc", "NaN", "Infinity", "-Infinity", "0x10", "+", "1e", "e5", "1..2",
               "123456789012345678901234567890123456789", "1e126", "-1e126", "1e-131", "1e9999", "--1",
               "1,5", "١"]
STRINGS = ["", "x", "abc", "abd", "ab", "A", "ñ", "名前", "emoji😀", "a b", "0", "10", "9", "\u0000",
           "\t\n", "\\", "\"q\"", "é", "e\u0301", "zzzz", "\U0010ffff", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"]
BINARIES = [b"", b"\x00", b"\x01", b"\xff", b"ab", b"abc", b"\x00\x00", b"\x80\x7f", b"x" * 40]


def b64(data):
    return base64.b64encode(data).decode()


class Table:
    def __init__(self, name, hash_key, range_key=None, gsi=None, lsi=None):
        self.name = name
        self.hash_key = hash_key    # (name, type)
        self.range_key = range_key  # (name, type) or None
        self.gsi = gsi              # (index name, (name, type), (name, type) or None, projection) or None
        self.lsi = lsi              # (index name, (name, type), projection) or None
        self.keys = []              # keys written so far (wire format), to aim later requests at

    def key_names(self):
        return [self.hash_key] + ([self.range_key] if self.range_key else [])


def rand_table(rng, name):
    types = ["S", "N", "B"]
    used = set()

    def attr():
        while True:
            n = rng.choice(["pk", "sk", "gk", "gs", "ls", "名", "k.k", "k k", "status", "data"])
            if n not in used:
                used.add(n)
                return n
    hk = (attr(), rng.choice(types))
    rk = (attr(), rng.choice(types)) if rng.random() < 0.6 else None
    gsi = lsi = None
    if rng.random() < 0.5:
        g = (attr(), rng.choice(types))
        gr = (attr(), rng.choice(types)) if rng.random() < 0.5 else None
        gsi = ("gsi1", g, gr, rand_projection(rng))
    if rk and rng.random() < 0.4:
        lsi = ("lsi1", (attr(), rng.choice(types)), rand_projection(rng))
    return Table(name, hk, rk, gsi, lsi)


def rand_projection(rng):
    kind = rng.choice(["ALL", "KEYS_ONLY", "INCLUDE"])
    if kind == "INCLUDE":
        return {"ProjectionType": "INCLUDE", "NonKeyAttributes": rng.sample(["a", "name", "ñame", "count"], 2)}
    return {"ProjectionType": kind}


def create_table_request(t):
    defs = {}
    for n, ty in t.key_names():
        defs[n] = ty
    req = {"TableName": t.name, "BillingMode": "PAY_PER_REQUEST",
           "KeySchema": [{"AttributeName": t.hash_key[0], "KeyType": "HASH"}]
           + ([{"AttributeName": t.range_key[0], "KeyType": "RANGE"}] if t.range_key else [])}
    if t.gsi:
        iname, g, gr, proj = t.gsi
        defs[g[0]] = g[1]
        ks = [{"AttributeName": g[0], "KeyType": "HASH"}]
        if gr:
            defs[gr[0]] = gr[1]
            ks.append({"AttributeName": gr[0], "KeyType": "RANGE"})
        req["GlobalSecondaryIndexes"] = [{"IndexName": iname, "KeySchema": ks, "Projection": proj}]
    if t.lsi:
        iname, l, proj = t.lsi
        defs[l[0]] = l[1]
        req["LocalSecondaryIndexes"] = [{"IndexName": iname, "Projection": proj, "KeySchema": [
            {"AttributeName": t.hash_key[0], "KeyType": "HASH"}, {"AttributeName": l[0], "KeyType": "RANGE"}]}]
    req["AttributeDefinitions"] = [{"AttributeName": n, "AttributeType": ty} for n, ty in defs.items()]
    return req


# ---- values -------------------------------------------------------------------------------------

def scalar(rng, ty, small=False):
    if ty == "S":
        pool = [s for s in STRINGS if s] if small else STRINGS
        return {"S": rng.choice(pool)}
    if ty == "N":
        return {"N": rng.choice(NUMBERS[:14] if small else NUMBERS)}
    pool = [b for b in BINARIES if b]
    return {"B": b64(rng.choice(pool if small else BINARIES))}


def key_value(rng, ty):
    """A key attribute value: never empty (AWS refuses empty key strings and binaries)."""
    if ty == "S":
        return {"S": rng.choice([s for s in STRINGS if s] + [f"k{rng.randrange(6)}" for _ in range(6)])}
    if ty == "N":
        return {"N": rng.choice(NUMBERS[:20] + [str(rng.randrange(6)) for _ in range(6)])}
    return {"B": b64(rng.choice([b for b in BINARIES if b] + [bytes([rng.randrange(4)]) for _ in range(4)]))}


def value(rng, depth=0):
    kinds = ["S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS"] + (["L", "M"] if depth < 3 else [])
    k = rng.choice(kinds)
    if k in ("S", "N", "B"):
        return scalar(rng, k)
    if k == "BOOL":
        return {"BOOL": rng.random() < 0.5}
    if k == "NULL":
        return {"NULL": True}
    if k == "SS":
        return {"SS": rng.sample(STRINGS[:12], rng.randint(1, 4))}
    if k == "NS":
        return {"NS": distinct_numbers(rng, rng.randint(1, 4))}
    if k == "BS":
        return {"BS": [b64(b) for b in rng.sample(BINARIES, rng.randint(1, 4))]}
    if k == "L":
        return {"L": [value(rng, depth + 1) for _ in range(rng.randint(0, 4))]}
    return {"M": {rng.choice(NAMES): value(rng, depth + 1) for _ in range(rng.randint(0, 4))}}


def distinct_numbers(rng, n):
    # Members equal as numbers ("1", "1.0", "1e0") would make a duplicate set: keep one of each value.
    from decimal import Decimal
    out, seen = [], set()
    for s in rng.sample(NUMBERS[:24], min(n + 4, 24)):
        v = Decimal(s).normalize() if Decimal(s) != 0 else Decimal(0)
        if v not in seen:
            seen.add(v)
            out.append(s)
        if len(out) == n:
            break
    return out


def rand_key(rng, t, fresh=None):
    if t.keys and (fresh is False or (fresh is None and rng.random() < 0.6)):
        return dict(rng.choice(t.keys))
    k = {t.hash_key[0]: key_value(rng, t.hash_key[1])}
    if t.range_key:
        k[t.range_key[0]] = key_value(rng, t.range_key[1])
    return k


def rand_item(rng, t, key=None):
    item = dict(key or rand_key(rng, t))
    reserved = {n for n, _ in t.key_names() + index_attrs(t)}
    for _ in range(rng.randint(0, 6)):
        n = rng.choice(NAMES)
        if n not in reserved:
            item[n] = value(rng)
    for idx_attr in index_attrs(t):
        if rng.random() < 0.7:
            item[idx_attr[0]] = key_value(rng, idx_attr[1])
    return item


def index_attrs(t):
    out = []
    if t.gsi:
        out.append(t.gsi[1])
        if t.gsi[2]:
            out.append(t.gsi[2])
    if t.lsi:
        out.append(t.lsi[1])
    return [a for a in out if a not in t.key_names()]


# ---- expressions --------------------------------------------------------------------------------

class Expr:
    """Collects ExpressionAttributeNames/Values while expressions are built."""

    def __init__(self, rng):
        self.rng = rng
        self.names = {}
        self.values = {}

    def name(self, n):
        if n in PLAIN and self.rng.random() < 0.5:
            return n
        for k, v in self.names.items():
            if v == n:
                return k
        k = f"#n{len(self.names)}"
        self.names[k] = n
        return k

    def val(self, v):
        k = f":v{len(self.values)}"
        self.values[k] = v
        return k

    def path(self, top=None):
        rng = self.rng
        p = self.name(top or rng.choice(NAMES))
        for _ in range(rng.choice([0, 0, 0, 1, 2])):
            if rng.random() < 0.5:
                p += f"[{rng.randrange(3)}]"
            else:
                p += "." + self.name(rng.choice(NAMES))
        return p

    def operand(self):
        rng = self.rng
        r = rng.random()
        if r < 0.5:
            return self.path()
        if r < 0.6:
            return f"size({self.path()})"
        return self.val(scalar(rng, rng.choice("SNB"), small=True))

    def condition(self, depth=0, key_names=()):
        rng = self.rng
        r = rng.random()
        if depth < 2 and r < 0.2:
            op = rng.choice(["AND", "OR"])
            return f"({self.condition(depth + 1, key_names)}) {op} {self.condition(depth + 1, key_names)}"
        if depth < 2 and r < 0.27:
            return f"NOT {self.condition(depth + 1, key_names)}"
        r = rng.random()
        target = rng.choice(list(key_names)) if key_names and rng.random() < 0.3 else None
        if r < 0.15:
            return f"attribute_exists({self.path(target)})"
        if r < 0.3:
            return f"attribute_not_exists({self.path(target)})"
        if r < 0.4:
            ty = rng.choice(["S", "SS", "N", "NS", "B", "BS", "BOOL", "NULL", "L", "M"])
            return f"attribute_type({self.path()}, {self.val({'S': ty})})"
        if r < 0.5:
            return f"begins_with({self.path(target)}, {self.val(scalar(rng, rng.choice('SB'), small=True))})"
        if r < 0.6:
            return f"contains({self.path(target)}, {self.val(scalar(rng, rng.choice('SNB'), small=True))})"
        if r < 0.68:
            lo, hi = sorted([rng.choice(NUMBERS[:14]) for _ in range(2)], key=float)
            return f"{self.operand()} BETWEEN {self.val({'N': lo})} AND {self.val({'N': hi})}"
        if r < 0.75:
            vals = ", ".join(self.val(scalar(rng, rng.choice("SN"), small=True)) for _ in range(rng.randint(1, 3)))
            return f"{self.path(target)} IN ({vals})"
        cmp = rng.choice(["=", "<>", "<", "<=", ">", ">="])
        return f"{self.path(target)} {cmp} {self.operand()}"

    def update(self, t):
        rng = self.rng
        keys = {n for n, _ in t.key_names() + index_attrs(t)}
        names = [n for n in NAMES if n not in keys]
        clauses = {}
        used = set()

        def fresh_top():
            for _ in range(10):
                n = rng.choice(names)
                if n not in used:
                    used.add(n)
                    return n
            return None
        for _ in range(rng.randint(1, 4)):
            top = fresh_top()
            if top is None:
                break
            kind = rng.choice(["SET", "SET", "SET", "REMOVE", "ADD", "DELETE"])
            p = self.path(top) if rng.random() < 0.3 else self.name(top)
            if kind == "SET":
                r = rng.random()
                if r < 0.4:
                    rhs = self.val(value(rng))
                elif r < 0.55:
                    rhs = f"{self.name(top)} {rng.choice('+-')} {self.val({'N': rng.choice(NUMBERS[:14])})}"
                elif r < 0.7:
                    rhs = f"if_not_exists({self.name(top)}, {self.val(value(rng))})"
                elif r < 0.85:
                    lst = self.val({"L": [value(rng, 2) for _ in range(rng.randint(0, 2))]})
                    rhs = (f"list_append({self.name(top)}, {lst})" if rng.random() < 0.5
                           else f"list_append({lst}, {self.name(top)})")
                else:
                    rhs = self.path()
                clauses.setdefault("SET", []).append(f"{p} = {rhs}")
            elif kind == "REMOVE":
                clauses.setdefault("REMOVE", []).append(p)
            elif kind == "ADD":
                v = rng.choice([{"N": rng.choice(NUMBERS[:20])}, {"SS": rng.sample(STRINGS[:12], 2)},
                                {"NS": distinct_numbers(rng, 2)}])
                clauses.setdefault("ADD", []).append(f"{self.name(top)} {self.val(v)}")
            else:
                v = rng.choice([{"SS": rng.sample(STRINGS[:12], 2)}, {"NS": distinct_numbers(rng, 2)}])
                clauses.setdefault("DELETE", []).append(f"{self.name(top)} {self.val(v)}")
        return " ".join(f"{k} {', '.join(v)}" for k, v in clauses.items())

    def projection(self, t):
        rng = self.rng
        paths = [self.path() for _ in range(rng.randint(1, 4))]
        if rng.random() < 0.5:
            paths.append(self.name(t.hash_key[0]))
        return ", ".join(dict.fromkeys(paths))

    def attach(self, req):
        if self.names:
            req["ExpressionAttributeNames"] = dict(self.names)
        if self.values:
            req["ExpressionAttributeValues"] = dict(self.values)
        return req
