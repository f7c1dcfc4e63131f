// Attribute values: DynamoDB JSON <-> plain JSON, display text, key order, and the table's views.
import type { AV, Item, KeyView, ScalarType, TableDescription } from './types';

export const typeOf = (v: AV): string => Object.keys(v)[0];

// Plain JSON -> DynamoDB JSON: strings S, numbers N, booleans BOOL, null NULL, arrays L, objects M.
export function marshall(value: unknown): AV {
  if (value === null || value === undefined) return { NULL: true };
  if (typeof value === 'string') return { S: value };
  if (typeof value === 'number' || typeof value === 'bigint') return { N: String(value) };
  if (typeof value === 'boolean') return { BOOL: value };
  if (Array.isArray(value)) return { L: value.map(marshall) };
  if (typeof value === 'object') return { M: marshallItem(value as Record<string, unknown>) };
  throw new Error(`cannot store a ${typeof value}`);
}

export function marshallItem(obj: Record<string, unknown>): Item {
  const out: Item = {};
  for (const [k, v] of Object.entries(obj)) out[k] = marshall(v);
  return out;
}

// DynamoDB JSON -> plain JSON. Sets become arrays and binary its base64 text, so `lossy` says
// when the plain form cannot be turned back into the same item.
export function unmarshall(v: AV, lossy?: { value: boolean }): unknown {
  if ('S' in v) return v.S;
  if ('N' in v) {
    const n = Number(v.N);
    if (String(n) !== v.N && lossy) lossy.value = true;
    return n;
  }
  if ('BOOL' in v) return v.BOOL;
  if ('NULL' in v) return null;
  if ('L' in v) return v.L.map((e) => unmarshall(e, lossy));
  if ('M' in v) return unmarshallItem(v.M, lossy);
  if (lossy) lossy.value = true;
  if ('B' in v) return v.B;
  if ('SS' in v) return v.SS;
  if ('NS' in v) return v.NS.map(Number);
  if ('BS' in v) return v.BS;
  return null;
}

export function unmarshallItem(item: Item, lossy?: { value: boolean }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) out[k] = unmarshall(v, lossy);
  return out;
}

const TYPES = new Set(['S', 'N', 'B', 'BOOL', 'NULL', 'SS', 'NS', 'BS', 'L', 'M']);

// Whether a parsed JSON object looks like DynamoDB JSON (every value a one-key type wrapper).
export function looksLikeDynamoJson(obj: Record<string, unknown>): boolean {
  const values = Object.values(obj);
  return (
    values.length > 0 &&
    values.every((v) => v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1 && TYPES.has(Object.keys(v)[0]))
  );
}

// Checks a DynamoDB JSON item's shape; throws a readable error.
export function validateItem(item: unknown, path = ''): asserts item is Item {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) throw new Error(`${path || 'item'}: expected an object`);
  for (const [k, v] of Object.entries(item as object)) validateValue(v, path ? `${path}.${k}` : k);
}

function validateValue(v: unknown, path: string): void {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error(`${path}: expected {"S": ...} or another type wrapper`);
  const keys = Object.keys(v);
  if (keys.length !== 1 || !TYPES.has(keys[0])) throw new Error(`${path}: one of S N B BOOL NULL SS NS BS L M expected, got ${keys.join(',') || 'nothing'}`);
  const t = keys[0];
  const x = (v as any)[t];
  if ((t === 'S' || t === 'N' || t === 'B') && typeof x !== 'string') throw new Error(`${path}: ${t} takes a string`);
  if (t === 'N' && !/^\s*-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(x)) throw new Error(`${path}: "${x}" is not a number`);
  if (t === 'BOOL' && typeof x !== 'boolean') throw new Error(`${path}: BOOL takes true or false`);
  if (t === 'NULL' && x !== true) throw new Error(`${path}: NULL takes true`);
  if ((t === 'SS' || t === 'NS' || t === 'BS') && (!Array.isArray(x) || x.some((e) => typeof e !== 'string'))) throw new Error(`${path}: ${t} takes an array of strings`);
  if (t === 'L') {
    if (!Array.isArray(x)) throw new Error(`${path}: L takes an array`);
    x.forEach((e, i) => validateValue(e, `${path}[${i}]`));
  }
  if (t === 'M') validateItem(x, path);
}

