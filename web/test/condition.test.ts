import { describe, expect, it } from 'vitest';
import {
  appendAt, attributesRead, filterExpression, newCondition, newGroup, nodeAt, NotInPartiql, operandError, operandValue, partiqlDialect,
  readableDialect, removeAt, updateAt, withOp, writeTree,
} from '../src/condition';
import type { FilterCondition, FilterGroup, FilterNode, FilterOp, OperandKind } from '../src/condition';
import { ExpressionWriter } from '../src/expr';

// A condition: path, operator, operands as [kind, text]; `size` and `not` by options.
const c = (path: string, op: FilterOp, operands: [OperandKind, string][] = [], opts: { size?: boolean; not?: boolean } = {}): FilterCondition =>
  newCondition({ path, op, operands: operands.map(([kind, text]) => ({ kind, text })), ...opts });
const and = (...children: FilterNode[]) => newGroup('AND', children);
const or = (...children: FilterNode[]) => newGroup('OR', children);
const not = <T extends FilterNode>(n: T): T => ({ ...n, not: true });

function dynamo(root: FilterGroup) {
  const w = new ExpressionWriter();
  const expression = filterExpression(w, root);
  return { expression, names: w.names, values: w.values };
}
const expr = (root: FilterGroup) => dynamo(root).expression;

