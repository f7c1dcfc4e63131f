// Partition heat map: the server's per-partition traffic counters for the table and each index
// (GET /monotable/heat?table=NAME, signed like the API calls when a key is set), refreshed every
// two seconds, with the hottest keys.
import { useEffect, useState } from 'preact/hooks';
import type { TableDescription } from '../types';
import { getJson } from '../api';
import { ErrorBox } from '../ui';

interface Space {
  name: string;
  kind: string;
  partitions: { partition: number; reads: number; writes: number; readUnits: number; writeUnits: number; throttles: number }[];
  hotKeys: { key: string; count: number }[];
}

const PARTITIONS = 256;

function Strip(props: { space: Space }) {
  const byIndex = new Map(props.space.partitions.map((p) => [p.partition, p]));
  const max = Math.max(1, ...props.space.partitions.map((p) => p.readUnits + p.writeUnits));
  const total = props.space.partitions.reduce((s, p) => s + p.readUnits + p.writeUnits, 0);
  return (
    <div class="panel" data-testid={`heat-${props.space.name}`}>
      <div class="row">
        <span class="pill">{props.space.kind}</span>
        <b>{props.space.name}</b>
        <span class="muted">
          {props.space.partitions.length} of {PARTITIONS} partitions touched · {total.toFixed(1)} units
        </span>
      </div>
      <div class="heat">
        {Array.from({ length: PARTITIONS }, (_, i) => {
          const p = byIndex.get(i);
          const units = p ? p.readUnits + p.writeUnits : 0;
          const share = units / max;
          const colour = !p ? undefined : p.throttles ? '#7048e8' : `hsl(${40 - 30 * share}, 95%, ${84 - 36 * share}%)`;
          return (
            <div
              style={colour ? { background: colour } : undefined}
              title={p ? `partition ${i}: ${p.reads} reads (${p.readUnits} RCU), ${p.writes} writes (${p.writeUnits} WCU), ${p.throttles} throttled` : `partition ${i}: idle`}
            />
          );
        })}
      </div>
      {props.space.hotKeys.length > 0 && (
        <div class="muted" style={{ fontSize: '12px' }}>
          hottest keys:{' '}
          {props.space.hotKeys.slice(0, 8).map((k) => (
            <span class="pill mono">
              {k.key} × {k.count}
            </span>
          ))}
        </div>
      )}
    </div>
  );
}

export function HeatView(props: { table: TableDescription }) {
  const [heat, setHeat] = useState<{ table: Space; indexes: Space[] } | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let live = true;
    const load = async () => {
      try {
        const got = await getJson<{ table: Space; indexes: Space[] }>(
          `/monotable/heat?table=${encodeURIComponent(props.table.TableName)}`,
        );
        if (live) {
          setHeat(got);
          setError(null);
        }
      } catch (e) {
        if (live) setError(e);
      }
    };
    load();
    const timer = setInterval(load, 2000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [props.table.TableName]);
  return (
    <div>
      <div class="panel">
        <h2>Partition heat of {props.table.TableName}</h2>
        <p class="muted" style={{ margin: 0 }}>
          Reads and writes since the server started, by partition (256 key-hash ranges), for the table and each index, darker for more capacity units; violet cells were throttled
          (with <code>--simulate-throughput</code>). One hot cell is a hot partition key: spread its writes (write sharding) or re-key it.
        </p>
      </div>
      <ErrorBox error={error} />
      {heat && [heat.table, ...heat.indexes].map((s) => <Strip space={s} />)}
    </div>
  );
}
