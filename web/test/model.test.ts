import { describe, expect, it } from 'vitest';
import { buildPatternRequest, classify, formatValue, matchesTemplate, parseModel, parseTemplate, renderPrefix } from '../src/model';
import type { Model } from '../src/model';
import type { TableDescription } from '../src/types';
import ecommerceText from '../../examples/models/ecommerce.yaml?raw';

const ecommerce = parseModel(ecommerceText);

const gsi = (name: string) => ({
  IndexName: name,
  KeySchema: [
    { AttributeName: `${name}PK`, KeyType: 'HASH' as const },
    { AttributeName: `${name}SK`, KeyType: 'RANGE' as const },
  ],
  Projection: { ProjectionType: 'ALL' as const },
});
const store: TableDescription = {
  TableName: 'Store',
  TableStatus: 'ACTIVE',
  KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }, { AttributeName: 'SK', KeyType: 'RANGE' }],
  AttributeDefinitions: ['PK', 'SK', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK'].map((a) => ({ AttributeName: a, AttributeType: 'S' as const })),
  GlobalSecondaryIndexes: [gsi('GSI1'), gsi('GSI2')],
};
const S = (s: string) => ({ S: s });
const pattern = (m: Model, name: string) => m.accessPatterns!.find((p) => p.name === name)!;

describe('key templates', () => {
  it('parses literals, placeholders, formats and doubled braces', () => {
    expect(parseTemplate('ORDER#{createdAt:iso8601}#{orderId}')).toEqual([
      { lit: 'ORDER#' },
      { attr: 'createdAt', format: 'iso8601' },
      { lit: '#' },
      { attr: 'orderId' },
    ]);
    expect(parseTemplate('A{{x}}{y}')).toEqual([{ lit: 'A{x}' }, { attr: 'y' }]);
    expect(() => parseTemplate('A{x')).toThrow(/without/);
  });

  it('matches formats exactly', () => {
    const t = 'ORDER#{createdAt:iso8601}#{orderId}';
    expect(matchesTemplate(t, S('ORDER#2024-01-15T10:00:00Z#o1'))).toBe(true);
    expect(matchesTemplate(t, S('ORDER#2024-01-15#o1'))).toBe(false);
    expect(matchesTemplate(t, S('ORDER#2024-01-15T10:00:00Z#'))).toBe(false);
    expect(matchesTemplate('ITEM#{n:pad3}', S('ITEM#007'))).toBe(true);
    expect(matchesTemplate('ITEM#{n:pad3}', S('ITEM#7'))).toBe(false);
    expect(matchesTemplate('EMAIL#{e:lower}', S('EMAIL#a@b.c'))).toBe(true);
    expect(matchesTemplate('EMAIL#{e:lower}', S('EMAIL#A@b.c'))).toBe(false);
    // A plain placeholder never writes '#' (unless the attribute says chars: any).
    expect(matchesTemplate('USER#{id}', S('USER#a#b'))).toBe(false);
    expect(matchesTemplate('USER#{id}', S('USER#a#b'), { keys: {}, attributes: { id: { type: 'string', chars: 'any' } } })).toBe(true);
    expect(matchesTemplate('{score}', { N: '42' })).toBe(true);
    expect(matchesTemplate('PROFILE', S('PROFILEX'))).toBe(false);
  });

  it('writes inputs with their formats', () => {
    expect(formatValue('7', 'pad3')).toBe('007');
    expect(formatValue('2024-01-15T10:00:00.123Z', 'iso8601')).toBe('2024-01-15T10:00:00Z');
    expect(formatValue('2024-01-15', 'iso8601')).toBe('2024-01-15T00:00:00Z');
    expect(formatValue('A@B.C', 'lower')).toBe('a@b.c');
    expect(() => formatValue('x', 'pad3')).toThrow(/whole number/);
    expect(renderPrefix('ORDER#{createdAt:iso8601}#{orderId}', { customerId: 'c1' })).toEqual({ text: 'ORDER#', complete: false });
  });
});

