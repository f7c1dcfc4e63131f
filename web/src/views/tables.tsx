// Tables: every table with its key schema, indexes, item count and size; create, delete,
// DescribeTable as JSON.
import { useState } from 'preact/hooks';
import { call } from '../api';
import type { IndexDescription, TableDescription } from '../types';
import { formatBytes } from '../values';
import { ErrorBox, Modal, useShared } from '../ui';
import { CreateTable } from './create-table';

function keyText(t: TableDescription, ks: { AttributeName: string; KeyType: string }[]) {
  return ks.map((k) => {
    const type = t.AttributeDefinitions.find((d) => d.AttributeName === k.AttributeName)?.AttributeType;
    return (
      <span class="pill key" title={k.KeyType === 'HASH' ? 'partition key' : 'sort key'}>
        {k.AttributeName} <span class="muted">{k.KeyType === 'HASH' ? 'PK' : 'SK'} {type}</span>
      </span>
    );
  });
}

function indexText(t: TableDescription, kind: string, ix: IndexDescription) {
  const p = ix.Projection.ProjectionType ?? 'ALL';
  return (
    <div>
      <b>{ix.IndexName}</b> <span class="muted">{kind}</span> {keyText(t, ix.KeySchema)}
      <span class="pill" title={ix.Projection.NonKeyAttributes?.join(', ')}>
        {p}
        {p === 'INCLUDE' ? ` ${ix.Projection.NonKeyAttributes?.length ?? 0}` : ''}
      </span>
      {ix.ItemCount !== undefined && <span class="muted"> {ix.ItemCount} items</span>}
    </div>
  );
}

export function TablesView() {
  const { tables, refreshTables, bump } = useShared();
  const [creating, setCreating] = useState(false);
  const [described, setDescribed] = useState<object | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function describe(name: string) {
    try {
      const out = await call('DescribeTable', { TableName: name });
      const ttl = await call('DescribeTimeToLive', { TableName: name }).catch(() => null);
      setDescribed(ttl ? { ...out, TimeToLiveDescription: ttl.TimeToLiveDescription } : out);
    } catch (e) {
      setError(e);
    }
  }

  async function remove(name: string) {
    if (!confirm(`Delete table ${name} and all its items?`)) return;
    try {
      await call('DeleteTable', { TableName: name });
      bump();
    } catch (e) {
      setError(e);
    }
  }

  return (
    <div>
      <div class="panel">
        <div class="row" style={{ marginBottom: '10px' }}>
          <h2 style={{ margin: 0 }}>Tables</h2>
          <span class="muted">{tables.length}</span>
          <span class="grow" />
          <button onClick={() => refreshTables()}>Refresh</button>
          <button class="primary" data-testid="create-table" onClick={() => setCreating(true)}>
            Create table
          </button>
        </div>
        <ErrorBox error={error} />
        {tables.length === 0 ? (
          <p class="muted">No tables yet. Create one, or import a file into a new table from Import / Export.</p>
        ) : (
          <table class="grid" data-testid="tables">
            <thead>
              <tr>
                <th>Name</th>
                <th>Keys</th>
                <th>Indexes</th>
                <th>Items</th>
                <th>Size</th>
                <th>Capacity</th>
                <th>Stream / TTL</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {tables.map((t) => (
                <tr data-table={t.TableName}>
                  <td>
                    <a href={`#/lens/${encodeURIComponent(t.TableName)}`}>
                      <b>{t.TableName}</b>
                    </a>
                    {t.TableStatus !== 'ACTIVE' && <div class="muted">{t.TableStatus}</div>}
                  </td>
                  <td>{keyText(t, t.KeySchema)}</td>
                  <td>
                    {(t.GlobalSecondaryIndexes ?? []).map((g) => indexText(t, 'GSI', g))}
                    {(t.LocalSecondaryIndexes ?? []).map((l) => indexText(t, 'LSI', l))}
                    {!t.GlobalSecondaryIndexes?.length && !t.LocalSecondaryIndexes?.length && <span class="muted">none</span>}
                  </td>
                  <td class="mono">{t.ItemCount ?? '–'}</td>
                  <td class="mono">{formatBytes(t.TableSizeBytes)}</td>
                  <td>
                    {t.BillingModeSummary?.BillingMode === 'PAY_PER_REQUEST'
                      ? 'on demand'
                      : `${t.ProvisionedThroughput?.ReadCapacityUnits ?? 0} RCU / ${t.ProvisionedThroughput?.WriteCapacityUnits ?? 0} WCU`}
                  </td>
                  <td>
                    {t.StreamSpecification?.StreamEnabled ? t.StreamSpecification.StreamViewType : <span class="muted">no stream</span>}
                    <div class={t.ttl ? '' : 'muted'}>{t.ttl ? `TTL on ${t.ttl}` : 'no TTL'}</div>
                  </td>
                  <td style={{ whiteSpace: 'nowrap' }}>
                    <a href={`#/query/${encodeURIComponent(t.TableName)}`}>query</a>{' '}
                    <button class="link" onClick={() => describe(t.TableName)}>
                      JSON
                    </button>{' '}
                    <button class="link" style={{ color: 'var(--bad)' }} onClick={() => remove(t.TableName)}>
                      delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {creating && (
        <CreateTable
          onClose={(created) => {
            setCreating(false);
            if (created) bump();
          }}
        />
      )}
      {described && (
        <Modal title="DescribeTable" onClose={() => setDescribed(null)} testid="describe">
          <pre class="code">{JSON.stringify(described, null, 2)}</pre>
        </Modal>
      )}
    </div>
  );
}
