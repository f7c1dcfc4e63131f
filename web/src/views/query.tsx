// Query and Scan builder on the table or any index: key condition (every operator), filters,
// projection, direction, limit, consistent read; the request as code in six languages; runs it
// page by page with Count, ScannedCount and consumed capacity.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { call, endpoint } from '../api';
import { generate, LANGUAGES } from '../codegen';
import type { Language } from '../codegen';
import { hasConditions, newGroup } from '../condition';
import type { FilterGroup } from '../condition';
import { KEY_OPS } from '../expr';
import type { KeyOp } from '../expr';
import { buildRequest } from '../query-build';
import type { ConsumedCapacity, Item, TableDescription } from '../types';
import { attributeType, viewsOf } from '../values';
import { ErrorBox, useShared } from '../ui';
import { FilterTree } from './filter-tree';
import { ItemsTable } from './items-table';

interface Page {
  items: Item[];
  count: number;
  scanned: number;
  capacity?: ConsumedCapacity;
  last?: Item;
}

const val = (e: Event) => (e.target as HTMLInputElement).value;

export function QueryView(props: { table: TableDescription; params: URLSearchParams }) {
  const t = props.table;
  const views = viewsOf(t);
  const { version } = useShared();
  const [index, setIndex] = useState(props.params.get('index') ?? '');
  const [mode, setMode] = useState<'Query' | 'Scan'>('Query');
  const [pk, setPk] = useState(props.params.get('pk') ?? '');
  const [skOp, setSkOp] = useState<KeyOp | ''>('');
  const [sk1, setSk1] = useState('');
  const [sk2, setSk2] = useState('');
  const [filter, setFilter] = useState<FilterGroup>(() => newGroup('AND'));
  const [projection, setProjection] = useState('');
  const [count, setCount] = useState(false);
  const [forward, setForward] = useState(true);
  const [limit, setLimit] = useState('');
  const [consistent, setConsistent] = useState(false);
  const [lang, setLang] = useState<Language>('boto3');
  const [pages, setPages] = useState<Page[]>([]);
  const [shown, setShown] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [ran, setRan] = useState('');  // the request (as JSON) the pages were read with
  const view = views.find((v) => (v.kind === 'table' ? '' : v.name) === index) ?? views[0];
  const isGsi = view.kind === 'GSI';

  const built = useMemo(() => {
    try {
      return { ...buildRequest(t, { mode, view, pk, skOp, sk1, sk2, filter, projection, count, forward, limit, consistent }), error: null };
    } catch (e) {
      return { request: null, partiql: '', error: e };
    }
  }, [t, view, mode, pk, skOp, sk1, sk2, filter, projection, count, forward, limit, consistent]);

  async function run(start?: Item) {
    if (!built.request) return;
    setBusy(true);
    setError(null);
    try {
      const out = await call<{ Items?: Item[]; Count: number; ScannedCount: number; ConsumedCapacity?: ConsumedCapacity; LastEvaluatedKey?: Item }>(mode, {
        ...built.request,
        ...(start ? { ExclusiveStartKey: start } : {}),
      });
      const page = { items: out.Items ?? [], count: out.Count, scanned: out.ScannedCount, capacity: out.ConsumedCapacity, last: out.LastEvaluatedKey };
      const next = start ? [...pages, page] : [page];
      if (!start) setRan(JSON.stringify(built.request));
      setPages(next);
      setShown(next.length - 1);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  // Re-run the current first page after writes elsewhere (the editor, bulk actions).
  useEffect(() => {
    if (pages.length) run();
  }, [version]);

  const page = pages[shown];
  const total = pages.reduce((s, p) => s + (p.capacity?.CapacityUnits ?? 0), 0);

  return (
    <div>
      <div class="panel" data-testid="builder">
        <div class="row">
          <h2 style={{ margin: 0 }}>Query &amp; Scan</h2>
          <div class="subtabs" style={{ margin: 0 }}>
            {(['Query', 'Scan'] as const).map((m) => (
              <button class={mode === m ? 'on' : ''} data-testid={`mode-${m}`} onClick={() => setMode(m)}>
                {m}
              </button>
            ))}
          </div>
          <label>
            On
            <select data-testid="q-index" value={index} onChange={(e) => setIndex(val(e))}>
              {views.map((v) => (
                <option value={v.kind === 'table' ? '' : v.name}>
                  {v.kind === 'table' ? `table ${t.TableName}` : `${v.kind} ${v.name}`} ({v.hash}
                  {v.range ? `, ${v.range}` : ''})
                </option>
              ))}
            </select>
          </label>
        </div>
        {mode === 'Query' && (
          <div class="row">
            <label>
              {view.hash} ({attributeType(t, view.hash)}) =
              <input data-testid="q-pk" value={pk} size={24} onInput={(e) => setPk(val(e))} />
            </label>
            {view.range && (
              <>
                <label>
                  {view.range} ({attributeType(t, view.range)})
                  <select data-testid="q-skop" value={skOp} onChange={(e) => setSkOp(val(e) as KeyOp)}>
                    <option value="">(any)</option>
                    {KEY_OPS.map((o) => (
                      <option value={o}>{o}</option>
                    ))}
                  </select>
                </label>
                {skOp && (
                  <label>
                    {skOp === 'between' ? 'from' : 'value'}
                    <input data-testid="q-sk1" value={sk1} size={20} onInput={(e) => setSk1(val(e))} />
                  </label>
                )}
                {skOp === 'between' && (
                  <label>
                    to
                    <input data-testid="q-sk2" value={sk2} size={20} onInput={(e) => setSk2(val(e))} />
                  </label>
                )}
              </>
            )}
          </div>
        )}
        <FilterTree root={filter} onChange={setFilter} />
        <div class="row">
          <label>
            Projection (comma-separated paths)
            <input data-testid="q-projection" value={projection} size={28} disabled={count} onInput={(e) => setProjection(val(e))} />
          </label>
          <label class="check" title="Select: COUNT (the items are read and paid for, not returned)">
            <input type="checkbox" data-testid="q-count" checked={count} onChange={(e) => setCount((e.target as HTMLInputElement).checked)} />
            count only
          </label>
          {mode === 'Query' && (
            <label>
              Order
              <select value={forward ? 'asc' : 'desc'} data-testid="q-order" onChange={(e) => setForward(val(e) === 'asc')}>
                <option value="asc">ascending</option>
                <option value="desc">descending</option>
              </select>
            </label>
          )}
          <label>
            Limit
            <input data-testid="q-limit" value={limit} size={5} onInput={(e) => setLimit(val(e))} />
          </label>
          <label class="check" title={isGsi ? 'GSIs are eventually consistent only' : ''}>
            <input type="checkbox" checked={consistent && !isGsi} disabled={isGsi} onChange={(e) => setConsistent((e.target as HTMLInputElement).checked)} />
            consistent read
          </label>
          <span class="grow" />
          <button class="primary" data-testid="run" disabled={!built.request || busy} onClick={() => run()}>
            Run
          </button>
        </div>
        <ErrorBox error={built.error} />
        {mode === 'Scan' && <div class="warn">A Scan reads (and pays for) every item of the {view.kind === 'table' ? 'table' : 'index'}, before any filter.</div>}
        {mode === 'Query' && hasConditions(filter) && (
          <div class="muted" style={{ fontSize: '12px', marginTop: '6px' }}>
            Filters apply after the read: the capacity counts every item the key condition matched (ScannedCount), not only those returned.
          </div>
        )}
      </div>

      {built.request && (
        <div class="panel" data-testid="code">
          <div class="subtabs">
            {LANGUAGES.map((l) => (
              <button class={lang === l.id ? 'on' : ''} data-testid={`lang-${l.id}`} onClick={() => setLang(l.id)}>
                {l.label}
              </button>
            ))}
            <span class="grow" />
            <button onClick={() => navigator.clipboard?.writeText(generate(lang, mode, built.request!, endpoint(), built.partiql))}>Copy</button>
          </div>
          <pre class="code" data-testid="code-text">
            {generate(lang, mode, built.request, endpoint(), built.partiql)}
          </pre>
        </div>
      )}

      <ErrorBox error={error} />
      {page && (
        <div class="panel" data-testid="results">
          <div class="row" style={{ marginBottom: '10px' }}>
            <div class="stats">
              <div class="stat" data-testid="stat-count">
                <b>{page.count}</b>
                <span>Count (returned)</span>
              </div>
              <div class="stat" data-testid="stat-scanned">
                <b>{page.scanned}</b>
                <span>ScannedCount (read)</span>
              </div>
              <div class="stat" data-testid="stat-capacity">
                <b>{page.capacity?.CapacityUnits ?? 0}</b>
                <span>
                  RCU this page
                  {page.capacity?.Table?.CapacityUnits !== undefined && ` · table ${page.capacity.Table.CapacityUnits}`}
                  {Object.entries({ ...page.capacity?.GlobalSecondaryIndexes, ...page.capacity?.LocalSecondaryIndexes }).map(
                    ([k, v]) => ` · ${k} ${v.CapacityUnits}`,
                  )}
                </span>
              </div>
              <div class="stat">
                <b>{total}</b>
                <span>RCU over {pages.length} page{pages.length === 1 ? '' : 's'}</span>
              </div>
            </div>
            <span class="grow" />
            <div class="subtabs" style={{ margin: 0 }} data-testid="pages">
              {pages.map((_, i) => (
                <button class={i === shown ? 'on' : ''} onClick={() => setShown(i)}>
                  page {i + 1}
                </button>
              ))}
            </div>
            <button data-testid="next-page" disabled={!pages[pages.length - 1]?.last || busy} onClick={() => run(pages[pages.length - 1].last)}>
              {pages[pages.length - 1]?.last ? 'Next page' : 'No more pages'}
            </button>
          </div>
          {ran !== JSON.stringify(built.request) && (
            <div class="warn" data-testid="stale">
              The request changed since these pages were read: Run reads them again.
            </div>
          )}
          {page.last && (
            <div class="muted mono" style={{ fontSize: '12px', marginBottom: '6px' }}>
              LastEvaluatedKey {JSON.stringify(page.last)}
            </div>
          )}
          <ItemsTable t={t} items={page.items} keyNames={[view.hash, ...(view.range ? [view.range] : [])]} />
        </div>
      )}
    </div>
  );
}
