// Workbench model files in the console (docs/workbench/model-format.md): parsed from YAML or JSON,
// their entities' key templates matched against items (which entity an item is), and their access
// patterns turned into the GetItem / Query / Scan request the model describes.
import { parse } from 'yaml';
import type { AV, Item, ScalarType, TableDescription } from './types';

export interface ModelTable {
  name: string;
  partitionKey: string | { name: string; type?: ScalarType };
  sortKey?: string | { name: string; type?: ScalarType };
  globalSecondaryIndexes?: { name: string; partitionKey: ModelTable['partitionKey']; sortKey?: ModelTable['sortKey'] }[];
  localSecondaryIndexes?: { name: string; sortKey: ModelTable['partitionKey'] }[];
}
export interface ModelEntity {
  table?: string;
  keys: Record<string, string>;
  attributes?: Record<string, unknown>;
}
export type KeyConditionPart = string | { eq?: string; beginsWith?: string; between?: [string, string]; lt?: string; le?: string; gt?: string; ge?: string };
export interface AccessPattern {
  name: string;
  description?: string;
  operation: 'GetItem' | 'Query' | 'Scan';
  index?: string;
  table?: string;
  inputs?: string[];
  entities?: string[];
  order?: 'asc' | 'desc';
  limit?: number;
  consistentRead?: boolean;
  keyCondition?: Record<string, KeyConditionPart>;
}
export interface Model {
  version: number;
  name?: string;
  tables: ModelTable[];
  entities: Record<string, ModelEntity>;
  accessPatterns?: AccessPattern[];
}

const nameOf = (k: ModelTable['partitionKey'] | undefined): string | undefined => (k === undefined ? undefined : typeof k === 'string' ? k : k.name);

// Throws a readable Error when the text is not a model the console can use.
export function parseModel(text: string): Model {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new Error(`not YAML or JSON: ${(e as Error).message}`);
  }
  const m = doc as Model;
  if (!m || typeof m !== 'object' || Array.isArray(m)) throw new Error('a model file is a mapping with version, tables and entities');
  if (m.version !== 1) throw new Error(`version: the console reads format version 1, the file says ${JSON.stringify(m.version)}`);
  if (!Array.isArray(m.tables) || m.tables.length === 0) throw new Error('tables: at least one table is required');
  if (!m.entities || typeof m.entities !== 'object') throw new Error('entities: at least one entity is required');
  for (const [name, e] of Object.entries(m.entities)) {
    if (!e || typeof e.keys !== 'object') throw new Error(`entities[${name}].keys: required`);
    for (const [attr, tpl] of Object.entries(e.keys)) {
      if (typeof tpl !== 'string') throw new Error(`entities[${name}].keys.${attr}: a template string`);
      parseTemplate(tpl);
    }
  }
  for (const p of m.accessPatterns ?? []) {
    if (!p || typeof p.name !== 'string') throw new Error('accessPatterns: every pattern has a name');
    if (!['GetItem', 'Query', 'Scan'].includes(p.operation)) throw new Error(`accessPatterns[${p.name}].operation: GetItem, Query or Scan`);
  }
  return m;
}

// ---- key templates ----

export type TemplatePart = { lit: string } | { attr: string; format?: string };

export function parseTemplate(t: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let lit = '';
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if ((c === '{' || c === '}') && t[i + 1] === c) {
      lit += c;
      i++;
    } else if (c === '{') {
      const end = t.indexOf('}', i);
      if (end < 0) throw new Error(`template ${JSON.stringify(t)}: "{" without "}"`);
      const [attr, format] = t.slice(i + 1, end).split(':');
      if (!attr) throw new Error(`template ${JSON.stringify(t)}: empty placeholder`);
      if (lit) parts.push({ lit }), (lit = '');
      parts.push(format ? { attr, format } : { attr });
      i = end;
    } else if (c === '}') {
      throw new Error(`template ${JSON.stringify(t)}: "}" without "{"`);
    } else lit += c;
  }
  if (lit) parts.push({ lit });
  return parts;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const D = '\\d';
