// The stream triggers' status as the server reports it (GET /monotable/triggers, see
// src/triggers/status_json.h), and what the Triggers view derives from it: a health verdict per
// trigger, delivery rates between two refreshes, readable handler and settings lines.

export interface TriggerShard {
  shardId: string;
  current: boolean;
  closed: boolean;
  nextSequenceNumber: string | null;
  lastSequenceNumber: string | null;
  lagRecords: number;
}

export interface TriggerStatus {
  name: string;
  table: string;
  handler: { kind: 'command'; command: string[] } | { kind: 'url'; url: string };
  startingPosition: string;
  batchSize: number;
  batchingWindowSeconds: number;
  maximumRetryAttempts: number;
  maximumRecordAgeSeconds: number;
  bisectBatchOnFunctionError: boolean;
  reportBatchItemFailures: boolean;
  filters: number;
  onFailure: string | null;
  timeoutSeconds: number;
  state: string;
  lastError: string | null;
  invocations: number;
  invocationErrors: number;
  batchesDelivered: number;
  recordsDelivered: number;
  recordsFiltered: number;
  recordsFailed: number;
  batchesBisected: number;
  lagRecords: number;
  oldestUnacknowledgedAgeSeconds: number;
  shards: TriggerShard[];
}

export interface TriggersReport {
  configured: boolean;
  now?: number;
  triggers: TriggerStatus[];
}

export type Health = 'ok' | 'behind' | 'gave-up' | 'failing' | 'stopped';

// 'failing': the handler is being retried or the destination refuses; 'behind': records wait
// (lag) for longer than `behindSeconds`; 'gave-up': delivering again, but records went to the
// on-failure destination since the server started; 'stopped': not running; otherwise 'ok'.
export function health(t: TriggerStatus, behindSeconds = 10): Health {
  if (t.state === 'retrying' || t.state === 'destination-error' || t.state === 'error') return 'failing';
  if (t.state === 'stopped') return 'stopped';
  if (t.lagRecords > 0 && t.oldestUnacknowledgedAgeSeconds > behindSeconds) return 'behind';
  if (t.recordsFailed > 0) return 'gave-up';
  return 'ok';
}

// Records per second delivered, filtered and failed between two reports of the same trigger
// (null when there is no earlier report, the clock did not move, or the counters went back: a
// restarted server).
export function rates(
  before: TriggerStatus | undefined,
  beforeMs: number | undefined,
  now: TriggerStatus,
  nowMs: number,
): { delivered: number; filtered: number; failed: number } | null {
  if (!before || beforeMs === undefined || nowMs <= beforeMs) return null;
  const d = (k: 'recordsDelivered' | 'recordsFiltered' | 'recordsFailed') => now[k] - before[k];
  if (d('recordsDelivered') < 0 || d('recordsFiltered') < 0 || d('recordsFailed') < 0) return null;
  const s = (nowMs - beforeMs) / 1000;
  return { delivered: d('recordsDelivered') / s, filtered: d('recordsFiltered') / s, failed: d('recordsFailed') / s };
}

// A shell-like line for a command handler (arguments with spaces or quotes quoted), or the URL.
export function handlerText(t: TriggerStatus): string {
  if (t.handler.kind === 'url') return `POST ${t.handler.url}`;
  return t.handler.command.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

// The event source mapping settings in Lambda's words, defaults left out.
export function settingsText(t: TriggerStatus): string[] {
  const out = [t.startingPosition, `batch ${t.batchSize}`];
  if (t.batchingWindowSeconds > 0) out.push(`window ${t.batchingWindowSeconds} s`);
  if (t.filters > 0) out.push(`${t.filters} filter${t.filters > 1 ? 's' : ''}`);
  const n = t.maximumRetryAttempts;
  out.push(n < 0 ? 'retries until expiry' : `${n} ${n === 1 ? 'retry' : 'retries'}`);
  if (t.maximumRecordAgeSeconds >= 0) out.push(`max age ${t.maximumRecordAgeSeconds} s`);
  if (t.bisectBatchOnFunctionError) out.push('bisect on error');
  if (t.reportBatchItemFailures) out.push('batchItemFailures');
  out.push(t.onFailure ? `on failure → ${t.onFailure}` : 'no on-failure destination');
  out.push(`timeout ${t.timeoutSeconds} s`);
  return out;
}

export function ageText(seconds: number): string {
  if (seconds <= 0) return '—';
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.floor(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

// A sequence number without its zero padding (they are 21 digits).
export function shortSequence(seq: string | null): string {
  if (seq === null) return '—';
  return seq.replace(/^0+(?=\d)/, '');
}
