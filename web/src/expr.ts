// Expression writing: attribute names as #placeholders where DynamoDB needs them (reserved words,
// names that are not plain identifiers), values as :placeholders, nested paths (a.b[2].c).
import reservedText from './reserved-words.txt?raw';
import type { AV } from './types';

export const RESERVED = new Set(reservedText.split(/\s+/).filter(Boolean).map((w) => w.toUpperCase()));

export const needsPlaceholder = (name: string): boolean => RESERVED.has(name.toUpperCase()) || !/^[A-Za-z][A-Za-z0-9_]*$/.test(name);

export class ExpressionWriter {
  names: Record<string, string> = {};
  values: Record<string, AV> = {};
  private byName = new Map<string, string>();

  // A name as it must appear in an expression.
  name(n: string): string {
    if (!needsPlaceholder(n)) return n;
    let p = this.byName.get(n);
    if (!p) {
      let base = '#' + (n.replace(/[^A-Za-z0-9_]/g, '_').replace(/^_+/, '') || 'n');
      if (!/^#[A-Za-z]/.test(base)) base = '#n' + base.slice(1);
      p = base;
      for (let i = 2; Object.prototype.hasOwnProperty.call(this.names, p); i++) p = `${base}${i}`;
      this.names[p] = n;
      this.byName.set(n, p);
    }
    return p;
  }

  // A document path typed as a.b[2].c: each name escaped as needed, list indexes kept.
  path(p: string): string {
    const parts = splitPath(p);
    return parts.map((seg) => (typeof seg === 'number' ? `[${seg}]` : '.' + this.name(seg))).join('').replace(/^\./, '');
  }

  value(v: AV, hint = 'v'): string {
    const json = JSON.stringify(v);
    for (const [k, x] of Object.entries(this.values)) if (JSON.stringify(x) === json) return k;
    const base = ':' + (hint.replace(/[^A-Za-z0-9_]/g, '').toLowerCase() || 'v');
    let p = base;
    for (let i = 2; Object.prototype.hasOwnProperty.call(this.values, p); i++) p = `${base}${i}`;
    this.values[p] = v;
    return p;
  }
}

export function splitPath(p: string): (string | number)[] {
  const out: (string | number)[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(p.trim()))) out.push(m[2] !== undefined ? Number(m[2]) : m[1]);
  if (out.length === 0 || typeof out[0] === 'number') throw new Error(`"${p}" is not a document path`);
  return out;
}

export type KeyOp = '=' | '<' | '<=' | '>' | '>=' | 'between' | 'begins_with';
export const KEY_OPS: KeyOp[] = ['=', '<', '<=', '>', '>=', 'between', 'begins_with'];

export type FilterOp =
  | '=' | '<>' | '<' | '<=' | '>' | '>=' | 'between' | 'in' | 'begins_with' | 'contains' | 'not contains'
  | 'attribute_exists' | 'attribute_not_exists' | 'attribute_type'
  | 'size =' | 'size <>' | 'size <' | 'size <=' | 'size >' | 'size >=';
export const FILTER_OPS: FilterOp[] = [
  '=', '<>', '<', '<=', '>', '>=', 'between', 'in', 'begins_with', 'contains', 'not contains',
  'attribute_exists', 'attribute_not_exists', 'attribute_type', 'size =', 'size <>', 'size <', 'size <=', 'size >', 'size >=',
];

// How many value operands an operator takes (in: a comma-separated list).
export function operands(op: FilterOp | KeyOp): 0 | 1 | 2 | 'list' {
  if (op === 'attribute_exists' || op === 'attribute_not_exists') return 0;
  if (op === 'between') return 2;
  if (op === 'in') return 'list';
  return 1;
}

export function keyCondition(w: ExpressionWriter, attr: string, op: KeyOp, a: AV, b?: AV, hint = 'sk'): string {
  const n = w.name(attr);
  if (op === 'between') return `${n} BETWEEN ${w.value(a, hint + '1')} AND ${w.value(b!, hint + '2')}`;
  if (op === 'begins_with') return `begins_with(${n}, ${w.value(a, hint)})`;
  return `${n} ${op} ${w.value(a, hint)}`;
}

export interface Filter {
  path: string;
  op: FilterOp;
  type: 'S' | 'N' | 'BOOL' | 'NULL';
  value: string;
  value2: string;
  not?: boolean;
}

export function filterCondition(w: ExpressionWriter, f: Filter, typed: (text: string) => AV): string {
  const p = w.path(f.path);
  const hint = String(splitPath(f.path).filter((s) => typeof s === 'string').pop());
  switch (f.op) {
    case 'attribute_exists':
    case 'attribute_not_exists':
      return `${f.op}(${p})`;
    case 'attribute_type':
      return `attribute_type(${p}, ${w.value({ S: f.value.trim() }, 'type')})`;
    case 'between':
      return `${p} BETWEEN ${w.value(typed(f.value), hint + '1')} AND ${w.value(typed(f.value2), hint + '2')}`;
    case 'in': {
      const items = f.value.split(',').map((s) => s.trim()).filter((s) => s.length);
      if (!items.length) throw new Error(`IN on ${f.path} needs at least one value`);
      return `${p} IN (${items.map((s, i) => w.value(typed(s), `${hint}${i + 1}`)).join(', ')})`;
    }
    case 'begins_with':
    case 'contains':
      return `${f.op}(${p}, ${w.value(typed(f.value), hint)})`;
    case 'not contains':
      return `NOT contains(${p}, ${w.value(typed(f.value), hint)})`;
    default:
      if (f.op.startsWith('size ')) return `size(${p}) ${f.op.slice(5)} ${w.value({ N: f.value.trim() }, hint + 'size')}`;
      return `${p} ${f.op} ${w.value(typed(f.value), hint)}`;
  }
}
