// Item sizes and capacity units with the server's arithmetic (src/model/capacity.h and the shared
// spec "Types and sizes" / "Capacity"): the live readout of the item editor.
import type { AV, Item, KeyView, TableDescription } from './types';
import { missingKeys, sameValue } from './values';

const encoder = new TextEncoder();
const utf8 = (s: string) => encoder.encode(s).length;

function base64Length(s: string): number {
  const clean = s.replace(/\s/g, '');
  const pad = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - pad);
}

// 1 + base-100 digit pairs from the first to the last significant digit, aligned on the decimal
// point, + 1 if negative; zero is 1.
export function numberSize(text: string): number {
  const m = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/.exec(text);
  if (!m) return text.length;
  const negative = m[1] === '-';
  const intPart = m[2] ?? '', frac = m[3] ?? '';
  let digits = intPart + frac;
  let exponent = intPart.length + Number(m[4] ?? 0); // value = 0.digits x 10^exponent
  const lead = digits.length - digits.replace(/^0+/, '').length;
  digits = digits.slice(lead);
  exponent -= lead;
  digits = digits.replace(/0+$/, '');
  if (digits.length === 0) return 1;
  const first = exponent - 1, last = exponent - digits.length;
  return 1 + (Math.floor(first / 2) - Math.floor(last / 2) + 1) + (negative ? 1 : 0);
}

export function valueSize(v: AV): number {
  if ('S' in v) return utf8(v.S);
  if ('B' in v) return base64Length(v.B);
  if ('N' in v) return numberSize(v.N);
  if ('BOOL' in v || 'NULL' in v) return 1;
  if ('L' in v) return v.L.reduce((s, e) => s + 1 + valueSize(e), 3);
  if ('M' in v) return Object.entries(v.M).reduce((s, [k, e]) => s + 1 + utf8(k) + valueSize(e), 3);
  if ('SS' in v) return v.SS.reduce((s, e) => s + utf8(e), 0);
  if ('BS' in v) return v.BS.reduce((s, e) => s + base64Length(e), 0);
  if ('NS' in v) return v.NS.reduce((s, e) => s + numberSize(e), 0);
  return 0;
}

export const itemSize = (item: Item): number => Object.entries(item).reduce((s, [k, v]) => s + utf8(k) + valueSize(v), 0);

const blocks = (size: number, block: number) => Math.max(1, Math.ceil(size / block));
export const readUnits = (size: number, consistent: boolean) => blocks(size, 4096) * (consistent ? 1 : 0.5);
export const writeUnits = (size: number) => blocks(size, 1024);

// The index entry an item has in a view: the projected attributes (table keys and index keys
// always), or null when the item lacks an index key (sparse).
export function indexEntry(t: TableDescription, view: KeyView, item: Item): Item | null {
  if (missingKeys(t, view, item).length) return null;
  if (view.projection.ProjectionType === 'ALL' || !view.projection.ProjectionType) return item;
  const keep = new Set<string>([...t.KeySchema.map((k) => k.AttributeName), view.hash, ...(view.range ? [view.range] : [])]);
  if (view.projection.ProjectionType === 'INCLUDE') for (const a of view.projection.NonKeyAttributes ?? []) keep.add(a);
  const out: Item = {};
  for (const [k, v] of Object.entries(item)) if (keep.has(k)) out[k] = v;
  return out;
}

export interface IndexArm {
  view: KeyView;
  before: Item | null;
  after: Item | null;
  units: number;
  change: 'none' | 'insert' | 'remove' | 'update' | 'unchanged' | 'key change';
}

// The write units of one index arm of replacing `before` (null: no item) by `after` (null: delete).
export function indexArm(t: TableDescription, view: KeyView, before: Item | null, after: Item | null): IndexArm {
  const b = before ? indexEntry(t, view, before) : null;
  const a = after ? indexEntry(t, view, after) : null;
  if (!b && !a) return { view, before: b, after: a, units: 0, change: 'none' };
  if (!b) return { view, before: b, after: a, units: writeUnits(itemSize(a!)), change: 'insert' };
  if (!a) return { view, before: b, after: a, units: writeUnits(itemSize(b)), change: 'remove' };
  const sameKey = sameValue(b[view.hash], a[view.hash]) && (!view.range || sameValue(b[view.range], a[view.range]));
  if (!sameKey) return { view, before: b, after: a, units: writeUnits(itemSize(b)) + writeUnits(itemSize(a)), change: 'key change' };
  if (JSON.stringify(sortKeys(b)) === JSON.stringify(sortKeys(a))) return { view, before: b, after: a, units: 0, change: 'unchanged' };
  return { view, before: b, after: a, units: Math.max(writeUnits(itemSize(b)), writeUnits(itemSize(a))), change: 'update' };
}

function sortKeys(item: Item): Item {
  return Object.fromEntries(Object.entries(item).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
}

export const MAX_ITEM = 409600;
