// Stream triggers (`monotable serve --triggers FILE`): each trigger's handler, settings, state,
// counters, lag and last error, and where delivery stands in every shard of its table's stream
// (GET /monotable/triggers, signed like the API calls when a key is set), refreshed every two
// seconds with the delivery rate since the previous refresh.
import { useEffect, useRef, useState } from 'preact/hooks';
import { getJson } from '../api';
import { ErrorBox, useShared } from '../ui';
import {
  ageText,
  handlerText,
  health,
  rates,
  settingsText,
  shortSequence,
  type Health,
  type TriggersReport,
  type TriggerStatus,
} from '../triggers';

const REFRESH_MS = 2000;

const HEALTH_STYLE: Record<Health, { background: string; color: string; borderColor: string }> = {
  ok: { background: '#e6f6ec', color: '#1c7c3d', borderColor: '#a9dcb9' },
  behind: { background: '#fff8e6', color: '#8a4b00', borderColor: '#f5d48a' },
  'gave-up': { background: '#fff8e6', color: '#8a4b00', borderColor: '#f5d48a' },
  failing: { background: '#fff5f5', color: '#c92a2a', borderColor: '#f3c4c4' },
  stopped: { background: '#f1f3f6', color: '#5c6475', borderColor: '#d8dde6' },
};

function Stat(props: { label: string; value: string | number; testid?: string; bad?: boolean }) {
  return (
    <div class="stat" data-testid={props.testid}>
      <b style={props.bad ? { color: 'var(--bad)' } : undefined}>{props.value}</b>
      <span>{props.label}</span>
    </div>
  );
}

