// A grid of items with entity colours, selection, bulk delete and bulk edit; a row opens the
// item editor.
import { useMemo, useState } from 'preact/hooks';
import { batchWrite, call } from '../api';
import { colourOf, entityOf } from '../entity';
import type { Item, TableDescription } from '../types';
import { keyId, keyOf, marshall, show } from '../values';
import { ErrorBox, Progress, useShared } from '../ui';

export function ItemsTable(props: { t: TableDescription; items: Item[]; keyNames?: string[] }) {
  const { t, items } = props;
  const { openItem, bump } = useShared();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [error, setError] = useState<unknown>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [editAttr, setEditAttr] = useState('');
  const [editValue, setEditValue] = useState('');

  const columns = useMemo(() => {
    // Key attributes first (the table's, then the index's, when some item has them), then the
    // others in first-seen order.
    const present = new Set(items.flatMap((it) => Object.keys(it)));
    const keys = [...new Set([...t.KeySchema.map((k) => k.AttributeName), ...(props.keyNames ?? [])])].filter(
      (k, i) => i < t.KeySchema.length || present.has(k),
    );
    const seen = new Set(keys);
    const rest: string[] = [];
    for (const it of items) for (const k of Object.keys(it)) if (!seen.has(k)) seen.add(k), rest.push(k);
    return keys.concat(rest.slice(0, 16));
  }, [items, t]);

  const chosen = items.filter((i) => selected.has(keyId(t, i)));
  const toggle = (id: string) => {
    const s = new Set(selected);
    if (s.has(id)) s.delete(id);
    else s.add(id);
    setSelected(s);
  };

  async function bulkDelete() {
    if (!confirm(`Delete ${chosen.length} item${chosen.length === 1 ? '' : 's'}?`)) return;
    setError(null);
    setProgress({ done: 0, total: chosen.length });
    try {
      await batchWrite(
        t.TableName,
        chosen.map((i) => ({ DeleteRequest: { Key: keyOf(t, i) } })),
        (done) => setProgress({ done, total: chosen.length }),
      );
      setSelected(new Set());
      bump();
    } catch (e) {
      setError(e);
    } finally {
      setProgress(null);
    }
  }

  async function bulkEdit() {
    setError(null);
    try {
      let value: unknown;
      try {
        value = JSON.parse(editValue);
      } catch {
        value = editValue;
      }
      const av = marshall(value);
      let done = 0;
      setProgress({ done, total: chosen.length });
      for (const i of chosen) {
        await call('UpdateItem', {
          TableName: t.TableName,
          Key: keyOf(t, i),
          UpdateExpression: 'SET #a = :v',
          ConditionExpression: 'attribute_exists(#k)',
          ExpressionAttributeNames: { '#a': editAttr, '#k': t.KeySchema[0].AttributeName },
          ExpressionAttributeValues: { ':v': av },
        });
        setProgress({ done: ++done, total: chosen.length });
      }
      bump();
    } catch (e) {
      setError(e);
    } finally {
      setProgress(null);
    }
  }

  return (
    <div>
      <div class="row" style={{ marginBottom: '6px' }}>
        <span class="muted">{selected.size ? `${chosen.length} selected` : 'select rows for bulk actions'}</span>
        <button class="danger" data-testid="bulk-delete" disabled={!chosen.length || !!progress} onClick={bulkDelete}>
          Delete selected
        </button>
        <span class="muted">set</span>
        <input placeholder="attribute" size={10} value={editAttr} onInput={(e) => setEditAttr((e.target as HTMLInputElement).value)} />
        <span class="muted">=</span>
        <input placeholder='JSON value, e.g. "done" or 3' size={16} value={editValue} onInput={(e) => setEditValue((e.target as HTMLInputElement).value)} />
        <button disabled={!chosen.length || !editAttr || !!progress} onClick={bulkEdit}>
          Update selected
        </button>
        <button onClick={() => openItem(t, null)}>New item</button>
        {progress && <Progress {...progress} />}
      </div>
      <ErrorBox error={error} />
      {items.length === 0 && <p class="muted">No items on this page.</p>}
      <div style={{ overflow: 'auto', maxHeight: '520px', display: items.length ? undefined : 'none' }}>
        <table class="grid" data-testid="items">
          <thead>
            <tr>
              <th>
                <input
                  type="checkbox"
                  aria-label="select all"
                  checked={items.length > 0 && chosen.length === items.length}
                  onChange={(e) => setSelected((e.target as HTMLInputElement).checked ? new Set(items.map((i) => keyId(t, i))) : new Set())}
                />
              </th>
              <th>entity</th>
              {columns.map((c) => (
                <th>{c}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {items.map((it) => {
              const id = keyId(t, it);
              const entity = entityOf(t, it);
              return (
                <tr class={selected.has(id) ? 'sel' : ''} data-key={id}>
                  <td>
                    <input type="checkbox" checked={selected.has(id)} onChange={() => toggle(id)} aria-label="select" />
                  </td>
                  <td>
                    <span class="ent" style={{ background: colourOf(entity) }}>
                      {entity}
                    </span>
                  </td>
                  {columns.map((c) => (
                    <td class="mono" style={{ cursor: 'pointer' }} onClick={() => openItem(t, it)}>
                      {show(it[c], 48)}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