function formatRe(format: string | undefined, anyChars: boolean): string {
  const free = anyChars ? '.+?' : '[^#]+?';
  switch (format) {
    case undefined:
      return free;
    case 'iso8601':
      return `${D}{4}-${D}{2}-${D}{2}T${D}{2}:${D}{2}:${D}{2}Z`;
    case 'iso8601ms':
      return `${D}{4}-${D}{2}-${D}{2}T${D}{2}:${D}{2}:${D}{2}\\.${D}{3}Z`;
    case 'date':
      return `${D}{4}-${D}{2}-${D}{2}`;
    case 'epoch':
    case 'epoch-ms':
      return `${D}+`;
    case 'lower':
      return anyChars ? '[^A-Z]+?' : '[^#A-Z]+?';
    case 'upper':
      return anyChars ? '[^a-z]+?' : '[^#a-z]+?';
  }
  const pad = /^pad(\d+)$/.exec(format);
  if (pad) return `-?${D}{${pad[1]},}`;
  return free;
}

const compiled = new Map<string, RegExp>();
// A regular expression for the whole language the template writes.
export function templateRegExp(t: string, entity?: ModelEntity): RegExp {
  const key = t + '\u0000' + JSON.stringify(entity?.attributes ?? {});
  let re = compiled.get(key);
  if (!re) {
    const anyChars = (attr: string) => {
      const a = entity?.attributes?.[attr];
      return !!a && typeof a === 'object' && (a as { chars?: string }).chars === 'any';
    };
    const body = parseTemplate(t)
      .map((p) => ('lit' in p ? escapeRe(p.lit) : `(${formatRe(p.format, anyChars(p.attr))})`))
      .join('');
    re = new RegExp(`^${body}$`, 's');
    compiled.set(key, re);
  }
  return re;
}

const keyText = (v: AV | undefined): string | null => (v && 'S' in v ? v.S : v && 'N' in v ? v.N : null);

export function matchesTemplate(t: string, v: AV | undefined, entity?: ModelEntity): boolean {
  const s = keyText(v);
  return s !== null && templateRegExp(t, entity).test(s);
}

// The model table that describes a console table: the one with its name, else the only one with
// the same key attribute names.
export function modelTableFor(m: Model, t: TableDescription): ModelTable | undefined {
  const exact = m.tables.find((x) => x.name === t.TableName);
  if (exact) return exact;
  const hash = t.KeySchema.find((k) => k.KeyType === 'HASH')?.AttributeName;
  const range = t.KeySchema.find((k) => k.KeyType === 'RANGE')?.AttributeName;
  const same = m.tables.filter((x) => nameOf(x.partitionKey) === hash && nameOf(x.sortKey) === range);
  return same.length === 1 ? same[0] : undefined;
}

export function entitiesOfTable(m: Model, mt: ModelTable): [string, ModelEntity][] {
  return Object.entries(m.entities).filter(([, e]) => (e.table ?? m.tables[0].name) === mt.name || (m.tables.length === 1 && !e.table));
}

// The entity an item is, by the model: every table key template must match; among several, the
// one whose index key templates also match the most attributes, then the most literal text.
export function classify(m: Model, t: TableDescription, item: Item): string | null {
  const mt = modelTableFor(m, t);
  if (!mt) return null;
  const tableKeys = [nameOf(mt.partitionKey)!, nameOf(mt.sortKey)].filter((k): k is string => !!k);
  let best: { name: string; score: number } | null = null;
  for (const [name, e] of entitiesOfTable(m, mt)) {
    if (!tableKeys.every((k) => e.keys[k] !== undefined && matchesTemplate(e.keys[k], item[k], e))) continue;
    let score = 0;
    for (const [attr, tpl] of Object.entries(e.keys)) {
      if (tableKeys.includes(attr)) {
        score += parseTemplate(tpl).reduce((s, p) => s + ('lit' in p ? p.lit.length : 0), 0);
      } else if (item[attr] !== undefined) score += matchesTemplate(tpl, item[attr], e) ? 1000 : -1000;
    }
    if (!best || score > best.score) best = { name, score };
  }
  return best?.name ?? null;
}