describe('classify items by the model', () => {
  it('names each ecommerce entity from its keys', () => {
    expect(classify(ecommerce, store, { PK: S('CUSTOMER#c1'), SK: S('PROFILE') })).toBe('Customer');
    expect(classify(ecommerce, store, { PK: S('CUSTOMER#c1'), SK: S('ORDER#2024-01-15T10:00:00Z#o1') })).toBe('Order');
    expect(classify(ecommerce, store, { PK: S('ORDER#o1'), SK: S('ITEM#001') })).toBe('OrderItem');
    expect(classify(ecommerce, store, { PK: S('PRODUCT#p1'), SK: S('PRODUCT') })).toBe('Product');
  });

  it('returns null for items no entity writes, and for tables the model does not describe', () => {
    expect(classify(ecommerce, store, { PK: S('CUSTOMER#c1'), SK: S('CART') })).toBeNull();
    expect(classify(ecommerce, store, { PK: S('ORDER#o1'), SK: S('ITEM#1') })).toBeNull();
    const other = { ...store, TableName: 'Other', KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' as const }] };
    expect(classify(ecommerce, other, { id: S('CUSTOMER#c1') })).toBeNull();
  });

  it('finds the model table by key attribute names when the name differs', () => {
    expect(classify(ecommerce, { ...store, TableName: 'shop-dev' }, { PK: S('PRODUCT#p1'), SK: S('PRODUCT') })).toBe('Product');
  });
});

describe('access pattern requests', () => {
  it('GetItem builds the whole key', () => {
    const r = buildPatternRequest(ecommerce, store, pattern(ecommerce, 'getCustomer'), { customerId: 'c1' });
    expect(r).toEqual({
      operation: 'GetItem',
      request: { TableName: 'Store', Key: { PK: S('CUSTOMER#c1'), SK: S('PROFILE') }, ReturnConsumedCapacity: 'INDEXES' },
    });
  });

  it('Query derives begins_with from the buildable sort-key prefix, with order and limit', () => {
    const r = buildPatternRequest(ecommerce, store, pattern(ecommerce, 'recentOrdersOfCustomer'), { customerId: 'c1' });
    expect(r.request).toEqual({
      TableName: 'Store',
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :sk)',
      ExpressionAttributeNames: { '#pk': 'PK', '#sk': 'SK' },
      ExpressionAttributeValues: { ':pk': S('CUSTOMER#c1'), ':sk': S('ORDER#') },
      ScanIndexForward: false,
      Limit: 10,
      ReturnConsumedCapacity: 'INDEXES',
    });
  });

  it('Query on an index with a formatted input and an equal whole sort key', () => {
    const r = buildPatternRequest(ecommerce, store, pattern(ecommerce, 'customerByEmail'), { email: 'Ann@Example.com' });
    expect(r.request).toMatchObject({
      IndexName: 'GSI1',
      KeyConditionExpression: '#pk = :pk AND #sk = :sk',
      ExpressionAttributeNames: { '#pk': 'GSI1PK', '#sk': 'GSI1SK' },
      ExpressionAttributeValues: { ':pk': S('EMAIL#ann@example.com'), ':sk': S('PROFILE') },
      Limit: 1,
    });
  });

  it('several entities share the partition and no sort-key prefix cut after #', () => {
    const r = buildPatternRequest(ecommerce, store, pattern(ecommerce, 'orderWithItems'), { orderId: 'o1' });
    // GSI1SK "ORDER" and "ITEM#{lineNo:pad3}" have no common prefix: the partition alone.
    expect(r.request.KeyConditionExpression).toBe('#pk = :pk');
    expect(r.request.ExpressionAttributeValues).toEqual({ ':pk': S('ORDER#o1') });
  });

  it('an explicit between key condition is written with its inputs formatted', () => {
    const r = buildPatternRequest(ecommerce, store, pattern(ecommerce, 'ordersOfCustomerInRange'), { customerId: 'c1', from: '2024-01-01', to: '2024-02-01' });
    expect(r.request).toMatchObject({
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :lo AND :hi',
      ExpressionAttributeValues: { ':pk': S('CUSTOMER#c1'), ':lo': S('ORDER#2024-01-01T00:00:00Z'), ':hi': S('ORDER#2024-02-01T00:00:00Z') },
    });
  });

  it('refuses a missing input and GetItem on an index', () => {
    expect(() => buildPatternRequest(ecommerce, store, pattern(ecommerce, 'getCustomer'), {})).toThrow(/customerId is empty/);
    const bad = { ...pattern(ecommerce, 'getCustomer'), index: 'GSI1' };
    expect(() => buildPatternRequest(ecommerce, store, bad, { customerId: 'c1' })).toThrow(/GetItem reads tables only/);
  });

  it('reads JSON models too and rejects what is not a model', () => {
    const json = JSON.stringify({ version: 1, tables: [{ name: 'T', partitionKey: 'id' }], entities: { U: { keys: { id: 'U#{u}' } } } });
    const m = parseModel(json);
    const t: TableDescription = { TableName: 'T', TableStatus: 'ACTIVE', KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }], AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }] };
    expect(classify(m, t, { id: S('U#1') })).toBe('U');
    expect(() => parseModel('version: 2\ntables: []')).toThrow(/version/);
    expect(() => parseModel('[1, 2]')).toThrow(/mapping/);
  });
});
