// The condition language of FilterExpression (and ConditionExpression) as a tree the builder
// edits: groups joined by AND or OR, each negatable and nestable, and conditions whose left side
// is a document path or size(path) and whose operands are typed values or other paths. Written
// three ways from the same tree: the DynamoDB expression (#names, :values), PartiQL, and a
// readable line with the names and values inline.
import { ExpressionWriter, splitPath } from './expr';
import { partiqlPath, partiqlValue } from './codegen';
import type { AV } from './types';
import { looksLikeDynamoJson, marshall, unmarshall, validateItem } from './values';

export type ValueKind = 'S' | 'N' | 'B' | 'BOOL' | 'NULL' | 'L' | 'M' | 'SS' | 'NS' | 'BS';
export type OperandKind = ValueKind | 'path' | 'size';
export const VALUE_KINDS: ValueKind[] = ['S', 'N', 'B', 'BOOL', 'NULL', 'L', 'M', 'SS', 'NS', 'BS'];

export interface Operand {
  kind: OperandKind;
  text: string;
}

export type Comparator = '=' | '<>' | '<' | '<=' | '>' | '>=';
export type FilterOp = Comparator | 'between' | 'in' | 'begins_with' | 'contains' | 'attribute_exists' | 'attribute_not_exists' | 'attribute_type';
export const COMPARATORS: Comparator[] = ['=', '<>', '<', '<=', '>', '>='];
export const FILTER_OPS: FilterOp[] = [...COMPARATORS, 'between', 'in', 'begins_with', 'contains', 'attribute_exists', 'attribute_not_exists', 'attribute_type'];
// The operators whose left side may be size(path): size is an operand, not a condition.
export const SIZE_OPS: FilterOp[] = [...COMPARATORS, 'between', 'in'];

export interface FilterCondition {
  type: 'condition';
  id: number;
  not?: boolean;
  size?: boolean; // the left side is size(path)
  path: string;
  op: FilterOp;
  operands: Operand[];
}

export interface FilterGroup {
  type: 'group';
  id: number;
  not?: boolean;
  join: 'AND' | 'OR';
  children: FilterNode[];
}

export type FilterNode = FilterCondition | FilterGroup;

let ids = 0;
const nextId = () => ++ids;

export const newCondition = (over: Partial<FilterCondition> = {}): FilterCondition => ({
  type: 'condition', id: nextId(), path: '', op: '=', operands: [{ kind: 'S', text: '' }], ...over,
});

export const newGroup = (join: 'AND' | 'OR' = 'AND', children: FilterNode[] = []): FilterGroup => ({ type: 'group', id: nextId(), join, children });

// How many operands an operator takes after its path.
export function arity(op: FilterOp): 0 | 1 | 2 | 'list' {
  if (op === 'attribute_exists' || op === 'attribute_not_exists') return 0;
  if (op === 'between') return 2;
  if (op === 'in') return 'list';
  return 1;
}

// The operand kinds an operator accepts (attribute_type takes a type name, chosen apart).
export function operandKinds(op: FilterOp): OperandKind[] {
  if (op === 'begins_with') return ['S', 'B', 'path'];
  if (op === 'contains') return [...VALUE_KINDS, 'path'];
  return [...VALUE_KINDS, 'path', 'size'];
}

// The condition with another operator (or left side), its operands kept where they still fit.
export function withOp(c: FilterCondition, op: FilterOp, size = !!c.size): FilterCondition {
  if (size && !SIZE_OPS.includes(op)) op = '=';
  if (op === 'attribute_type') {
    const t = c.op === 'attribute_type' ? c.operands[0]?.text : undefined;
    return { ...c, op, size, operands: [{ kind: 'S', text: t ?? 'S' }] };
  }
  const kinds = operandKinds(op);
  const old = c.op === 'attribute_type' ? [] : c.operands;
  const n = arity(op);
  const want = n === 'list' ? Math.max(1, old.length) : n;
  // size(path) is a number: a string operand becomes a number one when size is turned on.
  const kind = (k?: OperandKind): OperandKind => (k && kinds.includes(k) && !(size && k === 'S') ? k : size ? 'N' : 'S');
  const operands = Array.from({ length: want }, (_, i) =>
    old[i] ? { ...old[i], kind: kind(old[i].kind) } : { kind: kind(old[old.length - 1]?.kind), text: '' },
  );
  return { ...c, op, size, operands };
}

