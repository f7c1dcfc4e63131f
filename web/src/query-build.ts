// Query and Scan requests from the builder's form: the expressions with #names and :values, the
// request as the API takes it, and the same read as a PartiQL statement.
import { partiqlName, partiqlPath, partiqlValue } from './codegen';
import type { Request } from './codegen';
import { attributesRead, filterExpression, NotInPartiql, partiqlDialect, writeTree } from './condition';
import type { FilterGroup } from './condition';
import { ExpressionWriter, keyCondition, splitPath } from './expr';
import type { KeyOp } from './expr';
import type { KeyView, TableDescription } from './types';
import { attributeType, scalar } from './values';

export interface QuerySpec {
  mode: 'Query' | 'Scan';
  view: KeyView;
  pk: string;
  skOp: KeyOp | '';
  sk1: string;
  sk2: string;
  filter: FilterGroup; // the top group of the filter tree
  projection: string;
  count: boolean;
  forward: boolean;
  limit: string;
  consistent: boolean;
}

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
  if (s.mode === 'Query') {
    // DynamoDB refuses a Query filter on the key attributes of what it reads.
    const keys = attributesRead(s.filter).filter((n) => n === view.hash || n === view.range);
    if (keys.length)
      throw new Error(`A Query's filter cannot use ${keys.join(' or ')}, a key attribute of the ${view.kind === 'table' ? 'table' : 'index'}: compare it in the key condition, or Scan`);
  }
  const filter = filterExpression(w, s.filter);
  if (filter) r.FilterExpression = filter;
  let partiqlNote = '';
  try {
    const pf = writeTree(partiqlDialect, s.filter, !where.length);
    if (pf) where.push(pf);
  } catch (e) {
    if (!(e instanceof NotInPartiql)) throw e;
    partiqlNote = `-- the filter is not expressible in PartiQL (${e.message}): this statement leaves it out\n`;
  }
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
  if (partiqlNote) partiql = `${partiqlNote}${partiql}`;
  return { request: r, partiql };
}
