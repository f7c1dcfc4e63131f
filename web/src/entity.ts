// Entity types of a single-table design: by the loaded workbench model's key templates when one
// is loaded and an entity matches; otherwise inferred from the items themselves:
// an explicit entity attribute when the item has one, else the prefix of its sort key
// (`ORDER#2024-01-15` -> ORDER), and for a root item whose sort key has no prefix
// (`PROFILE`, `METADATA`, or SK = PK) the prefix of its partition key (`USER#u1` -> USER).
import { classify, parseModel } from './model';
import type { Model } from './model';
import type { Item, TableDescription } from './types';

// The loaded model (kept in this tab's session, as its text, so a reload keeps it).
const MODEL_KEY = 'monotable.console.model';
let loaded: { model: Model; file: string } | null = null;
try {
  const raw = typeof sessionStorage !== 'undefined' ? sessionStorage.getItem(MODEL_KEY) : null;
  if (raw) {
    const { text, file } = JSON.parse(raw);
    loaded = { model: parseModel(text), file };
  }
} catch {
  loaded = null;
}
export const loadedModel = () => loaded;
// Throws a readable Error when the text is not a model.
export function loadModel(text: string, file: string): Model {
  const model = parseModel(text);
  loaded = { model, file };
  try {
    sessionStorage.setItem(MODEL_KEY, JSON.stringify({ text, file }));
  } catch {
    /* too large for the session: kept for this page only */
  }
  return model;
}
export function unloadModel(): void {
  loaded = null;
  sessionStorage.removeItem(MODEL_KEY);
}

const ENTITY_ATTRIBUTES = ['_et', 'entity', 'Entity', 'entityType', 'EntityType', '_type', '__typename'];

export function prefixOf(s: string): string | null {
  const m = /^([A-Za-z][A-Za-z0-9_-]*)[#|]/.exec(s);
  return m ? m[1] : null;
}

export function entityOf(t: TableDescription, item: Item): string {
  if (loaded) {
    const e = classify(loaded.model, t, item);
    if (e) return e;
  }
  return inferredEntityOf(t, item);
}

export function inferredEntityOf(t: TableDescription, item: Item): string {
  for (const a of ENTITY_ATTRIBUTES) {
    const v = item[a];
    if (v && 'S' in v && v.S) return v.S;
  }
  const hash = t.KeySchema.find((k) => k.KeyType === 'HASH')!.AttributeName;
  const range = t.KeySchema.find((k) => k.KeyType === 'RANGE')?.AttributeName;
  const pk = item[hash], sk = range ? item[range] : undefined;
  const pkPrefix = pk && 'S' in pk ? prefixOf(pk.S) : null;
  if (sk && 'S' in sk) {
    const skPrefix = prefixOf(sk.S);
    if (skPrefix && !(pk && 'S' in pk && sk.S === pk.S)) return skPrefix;
    if (pkPrefix) return pkPrefix;
    return sk.S.length <= 24 ? sk.S : 'item';
  }
  return pkPrefix ?? 'item';
}

// One colour per entity, fixed for the session in first-seen order: the same entity has the same
// colour in every view.
const PALETTE = ['#2f6fde', '#d9480f', '#2b8a3e', '#9c36b5', '#c2255c', '#0b7285', '#e67700', '#5f3dc4', '#5c940d', '#862e9c', '#364fc7', '#a61e4d'];
const assigned = new Map<string, string>();

export function colourOf(entity: string): string {
  let c = assigned.get(entity);
  if (!c) {
    c = PALETTE[assigned.size % PALETTE.length];
    assigned.set(entity, c);
  }
  return c;
}
