// Sizes and units against the figures measured on AWS (shared spec "Types and sizes") and the
// server's index-arm rules (src/model/capacity.h).
import { describe, expect, it } from 'vitest';
import { indexArm, itemSize, numberSize, readUnits, valueSize, writeUnits } from '../src/capacity';
import type { TableDescription } from '../src/types';
import { viewsOf } from '../src/values';

describe('numberSize', () => {
  it.each([
    ['1', 2], ['12', 2], ['123', 3], ['1234', 3], ['100', 2], ['1010', 3], ['1.5', 3], ['15', 2], ['3.14159', 5],
    ['123456', 4], ['100.5', 4], ['0.15', 2], ['0.0000001', 2], ['-42', 3], ['12345678901234567890123456789012345678', 20],
    ['0', 1], ['-0.0', 1], ['1E+2', 2], ['1.5e3', 2], ['007', 2],
  ])('%s is %i bytes', (n, size) => expect(numberSize(n)).toBe(size));
});

describe('valueSize and itemSize', () => {
  it('counts UTF-8 bytes, binary bytes, containers and sets', () => {
    expect(valueSize({ S: 'héllo' })).toBe(6);
    expect(valueSize({ B: 'AAEC' })).toBe(3);
    expect(valueSize({ BOOL: false })).toBe(1);
    expect(valueSize({ NULL: true })).toBe(1);
    expect(valueSize({ L: [{ S: 'ab' }, { N: '1' }] })).toBe(3 + 1 + 2 + 1 + 2);
    expect(valueSize({ M: { k: { S: 'v' } } })).toBe(3 + 1 + 1 + 1);
    expect(valueSize({ SS: ['a', 'bc'] })).toBe(3);
    expect(valueSize({ NS: ['1', '123'] })).toBe(5);
  });
  it('sums names and values', () => {
    expect(itemSize({ PK: { S: 'USER#u1' }, total: { N: '42' } })).toBe(2 + 7 + 5 + 2);
  });
});

describe('units', () => {
  it('rounds per 4 KB for reads and 1 KB for writes, one unit at least', () => {
    expect(readUnits(0, true)).toBe(1);
    expect(readUnits(4096, true)).toBe(1);
    expect(readUnits(4097, true)).toBe(2);
    expect(readUnits(4097, false)).toBe(1);
    expect(writeUnits(1024)).toBe(1);
    expect(writeUnits(1025)).toBe(2);
  });
});

const table: TableDescription = {
  TableName: 'shop',
  TableStatus: 'ACTIVE',
  KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }, { AttributeName: 'SK', KeyType: 'RANGE' }],
  AttributeDefinitions: [
    { AttributeName: 'PK', AttributeType: 'S' },
    { AttributeName: 'SK', AttributeType: 'S' },
    { AttributeName: 'G', AttributeType: 'S' },
  ],
  GlobalSecondaryIndexes: [
    { IndexName: 'all', KeySchema: [{ AttributeName: 'G', KeyType: 'HASH' }], Projection: { ProjectionType: 'ALL' } },
    { IndexName: 'keys', KeySchema: [{ AttributeName: 'G', KeyType: 'HASH' }], Projection: { ProjectionType: 'KEYS_ONLY' } },
    { IndexName: 'inc', KeySchema: [{ AttributeName: 'G', KeyType: 'HASH' }], Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['a'] } },
  ],
};
const [, all, keys, inc] = viewsOf(table);
const base = { PK: { S: 'p' }, SK: { S: 's' } };

describe('indexArm', () => {
  it('absent to absent costs nothing; insert and remove cost the entry', () => {
    expect(indexArm(table, all, base, base)).toMatchObject({ units: 0, change: 'none' });
    expect(indexArm(table, all, null, { ...base, G: { S: 'g' } })).toMatchObject({ units: 1, change: 'insert' });
    expect(indexArm(table, all, { ...base, G: { S: 'g' } }, null)).toMatchObject({ units: 1, change: 'remove' });
  });
  it('an index key of the wrong type is no entry', () => {
    expect(indexArm(table, all, null, { ...base, G: { N: '1' } })).toMatchObject({ units: 0, change: 'none' });
  });
  it('same key: max of the two, 0 when the projection is unchanged', () => {
    const before = { ...base, G: { S: 'g' }, a: { S: 'x' }, b: { S: 'y' } };
    const big = { ...before, b: { S: 'y'.repeat(2000) } };
    expect(indexArm(table, all, before, big)).toMatchObject({ units: 2, change: 'update' });
    expect(indexArm(table, keys, before, big)).toMatchObject({ units: 0, change: 'unchanged' });
    expect(indexArm(table, inc, before, big)).toMatchObject({ units: 0, change: 'unchanged' });
    expect(indexArm(table, inc, before, { ...before, a: { S: 'z' } })).toMatchObject({ units: 1, change: 'update' });
  });
  it('a key change costs the old entry and the new', () => {
    expect(indexArm(table, all, { ...base, G: { S: 'g' } }, { ...base, G: { S: 'h' } })).toMatchObject({ units: 2, change: 'key change' });
  });
});
