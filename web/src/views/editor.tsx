// Item editor: DynamoDB JSON or plain JSON, with a live readout of the item's size, its read and
// write units, and the write units of each index arm the write touches (against the stored item).
import { useEffect, useMemo, useState } from 'preact/hooks';
import { call } from '../api';
import { indexArm, itemSize, MAX_ITEM, readUnits, writeUnits } from '../capacity';
import { colourOf, entityOf } from '../entity';
import type { ConsumedCapacity, Item, TableDescription } from '../types';
import { keyOf, marshallItem, missingKeys, unmarshallItem, validateItem, viewsOf } from '../values';
import { ErrorBox, Modal, useShared } from '../ui';

type Mode = 'dynamo' | 'plain';

function render(item: Item, mode: Mode): string {
  return JSON.stringify(mode === 'dynamo' ? item : unmarshallItem(item), null, 2);
}

function parse(text: string, mode: Mode): Item {
  const obj = JSON.parse(text);
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) throw new Error('the item is a JSON object');
  if (mode === 'plain') return marshallItem(obj);
  validateItem(obj);
  return obj;
}

export function ItemEditor(props: { table: TableDescription; item: Item | null; onClose: () => void }) {
  const t = props.table;
  const views = viewsOf(t);
  const { bump } = useShared();
  const [stored, setStored] = useState<Item | null>(null);
  const [mode, setMode] = useState<Mode>('dynamo');
  const [text, setText] = useState(() => {
    if (props.item) return render(props.item, 'dynamo');
    const blank: Item = {};
    for (const k of t.KeySchema) blank[k.AttributeName] = { S: '' };
    return render(blank, 'dynamo');
  });
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<ConsumedCapacity | null>(null);
  const [lossy, setLossy] = useState(false);

  // The stored item, read strongly consistent (results of a KEYS_ONLY index carry only keys).
  useEffect(() => {
    if (!props.item) return;
    call<{ Item?: Item }>('GetItem', { TableName: t.TableName, Key: keyOf(t, props.item), ConsistentRead: true })
      .then((out) => {
        setStored(out.Item ?? null);
        if (out.Item) setText(render(out.Item, mode));
      })
      .catch(setError);
  }, []);

  const parsed = useMemo(() => {
    try {
      return { item: parse(text, mode), error: null };
    } catch (e) {
      return { item: null, error: e };
    }
  }, [text, mode]);

  function switchMode(next: Mode) {
    if (next === mode || !parsed.item) return;
    const flag = { value: false };
    if (next === 'plain') unmarshallItem(parsed.item, flag);
    setLossy(flag.value);
    setText(render(parsed.item, next));
    setMode(next);
  }

  const item = parsed.item;
  const size = item ? itemSize(item) : 0;
  const keyMissing = item ? missingKeys(t, views[0], item) : [];
  const sameKey = item && stored && JSON.stringify(keyOf(t, item)) === JSON.stringify(keyOf(t, stored));
  const before = sameKey ? stored : null;
  const arms = item ? views.slice(1).map((v) => indexArm(t, v, before, item)) : [];
  const tableUnits = writeUnits(Math.max(size, before ? itemSize(before) : 0));

  async function save() {
    if (!item) return;
    setError(null);
    try {
      const out = await call<{ ConsumedCapacity?: ConsumedCapacity }>('PutItem', { TableName: t.TableName, Item: item, ReturnConsumedCapacity: 'INDEXES' });
      setSaved(out.ConsumedCapacity ?? null);
      setStored(item);
      bump();
    } catch (e) {
      setError(e);
    }
  }

  async function remove() {
    if (!item || !confirm('Delete this item?')) return;
    try {
      await call('DeleteItem', { TableName: t.TableName, Key: keyOf(t, item) });
      bump();
      props.onClose();
    } catch (e) {
      setError(e);
    }
  }

  const entity = item ? entityOf(t, item) : null;
  return (
    <Modal
      title={
        <span class="row" style={{ gap: '8px' }}>
          {props.item ? 'Edit item' : 'New item'}
          {entity && (
            <span class="ent" style={{ background: colourOf(entity) }}>
              {entity}
            </span>
          )}
          <span class="muted" style={{ fontWeight: 400, fontSize: '13px' }}>
            {t.TableName}
          </span>
        </span>
      }
      onClose={props.onClose}
      wide
      testid="editor"
    >
      <div style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1.4fr) minmax(280px, 1fr)', gap: '14px' }}>
        <div>
          <div class="subtabs">
            <button class={mode === 'dynamo' ? 'on' : ''} data-testid="mode-dynamo" onClick={() => switchMode('dynamo')}>
              DynamoDB JSON
            </button>
            <button class={mode === 'plain' ? 'on' : ''} data-testid="mode-plain" onClick={() => switchMode('plain')}>
              Plain JSON
            </button>
          </div>
          {mode === 'plain' && lossy && (
            <div class="warn">This item has sets, binary values or numbers JavaScript cannot hold exactly: plain JSON turns them into lists, strings and rounded numbers. Edit in DynamoDB JSON to keep them.</div>
          )}
          <textarea data-testid="item-json" rows={22} spellcheck={false} value={text} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />
          <ErrorBox error={parsed.error} />
          <ErrorBox error={error} />
          <div class="row">
            <button class="primary" data-testid="save-item" disabled={!item || keyMissing.length > 0 || size > MAX_ITEM} onClick={save}>
              Save (PutItem)
            </button>
            {stored && (
              <button class="danger" onClick={remove}>
                Delete
              </button>
            )}
            {saved && (
              <span class="ok" data-testid="saved">
                saved · {saved.CapacityUnits} WCU
                {Object.entries({ ...saved.GlobalSecondaryIndexes, ...saved.LocalSecondaryIndexes }).map(([k, v]) => ` · ${k} ${v.CapacityUnits}`)}
              </span>
            )}
          </div>
        </div>
        <div data-testid="readout">
          <h3>Size and capacity</h3>
          <div class="stats">
            <div class="stat" data-testid="item-size">
              <b>{size.toLocaleString('en')} B</b>
              <span>item size ({((100 * size) / MAX_ITEM).toFixed(2)}% of 400 KB)</span>
            </div>
          </div>
          {size > MAX_ITEM && <div class="error">Over DynamoDB's 400 KB item limit.</div>}
          {keyMissing.length > 0 && <div class="error">The item needs its key attribute{keyMissing.length > 1 ? 's' : ''} {keyMissing.join(', ')}.</div>}
          <table class="grid" style={{ marginTop: '8px' }}>
            <tbody>
              <tr>
                <td>Read, strongly consistent</td>
                <td class="mono" data-testid="rcu-strong">{readUnits(size, true)} RCU</td>
              </tr>
              <tr>
                <td>Read, eventually consistent</td>
                <td class="mono">{readUnits(size, false)} RCU</td>
              </tr>
              <tr>
                <td>Write{before ? ' (larger of stored and new)' : ''}</td>
                <td class="mono" data-testid="wcu">{tableUnits} WCU</td>
              </tr>
              {arms.map((a) => (
                <tr data-testid={`arm-${a.view.name}`}>
                  <td>
                    {a.view.kind} <b>{a.view.name}</b>{' '}
                    <span class="muted">
                      {a.change === 'none'
                        ? `not indexed (no ${missingKeys(t, a.view, item!).join(', ')})`
                        : `${a.change}${a.after ? `, entry ${itemSize(a.after)} B` : ''}`}
                    </span>
                  </td>
                  <td class="mono">{a.units} WCU</td>
                </tr>
              ))}
              <tr>
                <td>
                  <b>Write in all</b>
                </td>
                <td class="mono" data-testid="wcu-total">
                  <b>{tableUnits + arms.reduce((s, a) => s + a.units, 0)} WCU</b>
                </td>
              </tr>
              <tr>
                <td>Write in a transaction (table arm doubled)</td>
                <td class="mono">{2 * tableUnits + arms.reduce((s, a) => s + a.units, 0)} WCU</td>
              </tr>
            </tbody>
          </table>
          <p class="muted" style={{ fontSize: '12px' }}>
            Sizes as DynamoDB counts them (names + values; numbers by digit pairs). Index arms are charged on the projected entry and compared with the
            stored item{before ? '' : ' (none stored under this key: an insert)'}. Transactions double the table arm.
          </p>
        </div>
      </div>
    </Modal>
  );
}
