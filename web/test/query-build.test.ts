import { describe, expect, it } from 'vitest';
import { newCondition, newGroup } from '../src/condition';
import type { FilterNode, FilterOp, OperandKind } from '../src/condition';
import { buildRequest } from '../src/query-build';
import type { QuerySpec } from '../src/query-build';
import type { TableDescription } from '../src/types';
import { viewsOf } from '../src/values';

const table: TableDescription = {
  TableName: 'shop',
  TableStatus: 'ACTIVE',
  KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }, { AttributeName: 'SK', KeyType: 'RANGE' }],
  AttributeDefinitions: [
    { AttributeName: 'PK', AttributeType: 'S' },
    { AttributeName: 'SK', AttributeType: 'S' },
    { AttributeName: 'year', AttributeType: 'N' },
    { AttributeName: 'date', AttributeType: 'S' },
  ],
  GlobalSecondaryIndexes: [
    { IndexName: 'ByYear', KeySchema: [{ AttributeName: 'year', KeyType: 'HASH' }, { AttributeName: 'date', KeyType: 'RANGE' }], Projection: { ProjectionType: 'ALL' } },
  ],
};
const [base, byYear] = viewsOf(table);
const c = (path: string, op: FilterOp, operands: [OperandKind, string][] = [], not = false) =>
  newCondition({ path, op, not, operands: operands.map(([kind, text]) => ({ kind, text })) });
const and = (...children: FilterNode[]) => newGroup('AND', children);
const or = (...children: FilterNode[]) => newGroup('OR', children);
const spec = (over: Partial<QuerySpec>): QuerySpec => ({
  mode: 'Query', view: base, pk: 'USER#1', skOp: '', sk1: '', sk2: '', filter: and(),
  projection: '', count: false, forward: true, limit: '', consistent: false, ...over,
});