// ---- Operand values: typed text to DynamoDB JSON ----

const NUMBER = /^\s*-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function json(text: string, example: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${text.trim() ? `"${text.trim()}" is not JSON` : 'empty'}: write it as ${example}`);
  }
}

// A one-key {"L": ...} style wrapper of the given type, or undefined.
function wrapped(x: unknown, kind: ValueKind): unknown {
  if (x && typeof x === 'object' && !Array.isArray(x) && Object.keys(x).length === 1 && kind in x) return (x as Record<string, unknown>)[kind];
  return undefined;
}

function set(kind: 'SS' | 'NS' | 'BS', x: unknown): AV {
  const inner = wrapped(x, kind) ?? x;
  if (!Array.isArray(inner) || !inner.length) throw new Error(`${kind} takes a non-empty JSON array, e.g. ${SET_EXAMPLES[kind]}`);
  const items = inner.map((e) => {
    if (kind === 'NS' && typeof e === 'number') return String(e);
    if (typeof e !== 'string') throw new Error(`${kind} elements are ${kind === 'NS' ? 'numbers' : 'strings'}: ${JSON.stringify(e)}`);
    if (kind === 'NS' && !NUMBER.test(e)) throw new Error(`NS: "${e}" is not a number`);
    if (kind === 'BS' && !BASE64.test(e)) throw new Error(`BS: "${e}" is not base64`);
    return kind === 'NS' ? e.trim() : e;
  });
  const seen: unknown[] = kind === 'NS' ? items.map(Number) : items;
  if (new Set(seen).size !== seen.length) throw new Error(`${kind} holds a value twice: a set's values are distinct`);
  return { [kind]: items } as AV;
}

const SET_EXAMPLES = { SS: '["red", "blue"]', NS: '[1, 2.5]', BS: '["AQI=", "AwQ="]' };
export const PLACEHOLDERS: Record<OperandKind, string> = {
  S: 'text', N: 'number', B: 'base64, e.g. AQID', BOOL: '', NULL: '',
  L: '["a", 1] or {"L": [{"S": "a"}]}', M: '{"city": "Lisbon"} or {"M": {…}}',
  SS: SET_EXAMPLES.SS, NS: SET_EXAMPLES.NS, BS: SET_EXAMPLES.BS,
  path: 'other.path[0]', size: 'path whose size',
};

// An operand's value from the text typed for its kind; throws a readable Error.
export function operandValue(kind: ValueKind, text: string): AV {
  switch (kind) {
    case 'S':
      return { S: text };
    case 'N':
      if (!NUMBER.test(text)) throw new Error(text.trim() ? `"${text.trim()}" is not a number` : 'a number is missing');
      return { N: text.trim() };
    case 'B':
      if (!BASE64.test(text.trim())) throw new Error(`"${text.trim()}" is not base64`);
      return { B: text.trim() };
    case 'BOOL':
      if (!/^\s*(true|false)\s*$/i.test(text)) throw new Error('BOOL is true or false');
      return { BOOL: text.trim().toLowerCase() === 'true' };
    case 'NULL':
      return { NULL: true };
    case 'L': {
      const x = json(text, PLACEHOLDERS.L);
      const inner = wrapped(x, 'L');
      if (inner !== undefined) {
        const v = { L: inner } as AV;
        validateItem({ L: v });
        return v;
      }
      if (!Array.isArray(x)) throw new Error(`a list is a JSON array: ${PLACEHOLDERS.L}`);
      return marshall(x);
    }
    case 'M': {
      const x = json(text, PLACEHOLDERS.M);
      if (!x || typeof x !== 'object' || Array.isArray(x)) throw new Error(`a map is a JSON object: ${PLACEHOLDERS.M}`);
      const inner = wrapped(x, 'M');
      const dynamo = inner !== undefined && inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? inner : looksLikeDynamoJson(x as Record<string, unknown>) ? x : undefined;
      if (dynamo) {
        validateItem(dynamo);
        return { M: dynamo } as AV;
      }
      return marshall(x);
    }
    default:
      return set(kind, json(text, SET_EXAMPLES[kind]));
  }
}

