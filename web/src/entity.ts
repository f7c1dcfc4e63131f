// Entity types of a single-table design, inferred from the items themselves (no model file yet):
// an explicit entity attribute when the item has one, else the prefix of its sort key
// (`ORDER#2024-01-15` -> ORDER), and for a root item whose sort key has no prefix
// (`PROFILE`, `METADATA`, or SK = PK) the prefix of its partition key (`USER#u1` -> USER).
import type { Item, TableDescription } from './types';

const ENTITY_ATTRIBUTES = ['_et', 'entity', 'Entity', 'entityType', 'EntityType', '_type', '__typename'];

export function prefixOf(s: string): string | null {
  const m = /^([A-Za-z][A-Za-z0-9_-]*)[#|]/.exec(s);
  return m ? m[1] : null;
}

export function entityOf(t: TableDescription, item: Item): string {
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
