// Expression writing: attribute names as #placeholders where DynamoDB needs them (reserved words,
// names that are not plain identifiers), values as :placeholders, nested paths (a.b[2].c), key
// conditions. Filters (the whole condition language) are in condition.ts.
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

// A document path typed as a.b[2].c: names (any text but . [ ]) and list indexes.
export function splitPath(p: string): (string | number)[] {
  const out: (string | number)[] = [];
  let rest = p.trim();
  while (rest) {
    const m = out.length ? /^(?:\.([^.[\]]+)|\[(\d+)\])/.exec(rest) : /^([^.[\]]+)/.exec(rest);
    if (!m) throw new Error(`"${p.trim()}" is not a document path (write a.b[2].c)`);
    out.push(m[2] !== undefined ? Number(m[2]) : m[1]);
    rest = rest.slice(m[0].length);
  }
  if (!out.length) throw new Error('a document path is missing');
  return out;
}

export type KeyOp = '=' | '<' | '<=' | '>' | '>=' | 'between' | 'begins_with';
export const KEY_OPS: KeyOp[] = ['=', '<', '<=', '>', '>=', 'between', 'begins_with'];

export function keyCondition(w: ExpressionWriter, attr: string, op: KeyOp, a: AV, b?: AV, hint = 'sk'): string {
  const n = w.name(attr);
  if (op === 'between') return `${n} BETWEEN ${w.value(a, hint + '1')} AND ${w.value(b!, hint + '2')}`;
  if (op === 'begins_with') return `begins_with(${n}, ${w.value(a, hint)})`;
  return `${n} ${op} ${w.value(a, hint)}`;
}
