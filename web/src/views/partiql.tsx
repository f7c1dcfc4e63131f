// PartiQL editor (ExecuteStatement with paging), warning when a SELECT will scan: no equality
// (or IN) on the partition key of the table or index it reads.
import { useMemo, useState } from 'preact/hooks';
import { call } from '../api';
import type { ConsumedCapacity, Item, TableDescription } from '../types';
import { viewsOf } from '../values';
import { ErrorBox, useShared } from '../ui';
import { ItemsTable } from './items-table';

// What a SELECT reads and whether its WHERE pins the partition key; null for other statements.
export function scanWarning(statement: string, tables: TableDescription[]): string | null {
  const m = /^\s*select\s+[\s\S]*?\s+from\s+("(?:[^"]|"")+"|[A-Za-z0-9_.-]+)(?:\s*\.\s*("(?:[^"]|"")+"|[A-Za-z0-9_.-]+))?([\s\S]*)$/i.exec(statement);
  if (!m) return null;
  const unquote = (s?: string) => (s ? s.replace(/^"|"$/g, '').replace(/""/g, '"') : '');
  const table = tables.find((t) => t.TableName === unquote(m[1]));
  if (!table) return null;
  const indexName = unquote(m[2]);
  const view = viewsOf(table).find((v) => (indexName ? v.name === indexName : v.kind === 'table'));
  if (!view) return null;
  const where = /\bwhere\b([\s\S]*)$/i.exec(m[3] ?? '')?.[1] ?? '';
  const name = view.hash.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pinned = new RegExp(`(^|[\\s(])("${name}"|${name})\\s*(=|\\bin\\b)`, 'i').test(where);
  const or = /\bor\b/i.test(where);
  if (pinned && !or) return null;
  return `This SELECT ${or && pinned ? 'has an OR, so it may' : 'will'} scan ${indexName ? `the index ${indexName}` : `the whole table ${table.TableName}`}: ${
    pinned ? 'every branch needs' : 'its WHERE needs'
  } an equality (or IN) on the partition key ${view.hash}. A scan reads and pays for every item.`;
}

export function PartiqlView() {
  const { tables, bump } = useShared();
  const first = tables[0];
  const [statement, setStatement] = useState(first ? `SELECT * FROM "${first.TableName}" WHERE "${viewsOf(first)[0].hash}" = ''` : '');
  const [result, setResult] = useState<{ items: Item[]; next?: string; capacity?: ConsumedCapacity } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const warning = useMemo(() => scanWarning(statement, tables), [statement, tables]);
  const target = tables.find((t) => new RegExp(`from\\s+"?${t.TableName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"?`, 'i').test(statement));

  async function run(next?: string) {
    setError(null);
    try {
      const out = await call<{ Items?: Item[]; NextToken?: string; ConsumedCapacity?: ConsumedCapacity }>('ExecuteStatement', {
        Statement: statement,
        ReturnConsumedCapacity: 'TOTAL',
        ...(next ? { NextToken: next } : {}),
      });
      setResult({ items: out.Items ?? [], next: out.NextToken, capacity: out.ConsumedCapacity });
      if (!/^\s*select/i.test(statement)) bump();
    } catch (e) {
      setError(e);
    }
  }

  return (
    <div>
      <div class="panel">
        <h2>PartiQL</h2>
        <textarea data-testid="partiql" rows={6} spellcheck={false} value={statement} onInput={(e) => setStatement((e.target as HTMLTextAreaElement).value)} />
        {warning && (
          <div class="warn" data-testid="scan-warning">
            {warning}
          </div>
        )}
        <div class="row">
          <button class="primary" data-testid="partiql-run" onClick={() => run()}>
            Run
          </button>
          {result?.next && <button onClick={() => run(result.next)}>Next page</button>}
          {result && (
            <span class="muted">
              {result.items.length} items · {result.capacity?.CapacityUnits ?? 0} capacity units
            </span>
          )}
        </div>
        <ErrorBox error={error} />
      </div>
      {result && target && (
        <div class="panel">
          <ItemsTable t={target} items={result.items} />
        </div>
      )}
    </div>
  );
}
