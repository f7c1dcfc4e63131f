import { describe, expect, it } from 'vitest';
import { ExpressionWriter, filterCondition, keyCondition, needsPlaceholder, RESERVED, splitPath } from '../src/expr';
import { scalar } from '../src/values';

describe('names', () => {
  it('knows the 573 reserved words, case-insensitively', () => {
    expect(RESERVED.size).toBe(573);
    for (const w of ['status', 'TOTAL', 'Name', 'date', 'user', 'count']) expect(needsPlaceholder(w)).toBe(true);
    for (const w of ['PK', 'GSI1SK', 'email', 'orderId']) expect(needsPlaceholder(w)).toBe(false);
  });
  it('escapes names that are not plain identifiers', () => {
    for (const w of ['order-id', 'a.b', '1st', 'naïve', '_x']) expect(needsPlaceholder(w)).toBe(true);
  });
  it('writes one placeholder a name, distinct for distinct names', () => {
    const w = new ExpressionWriter();
    expect(w.name('status')).toBe('#status');
    expect(w.name('status')).toBe('#status');
    expect(w.name('order-id')).toBe('#order_id');
    expect(w.name('order_id')).toBe('order_id');
    expect(w.name('order.id')).toBe('#order_id2');
    expect(w.names).toEqual({ '#status': 'status', '#order_id': 'order-id', '#order_id2': 'order.id' });
  });
});

describe('paths', () => {
  it('splits nested paths and escapes each name', () => {
    expect(splitPath('a.b[2].c')).toEqual(['a', 'b', 2, 'c']);
    const w = new ExpressionWriter();
    expect(w.path('address.name[0].zone')).toBe('address.#name[0].#zone');
    expect(() => splitPath('[0]')).toThrow();
  });
});

describe('values', () => {
  it('reuses a placeholder for an equal value', () => {
    const w = new ExpressionWriter();
    expect(w.value({ S: 'x' }, 'pk')).toBe(':pk');
    expect(w.value({ S: 'x' }, 'other')).toBe(':pk');
    expect(w.value({ S: 'y' }, 'pk')).toBe(':pk2');
  });
});

describe('conditions', () => {
  it('key conditions for every operator', () => {
    const w = new ExpressionWriter();
    const a = { S: 'a' }, b = { S: 'b' };
    expect(keyCondition(w, 'SK', 'between', a, b)).toBe('SK BETWEEN :sk1 AND :sk2');
    expect(keyCondition(w, 'SK', 'begins_with', { S: 'ORDER#' })).toBe('begins_with(SK, :sk)');
    for (const op of ['=', '<', '<=', '>', '>='] as const) expect(keyCondition(new ExpressionWriter(), 'date', op, a)).toBe(`#date ${op} :sk`);
  });
  it('filters over the condition language', () => {
    const f = (op: any, value = '', value2 = '', path = 'tags', type: any = 'S') => {
      const w = new ExpressionWriter();
      return [filterCondition(w, { path, op, type, value, value2 }, (t) => scalar(type, t)), w.values];
    };
    expect(f('attribute_exists')[0]).toBe('attribute_exists(tags)');
    expect(f('attribute_not_exists', '', '', 'a.status')[0]).toBe('attribute_not_exists(a.#status)');
    expect(f('contains', 'red')).toEqual(['contains(tags, :tags)', { ':tags': { S: 'red' } }]);
    expect(f('not contains', 'red')[0]).toBe('NOT contains(tags, :tags)');
    expect(f('in', 'a, b,c')).toEqual(['tags IN (:tags1, :tags2, :tags3)', { ':tags1': { S: 'a' }, ':tags2': { S: 'b' }, ':tags3': { S: 'c' } }]);
    expect(f('size >', '3')).toEqual(['size(tags) > :tagssize', { ':tagssize': { N: '3' } }]);
    expect(f('attribute_type', 'SS')).toEqual(['attribute_type(tags, :type)', { ':type': { S: 'SS' } }]);
    expect(f('between', '1', '5', 'total', 'N')).toEqual(['#total BETWEEN :total1 AND :total2', { ':total1': { N: '1' }, ':total2': { N: '5' } }]);
    expect(() => f('in', ' , ')).toThrow();
  });
});
