// Streams tail: the table's stream records as they arrive (GetRecords on every shard, polled).
import { useEffect, useRef, useState } from 'preact/hooks';
import { streams } from '../api';
import type { Item, TableDescription } from '../types';
import { show } from '../values';
import { ErrorBox } from '../ui';

interface StreamRecord {
  eventID: string;
  eventName: string;
  dynamodb: { Keys: Item; NewImage?: Item; OldImage?: Item; SequenceNumber: string; ApproximateCreationDateTime?: number };
  userIdentity?: { Type: string; PrincipalId: string };
}

export function StreamView(props: { table: TableDescription }) {
  const t = props.table;
  const [records, setRecords] = useState<StreamRecord[]>([]);
  const [running, setRunning] = useState(false);
  const [from, setFrom] = useState<'LATEST' | 'TRIM_HORIZON'>('TRIM_HORIZON');
  const [error, setError] = useState<unknown>(null);
  const stop = useRef(false);

  useEffect(() => () => void (stop.current = true), []);

  async function tail() {
    if (!t.LatestStreamArn) return;
    stop.current = false;
    setRunning(true);
    setRecords([]);
    setError(null);
    try {
      const iterators = new Map<string, string>();
      while (!stop.current) {
        const d = await streams('DescribeStream', { StreamArn: t.LatestStreamArn });
        for (const s of d.StreamDescription.Shards as { ShardId: string }[]) {
          if (iterators.has(s.ShardId)) continue;
          const it = await streams('GetShardIterator', { StreamArn: t.LatestStreamArn, ShardId: s.ShardId, ShardIteratorType: from });
          iterators.set(s.ShardId, it.ShardIterator);
        }
        for (const [shard, iterator] of iterators) {
          if (!iterator) continue;
          const out = await streams('GetRecords', { ShardIterator: iterator, Limit: 1000 });
          iterators.set(shard, out.NextShardIterator ?? '');
          if (out.Records.length) setRecords((r) => [...out.Records.slice().reverse(), ...r].slice(0, 500));
        }
        await new Promise((ok) => setTimeout(ok, 1000));
      }
    } catch (e) {
      setError(e);
    } finally {
      setRunning(false);
    }
  }

  if (!t.StreamSpecification?.StreamEnabled || !t.LatestStreamArn) {
    return <div class="panel muted">The table {t.TableName} has no stream. Create a table with a stream view type to tail its changes.</div>;
  }
  return (
    <div class="panel">
      <div class="row" style={{ marginBottom: '10px' }}>
        <h2 style={{ margin: 0 }}>Stream of {t.TableName}</h2>
        <span class="pill">{t.StreamSpecification.StreamViewType}</span>
        <label>
          From
          <select value={from} disabled={running} onChange={(e) => setFrom((e.target as HTMLSelectElement).value as any)}>
            <option value="TRIM_HORIZON">the oldest record kept (24 h)</option>
            <option value="LATEST">now on</option>
          </select>
        </label>
        {running ? (
          <button onClick={() => (stop.current = true)}>Stop</button>
        ) : (
          <button class="primary" data-testid="tail" onClick={tail}>
            Tail
          </button>
        )}
        {running && <span class="muted">polling every second…</span>}
      </div>
      <ErrorBox error={error} />
      <div style={{ overflowX: 'auto' }}>
      <table class="grid">
        <thead>
          <tr>
            <th>Event</th>
            <th>Keys</th>
            <th>New image</th>
            <th>Old image</th>
            <th>By</th>
          </tr>
        </thead>
        <tbody>
          {records.map((r) => (
            <tr data-testid="record">
              <td>
                <b class={r.eventName === 'REMOVE' ? '' : 'ok'}>{r.eventName}</b>
                <div class="muted mono" style={{ fontSize: '11px' }}>
                  {r.dynamodb.SequenceNumber}
                </div>
              </td>
              <td class="mono">{Object.entries(r.dynamodb.Keys).map(([k, v]) => `${k}=${show(v, 40)} `)}</td>
              <td class="mono clip" title={r.dynamodb.NewImage ? show({ M: r.dynamodb.NewImage }, 4000) : ''}>
                {r.dynamodb.NewImage ? show({ M: r.dynamodb.NewImage }, 400) : ''}
              </td>
              <td class="mono clip" title={r.dynamodb.OldImage ? show({ M: r.dynamodb.OldImage }, 4000) : ''}>
                {r.dynamodb.OldImage ? show({ M: r.dynamodb.OldImage }, 400) : ''}
              </td>
              <td class="muted">{r.userIdentity ? 'TTL' : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
      {!records.length && <p class="muted">{running ? 'No records yet.' : 'Press Tail to follow the stream.'}</p>}
    </div>
  );
}
