// Collection lens: one partition (an item collection) of the table or of an index, its items in
// sort-key order grouped and coloured by entity, and beside it every other view (base table, each
// GSI and LSI) showing where the same items land under that view's keys, and which items are
// absent from it (sparse indexes).
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { call } from '../api';
import { colourOf, entityOf, loadedModel } from '../entity';
import type { ConsumedCapacity, Item, KeyView, TableDescription } from '../types';
import { attributeType, compareKeys, keyId, keyOf, keyText, missingKeys, scalar, show, viewsOf } from '../values';
import { ErrorBox, useShared } from '../ui';

const viewLabel = (v: KeyView) => (v.kind === 'table' ? 'Base table' : v.name);
const viewId = (v: KeyView) => (v.kind === 'table' ? '' : v.name);

// Items of a partition the collection lands in; `more`: only its first page (1 MB) was counted.
interface Totals {
  count: number;
  more: boolean;
}

interface Placed {
  item: Item;
  entity: string;
}

async function queryPartition(t: TableDescription, view: KeyView, value: string) {
  const items: Item[] = [];
  let capacity = 0;
  let start: Item | undefined;
  do {
    const out = await call<{ Items: Item[]; LastEvaluatedKey?: Item; ConsumedCapacity?: ConsumedCapacity }>('Query', {
      TableName: t.TableName,
      ...(view.kind === 'table' ? {} : { IndexName: view.name }),
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': view.hash },
      ExpressionAttributeValues: { ':pk': scalar(attributeType(t, view.hash), value) },
      ReturnConsumedCapacity: 'TOTAL',
      ...(start ? { ExclusiveStartKey: start } : {}),
    });
    items.push(...out.Items);
    capacity += out.ConsumedCapacity?.CapacityUnits ?? 0;
    start = out.LastEvaluatedKey;
  } while (start && items.length < 2000);
  return { items, capacity, truncated: !!start };
}

// Full items for index entries that carry only some attributes (KEYS_ONLY / INCLUDE).
async function fullItems(t: TableDescription, entries: Item[]): Promise<Item[]> {
  const byId = new Map<string, Item>();
  for (let i = 0; i < entries.length; i += 100) {
    let keys = entries.slice(i, i + 100).map((e) => keyOf(t, e));
    for (let attempt = 0; keys.length && attempt < 8; attempt++) {
      const out = await call<{ Responses: Record<string, Item[]>; UnprocessedKeys?: Record<string, { Keys: Item[] }> }>('BatchGetItem', {
        RequestItems: { [t.TableName]: { Keys: keys } },
      });
      for (const it of out.Responses[t.TableName] ?? []) byId.set(keyId(t, it), it);
      keys = out.UnprocessedKeys?.[t.TableName]?.Keys ?? [];
    }
  }
  return entries.map((e) => byId.get(keyId(t, e)) ?? e);
}

function Card(props: { t: TableDescription; view: KeyView; p: Placed; hl: string; setHl: (id: string) => void; absent?: string[] }) {
  const { t, view, p } = props;
  const { openItem } = useShared();
  const id = keyId(t, p.item);
  const base = viewsOf(t)[0];
  const colour = colourOf(p.entity);
  const keyNames = new Set([base.hash, base.range, view.hash, view.range]);
  const attrs = Object.entries(p.item)
    .filter(([k]) => !keyNames.has(k))
    .slice(0, 4)
    .map(([k, v]) => `${k}=${show(v, 24)}`)
    .join('  ');
  const main = view.range ? p.item[view.range] : p.item[view.hash];
  return (
    <div
      class={`card${props.hl === id ? ' hl' : ''}${props.absent ? ' absent' : ''}`}
      style={{ borderLeftColor: colour }}
      data-entity={p.entity}
      data-key={id}
      onMouseEnter={() => props.setHl(id)}
      onMouseLeave={() => props.setHl('')}
      onClick={() => openItem(t, p.item)}
      title="open in the item editor"
    >
      <div class="row" style={{ gap: '6px', flexWrap: 'nowrap' }}>
        <span class="ent" style={{ background: colour }}>
          {p.entity}
        </span>
        <span class="k">{props.absent ? show(p.item[base.range ?? base.hash]) : show(main, 60)}</span>
      </div>
      {view.kind !== 'table' && !props.absent && (
        <div class="a mono">
          {base.hash}={show(p.item[base.hash], 30)}
          {base.range ? `  ${base.range}=${show(p.item[base.range], 30)}` : ''}
        </div>
      )}
      {props.absent && <div class="a">missing {props.absent.join(' and ')}</div>}
      {!props.absent && attrs && <div class="a">{attrs}</div>}
    </div>
  );
}