describe('buildRequest', () => {
  it('a Query on an index: typed keys, reserved names escaped, OR and NOT filters, nested paths', () => {
    const { request, partiql } = buildRequest(table, spec({
      view: byYear, pk: '2024', skOp: 'between', sk1: '2024-01-01', sk2: '2024-06-30',
      filter: or(c('status', '=', [['S', 'OPEN']]), c('address.zone[0]', 'attribute_exists', [], true)),
      projection: 'PK, name, address.zone', forward: false, limit: '25', consistent: true,
    }));
    expect(request).toEqual({
      TableName: 'shop',
      IndexName: 'ByYear',
      KeyConditionExpression: '#year = :pk AND #date BETWEEN :sk1 AND :sk2',
      FilterExpression: '#status = :status OR NOT (attribute_exists(address.#zone[0]))',
      ProjectionExpression: 'PK, #name, address.#zone',
      ExpressionAttributeNames: { '#year': 'year', '#date': 'date', '#status': 'status', '#zone': 'zone', '#name': 'name' },
      ExpressionAttributeValues: { ':pk': { N: '2024' }, ':sk1': { S: '2024-01-01' }, ':sk2': { S: '2024-06-30' }, ':status': { S: 'OPEN' } },
      ScanIndexForward: false,
      Limit: 25,
      ReturnConsumedCapacity: 'INDEXES',
    }); // no ConsistentRead: GSIs are eventually consistent only
    expect(partiql).toBe(
      'SELECT "PK", "name", "address"."zone"\nFROM "shop"."ByYear"\nWHERE "year" = 2024\n  AND "date" BETWEEN \'2024-01-01\' AND \'2024-06-30\'\n' +
        '  AND ("status" = \'OPEN\' OR NOT ("address"."zone"[0] IS NOT MISSING))\nORDER BY "date" DESC',
    );
  });
  it('a consistent COUNT Query on the table', () => {
    const { request } = buildRequest(table, spec({ skOp: 'begins_with', sk1: 'ORDER#', count: true, projection: 'ignored', consistent: true }));
    expect(request).toEqual({
      TableName: 'shop',
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
      Select: 'COUNT',
      ExpressionAttributeValues: { ':pk': { S: 'USER#1' }, ':sk': { S: 'ORDER#' } },
      ConsistentRead: true,
      ReturnConsumedCapacity: 'INDEXES',
    });
  });
  it('a Scan with AND filters and its scanning PartiQL', () => {
    const { request, partiql } = buildRequest(table, spec({
      mode: 'Scan', pk: '',
      filter: and({ ...c('tags', '>', [['N', '2']]), size: true }, c('kind', 'in', [['S', 'a'], ['S', 'b']])),
    }));
    expect(request.FilterExpression).toBe('size(tags) > :tagssize AND kind IN (:kind1, :kind2)');
    expect(request.KeyConditionExpression).toBeUndefined();
    expect(partiql).toBe('-- no partition key equality: this statement scans\nSELECT *\nFROM "shop"\nWHERE size("tags") > 2 AND "kind" IN [\'a\', \'b\']');
  });
  it('a Scan with a nested filter: groups in parentheses, path against path, list and map values', () => {
    const { request, partiql } = buildRequest(table, spec({
      mode: 'Scan',
      filter: or(
        and(c('status', '=', [['S', 'OPEN']]), c('total', '>', [['path', 'limit']])),
        c('line', '=', [['M', '{"street": "Rua Augusta", "no": 12}']]),
        and(c('tags', 'contains', [['S', 'gift']]), c('sizes', '=', [['L', '[1, "M"]']], true)),
      ),
    }));
    expect(request).toEqual({
      TableName: 'shop',
      FilterExpression: '(#status = :status AND #total > #limit) OR line = :line OR (contains(tags, :tags) AND NOT (sizes = :sizes))',
      ExpressionAttributeNames: { '#status': 'status', '#total': 'total', '#limit': 'limit' },
      ExpressionAttributeValues: {
        ':status': { S: 'OPEN' },
        ':line': { M: { street: { S: 'Rua Augusta' }, no: { N: '12' } } },
        ':tags': { S: 'gift' },
        ':sizes': { L: [{ N: '1' }, { S: 'M' }] },
      },
      ReturnConsumedCapacity: 'INDEXES',
    });
    expect(partiql).toBe(
      '-- no partition key equality: this statement scans\nSELECT *\nFROM "shop"\nWHERE ("status" = \'OPEN\' AND "total" > "limit") OR "line" = {\'street\': \'Rua Augusta\', \'no\': 12}' +
        ' OR (contains("tags", \'gift\') AND NOT ("sizes" = [1, \'M\']))',
    );
  });
  it('a filter with a binary value: the request, and PartiQL saying it cannot', () => {
    const { request, partiql } = buildRequest(table, spec({ filter: and(c('blob', 'begins_with', [['B', 'AQI=']])) }));
    expect(request.FilterExpression).toBe('begins_with(#blob, :blob)');
    expect(request.ExpressionAttributeValues[':blob']).toEqual({ B: 'AQI=' });
    expect(partiql).toMatch(/^-- the filter is not expressible in PartiQL \(it has no literal for binary values, B and BS\): this statement leaves it out\n/);
    expect(partiql).toMatch(/WHERE "PK" = 'USER#1'$/);
  });
  it("refuses a Query filter on the key attributes it reads, as DynamoDB does, and lets a Scan have it", () => {
    expect(() => buildRequest(table, spec({ filter: and(c('SK', 'begins_with', [['S', 'ORDER#']])) }))).toThrow(/filter cannot use SK, a key attribute of the table/);
    expect(() => buildRequest(table, spec({ view: byYear, pk: '2024', filter: or(c('x', 'attribute_exists'), c('total', '<', [['size', 'date']])) }))).toThrow(
      /filter cannot use date, a key attribute of the index/,
    );
    // A nested name that happens to be a key name is another attribute; the base table's keys are not the index's.
    expect(buildRequest(table, spec({ filter: and(c('a.SK', 'attribute_exists')) })).request.FilterExpression).toBe('attribute_exists(a.SK)');
    expect(buildRequest(table, spec({ view: byYear, pk: '2024', filter: and(c('SK', 'attribute_exists')) })).request.FilterExpression).toBe('attribute_exists(SK)');
    expect(buildRequest(table, spec({ mode: 'Scan', filter: and(c('PK', '=', [['path', 'SK']])) })).request.FilterExpression).toBe('PK = SK');
  });
  it('refuses a Query without its partition key and a bad Limit', () => {
    expect(() => buildRequest(table, spec({ pk: '' }))).toThrow(/partition key PK/);
    expect(() => buildRequest(table, spec({ limit: '0' }))).toThrow(/Limit/);
    expect(() => buildRequest(table, spec({ limit: '2.5' }))).toThrow(/Limit/);
  });
});
