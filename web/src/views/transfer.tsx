// Import and export of a table: DynamoDB JSON lines (one {"Item": {...}} a line, as DynamoDB's
// export to S3 writes them; a bare item a line is read too, in DynamoDB or plain JSON) and CSV
// (a header of name:TYPE columns; scalar cells as text, others as DynamoDB JSON).
import { useState } from 'preact/hooks';
import { batchWrite, call } from '../api';
import type { AV, Item, TableDescription } from '../types';
import { looksLikeDynamoJson, marshallItem, typeOf, validateItem } from '../values';
import { ErrorBox, Progress, useShared } from '../ui';

export function parseJsonLines(text: string): Item[] {
  const items: Item[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    let obj: any;
    try {
      obj = JSON.parse(line);
    } catch {
      throw new Error(`line ${i + 1}: not JSON`);
    }
    if (obj && typeof obj === 'object' && obj.Item && Object.keys(obj).length === 1) obj = obj.Item;
    const item = looksLikeDynamoJson(obj) ? obj : marshallItem(obj);
    try {
      validateItem(item);
    } catch (e) {
      throw new Error(`line ${i + 1}: ${(e as Error).message}`);
    }
    items.push(item);
  });
  return items;
}

// RFC 4180 fields: quotes around fields with commas, quotes or line breaks.
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [], field = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') field += '"', i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field), rows.push(row), (row = []), (field = '');
    } else field += c;
  }
  if (field || row.length) row.push(field), rows.push(row);
  return rows.filter((r) => r.length > 1 || r[0] !== '');
}

const csvField = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

export function parseCsv(text: string): Item[] {
  const rows = csvRows(text);
  if (!rows.length) return [];
  const header = rows[0].map((h) => {
    const m = /^(.*):(S|N|B|BOOL|NULL|SS|NS|BS|L|M)$/.exec(h.trim());
    return m ? { name: m[1], type: m[2] } : { name: h.trim(), type: 'S' };
  });
  return rows.slice(1).map((r, i) => {
    const item: Item = {};
    header.forEach((h, j) => {
      const cell = r[j] ?? '';
      if (cell === '') return;
      let v: AV;
      if (h.type === 'S' || h.type === 'N' || h.type === 'B') v = { [h.type]: cell } as AV;
      else if (h.type === 'BOOL') v = { BOOL: cell.toLowerCase() === 'true' };
      else if (h.type === 'NULL') v = { NULL: true };
      else {
        try {
          v = JSON.parse(cell);
        } catch {
          throw new Error(`row ${i + 2}, ${h.name}: ${h.type} cells hold DynamoDB JSON`);
        }
      }
      item[h.name] = v;
    });
    validateItem(item);
    return item;
  });
}

// Columns: the given key attributes first, then every other in first-seen order; a column's
// type is its first value's.
export function toCsv(items: Item[], keyNames: string[] = []): string {
  const types = new Map<string, string>();
  for (const k of keyNames) {
    const v = items.find((it) => it[k])?.[k];
    if (v) types.set(k, typeOf(v));
  }
  for (const it of items) for (const [k, v] of Object.entries(it)) if (!types.has(k)) types.set(k, typeOf(v));
  const cols = [...types];
  const cell = (v: AV | undefined, type: string): string => {
    if (!v) return '';
    if (typeOf(v) !== type) return ''; // another type than the column's: kept in JSON lines only
    if ('S' in v) return v.S;
    if ('N' in v) return v.N;
    if ('B' in v) return v.B;
    if ('BOOL' in v) return String(v.BOOL);
    if ('NULL' in v) return 'true';
    return JSON.stringify(v);
  };
  const lines = [cols.map(([k, t]) => csvField(`${k}:${t}`)).join(',')];
  for (const it of items) lines.push(cols.map(([k, t]) => csvField(cell(it[k], t))).join(','));
  return lines.join('\r\n') + '\r\n';
}

