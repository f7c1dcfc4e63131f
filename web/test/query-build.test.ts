import { describe, expect, it } from 'vitest';
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
const spec = (over: Partial<QuerySpec>): QuerySpec => ({
  mode: 'Query', view: base, pk: 'USER#1', skOp: '', sk1: '', sk2: '', filters: [], combine: 'AND',
  projection: '', count: false, forward: true, limit: '', consistent: false, ...over,
});

describe('buildRequest', () => {
  it('a Query on an index: typed keys, reserved names escaped, OR and NOT filters, nested paths', () => {
    const { request, partiql } = buildRequest(table, spec({
      view: byYear, pk: '2024', skOp: 'between', sk1: '2024-01-01', sk2: '2024-06-30',
      filters: [
        { path: 'status', op: '=', type: 'S', value: 'OPEN', value2: '' },
        { path: 'address.zone[0]', op: 'attribute_exists', type: 'S', value: '', value2: '', not: true },
      ],
      combine: 'OR', projection: 'PK, name, address.zone', forward: false, limit: '25', consistent: true,
    }));
    expect(request).toEqual({
      TableName: 'shop',
      IndexName: 'ByYear',
      KeyConditionExpression: '#year = :pk AND #date BETWEEN :sk1 AND :sk2',
      FilterExpression: '(#status = :status) OR (NOT (attribute_exists(address.#zone[0])))',
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
      filters: [
        { path: 'tags', op: 'size >', type: 'S', value: '2', value2: '' },
        { path: 'kind', op: 'in', type: 'S', value: 'a,b', value2: '' },
      ],
    }));
    expect(request.FilterExpression).toBe('size(tags) > :tagssize AND kind IN (:kind1, :kind2)');
    expect(request.KeyConditionExpression).toBeUndefined();
    expect(partiql).toBe('-- no partition key equality: this statement scans\nSELECT *\nFROM "shop"\nWHERE size("tags") > 2 AND "kind" IN [\'a\', \'b\']');
  });
  it('refuses a Query without its partition key and a bad Limit', () => {
    expect(() => buildRequest(table, spec({ pk: '' }))).toThrow(/partition key PK/);
    expect(() => buildRequest(table, spec({ limit: '0' }))).toThrow(/Limit/);
    expect(() => buildRequest(table, spec({ limit: '2.5' }))).toThrow(/Limit/);
  });
});
