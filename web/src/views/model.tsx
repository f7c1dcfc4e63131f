// The loaded workbench model: a file picker / drop zone (YAML or JSON), its entities in their
// colours (the lens, the item grids and the editor classify items by these entities' key
// templates), and its access patterns as buttons: each asks for the pattern's inputs, builds the
// request the model describes, runs it and shows the items, Count/ScannedCount and the capacity.
import { useState } from 'preact/hooks';
import { call } from '../api';
import { colourOf, loadedModel, loadModel, unloadModel } from '../entity';
import { buildPatternRequest, entitiesOfTable, modelTableFor } from '../model';
import type { AccessPattern, PatternRequest } from '../model';
import type { ConsumedCapacity, Item, TableDescription } from '../types';
import { ErrorBox, useShared } from '../ui';
import { ItemsTable } from './items-table';

interface Outcome {
  built: PatternRequest;
  items: Item[];
  count: number;
  scanned: number | null;
  capacity?: ConsumedCapacity;
}

export function ModelView(props: { table: TableDescription }) {
  const t = props.table;
  const { bump } = useShared();
  const [, setTick] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const [dragging, setDragging] = useState(false);
  const loaded = loadedModel();

  async function read(file: File | undefined) {
    if (!file) return;
    try {
      loadModel(await file.text(), file.name);
      setError(null);
      setTick((x) => x + 1);
      bump();
    } catch (e) {
      setError(new Error(`${file.name}: ${(e as Error).message}`));
    }
  }

  const mt = loaded ? modelTableFor(loaded.model, t) : undefined;
  const patterns = loaded && mt ? (loaded.model.accessPatterns ?? []).filter((p) => !p.table || p.table === mt.name) : [];
  return (
    <div>
      <div
        class="panel"
        data-testid="model-drop"
        style={{ outline: dragging ? '2px dashed #2f6fde' : undefined }}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          read(e.dataTransfer?.files[0]);
        }}
      >
        <div class="row">
          <b>Workbench model</b>
          <span class="muted" data-testid="model-status">
            {loaded ? `${loaded.model.name ?? loaded.file} (${loaded.file})` : 'none loaded: entities are inferred from key prefixes'}
          </span>
          <span class="grow" />
          <label class="row" style={{ flexDirection: 'row', alignItems: 'center', gap: '6px' }}>
            Load a model file (YAML or JSON), or drop it here
            <input type="file" accept=".yaml,.yml,.json" data-testid="model-file" onChange={(e) => read((e.target as HTMLInputElement).files?.[0])} />
          </label>
          {loaded && (
            <button
              onClick={() => {
                unloadModel();
                setTick((x) => x + 1);
                bump();
              }}
            >
              Unload
            </button>
          )}
        </div>
        <ErrorBox error={error} />
        {loaded && !mt && <div class="warn">The model has no table named {t.TableName} (nor one with the same key attributes): its entities and patterns do not apply here.</div>}
        {loaded && mt && (
          <div data-testid="model-entities" style={{ marginTop: '8px' }}>
            {entitiesOfTable(loaded.model, mt).map(([name, e]) => (
              <span class="pill" style={{ borderColor: colourOf(name), color: colourOf(name) }} title={Object.entries(e.keys).map(([k, v]) => `${k}: ${v}`).join('\n')}>
                {name}
              </span>
            ))}
          </div>
        )}
      </div>
      {loaded && mt && (
        <div class="panel" data-testid="patterns">
          <b>Access patterns</b>
          {patterns.length === 0 && <div class="muted">The model has no access patterns for this table.</div>}
          {patterns.map((p) => (
            <Pattern key={p.name} t={t} pattern={p} />
          ))}
        </div>
      )}
    </div>
  );
}

function Pattern(props: { t: TableDescription; pattern: AccessPattern }) {
  const { t, pattern: p } = props;
  const [open, setOpen] = useState(false);
  const [inputs, setInputs] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [out, setOut] = useState<Outcome | null>(null);

  async function run() {
    setBusy(true);
    setError(null);
    try {
      const built = buildPatternRequest(loadedModel()!.model, t, p, inputs);
      const res = await call<{ Item?: Item; Items?: Item[]; Count?: number; ScannedCount?: number; ConsumedCapacity?: ConsumedCapacity }>(built.operation, built.request);
      const items = built.operation === 'GetItem' ? (res.Item ? [res.Item] : []) : res.Items ?? [];
      setOut({ built, items, count: res.Count ?? items.length, scanned: res.ScannedCount ?? null, capacity: res.ConsumedCapacity });
    } catch (e) {
      setError(e);
      setOut(null);
    } finally {
      setBusy(false);
    }
  }

  const run0 = () => {
    setOpen(true);
    if (!(p.inputs ?? []).length) run();
  };
  return (
    <div style={{ marginTop: '8px' }} data-testid={`pattern-${p.name}`}>
      <div class="row">
        <button class="primary" data-testid={`pattern-button-${p.name}`} onClick={run0}>
          {p.name}
        </button>
        <span class="muted">
          {p.operation}
          {p.index ? ` on ${p.index}` : ''} · {(p.entities ?? []).join(', ')}
          {p.description ? ` · ${p.description}` : ''}
        </span>
      </div>
      {open && (
        <div style={{ margin: '6px 0 0 16px' }}>
          {(p.inputs ?? []).length > 0 && (
            <div class="row">
              {(p.inputs ?? []).map((name) => (
                <label>
                  {name}
                  <input data-testid={`input-${name}`} value={inputs[name] ?? ''} onInput={(e) => setInputs({ ...inputs, [name]: (e.target as HTMLInputElement).value })} />
                </label>
              ))}
              <button class="primary" data-testid="pattern-run" disabled={busy} onClick={run}>
                Run
              </button>
            </div>
          )}
          <ErrorBox error={error} />
          {out && (
            <div data-testid="pattern-result">
              <pre class="mono" data-testid="pattern-request" style={{ fontSize: '12px' }}>
                {out.built.operation} {JSON.stringify(out.built.request, null, 2)}
              </pre>
              <div class="stats">
                <div class="stat" data-testid="pattern-count">
                  <b>{out.count}</b>
                  <span>Count (returned)</span>
                </div>
                {out.scanned !== null && (
                  <div class="stat" data-testid="pattern-scanned">
                    <b>{out.scanned}</b>
                    <span>ScannedCount (read)</span>
                  </div>
                )}
                <div class="stat" data-testid="pattern-capacity">
                  <b>{out.capacity?.CapacityUnits ?? 0}</b>
                  <span>
                    RCU
                    {out.capacity?.Table?.CapacityUnits !== undefined && ` · table ${out.capacity.Table.CapacityUnits}`}
                    {Object.entries({ ...out.capacity?.GlobalSecondaryIndexes, ...out.capacity?.LocalSecondaryIndexes }).map(([k, v]) => ` · ${k} ${v.CapacityUnits}`)}
                  </span>
                </div>
              </div>
              <ItemsTable t={t} items={out.items} />
            </div>
          )}
        </div>
      )}
    </div>
  );
}