// ---- access patterns ----

// The text a placeholder writes for an input value (formats as the model doc gives them).
export function formatValue(value: string, format: string | undefined): string {
  if (!format) return value;
  const pad = /^pad(\d+)$/.exec(format);
  if (pad) {
    const n = value.trim();
    if (!/^-?\d+$/.test(n)) throw new Error(`${format} needs a whole number, got ${JSON.stringify(value)}`);
    const neg = n.startsWith('-');
    return (neg ? '-' : '') + n.replace('-', '').padStart(Number(pad[1]), '0');
  }
  if (format === 'lower') return value.toLowerCase();
  if (format === 'upper') return value.toUpperCase();
  if (['iso8601', 'iso8601ms', 'date', 'epoch', 'epoch-ms'].includes(format)) {
    const asNumber = /^\d+$/.test(value.trim()) ? Number(value) * (value.trim().length <= 10 ? 1000 : 1) : NaN;
    const d = new Date(Number.isNaN(asNumber) ? value : asNumber);
    if (Number.isNaN(d.getTime())) throw new Error(`${format} needs a time, got ${JSON.stringify(value)}`);
    const iso = d.toISOString();
    if (format === 'iso8601') return iso.replace(/\.\d{3}Z$/, 'Z');
    if (format === 'iso8601ms') return iso;
    if (format === 'date') return iso.slice(0, 10);
    if (format === 'epoch') return String(Math.floor(d.getTime() / 1000));
    return String(d.getTime());
  }
  return value;
}

// The longest prefix of the template the inputs can write, and whether that is all of it.
export function renderPrefix(t: string, inputs: Record<string, string>): { text: string; complete: boolean } {
  let text = '';
  for (const p of parseTemplate(t)) {
    if ('lit' in p) text += p.lit;
    else if (inputs[p.attr] !== undefined && inputs[p.attr] !== '') text += formatValue(inputs[p.attr], p.format);
    else return { text, complete: false };
  }
  return { text, complete: true };
}

export function render(t: string, inputs: Record<string, string>, what: string): string {
  const r = renderPrefix(t, inputs);
  if (!r.complete) throw new Error(`${what}: the template ${JSON.stringify(t)} needs an input the pattern does not give`);
  return r.text;
}

const commonPrefix = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
};

export interface PatternRequest {
  operation: 'GetItem' | 'Query' | 'Scan';
  request: Record<string, unknown>;
}

