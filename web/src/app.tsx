// The console's shell: top bar (table picker, signing key), tabs, hash routes, shared state.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { call, DynamoError, loadCredentials, saveCredentials } from './api';
import type { Item, TableDescription } from './types';
import { ErrorBox, Modal, SharedContext } from './ui';
import { TablesView } from './views/tables';
import { LensView } from './views/lens';
import { QueryView } from './views/query';
import { ItemEditor } from './views/editor';
import { TransferView } from './views/transfer';
import { StreamView } from './views/stream';
import { PartiqlView } from './views/partiql';
import { HeatView } from './views/heat';
import { ModelView } from './views/model';
import { TriggersView } from './views/triggers';

interface Route {
  page: string;
  table: string;
  params: URLSearchParams;
}

function parseRoute(): Route {
  const h = location.hash.replace(/^#\/?/, '');
  const [path, query] = h.split('?');
  const [page, table] = path.split('/');
  return { page: page || 'tables', table: decodeURIComponent(table ?? ''), params: new URLSearchParams(query ?? '') };
}

const TABLE_PAGES = [
  { id: 'lens', label: 'Collection lens' },
  { id: 'model', label: 'Model' },
  { id: 'query', label: 'Query & Scan' },
  { id: 'transfer', label: 'Import / Export' },
  { id: 'stream', label: 'Stream' },
  { id: 'heat', label: 'Heat' },
];

export async function listAllTables(): Promise<TableDescription[]> {
  const names: string[] = [];
  let start: string | undefined;
  do {
    const out = await call<{ TableNames: string[]; LastEvaluatedTableName?: string }>('ListTables', start ? { ExclusiveStartTableName: start } : {});
    names.push(...out.TableNames);
    start = out.LastEvaluatedTableName;
  } while (start);
  return Promise.all(
    names.map(async (n) => {
      const [d, ttl] = await Promise.all([
        call<{ Table: TableDescription }>('DescribeTable', { TableName: n }),
        call<{ TimeToLiveDescription?: { TimeToLiveStatus: string; AttributeName?: string } }>('DescribeTimeToLive', { TableName: n }).catch(() => null),
      ]);
      const t = ttl?.TimeToLiveDescription;
      return { ...d.Table, ttl: t?.TimeToLiveStatus === 'ENABLED' ? t.AttributeName : undefined };
    }),
  );
}

export function App() {
  const [route, setRoute] = useState(parseRoute);
  const [tables, setTables] = useState<TableDescription[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [askKey, setAskKey] = useState(false);
  const [editing, setEditing] = useState<{ table: TableDescription; item: Item | null } | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    const on = () => setRoute(parseRoute());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);

  const refreshTables = useCallback(async () => {
    try {
      setTables(await listAllTables());
      setError(null);
    } catch (e) {
      setError(e);
      if (e instanceof DynamoError && e.isAuth) setAskKey(true);
    }
  }, []);
  useEffect(() => {
    refreshTables();
  }, [version]);

  const bump = useCallback(() => setVersion((v) => v + 1), []);
  const shared = { tables, refreshTables, openItem: (table: TableDescription, item: Item | null) => setEditing({ table, item }), version, bump };
  const table = tables.find((t) => t.TableName === route.table);
  const currentTable = route.table || (tables[0]?.TableName ?? '');
  const creds = loadCredentials();

  let page;
  if (route.page === 'partiql') page = <PartiqlView />;
  else if (route.page === 'triggers') page = <TriggersView />;
  else if (route.page === 'tables' || !TABLE_PAGES.some((p) => p.id === route.page)) page = <TablesView />;
  else if (!table) page = <div class="panel muted">{tables.length ? `No table named "${route.table}".` : 'Loading tables…'}</div>;
  else if (route.page === 'lens') page = <LensView key={table.TableName} table={table} params={route.params} />;
  else if (route.page === 'query') page = <QueryView key={table.TableName} table={table} params={route.params} />;
  else if (route.page === 'transfer') page = <TransferView key={table.TableName} table={table} />;
  else if (route.page === 'model') page = <ModelView key={table.TableName} table={table} />;
  else if (route.page === 'heat') page = <HeatView key={table.TableName} table={table} />;
  else page = <StreamView key={table.TableName} table={table} />;

  return (
    <SharedContext.Provider value={shared}>
      <header class="top">
        <span class="brand">
          monotable<small>console</small>
        </span>
        <label style={{ color: '#aab3c5', flexDirection: 'row', alignItems: 'center', gap: '6px' }}>
          table
          <select
            data-testid="table-picker"
            value={currentTable}
            onChange={(e) => {
              const name = (e.target as HTMLSelectElement).value;
              const p = TABLE_PAGES.some((x) => x.id === route.page) ? route.page : 'lens';
              location.hash = `#/${p}/${encodeURIComponent(name)}`;
            }}
          >
            {tables.length === 0 && <option value="">(no tables)</option>}
            {tables.map((t) => (
              <option value={t.TableName}>{t.TableName}</option>
            ))}
          </select>
        </label>
        <span class="spacer" />
        <span class="muted" style={{ color: '#aab3c5' }}>
          {location.host}
        </span>
        <button onClick={() => setAskKey(true)} title="SigV4 signing key, kept in this browser tab's session only">
          {creds ? `signing as ${creds.accessKeyId}` : 'unsigned'}
        </button>
      </header>
      <nav class="tabs">
        <a href="#/tables" class={route.page === 'tables' ? 'on' : ''}>
          Tables
        </a>
        {TABLE_PAGES.map((p) => (
          <a href={`#/${p.id}/${encodeURIComponent(currentTable)}`} class={(route.page === p.id ? 'on' : '') + (currentTable ? '' : ' off')}>
            {p.label}
          </a>
        ))}
        <a href="#/partiql" class={route.page === 'partiql' ? 'on' : ''}>
          PartiQL
        </a>
        <a href="#/triggers" class={route.page === 'triggers' ? 'on' : ''}>
          Triggers
        </a>
      </nav>
      <main>
        <ErrorBox error={error} />
        {page}
      </main>
      {editing && <ItemEditor table={editing.table} item={editing.item} onClose={() => setEditing(null)} />}
      {askKey && (
        <KeyDialog
          onClose={() => {
            setAskKey(false);
            refreshTables();
          }}
        />
      )}
    </SharedContext.Provider>
  );
}

function KeyDialog(props: { onClose: () => void }) {
  const c = loadCredentials();
  const [id, setId] = useState(c?.accessKeyId ?? '');
  const [secret, setSecret] = useState(c?.secretAccessKey ?? '');
  const [token, setToken] = useState(c?.sessionToken ?? '');
  const [region, setRegion] = useState(c?.region ?? 'us-east-1');
  return (
    <Modal title="Signing key" onClose={props.onClose}>
      <p class="muted">
        When the server checks signatures (<code>--credentials</code>), the console signs every request with SigV4 using this key. It is
        kept in this tab's sessionStorage only and is gone when the tab closes.
      </p>
      <div class="row">
        <label>
          Access key id
          <input value={id} onInput={(e) => setId((e.target as HTMLInputElement).value)} />
        </label>
        <label>
          Secret access key
          <input type="password" value={secret} onInput={(e) => setSecret((e.target as HTMLInputElement).value)} />
        </label>
        <label>
          Session token (optional)
          <input value={token} onInput={(e) => setToken((e.target as HTMLInputElement).value)} />
        </label>
        <label>
          Region
          <input value={region} size={12} onInput={(e) => setRegion((e.target as HTMLInputElement).value)} />
        </label>
      </div>
      <div class="row">
        <button
          class="primary"
          disabled={!id || !secret}
          onClick={() => {
            saveCredentials({ accessKeyId: id.trim(), secretAccessKey: secret.trim(), sessionToken: token.trim() || undefined, region: region.trim() });
            props.onClose();
          }}
        >
          Use this key
        </button>
        <button
          onClick={() => {
            saveCredentials(null);
            props.onClose();
          }}
        >
          Send unsigned
        </button>
      </div>
    </Modal>
  );
}
