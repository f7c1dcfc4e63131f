// Query and Scan requests from the builder's form: the expressions with #names and :values, the
// request as the API takes it, and the same read as a PartiQL statement.
import { partiqlName, partiqlPath, partiqlValue } from './codegen';
import type { Request } from './codegen';
import { ExpressionWriter, filterCondition, keyCondition, splitPath } from './expr';
import type { Filter, KeyOp } from './expr';
import type { AV, KeyView, TableDescription } from './types';
import { attributeType, scalar } from './values';

export interface QuerySpec {
  mode: 'Query' | 'Scan';
  view: KeyView;
  pk: string;
  skOp: KeyOp | '';
  sk1: string;
  sk2: string;
  filters: Filter[];
  combine: 'AND' | 'OR';
  projection: string;
  count: boolean;
  forward: boolean;
  limit: string;
  consistent: boolean;
}

const typed = (f: Filter) => (text: string): AV => scalar(f.type, text);

// Throws a readable Error for a form that cannot make a request.
export function buildRequest(t: TableDescription, s: QuerySpec): { request: Request; partiql: string } {
  const { view } = s;
  const w = new ExpressionWriter();
  const r: Request = { TableName: t.TableName };
  if (view.kind !== 'table') r.IndexName = view.name;
  const where: string[] = [];
  if (s.mode === 'Query') {
    if (!s.pk) throw new Error(`Query needs a value for the partition key ${view.hash}`);
    const pkValue = scalar(attributeType(t, view.hash), s.pk);
    const keyParts = [keyCondition(w, view.hash, '=', pkValue, undefined, 'pk')];
    where.push(`${partiqlName(view.hash)} = ${partiqlValue(pkValue)}`);
    if (s.skOp && view.range) {
      const st = attributeType(t, view.range);
      const a = scalar(st, s.sk1), b = scalar(st, s.sk2);
      keyParts.push(keyCondition(w, view.range, s.skOp, a, b, 'sk'));
      const n = partiqlName(view.range);
      where.push(
        s.skOp === 'between'
          ? `${n} BETWEEN ${partiqlValue(a)} AND ${partiqlValue(b)}`
          : s.skOp === 'begins_with'
            ? `begins_with(${n}, ${partiqlValue(a)})`
            : `${n} ${s.skOp} ${partiqlValue(a)}`,
      );
    }
    r.KeyConditionExpression = keyParts.join(' AND ');
  }
  const used = s.filters.filter((f) => f.path.trim());
  const negate = (f: Filter, e: string) => (f.not ? `NOT (${e})` : e);
  const fparts = used.map((f) => negate(f, filterCondition(w, f, typed(f))));
  const pparts = used.map((f) => negate(f, partiqlFilter(f)));
  if (fparts.length) r.FilterExpression = fparts.length > 1 && s.combine === 'OR' ? fparts.map((p) => `(${p})`).join(' OR ') : fparts.join(' AND ');
  if (pparts.length) where.push(pparts.length > 1 && s.combine === 'OR' ? `(${pparts.join(' OR ')})` : pparts.join(' AND '));
  const proj = s.count ? [] : s.projection.split(',').map((p) => p.trim()).filter(Boolean);
  if (proj.length) r.ProjectionExpression = proj.map((p) => w.path(p)).join(', ');
  if (s.count) r.Select = 'COUNT';
  if (Object.keys(w.names).length) r.ExpressionAttributeNames = w.names;
  if (Object.keys(w.values).length) r.ExpressionAttributeValues = w.values;
  if (s.mode === 'Query' && !s.forward) r.ScanIndexForward = false;
  if (s.limit.trim()) {
    const n = Number(s.limit);
    if (!Number.isInteger(n) || n < 1) throw new Error('Limit is a whole number of at least 1');
    r.Limit = n;
  }
  if (s.consistent && view.kind !== 'GSI') r.ConsistentRead = true;
  r.ReturnConsumedCapacity = 'INDEXES';

  const from = view.kind === 'table' ? partiqlName(t.TableName) : `${partiqlName(t.TableName)}.${partiqlName(view.name)}`;
  let partiql = `SELECT ${proj.length ? proj.map((p) => partiqlPath(splitPath(p))).join(', ') : '*'}\nFROM ${from}`;
  if (where.length) partiql += `\nWHERE ${where.join('\n  AND ')}`;
  if (s.mode === 'Query' && !s.forward && view.range) partiql += `\nORDER BY ${partiqlName(view.range)} DESC`;
  if (s.count) partiql = `-- PartiQL has no COUNT: the statement returns the items\n${partiql}`;
  if (s.mode === 'Scan') partiql = `-- no partition key equality: this statement scans\n${partiql}`;
  return { request: r, partiql };
}

export function partiqlFilter(f: Filter): string {
  const p = partiqlPath(splitPath(f.path));
  const v = (s: string) => partiqlValue(scalar(f.type, s));
  switch (f.op) {
    case 'attribute_exists':
      return `${p} IS NOT MISSING`;
    case 'attribute_not_exists':
      return `${p} IS MISSING`;
    case 'attribute_type':
      return `attribute_type(${p}, '${f.value.trim()}')`;
    case 'between':
      return `${p} BETWEEN ${v(f.value)} AND ${v(f.value2)}`;
    case 'in':
      return `${p} IN [${f.value.split(',').map((s) => v(s.trim())).join(', ')}]`;
    case 'begins_with':
    case 'contains':
      return `${f.op}(${p}, ${v(f.value)})`;
    case 'not contains':
      return `NOT contains(${p}, ${v(f.value)})`;
    default:
      if (f.op.startsWith('size ')) return `size(${p}) ${f.op.slice(5)} ${f.value.trim()}`;
      return `${p} ${f.op} ${v(f.value)}`;
  }
}