// The request a pattern describes for the given inputs. Throws a readable Error when it cannot
// be built (a missing input, an entity without the index's keys, GetItem on an index).
export function buildPatternRequest(m: Model, t: TableDescription, p: AccessPattern, inputs: Record<string, string>): PatternRequest {
  const mt = modelTableFor(m, t);
  if (!mt) throw new Error(`the model has no table for ${t.TableName}`);
  for (const i of p.inputs ?? []) if (!inputs[i]) throw new Error(`${p.name}: the input ${i} is empty`);
  let hash = nameOf(mt.partitionKey)!;
  let range = nameOf(mt.sortKey);
  if (p.index) {
    const g = mt.globalSecondaryIndexes?.find((x) => x.name === p.index);
    const l = mt.localSecondaryIndexes?.find((x) => x.name === p.index);
    if (g) (hash = nameOf(g.partitionKey)!), (range = nameOf(g.sortKey));
    else if (l) range = nameOf(l.sortKey);
    else throw new Error(`${p.name}: the model's table has no index ${p.index}`);
  }
  const typeOf = (a: string): ScalarType => t.AttributeDefinitions.find((d) => d.AttributeName === a)?.AttributeType ?? 'S';
  const av = (a: string, s: string): AV => (typeOf(a) === 'N' ? { N: s } : typeOf(a) === 'B' ? { B: s } : { S: s });
  const r: Record<string, unknown> = { TableName: t.TableName };
  if (p.index) r.IndexName = p.index;
  const ents = (p.entities ?? []).map((n) => {
    const e = m.entities[n];
    if (!e) throw new Error(`${p.name}: no entity ${n} in the model`);
    return [n, e] as const;
  });
  const templateOf = (attr: string): string[] =>
    ents.map(([n, e]) => {
      const tpl = e.keys[attr];
      if (tpl === undefined) throw new Error(`${p.name}: the entity ${n} has no template for ${attr}`);
      return tpl;
    });

  if (p.operation === 'Scan') {
    if (p.limit) r.Limit = p.limit;
  } else if (p.operation === 'GetItem') {
    if (p.index) throw new Error(`${p.name}: GetItem reads tables only, not the index ${p.index}`);
    const key: Item = {};
    for (const a of [hash, range].filter((x): x is string => !!x)) {
      const given = p.keyCondition?.[a];
      const tpl = typeof given === 'string' ? given : given?.eq ?? templateOf(a)[0];
      key[a] = av(a, render(tpl, inputs, a));
    }
    r.Key = key;
  } else {
    const names: Record<string, string> = { '#pk': hash };
    const values: Record<string, AV> = {};
    const pkGiven = p.keyCondition?.[hash];
    const pkTpl = typeof pkGiven === 'string' ? pkGiven : pkGiven?.eq ?? templateOf(hash)[0];
    values[':pk'] = av(hash, render(pkTpl, inputs, hash));
    let expr = '#pk = :pk';
    let sk: string | null = null;
    const given = range ? p.keyCondition?.[range] : undefined;
    if (range && given !== undefined) {
      const g = typeof given === 'string' ? { eq: given } : given;
      const v = (name: string, tpl: string) => ((values[name] = av(range!, render(tpl, inputs, range!))), name);
      if (g.eq !== undefined) sk = `#sk = ${v(':sk', g.eq)}`;
      else if (g.beginsWith !== undefined) sk = `begins_with(#sk, ${v(':sk', g.beginsWith)})`;
      else if (g.between) sk = `#sk BETWEEN ${v(':lo', g.between[0])} AND ${v(':hi', g.between[1])}`;
      else {
        const op = (['lt', 'le', 'gt', 'ge'] as const).find((o) => g[o] !== undefined);
        if (op) sk = `#sk ${{ lt: '<', le: '<=', gt: '>', ge: '>=' }[op]} ${v(':sk', g[op]!)}`;
      }
    } else if (range && ents.length) {
      // Derived: equality when the whole sort key is buildable (one entity), else begins_with the
      // longest buildable prefix (for several entities, their common prefix cut after its last '#').
      const prefixes = templateOf(range).map((tpl) => renderPrefix(tpl, inputs));
      if (prefixes.length === 1 && prefixes[0].complete) {
        values[':sk'] = av(range, prefixes[0].text);
        sk = '#sk = :sk';
      } else {
        let prefix = prefixes.map((x) => x.text).reduce(commonPrefix);
        if (prefixes.length > 1 && !prefixes.every((x) => x.text === prefix)) prefix = prefix.slice(0, prefix.lastIndexOf('#') + 1);
        if (prefix && typeOf(range) === 'S') {
          values[':sk'] = { S: prefix };
          sk = 'begins_with(#sk, :sk)';
        }
      }
    }
    if (sk) {
      names['#sk'] = range!;
      expr += ` AND ${sk}`;
    }
    r.KeyConditionExpression = expr;
    r.ExpressionAttributeNames = names;
    r.ExpressionAttributeValues = values;
    if (p.order === 'desc') r.ScanIndexForward = false;
    if (p.limit) r.Limit = p.limit;
  }
  if (p.consistentRead && !(p.index && mt.globalSecondaryIndexes?.some((g) => g.name === p.index))) r.ConsistentRead = true;
  r.ReturnConsumedCapacity = 'INDEXES';
  return { operation: p.operation, request: r };
}
