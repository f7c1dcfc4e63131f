import { describe, expect, it } from 'vitest';
import { parseCsv, parseJsonLines, toCsv } from '../src/views/transfer';
import { scanWarning } from '../src/views/partiql';
import { entityOf } from '../src/entity';
import { partiqlValue } from '../src/codegen';
import type { Item, TableDescription } from '../src/types';

const table: TableDescription = {
  TableName: 'shop',
  TableStatus: 'ACTIVE',
  KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }, { AttributeName: 'SK', KeyType: 'RANGE' }],
  AttributeDefinitions: [
    { AttributeName: 'PK', AttributeType: 'S' },
    { AttributeName: 'SK', AttributeType: 'S' },
    { AttributeName: 'GSI1PK', AttributeType: 'S' },
  ],
  GlobalSecondaryIndexes: [{ IndexName: 'GSI1', KeySchema: [{ AttributeName: 'GSI1PK', KeyType: 'HASH' }], Projection: { ProjectionType: 'ALL' } }],
};

describe('JSON lines', () => {
  it('reads export lines, bare DynamoDB JSON and plain JSON', () => {
    const items = parseJsonLines('{"Item":{"PK":{"S":"a"},"n":{"N":"1"}}}\n\n{"PK":{"S":"b"},"ok":{"BOOL":true}}\r\n{"PK":"c","n":2,"m":{"x":[1,"y",null]}}\n');
    expect(items).toEqual([
      { PK: { S: 'a' }, n: { N: '1' } },
      { PK: { S: 'b' }, ok: { BOOL: true } },
      { PK: { S: 'c' }, n: { N: '2' }, m: { M: { x: { L: [{ N: '1' }, { S: 'y' }, { NULL: true }] } } } },
    ]);
  });
  it('names the line of a bad one', () => {
    expect(() => parseJsonLines('{"PK":{"S":"a"}}\n{oops')).toThrow(/line 2/);
    expect(() => parseJsonLines('{"PK":{"N":"abc"}}')).toThrow(/line 1: PK: "abc" is not a number/);
  });
});

describe('CSV', () => {
  it('round-trips every type through name:TYPE columns, quoting what needs it', () => {
    const items: Item[] = [
      { PK: { S: 'USER#1' }, SK: { S: 'a, "quoted"\nline' }, n: { N: '1.50' }, ok: { BOOL: true }, tags: { SS: ['x', 'y'] }, m: { M: { k: { N: '1' } } } },
      { PK: { S: 'USER#2' }, SK: { S: 'b' }, z: { NULL: true }, b: { B: 'AAE=' } },
    ];
    const csv = toCsv(items);
    expect(csv.split('\r\n')[0]).toBe('PK:S,SK:S,n:N,ok:BOOL,tags:SS,m:M,z:NULL,b:B');
    expect(parseCsv(csv)).toEqual(items);
  });
  it('puts the key attributes first', () => {
    const csv = toCsv([{ a: { S: 'x' }, SK: { N: '1' }, PK: { S: 'p' } }], ['PK', 'SK']);
    expect(csv).toBe('PK:S,SK:N,a:S\r\np,1,x\r\n');
  });
  it('takes columns without a type as strings and skips empty cells', () => {
    expect(parseCsv('PK,count:N\nx,\ny,3\n')).toEqual([{ PK: { S: 'x' } }, { PK: { S: 'y' }, count: { N: '3' } }]);
  });
});

describe('PartiQL scan warning', () => {
  const tables = [table];
  it('warns without a partition-key equality', () => {
    expect(scanWarning('SELECT * FROM "shop"', tables)).toMatch(/whole table shop/);
    expect(scanWarning(`SELECT * FROM shop WHERE SK = 'x'`, tables)).toMatch(/whole table/);
    expect(scanWarning(`SELECT * FROM "shop"."GSI1" WHERE PK = 'x'`, tables)).toMatch(/the index GSI1/);
    expect(scanWarning(`SELECT * FROM "shop" WHERE "PK" = 'a' OR total > 3`, tables)).toMatch(/OR/);
  });
  it('stays quiet for a Query-shaped SELECT and for other statements', () => {
    expect(scanWarning(`SELECT * FROM "shop" WHERE "PK" = 'a' AND SK > 'b'`, tables)).toBeNull();
    expect(scanWarning(`select a from shop where PK in ['a','b']`, tables)).toBeNull();
    expect(scanWarning(`SELECT * FROM "shop"."GSI1" WHERE "GSI1PK" = 'x'`, tables)).toBeNull();
    expect(scanWarning(`DELETE FROM "shop" WHERE PK = 'a'`, tables)).toBeNull();
  });
});

describe('entities', () => {
  const e = (pk: string, sk: string, extra: Item = {}) => entityOf(table, { PK: { S: pk }, SK: { S: sk }, ...extra });
  it('infers them from key prefixes, roots from the partition key', () => {
    expect(e('USER#1', 'ORDER#2024#1')).toBe('ORDER');
    expect(e('USER#1', 'PROFILE')).toBe('USER');
    expect(e('USER#1', 'USER#1')).toBe('USER');
    expect(e('ORG|7', 'METADATA')).toBe('ORG');
    expect(e('USER#1', 'x', { _et: { S: 'Invoice' } })).toBe('Invoice');
  });
});

describe('PartiQL literals', () => {
  it('quotes strings and writes containers', () => {
    expect(partiqlValue({ S: "it's" })).toBe(`'it''s'`);
    expect(partiqlValue({ M: { a: { L: [{ N: '1' }, { BOOL: false }] }, s: { SS: ['x'] } } })).toBe(`{'a': [1, false], 's': <<'x'>>}`);
  });
});