// Short display text of a value.
export function show(v: AV | undefined, max = 80): string {
  if (!v) return '';
  let text: string;
  if ('S' in v) text = v.S;
  else if ('N' in v) text = v.N;
  else if ('BOOL' in v) text = String(v.BOOL);
  else if ('NULL' in v) text = 'null';
  else if ('B' in v) text = `<${v.B}>`;
  else text = JSON.stringify(unmarshall(v));
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

// The text of a key value as typed back in a form (S, N and B's base64 as they are).
export function keyText(v: AV | undefined): string {
  if (!v) return '';
  if ('S' in v) return v.S;
  if ('N' in v) return v.N;
  if ('B' in v) return v.B;
  return show(v, 2048);
}

// Typed value from text for a scalar key type.
export function scalar(type: ScalarType | 'BOOL' | 'NULL', text: string): AV {
  switch (type) {
    case 'N':
      return { N: text.trim() };
    case 'B':
      return { B: text };
    case 'BOOL':
      return { BOOL: text.trim().toLowerCase() === 'true' };
    case 'NULL':
      return { NULL: true };
    default:
      return { S: text };
  }
}

const encoder = new TextEncoder();

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

function base64Bytes(s: string): Uint8Array {
  try {
    return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  } catch {
    return encoder.encode(s);
  }
}

// DynamoDB's key order: strings and binary bytewise (UTF-8), numbers numerically.
export function compareKeys(a: AV | undefined, b: AV | undefined): number {
  if (!a || !b) return a ? 1 : b ? -1 : 0;
  if ('N' in a && 'N' in b) {
    const x = Number(a.N), y = Number(b.N);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if ('S' in a && 'S' in b) return compareBytes(encoder.encode(a.S), encoder.encode(b.S));
  if ('B' in a && 'B' in b) return compareBytes(base64Bytes(a.B), base64Bytes(b.B));
  return typeOf(a).localeCompare(typeOf(b));
}

export const sameValue = (a: AV | undefined, b: AV | undefined): boolean => JSON.stringify(a) === JSON.stringify(b);

// The base table and every index as key views.
export function viewsOf(t: TableDescription): KeyView[] {
  const key = (ks: { AttributeName: string; KeyType: string }[], type: string) => ks.find((k) => k.KeyType === type)?.AttributeName;
  const views: KeyView[] = [
    { name: '', kind: 'table', hash: key(t.KeySchema, 'HASH')!, range: key(t.KeySchema, 'RANGE'), projection: { ProjectionType: 'ALL' } },
  ];
  for (const g of t.GlobalSecondaryIndexes ?? []) {
    views.push({ name: g.IndexName, kind: 'GSI', hash: key(g.KeySchema, 'HASH')!, range: key(g.KeySchema, 'RANGE'), projection: g.Projection });
  }
  for (const l of t.LocalSecondaryIndexes ?? []) {
    views.push({ name: l.IndexName, kind: 'LSI', hash: key(l.KeySchema, 'HASH')!, range: key(l.KeySchema, 'RANGE'), projection: l.Projection });
  }
  return views;
}

export function attributeType(t: TableDescription, name: string): ScalarType {
  return t.AttributeDefinitions.find((d) => d.AttributeName === name)?.AttributeType ?? 'S';
}

// The item's primary key (the base table's key attributes).
export function keyOf(t: TableDescription, item: Item): Item {
  const out: Item = {};
  for (const k of t.KeySchema) if (item[k.AttributeName]) out[k.AttributeName] = item[k.AttributeName];
  return out;
}

export const keyId = (t: TableDescription, item: Item): string => JSON.stringify(t.KeySchema.map((k) => item[k.AttributeName]));

// Whether the item has an entry in the view: both key attributes present with the defined type.
export function missingKeys(t: TableDescription, view: KeyView, item: Item): string[] {
  const missing: string[] = [];
  for (const name of [view.hash, view.range]) {
    if (!name) continue;
    const v = item[name];
    if (!v || typeOf(v) !== attributeType(t, name)) missing.push(name);
  }
  return missing;
}

export function formatBytes(n: number | undefined): string {
  if (n === undefined) return '–';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