function download(name: string, text: string, type: string) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

export function TransferView(props: { table: TableDescription }) {
  const t = props.table;
  const { bump } = useShared();
  const [text, setText] = useState('');
  const [format, setFormat] = useState<'jsonl' | 'csv'>('jsonl');
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [message, setMessage] = useState('');

  async function runImport() {
    setError(null);
    setMessage('');
    try {
      const items = format === 'csv' ? parseCsv(text) : parseJsonLines(text);
      setProgress({ done: 0, total: items.length });
      await batchWrite(
        t.TableName,
        items.map((Item) => ({ PutRequest: { Item } })),
        (done) => setProgress({ done, total: items.length }),
      );
      setMessage(`imported ${items.length} items`);
      bump();
    } catch (e) {
      setError(e);
    } finally {
      setProgress(null);
    }
  }

  async function runExport(kind: 'jsonl' | 'csv') {
    setError(null);
    setMessage('');
    try {
      const items: Item[] = [];
      let start: Item | undefined;
      const total = t.ItemCount ?? 0;
      do {
        const out = await call<{ Items: Item[]; LastEvaluatedKey?: Item }>('Scan', { TableName: t.TableName, ...(start ? { ExclusiveStartKey: start } : {}) });
        items.push(...out.Items);
        start = out.LastEvaluatedKey;
        setProgress({ done: items.length, total: Math.max(total, items.length) });
      } while (start);
      if (kind === 'csv') download(`${t.TableName}.csv`, toCsv(items, t.KeySchema.map((k) => k.AttributeName)), 'text/csv');
      else download(`${t.TableName}.jsonl`, items.map((Item) => JSON.stringify({ Item })).join('\n') + '\n', 'application/x-ndjson');
      setMessage(`exported ${items.length} items`);
    } catch (e) {
      setError(e);
    } finally {
      setProgress(null);
    }
  }

  return (
    <div>
      <div class="panel">
        <h2>Import into {t.TableName}</h2>
        <div class="row">
          <label>
            Format
            <select value={format} data-testid="import-format" onChange={(e) => setFormat((e.target as HTMLSelectElement).value as any)}>
              <option value="jsonl">JSON lines (DynamoDB or plain JSON)</option>
              <option value="csv">CSV (header name:TYPE)</option>
            </select>
          </label>
          <label>
            File
            <input
              type="file"
              accept=".json,.jsonl,.ndjson,.csv,.txt"
              onChange={async (e) => {
                const f = (e.target as HTMLInputElement).files?.[0];
                if (f) {
                  setText(await f.text());
                  if (f.name.endsWith('.csv')) setFormat('csv');
                }
              }}
            />
          </label>
        </div>
        <textarea
          data-testid="import-text"
          rows={10}
          placeholder={'{"Item": {"PK": {"S": "USER#u1"}, "SK": {"S": "PROFILE"}}}\n{"PK": "USER#u1", "SK": "ORDER#2024-01-15", "total": 42}'}
          value={text}
          onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
          style={{ marginTop: '8px' }}
        />
        <div class="row">
          <button class="primary" data-testid="import-run" disabled={!text.trim() || !!progress} onClick={runImport}>
            Import
          </button>
          {progress && <Progress {...progress} />}
          {message && (
            <span class="ok" data-testid="transfer-message">
              {message}
            </span>
          )}
        </div>
        <ErrorBox error={error} />
      </div>
      <div class="panel">
        <h2>Export {t.TableName}</h2>
        <p class="muted">A full Scan of the table ({t.ItemCount ?? '?'} items), downloaded as a file.</p>
        <div class="row">
          <button data-testid="export-jsonl" disabled={!!progress} onClick={() => runExport('jsonl')}>
            DynamoDB JSON lines
          </button>
          <button data-testid="export-csv" disabled={!!progress} onClick={() => runExport('csv')}>
            CSV
          </button>
        </div>
      </div>
    </div>
  );
}