// The error an operand's text has, or '' (for marking the input as it is typed).
export function operandError(o: Operand): string {
  try {
    if (o.kind === 'path' || o.kind === 'size') splitPath(o.text);
    else operandValue(o.kind, o.text);
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}

// ---- Writing the tree ----

// What differs between the three ways of writing a condition.
export interface Dialect {
  path(p: string): string;
  value(v: AV, hint: string): string;
  exists(path: string, exists: boolean): string;
  list(items: string[]): string;
}

export class NotInPartiql extends Error {}

export function dynamoDialect(w: ExpressionWriter): Dialect {
  return {
    path: (p) => w.path(p),
    value: (v, hint) => w.value(v, hint),
    exists: (p, yes) => `${yes ? 'attribute_exists' : 'attribute_not_exists'}(${p})`,
    list: (items) => `(${items.join(', ')})`,
  };
}

export const partiqlDialect: Dialect = {
  path: (p) => partiqlPath(splitPath(p)),
  value: (v) => {
    if ('B' in v || 'BS' in v) throw new NotInPartiql('it has no literal for binary values, B and BS');
    return partiqlValue(v);
  },
  exists: (p, yes) => `${p} IS ${yes ? 'NOT ' : ''}MISSING`,
  list: (items) => `[${items.join(', ')}]`,
};

function readableValue(v: AV): string {
  if ('B' in v) return `b"${v.B}"`;
  if ('SS' in v || 'NS' in v || 'BS' in v) {
    const items = 'SS' in v ? v.SS.map((s) => JSON.stringify(s)) : 'NS' in v ? v.NS : v.BS.map((s) => `b"${s}"`);
    return `<<${items.join(', ')}>>`;
  }
  return JSON.stringify(unmarshall(v));
}

export const readableDialect: Dialect = {
  path: (p) => splitPath(p).map((s, i) => (typeof s === 'number' ? `[${s}]` : (i ? '.' : '') + s)).join(''),
  value: (v) => readableValue(v),
  exists: (p, yes) => `${yes ? 'attribute_exists' : 'attribute_not_exists'}(${p})`,
  list: (items) => `(${items.join(', ')})`,
};

const lastName = (p: string) => String(splitPath(p).filter((s) => typeof s === 'string').pop());

function where(c: FilterCondition, e: unknown): Error {
  const msg = e instanceof Error ? e.message : String(e);
  return e instanceof NotInPartiql ? e : new Error(`filter on ${c.size ? `size(${c.path.trim()})` : c.path.trim()}: ${msg}`);
}

export function conditionText(d: Dialect, c: FilterCondition): string {
  try {
    const p = d.path(c.path);
    const lhs = c.size ? `size(${p})` : p;
    const hint = lastName(c.path) + (c.size ? 'size' : '');
    const operand = (o: Operand | undefined, h: string): string => {
      if (!o) throw new Error(`${c.op} needs ${arity(c.op) === 2 ? 'two operands' : 'an operand'}`);
      if (o.kind === 'path') return d.path(o.text);
      if (o.kind === 'size') return `size(${d.path(o.text)})`;
      return d.value(operandValue(o.kind, o.text), h);
    };
    switch (c.op) {
      case 'attribute_exists':
      case 'attribute_not_exists':
        return d.exists(p, c.op === 'attribute_exists');
      case 'attribute_type': {
        const t = c.operands[0]?.text ?? '';
        if (!VALUE_KINDS.includes(t as ValueKind)) throw new Error(`attribute_type takes one of ${VALUE_KINDS.join(' ')}`);
        return `attribute_type(${p}, ${d.value({ S: t }, 'type')})`;
      }
      case 'begins_with':
      case 'contains':
        return `${c.op}(${p}, ${operand(c.operands[0], hint)})`;
      case 'between':
        return `${lhs} BETWEEN ${operand(c.operands[0], hint + '1')} AND ${operand(c.operands[1], hint + '2')}`;
      case 'in': {
        if (!c.operands.length) throw new Error('IN needs at least one operand');
        if (c.operands.length > 100) throw new Error('IN takes at most 100 operands');
        return `${lhs} IN ${d.list(c.operands.map((o, i) => operand(o, `${hint}${i + 1}`)))}`;
      }
      default:
        return `${lhs} ${c.op} ${operand(c.operands[0], hint)}`;
    }
  } catch (e) {
    throw where(c, e);
  }
}

interface Written {
  text: string;
  wrapped: boolean; // already in parentheses (a NOT puts none around it again: DynamoDB refuses ((…)))
  join?: 'AND' | 'OR'; // the operator at its top, when it has one
}

const negate = (w: Written): Written => ({ text: w.wrapped ? `NOT ${w.text}` : `NOT (${w.text})`, wrapped: false });

function write(d: Dialect, node: FilterNode, nested: boolean): Written | undefined {
  if (node.type === 'condition') {
    if (!node.path.trim()) return undefined; // a row not filled in yet
    const w = { text: conditionText(d, node), wrapped: false };
    return node.not ? negate(w) : w;
  }
  const parts = node.children.map((c) => write(d, c, true)).filter((p): p is Written => !!p);
  if (!parts.length) return undefined;
  let w: Written = parts.length === 1 ? parts[0] : { text: parts.map((p) => p.text).join(` ${node.join} `), wrapped: false, join: node.join };
  if (parts.length > 1 && (nested || node.not)) w = { text: `(${w.text})`, wrapped: true };
  return node.not ? negate(w) : w;
}

// The tree as one condition, or undefined when it holds no filled-in condition. `alone`: the
// condition is the whole WHERE (else a top-level OR is put in parentheses, to be ANDed).
export function writeTree(d: Dialect, root: FilterGroup, alone = true): string | undefined {
  const w = write(d, root, false);
  if (!w) return undefined;
  return !alone && w.join === 'OR' ? `(${w.text})` : w.text;
}

export const filterExpression = (w: ExpressionWriter, root: FilterGroup) => writeTree(dynamoDialect(w), root);

// ---- Editing the tree (immutably); a node's place is its child indexes from the root ----

export type Place = number[];

export function nodeAt(root: FilterGroup, at: Place): FilterNode {
  let n: FilterNode = root;
  for (const i of at) {
    if (n.type !== 'group' || !n.children[i]) throw new Error(`no filter at ${at.join('.')}`);
    n = n.children[i];
  }
  return n;
}

// The tree with the node at `at` replaced by f(node), or removed when f returns null.
export function updateAt(root: FilterGroup, at: Place, f: (n: FilterNode) => FilterNode | null): FilterGroup {
  if (!at.length) {
    const r = f(root);
    if (!r || r.type !== 'group') throw new Error('the top group stays a group');
    return r;
  }
  const [i, ...rest] = at;
  const child = root.children[i];
  if (!child) throw new Error(`no filter at ${at.join('.')}`);
  let next: FilterNode | null;
  if (rest.length) {
    if (child.type !== 'group') throw new Error(`no filter at ${at.join('.')}`);
    next = updateAt(child, rest, f);
  } else next = f(child);
  const children = next ? root.children.map((c, j) => (j === i ? next! : c)) : root.children.filter((_, j) => j !== i);
  return { ...root, children };
}

export const removeAt = (root: FilterGroup, at: Place) => updateAt(root, at, () => null);

export function appendAt(root: FilterGroup, at: Place, node: FilterNode): FilterGroup {
  return updateAt(root, at, (g) => {
    if (g.type !== 'group') throw new Error('conditions are added to groups');
    return { ...g, children: [...g.children, node] };
  });
}

// The top-level attribute names the filled-in conditions read (their paths' first names).
export function attributesRead(n: FilterNode): string[] {
  if (n.type === 'group') return [...new Set(n.children.flatMap(attributesRead))];
  if (!n.path.trim()) return [];
  const first = (p: string) => {
    try {
      return [String(splitPath(p)[0])];
    } catch {
      return []; // reported when the expression is written
    }
  };
  const refs = n.op === 'attribute_type' ? [] : n.operands.filter((o) => o.kind === 'path' || o.kind === 'size');
  return [...new Set([...first(n.path), ...refs.flatMap((o) => first(o.text))])];
}

// Whether the tree holds a condition with a path typed in.
export const hasConditions = (n: FilterNode): boolean => (n.type === 'condition' ? !!n.path.trim() : n.children.some(hasConditions));