function Lane(props: {
  t: TableDescription;
  view: KeyView;
  items: Placed[];
  source: boolean;
  hl: string;
  setHl: (id: string) => void;
  totals: Record<string, Totals>;
}) {
  const { t, view } = props;
  const present: Placed[] = [];
  const absent: { p: Placed; missing: string[] }[] = [];
  for (const p of props.items) {
    const missing = missingKeys(t, view, p.item);
    if (missing.length) absent.push({ p, missing });
    else present.push(p);
  }
  // Partitions of this view, each in sort-key order (ties: base key order).
  const groups = new Map<string, Placed[]>();
  for (const p of present) {
    const k = JSON.stringify(p.item[view.hash]);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push(p);
  }
  const base = viewsOf(t)[0];
  const order = (a: Placed, b: Placed) =>
    (view.range ? compareKeys(a.item[view.range], b.item[view.range]) : 0) ||
    compareKeys(a.item[base.hash], b.item[base.hash]) ||
    (base.range ? compareKeys(a.item[base.range], b.item[base.range]) : 0);
  const sorted = [...groups.entries()].sort((a, b) => compareKeys(a[1][0].item[view.hash], b[1][0].item[view.hash]));
  return (
    <section class="lane" data-testid={`lane-${viewId(view) || 'table'}`}>
      <header>
        <div>
          <span class="kind">{view.kind === 'table' ? 'TABLE' : view.kind}</span>
          <b>{viewLabel(view)}</b>
          {props.source && <span class="pill key" style={{ marginLeft: '6px' }}>collection</span>}
        </div>
        <div class="keys">
          {view.hash}
          {view.range ? ` · ${view.range}` : ''}
          {view.kind !== 'table' && ` · ${view.projection.ProjectionType ?? 'ALL'}`}
        </div>
        <div class="muted" style={{ fontSize: '12px' }}>
          {present.length} of {props.items.length} items in {groups.size} partition{groups.size === 1 ? '' : 's'}
          {absent.length > 0 && `, ${absent.length} absent`}
        </div>
      </header>
      {sorted.map(([k, ps]) => {
        ps.sort(order);
        const total = props.totals[`${viewId(view)}|${k}`];
        let last = '';
        return (
          <div data-partition={keyText(ps[0].item[view.hash])}>
            <div class="part">
              {view.hash} = <b>{show(ps[0].item[view.hash], 60)}</b>
              {total && (total.count > ps.length || total.more) && (
                <span title="items of this partition outside the collection">
                  {' '}
                  · +{total.count - ps.length}
                  {total.more ? ' or more' : ''} other
                </span>
              )}
            </div>
            {ps.map((p) => {
              const run = p.entity !== last;
              last = p.entity;
              const count = run ? ps.slice(ps.indexOf(p)).findIndex((x) => x.entity !== p.entity) : 0;
              return (
                <>
                  {run && (
                    <div class="grp">
                      {p.entity} × {count < 0 ? ps.length - ps.indexOf(p) : count}
                    </div>
                  )}
                  <Card t={t} view={view} p={p} hl={props.hl} setHl={props.setHl} />
                </>
              );
            })}
          </div>
        );
      })}
      {absent.length > 0 && (
        <div data-testid="absent">
          <div class="part">
            absent from {viewLabel(view)} (sparse): <b>{absent.length}</b>
          </div>
          {absent.map(({ p, missing }) => (
            <Card t={t} view={view} p={p} hl={props.hl} setHl={props.setHl} absent={missing} />
          ))}
        </div>
      )}
      {props.items.length === 0 && <p class="muted" style={{ padding: '0 10px' }}>no items</p>}
    </section>
  );
}