describe('groups and parentheses', () => {
  it('writes nothing for an empty tree or rows without a path', () => {
    expect(expr(and())).toBeUndefined();
    expect(expr(and(c('', '=', [['S', 'x']]), or(and())))).toBeUndefined();
  });
  it('joins the top group without parentheses and puts every nested group of two or more in them', () => {
    const a = c('a', '=', [['N', '1']]), b = c('b', '=', [['N', '2']]), d = c('d', '=', [['N', '3']]), e = c('e', '=', [['N', '4']]);
    expect(expr(and(a, b))).toBe('a = :a AND b = :b');
    expect(expr(or(a, b))).toBe('a = :a OR b = :b');
    expect(expr(or(and(a, b), d))).toBe('(a = :a AND b = :b) OR d = :d');
    expect(expr(and(a, or(b, and(d, e))))).toBe('a = :a AND (b = :b OR (d = :d AND e = :e))');
    // Same join nested is still the user's group, and kept as one.
    expect(expr(and(a, and(b, d)))).toBe('a = :a AND (b = :b AND d = :d)');
  });
  it('unwraps a group of one, and skips empty rows and groups inside', () => {
    const a = c('a', '=', [['N', '1']]), b = c('b', '=', [['N', '2']]);
    expect(expr(and(or(a)))).toBe('a = :a');
    expect(expr(and(a, or(b, c('', '=')), and()))).toBe('a = :a AND b = :b');
  });
  it('negates conditions and groups, never with doubled parentheses (DynamoDB refuses them)', () => {
    const a = c('a', '=', [['N', '1']]), b = c('b', '=', [['N', '2']]);
    expect(expr(and(not(a)))).toBe('NOT (a = :a)');
    expect(expr(not(and(a, b)))).toBe('NOT (a = :a AND b = :b)');
    expect(expr(and(not(or(a, b)), b))).toBe('NOT (a = :a OR b = :b) AND b = :b');
    // A negated group of one negated group: NOT (NOT (x)), never NOT ((x)).
    expect(expr(and(not(and(or(a, b)))))).toBe('NOT (a = :a OR b = :b)');
    expect(expr(not(and(not(a))))).toBe('NOT (NOT (a = :a))');
    for (const e of [expr(not(and(or(a, b)))), expr(and(not(or(not(and(a, b)), b))))]) expect(e).not.toMatch(/\(\(/);
    expect(expr(and(not(or(not(and(a, b)), b))))).toBe('NOT (NOT (a = :a AND b = :b) OR b = :b)');
  });
});

describe('operators', () => {
  const one = (cond: FilterCondition) => dynamo(and(cond));
  it('every comparator, BETWEEN, IN and the functions', () => {
    for (const op of ['=', '<>', '<', '<=', '>', '>='] as const) expect(one(c('price', op, [['N', '5']])).expression).toBe(`price ${op} :price`);
    expect(one(c('price', 'between', [['N', '1'], ['N', '9']]))).toEqual({ expression: 'price BETWEEN :price1 AND :price2', names: {}, values: { ':price1': { N: '1' }, ':price2': { N: '9' } } });
    expect(one(c('kind', 'in', [['S', 'a'], ['S', 'b'], ['N', '3']])).expression).toBe('kind IN (:kind1, :kind2, :kind3)');
    expect(one(c('SK', 'begins_with', [['S', 'ORDER#']])).expression).toBe('begins_with(SK, :sk)');
    expect(one(c('tags', 'contains', [['S', 'red']])).values).toEqual({ ':tags': { S: 'red' } });
    expect(one(c('tags', 'attribute_exists')).expression).toBe('attribute_exists(tags)');
    expect(one(c('a.status', 'attribute_not_exists')).expression).toBe('attribute_not_exists(a.#status)');
    expect(one(c('tags', 'attribute_type', [['S', 'SS']]))).toEqual({ expression: 'attribute_type(tags, :type)', names: {}, values: { ':type': { S: 'SS' } } });
  });
  it('size(path) on the left with comparators, BETWEEN and IN', () => {
    expect(one(c('tags', '>', [['N', '3']], { size: true }))).toEqual({ expression: 'size(tags) > :tagssize', names: {}, values: { ':tagssize': { N: '3' } } });
    expect(one(c('name', 'between', [['N', '1'], ['N', '5']], { size: true })).expression).toBe('size(#name) BETWEEN :namesize1 AND :namesize2');
    expect(one(c('tags', 'in', [['N', '1'], ['N', '2']], { size: true })).expression).toBe('size(tags) IN (:tagssize1, :tagssize2)');
  });
  it('refuses what cannot be written, naming the condition', () => {
    expect(() => expr(and(c('price', '=', [['N', 'ten']])))).toThrow('filter on price: "ten" is not a number');
    expect(() => expr(and(c('tags', 'in', [])))).toThrow(/IN needs at least one operand/);
    expect(() => expr(and(c('tags', 'in', Array.from({ length: 101 }, (_, i) => ['N', String(i)] as [OperandKind, string]))))).toThrow(/at most 100/);
    expect(() => expr(and(c('tags', 'attribute_type', [['S', 'STRING']])))).toThrow(/attribute_type takes one of S N B/);
    expect(() => expr(and(c('x', 'between', [['N', '1']])))).toThrow(/two operands/);
    expect(() => expr(and(c('a..b', 'attribute_exists')))).toThrow(/filter on a\.\.b: "a\.\.b" is not a document path/);
  });
});

describe('operands', () => {
  it('scalars: S, N, B as base64, BOOL, NULL', () => {
    expect(operandValue('S', ' two words ')).toEqual({ S: ' two words ' });
    expect(operandValue('N', ' -1.5e3 ')).toEqual({ N: '-1.5e3' });
    expect(operandValue('B', 'AQID')).toEqual({ B: 'AQID' });
    expect(operandValue('B', 'AQ==')).toEqual({ B: 'AQ==' });
    expect(() => operandValue('B', 'AQI')).toThrow(/not base64/);
    expect(() => operandValue('B', 'not base64!')).toThrow(/not base64/);
    expect(operandValue('BOOL', 'False')).toEqual({ BOOL: false });
    expect(() => operandValue('BOOL', 'yes')).toThrow(/true or false/);
    expect(operandValue('NULL', '')).toEqual({ NULL: true });
    expect(() => operandValue('N', '')).toThrow(/number is missing/);
  });
  it('lists and maps in plain JSON or DynamoDB JSON', () => {
    expect(operandValue('L', '["a", 1, [true], {"k": null}]')).toEqual({ L: [{ S: 'a' }, { N: '1' }, { L: [{ BOOL: true }] }, { M: { k: { NULL: true } } }] });
    expect(operandValue('L', '{"L": [{"S": "a"}, {"N": "1"}]}')).toEqual({ L: [{ S: 'a' }, { N: '1' }] });
    expect(operandValue('L', '[]')).toEqual({ L: [] });
    expect(() => operandValue('L', '{"a": 1}')).toThrow(/a list is a JSON array/);
    expect(() => operandValue('L', '{"L": [{"X": 1}]}')).toThrow(/one of S N B/);
    expect(operandValue('M', '{"street": "Rua Augusta", "no": 12}')).toEqual({ M: { street: { S: 'Rua Augusta' }, no: { N: '12' } } });
    expect(operandValue('M', '{"M": {"no": {"N": "12"}}}')).toEqual({ M: { no: { N: '12' } } });
    expect(operandValue('M', '{"no": {"N": "12"}}')).toEqual({ M: { no: { N: '12' } } }); // an item in DynamoDB JSON
    expect(operandValue('M', '{"M": 3}')).toEqual({ M: { M: { N: '3' } } }); // plain: a map with a key M
    expect(() => operandValue('M', '[1]')).toThrow(/a map is a JSON object/);
    expect(() => operandValue('M', '{street: 1}')).toThrow(/is not JSON/);
  });
  it('sets in plain JSON or DynamoDB JSON: non-empty, distinct, typed', () => {
    expect(operandValue('SS', '["red", "blue"]')).toEqual({ SS: ['red', 'blue'] });
    expect(operandValue('SS', '{"SS": ["red"]}')).toEqual({ SS: ['red'] });
    expect(operandValue('NS', '[1, "2.5", 3e2]')).toEqual({ NS: ['1', '2.5', '300'] });
    expect(operandValue('NS', '{"NS": ["7"]}')).toEqual({ NS: ['7'] });
    expect(operandValue('BS', '["AQI=", "AwQ="]')).toEqual({ BS: ['AQI=', 'AwQ='] });
    expect(() => operandValue('SS', '[]')).toThrow(/non-empty/);
    expect(() => operandValue('SS', '["a", "a"]')).toThrow(/twice/);
    expect(() => operandValue('NS', '[1, "1.0"]')).toThrow(/twice/);
    expect(() => operandValue('SS', '[1]')).toThrow(/strings/);
    expect(() => operandValue('NS', '["x"]')).toThrow(/not a number/);
    expect(() => operandValue('BS', '["%%"]')).toThrow(/not base64/);
  });
  it('every value kind reaches ExpressionAttributeValues', () => {
    const cases: [OperandKind, string, unknown][] = [
      ['S', 'x', { S: 'x' }], ['N', '2', { N: '2' }], ['B', 'AQID', { B: 'AQID' }], ['BOOL', 'true', { BOOL: true }], ['NULL', '', { NULL: true }],
      ['L', '[1]', { L: [{ N: '1' }] }], ['M', '{"a": "b"}', { M: { a: { S: 'b' } } }],
      ['SS', '["x"]', { SS: ['x'] }], ['NS', '[1]', { NS: ['1'] }], ['BS', '["AQID"]', { BS: ['AQID'] }],
    ];
    for (const [kind, text, av] of cases) expect(dynamo(and(c('v', '=', [[kind, text]]))).values, kind).toEqual({ ':v': av });
  });
  it('marks a bad operand as it is typed', () => {
    expect(operandError({ kind: 'N', text: '1' })).toBe('');
    expect(operandError({ kind: 'SS', text: '["a",' })).toMatch(/not JSON/);
    expect(operandError({ kind: 'path', text: 'a.b[0]' })).toBe('');
    expect(operandError({ kind: 'size', text: 'a[' })).toMatch(/not a document path/);
  });
});

describe('paths', () => {
  it('compares a path with another path and with size(path), both sides escaped', () => {
    expect(dynamo(and(c('total', '<', [['path', 'limit']])))).toEqual({ expression: '#total < #limit', names: { '#total': 'total', '#limit': 'limit' }, values: {} });
    expect(expr(and(c('a', '<>', [['size', 'b.list']], { size: true })))).toBe('size(a) <> size(b.#list)') // list is reserved;
    expect(expr(and(c('price', 'between', [['path', 'min'], ['N', '100']])))).toBe('price BETWEEN #min AND :price2');
    expect(expr(and(c('owner', 'in', [['path', 'buyer'], ['path', 'seller'], ['S', 'me']])))).toBe('#owner IN (buyer, seller, :owner3)');
    expect(expr(and(c('name', 'begins_with', [['path', 'prefix']])))).toBe('begins_with(#name, prefix)');
    expect(expr(and(c('tags', 'contains', [['path', 'favourite']])))).toBe('contains(tags, favourite)');
  });
  it('nested paths with list indexes and map keys, each reserved or odd name its own #placeholder', () => {
    const { expression, names } = dynamo(and(c('order.items[2].size', '>=', [['path', 'data.user-limit[0]']])));
    expect(expression).toBe('#order.#items[2].#size >= #data.#user_limit[0]');
    expect(names).toEqual({ '#order': 'order', '#items': 'items', '#size': 'size', '#data': 'data', '#user_limit': 'user-limit' });
  });
  it('one placeholder a name and a value, reused across the tree', () => {
    const { expression, names, values } = dynamo(or(c('status', '=', [['S', 'OPEN']]), and(c('status', '<>', [['S', 'OPEN']]), c('total', '=', [['S', 'OPEN']]))));
    expect(expression).toBe('#status = :status OR (#status <> :status AND #total = :status)');
    expect(names).toEqual({ '#status': 'status', '#total': 'total' });
    expect(values).toEqual({ ':status': { S: 'OPEN' } });
  });
});

describe('PartiQL and the readable line', () => {
  const tree = or(
    and(c('status', '=', [['S', "it's"]]), c('total', '>', [['path', 'limit']])),
    c('line', '=', [['M', '{"no": 12}']]),
    not(c('tags', 'attribute_exists')),
    c('tags', 'in', [['N', '1'], ['SS', '["a"]']], { size: true }),
    c('t', 'attribute_type', [['S', 'L']]),
  );
  it('writes the same tree as a PartiQL condition', () => {
    expect(writeTree(partiqlDialect, tree)).toBe(
      `("status" = 'it''s' AND "total" > "limit") OR "line" = {'no': 12} OR NOT ("tags" IS NOT MISSING) OR size("tags") IN [1, <<'a'>>] OR attribute_type("t", 'L')`,
    );
    // ANDed after a key condition, a top-level OR is put in parentheses.
    expect(writeTree(partiqlDialect, or(c('a', '=', [['N', '1']]), c('b', '=', [['N', '2']])), false)).toBe('("a" = 1 OR "b" = 2)');
    expect(writeTree(partiqlDialect, and(c('a', '=', [['N', '1']]), c('b', '=', [['N', '2']])), false)).toBe('"a" = 1 AND "b" = 2');
  });
  it('says binary values are not expressible in PartiQL', () => {
    expect(() => writeTree(partiqlDialect, and(c('a', '=', [['B', 'AQID']])))).toThrow(NotInPartiql);
    expect(() => writeTree(partiqlDialect, and(c('a', 'contains', [['BS', '["AQID"]']])))).toThrow(NotInPartiql);
  });
  it('reads with names and values inline', () => {
    expect(writeTree(readableDialect, tree)).toBe(
      `(status = "it's" AND total > limit) OR line = {"no":12} OR NOT (attribute_exists(tags)) OR size(tags) IN (1, <<"a">>) OR attribute_type(t, "L")`,
    );
    expect(writeTree(readableDialect, and(c('a', '=', [['BS', '["AQID"]']]), c('b', '=', [['NS', '[1, 2]']])))).toBe('a = <<b"AQID">> AND b = <<1, 2>>');
  });
});

describe('editing the tree', () => {
  it('adds, replaces and removes nodes by their place', () => {
    let root = and(c('a', 'attribute_exists'));
    root = appendAt(root, [], or(c('b', 'attribute_exists')));
    root = appendAt(root, [1], c('d', 'attribute_exists'));
    expect(expr(root)).toBe('attribute_exists(a) AND (attribute_exists(b) OR attribute_exists(d))');
    root = updateAt(root, [1, 0], (n) => ({ ...n, not: true }));
    expect(expr(root)).toBe('attribute_exists(a) AND (NOT (attribute_exists(b)) OR attribute_exists(d))');
    expect((nodeAt(root, [1, 1]) as FilterCondition).path).toBe('d');
    root = removeAt(root, [1, 0]);
    expect(expr(root)).toBe('attribute_exists(a) AND attribute_exists(d)');
    root = removeAt(root, [1]);
    expect(expr(root)).toBe('attribute_exists(a)');
    expect(() => appendAt(root, [0], c('x', 'attribute_exists'))).toThrow(/added to groups/);
    expect(() => removeAt(root, [3])).toThrow(/no filter at 3/);
    expect(() => nodeAt(root, [0, 0])).toThrow(/no filter/);
  });
  it('names the top-level attributes the filled-in conditions read', () => {
    const tree = or(c('a.b[0]', '=', [['path', 'c.d'], ['S', 'e']]), and(c('f', '<', [['size', 'g[1]']]), c('', '=', [['path', 'h']])), c('t', 'attribute_type', [['S', 'S']]));
    expect(attributesRead(tree)).toEqual(['a', 'c', 'f', 'g', 't']);
  });
  it('keeps operands that still fit when the operator or the left side changes', () => {
    const eq = c('a', '=', [['N', '5']]);
    expect(withOp(eq, 'between').operands).toEqual([{ kind: 'N', text: '5' }, { kind: 'N', text: '' }]);
    expect(withOp(eq, 'attribute_exists').operands).toEqual([]);
    expect(withOp(eq, 'attribute_type').operands).toEqual([{ kind: 'S', text: 'S' }]);
    expect(withOp(withOp(eq, 'attribute_type'), '<').operands).toEqual([{ kind: 'S', text: '' }]);
    expect(withOp(c('a', '=', [['path', 'b']]), 'begins_with').operands).toEqual([{ kind: 'path', text: 'b' }]);
    expect(withOp(c('a', '=', [['M', '{}']]), 'begins_with').operands).toEqual([{ kind: 'S', text: '{}' }]);
    // size(path) takes no functions, and is a number.
    const sized = withOp(c('a', 'contains', [['S', '3']]), 'contains', true);
    expect([sized.op, sized.size, sized.operands]).toEqual(['=', true, [{ kind: 'N', text: '3' }]]);
    expect(withOp(c('a', 'in', [['S', 'x'], ['S', 'y']]), 'in').operands).toHaveLength(2);
  });
});
