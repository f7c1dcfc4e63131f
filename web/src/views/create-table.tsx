// CreateTable form: keys, GSIs and LSIs with their projections, billing, stream, then TTL.
import { useState } from 'preact/hooks';
import { call } from '../api';
import { ErrorBox, Modal } from '../ui';

type T = 'S' | 'N' | 'B';
interface IndexForm {
  kind: 'GSI' | 'LSI';
  name: string;
  hash: string;
  hashType: T;
  range: string;
  rangeType: T;
  projection: 'ALL' | 'KEYS_ONLY' | 'INCLUDE';
  include: string;
}

const val = (e: Event) => (e.target as HTMLInputElement).value;

function TypeSelect(props: { value: T; onChange: (t: T) => void; testid?: string }) {
  return (
    <select value={props.value} data-testid={props.testid} onChange={(e) => props.onChange(val(e) as T)}>
      <option value="S">String</option>
      <option value="N">Number</option>
      <option value="B">Binary</option>
    </select>
  );
}

export function CreateTable(props: { onClose: (created: boolean) => void }) {
  const [name, setName] = useState('');
  const [pk, setPk] = useState('PK');
  const [pkType, setPkType] = useState<T>('S');
  const [sk, setSk] = useState('SK');
  const [skType, setSkType] = useState<T>('S');
  const [billing, setBilling] = useState<'PAY_PER_REQUEST' | 'PROVISIONED'>('PAY_PER_REQUEST');
  const [rcu, setRcu] = useState('5');
  const [wcu, setWcu] = useState('5');
  const [stream, setStream] = useState('');
  const [ttl, setTtl] = useState('');
  const [indexes, setIndexes] = useState<IndexForm[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const update = (i: number, patch: Partial<IndexForm>) => setIndexes(indexes.map((x, j) => (j === i ? { ...x, ...patch } : x)));
  const addIndex = (kind: 'GSI' | 'LSI') => {
    const n = indexes.filter((x) => x.kind === kind).length + 1;
    setIndexes([
      ...indexes,
      kind === 'GSI'
        ? { kind, name: `GSI${n}`, hash: `GSI${n}PK`, hashType: 'S', range: `GSI${n}SK`, rangeType: 'S', projection: 'ALL', include: '' }
        : { kind, name: `LSI${n}`, hash: pk, hashType: pkType, range: `LSI${n}SK`, rangeType: 'S', projection: 'ALL', include: '' },
    ]);
  };

  function request() {
    const defs = new Map<string, T>();
    const def = (n: string, t: T) => {
      if (defs.has(n) && defs.get(n) !== t) throw new Error(`attribute ${n} is given two types`);
      defs.set(n, t);
    };
    if (!name.trim()) throw new Error('the table needs a name');
    def(pk, pkType);
    if (sk) def(sk, skType);
    const throughput = billing === 'PROVISIONED' ? { ReadCapacityUnits: Number(rcu), WriteCapacityUnits: Number(wcu) } : undefined;
    const projection = (x: IndexForm) =>
      x.projection === 'INCLUDE'
        ? { ProjectionType: 'INCLUDE', NonKeyAttributes: x.include.split(',').map((s) => s.trim()).filter(Boolean) }
        : { ProjectionType: x.projection };
    const gsis = indexes
      .filter((x) => x.kind === 'GSI')
      .map((x) => {
        def(x.hash, x.hashType);
        if (x.range) def(x.range, x.rangeType);
        return {
          IndexName: x.name,
          KeySchema: [{ AttributeName: x.hash, KeyType: 'HASH' }, ...(x.range ? [{ AttributeName: x.range, KeyType: 'RANGE' }] : [])],
          Projection: projection(x),
          ...(throughput ? { ProvisionedThroughput: throughput } : {}),
        };
      });
    const lsis = indexes
      .filter((x) => x.kind === 'LSI')
      .map((x) => {
        def(x.range, x.rangeType);
        return {
          IndexName: x.name,
          KeySchema: [
            { AttributeName: pk, KeyType: 'HASH' },
            { AttributeName: x.range, KeyType: 'RANGE' },
          ],
          Projection: projection(x),
        };
      });
    return {
      TableName: name.trim(),
      AttributeDefinitions: [...defs].map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType })),
      KeySchema: [{ AttributeName: pk, KeyType: 'HASH' }, ...(sk ? [{ AttributeName: sk, KeyType: 'RANGE' }] : [])],
      BillingMode: billing,
      ...(throughput ? { ProvisionedThroughput: throughput } : {}),
      ...(gsis.length ? { GlobalSecondaryIndexes: gsis } : {}),
      ...(lsis.length ? { LocalSecondaryIndexes: lsis } : {}),
      ...(stream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: stream } } : {}),
    };
  }

  let preview = '';
  try {
    preview = JSON.stringify(request(), null, 2);
  } catch (e) {
    preview = String((e as Error).message);
  }

  async function create() {
    setBusy(true);
    setError(null);
    try {
      const r = request();
      await call('CreateTable', r);
      if (ttl.trim()) {
        for (let i = 0; i < 50; i++) {
          const d = await call('DescribeTable', { TableName: r.TableName });
          if (d.Table.TableStatus === 'ACTIVE') break;
          await new Promise((ok) => setTimeout(ok, 100));
        }
        await call('UpdateTimeToLive', { TableName: r.TableName, TimeToLiveSpecification: { Enabled: true, AttributeName: ttl.trim() } });
      }
      props.onClose(true);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal title="Create table" onClose={() => props.onClose(false)} wide testid="create-dialog">
      <div class="row">
        <label>
          Table name
          <input data-testid="new-table-name" value={name} onInput={(e) => setName(val(e))} placeholder="app" />
        </label>
        <label>
          Partition key
          <span class="row">
            <input value={pk} size={10} onInput={(e) => setPk(val(e))} />
            <TypeSelect value={pkType} onChange={setPkType} />
          </span>
        </label>
        <label>
          Sort key (empty: none)
          <span class="row">
            <input value={sk} size={10} onInput={(e) => setSk(val(e))} />
            <TypeSelect value={skType} onChange={setSkType} />
          </span>
        </label>
      </div>
      <div class="row">
        <label>
          Billing
          <select value={billing} onChange={(e) => setBilling(val(e) as any)}>
            <option value="PAY_PER_REQUEST">On demand</option>
            <option value="PROVISIONED">Provisioned</option>
          </select>
        </label>
        {billing === 'PROVISIONED' && (
          <>
            <label>
              RCU
              <input value={rcu} size={5} onInput={(e) => setRcu(val(e))} />
            </label>
            <label>
              WCU
              <input value={wcu} size={5} onInput={(e) => setWcu(val(e))} />
            </label>
          </>
        )}
        <label>
          Stream
          <select value={stream} data-testid="new-stream" onChange={(e) => setStream(val(e))}>
            <option value="">off</option>
            <option>NEW_AND_OLD_IMAGES</option>
            <option>NEW_IMAGE</option>
            <option>OLD_IMAGE</option>
            <option>KEYS_ONLY</option>
          </select>
        </label>
        <label>
          TTL attribute (empty: off)
          <input value={ttl} size={12} data-testid="new-ttl" onInput={(e) => setTtl(val(e))} placeholder="expiresAt" />
        </label>
      </div>
      <h3 style={{ marginTop: '14px' }}>Secondary indexes</h3>
      {indexes.map((x, i) => (
        <div class="row" data-testid={`index-${i}`}>
          <b style={{ width: '34px' }}>{x.kind}</b>
          <label>
            Name
            <input value={x.name} size={10} onInput={(e) => update(i, { name: val(e) })} />
          </label>
          {x.kind === 'GSI' ? (
            <label>
              Partition key
              <span class="row">
                <input value={x.hash} size={10} onInput={(e) => update(i, { hash: val(e) })} />
                <TypeSelect value={x.hashType} onChange={(t) => update(i, { hashType: t })} />
              </span>
            </label>
          ) : (
            <label>
              Partition key
              <span class="muted" style={{ padding: '5px 0' }}>
                {pk} (the table's)
              </span>
            </label>
          )}
          <label>
            Sort key{x.kind === 'GSI' ? ' (optional)' : ''}
            <span class="row">
              <input value={x.range} size={10} onInput={(e) => update(i, { range: val(e) })} />
              <TypeSelect value={x.rangeType} onChange={(t) => update(i, { rangeType: t })} />
            </span>
          </label>
          <label>
            Projection
            <select value={x.projection} onChange={(e) => update(i, { projection: val(e) as any })}>
              <option>ALL</option>
              <option>KEYS_ONLY</option>
              <option>INCLUDE</option>
            </select>
          </label>
          {x.projection === 'INCLUDE' && (
            <label>
              Attributes (comma-separated)
              <input value={x.include} onInput={(e) => update(i, { include: val(e) })} />
            </label>
          )}
          <button class="danger" onClick={() => setIndexes(indexes.filter((_, j) => j !== i))}>
            Remove
          </button>
        </div>
      ))}
      <div class="row" style={{ marginTop: '6px' }}>
        <button data-testid="add-gsi" onClick={() => addIndex('GSI')}>
          + GSI
        </button>
        <button data-testid="add-lsi" onClick={() => addIndex('LSI')} disabled={!sk}>
          + LSI
        </button>
      </div>
      <ErrorBox error={error} />
      <details style={{ margin: '10px 0' }}>
        <summary class="muted">CreateTable request</summary>
        <pre class="code">{preview}</pre>
      </details>
      <div class="row">
        <button class="primary" data-testid="create-submit" disabled={busy} onClick={create}>
          Create
        </button>
      </div>
    </Modal>
  );
}