export function LensView(props: { table: TableDescription; params: URLSearchParams }) {
  const t = props.table;
  const views = viewsOf(t);
  const { version } = useShared();
  const [source, setSource] = useState(props.params.get('view') ?? '');
  const [value, setValue] = useState(props.params.get('pk') ?? '');
  const [input, setInput] = useState(props.params.get('pk') ?? '');
  const [items, setItems] = useState<Item[] | null>(null);
  const [info, setInfo] = useState<{ capacity: number; truncated: boolean } | null>(null);
  const [totals, setTotals] = useState<Record<string, Totals>>({});
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [hl, setHl] = useState('');
  const typed = useRef(input);
  typed.current = input;
  const sourceView = views.find((v) => viewId(v) === source) ?? views[0];

  // Partition key values to pick from: a sample of the view's partitions.
  useEffect(() => {
    call<{ Items: Item[] }>('Scan', {
      TableName: t.TableName,
      ...(sourceView.kind === 'table' ? {} : { IndexName: sourceView.name }),
      ProjectionExpression: '#pk',
      ExpressionAttributeNames: { '#pk': sourceView.hash },
      Limit: 1000,
    })
      .then((out) => {
        const seen = [...new Set(out.Items.map((i) => keyText(i[sourceView.hash])))].sort((a, b) =>
          attributeType(t, sourceView.hash) === 'N' ? Number(a) - Number(b) : a < b ? -1 : a > b ? 1 : 0,
        );
        setSuggestions(seen);
        // Show the first partition unless the user already picked or typed one.
        if (!typed.current && seen.length) {
          setInput(seen[0]);
          setValue(seen[0]);
        }
      })
      .catch(setError);
  }, [t.TableName, source, version]);

  useEffect(() => {
    if (!value) return;
    const hash = `#/lens/${encodeURIComponent(t.TableName)}?${new URLSearchParams({ ...(source ? { view: source } : {}), pk: value })}`;
    if (location.hash !== hash) history.replaceState(null, '', hash);
    let live = true;
    (async () => {
      try {
        const q = await queryPartition(t, sourceView, value);
        const full = sourceView.kind === 'table' || sourceView.projection.ProjectionType === 'ALL' ? q.items : await fullItems(t, q.items);
        if (!live) return;
        setItems(full);
        setInfo({ capacity: q.capacity, truncated: q.truncated });
        setError(null);
        // How many items each partition the collection lands in holds in all (first 24 partitions).
        const wanted: [KeyView, Item[string]][] = [];
        const seen = new Set<string>();
        for (const v of views) {
          if (v === sourceView) continue;
          for (const it of full) {
            if (missingKeys(t, v, it).length) continue;
            const k = `${viewId(v)}|${JSON.stringify(it[v.hash])}`;
            if (!seen.has(k) && wanted.length < 24) {
              seen.add(k);
              wanted.push([v, it[v.hash]]);
            }
          }
        }
        const counts: Record<string, Totals> = {};
        await Promise.all(
          wanted.map(async ([v, pk]) => {
            const out = await call<{ Count: number; LastEvaluatedKey?: Item }>('Query', {
              TableName: t.TableName,
              ...(v.kind === 'table' ? {} : { IndexName: v.name }),
              KeyConditionExpression: '#pk = :pk',
              ExpressionAttributeNames: { '#pk': v.hash },
              ExpressionAttributeValues: { ':pk': pk },
              Select: 'COUNT',
            });
            // One page (1 MB) of the partition counted: more pages make the count a lower bound.
            counts[`${viewId(v)}|${JSON.stringify(pk)}`] = { count: out.Count, more: !!out.LastEvaluatedKey };
          }),
        );
        if (live) setTotals(counts);
      } catch (e) {
        if (live) setError(e);
      }
    })();
    return () => {
      live = false;
    };
  }, [t, source, value, version]);

  const placed = useMemo(() => (items ?? []).map((item) => ({ item, entity: entityOf(t, item) })), [items, t, loadedModel()]);
  const entities = useMemo(() => {
    const m = new Map<string, number>();
    for (const p of placed) m.set(p.entity, (m.get(p.entity) ?? 0) + 1);
    return [...m];
  }, [placed]);
  const others = [sourceView, ...views.filter((v) => v !== sourceView)];

  return (
    <div>
      <div class="panel">
        <div class="row">
          <h2 style={{ margin: 0 }}>Collection lens</h2>
          <label>
            Collection of
            <select
              data-testid="lens-source"
              value={source}
              onChange={(e) => {
                setSource((e.target as HTMLSelectElement).value);
                setValue('');
                setInput('');
                setItems(null);
              }}
            >
              {views.map((v) => (
                <option value={viewId(v)}>
                  {viewLabel(v)} ({v.hash})
                </option>
              ))}
            </select>
          </label>
          <form
            class="row"
            onSubmit={(e) => {
              e.preventDefault();
              setValue(input);
            }}
          >
            <label>
              {sourceView.hash} =
              <input data-testid="lens-pk" list="lens-pks" size={28} value={input} onInput={(e) => setInput((e.target as HTMLInputElement).value)} />
            </label>
            <datalist id="lens-pks">
              {suggestions.map((s) => (
                <option value={s} />
              ))}
            </datalist>
            <button class="primary" data-testid="lens-show" type="submit">
              Show
            </button>
          </form>
          <span class="grow" />
          {info && (
            <span class="muted" data-testid="lens-info">
              {items?.length} items · {info.capacity} RCU{info.truncated ? ' · first 2000 only' : ''}
            </span>
          )}
        </div>
        {suggestions.length > 0 && (
          <div class="row" style={{ marginTop: '8px', gap: '4px' }}>
            <span class="muted" style={{ fontSize: '12px' }}>
              partitions:
            </span>
            {suggestions.slice(0, 16).map((s) => (
              <button
                class={s === value ? 'primary' : ''}
                style={{ padding: '0 7px', fontSize: '12px' }}
                onClick={() => {
                  setInput(s);
                  setValue(s);
                }}
              >
                {s}
              </button>
            ))}
            {suggestions.length > 16 && <span class="muted">+{suggestions.length - 16}</span>}
          </div>
        )}
        {entities.length > 0 && (
          <div class="legend" style={{ marginTop: '8px' }} data-testid="legend">
            <span class="muted" style={{ fontSize: '12px' }}>
              entities ({loadedModel() ? `by the model ${loadedModel()!.model.name ?? loadedModel()!.file}, else key prefixes` : 'from key prefixes'}):
            </span>
            {entities.map(([e, n]) => (
              <span>
                <span class="ent" style={{ background: colourOf(e) }}>
                  {e}
                </span>{' '}
                <span class="muted">{n}</span>
              </span>
            ))}
          </div>
        )}
        <ErrorBox error={error} />
      </div>
      {items && (
        <div class="lens" data-testid="lens">
          {others.map((v) => (
            <Lane t={t} view={v} items={placed} source={v === sourceView} hl={hl} setHl={setHl} totals={totals} />
          ))}
        </div>
      )}
      {!items && !error && <p class="muted">Pick a partition key value to see its item collection.</p>}
    </div>
  );
}
