import { describe, expect, it } from 'vitest';
import { ExpressionWriter, keyCondition, needsPlaceholder, RESERVED, splitPath } from '../src/expr';

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
    expect(splitPath('a[0][1].b')).toEqual(['a', 0, 1, 'b']);
    expect(splitPath(' order date.x ')).toEqual(['order date', 'x']);
    for (const bad of ['[0]', '', 'a..b', 'a[x]', 'a.', 'a[1', '.a']) expect(() => splitPath(bad), bad).toThrow(/document path/);
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
});