function TriggerCard(props: { t: TriggerStatus; rate: ReturnType<typeof rates> }) {
  const { t, rate } = props;
  const h = health(t);
  return (
    <div class="panel" data-testid={`trigger-${t.name}`}>
      <div class="row">
        <h3 style={{ margin: 0 }}>{t.name}</h3>
        <span class="pill" data-testid="trigger-state" style={HEALTH_STYLE[h]} title={`health: ${h}`}>
          {t.state}
        </span>
        {h === 'gave-up' && (
          <span class="pill" style={HEALTH_STYLE[h]} data-testid="trigger-gave-up">
            {t.recordsFailed} record{t.recordsFailed === 1 ? '' : 's'} given up
          </span>
        )}
        <span class="muted">on</span>
        <a href={`#/stream/${encodeURIComponent(t.table)}`} data-testid="trigger-table">
          {t.table}
        </a>
        <span class="spacer grow" />
        <span class="pill">{t.handler.kind === 'url' ? 'HTTP endpoint' : 'command'}</span>
      </div>
      <div class="row">
        <code class="mono" data-testid="trigger-handler" style={{ wordBreak: 'break-all' }}>
          {handlerText(t)}
        </code>
      </div>
      <div class="row">
        {settingsText(t).map((s) => (
          <span class="pill">{s}</span>
        ))}
      </div>
      <div class="row stats" style={{ marginTop: '10px' }}>
        <Stat label="lag (records)" value={t.lagRecords} testid="trigger-lag" bad={h === 'behind'} />
        <Stat label="oldest waiting" value={ageText(t.oldestUnacknowledgedAgeSeconds)} />
        <Stat label="batches delivered" value={t.batchesDelivered} testid="trigger-batches" />
        <Stat label="records delivered" value={t.recordsDelivered} testid="trigger-delivered" />
        <Stat label="filtered out" value={t.recordsFiltered} />
        <Stat label="invocations" value={t.invocations} />
        <Stat label="failed invocations" value={t.invocationErrors} bad={t.invocationErrors > 0} />
        <Stat label="records to on-failure" value={t.recordsFailed} testid="trigger-failed" bad={t.recordsFailed > 0} />
        <Stat label="batches bisected" value={t.batchesBisected} />
        <Stat label="delivered / s" value={rate ? rate.delivered.toFixed(1) : '—'} />
      </div>
      {t.lastError && (
        <div class="error" data-testid="trigger-error">
          last error: {t.lastError}
          {t.handler.kind === 'command' && <span class="muted"> (all of the handler's stderr is in the server's log)</span>}
        </div>
      )}
      <table class="grid" style={{ marginTop: '8px' }}>
        <thead>
          <tr>
            <th>Shard</th>
            <th>Status</th>
            <th>Next to deliver</th>
            <th>Last in shard</th>
            <th>Lag</th>
          </tr>
        </thead>
        <tbody>
          {t.shards.map((s) => (
            <tr data-testid="trigger-shard">
              <td class="mono">{s.shardId}</td>
              <td>
                {s.current && <span class="pill key">reading</span>}
                <span class="pill">{s.closed ? 'closed' : 'open'}</span>
              </td>
              <td class="mono" title={s.nextSequenceNumber ?? 'no checkpoint saved yet'}>
                {s.nextSequenceNumber === null ? 'not started' : shortSequence(s.nextSequenceNumber)}
              </td>
              <td class="mono" title={s.lastSequenceNumber ?? 'no records'}>
                {shortSequence(s.lastSequenceNumber)}
              </td>
              <td>{s.lagRecords}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {t.shards.length === 0 && <p class="muted">The table {t.table} has no stream yet: the trigger starts when one is enabled.</p>}
    </div>
  );
}

export function TriggersView() {
  const [report, setReport] = useState<TriggersReport | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [updated, setUpdated] = useState<Date | null>(null);
  const previous = useRef<{ at: number; byName: Map<string, TriggerStatus> } | null>(null);
  const [rateOf, setRateOf] = useState<Map<string, ReturnType<typeof rates>>>(new Map());
  const shared = useShared();
  const known = useRef(shared.tables);
  known.current = shared.tables;
  useEffect(() => {
    let live = true;
    const load = async () => {
      try {
        const got = await getJson<TriggersReport>('/monotable/triggers');
        if (!live) return;
        const at = got.now ?? Date.now();
        const before = previous.current;
        setRateOf(new Map(got.triggers.map((t) => [t.name, rates(before?.byName.get(t.name), before?.at, t, at)])));
        previous.current = { at, byName: new Map(got.triggers.map((t) => [t.name, t])) };
        setReport(got);
        setUpdated(new Date());
        // A trigger's table created since the console listed them: list them again (the picker).
        if (got.triggers.some((t) => t.shards.length > 0 && !known.current.some((k) => k.TableName === t.table))) {
          shared.refreshTables();
        }
        setError(null);
      } catch (e) {
        if (live) setError(e);
      }
    };
    load();
    const timer = setInterval(load, REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, []);
  const failing = report?.triggers.filter((t) => health(t) === 'failing').length ?? 0;
  return (
    <div>
      <div class="panel">
        <div class="row">
          <h2 style={{ margin: 0 }}>Stream triggers</h2>
          {report?.configured && (
            <span class="muted" data-testid="triggers-summary">
              {report.triggers.length} trigger{report.triggers.length === 1 ? '' : 's'}
              {failing > 0 ? `, ${failing} failing` : ''}
            </span>
          )}
          <span class="grow" />
          <span class="muted" data-testid="triggers-updated">
            {updated ? `updated ${updated.toLocaleTimeString()} · every ${REFRESH_MS / 1000} s` : 'loading…'}
          </span>
        </div>
        <p class="muted" style={{ margin: '8px 0 0' }}>
          Handlers the server runs for table streams, as a Lambda event source mapping would: a command fed each batch on stdin, or a POST to a loopback URL. Lag counts
          the stream records not yet acknowledged; records that exhaust their retries go to the on-failure destination. The same figures are in <code>/metrics</code> and{' '}
          <code>monotable triggers --endpoint URL</code>.
        </p>
      </div>
      <ErrorBox error={error} />
      {report && !report.configured && (
        <div class="panel" data-testid="triggers-none">
          <p style={{ marginTop: 0 }}>This server runs no stream triggers. Start it with a triggers file:</p>
          <pre class="code">monotable serve --triggers triggers.json</pre>
          <p class="muted">
            The file names, per trigger, the table, the handler (<code>Command</code> or <code>Url</code>) and the event source mapping settings; see docs/triggers.md. SIGHUP
            reloads it.
          </p>
        </div>
      )}
      {report?.configured && report.triggers.length === 0 && (
        <div class="panel muted">No triggers to show: the file names none, or none on a table your key may read.</div>
      )}
      {report?.triggers.map((t) => <TriggerCard key={t.name} t={t} rate={rateOf.get(t.name) ?? null} />)}
    </div>
  );
}
