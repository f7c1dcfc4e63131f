// The Triggers view's logic: health verdicts, rates across refreshes, handler and settings text.
import { describe, expect, it } from 'vitest';
import { ageText, handlerText, health, rates, settingsText, shortSequence, type TriggerStatus } from '../src/triggers';

const base: TriggerStatus = {
  name: 'bio-fanout',
  table: 'Library',
  handler: { kind: 'command', command: ['python3', '-c', "print('hi there')", 'handler.py'] },
  startingPosition: 'TRIM_HORIZON',
  batchSize: 100,
  batchingWindowSeconds: 0,
  maximumRetryAttempts: -1,
  maximumRecordAgeSeconds: -1,
  bisectBatchOnFunctionError: false,
  reportBatchItemFailures: false,
  filters: 0,
  onFailure: null,
  timeoutSeconds: 60,
  state: 'idle',
  lastError: null,
  invocations: 4,
  invocationErrors: 0,
  batchesDelivered: 4,
  recordsDelivered: 40,
  recordsFiltered: 10,
  recordsFailed: 0,
  batchesBisected: 0,
  lagRecords: 0,
  oldestUnacknowledgedAgeSeconds: 0,
  shards: [],
};

describe('health', () => {
  it('is failing while retrying or when the destination refuses', () => {
    expect(health({ ...base, state: 'retrying' })).toBe('failing');
    expect(health({ ...base, state: 'destination-error' })).toBe('failing');
    expect(health({ ...base, state: 'error' })).toBe('failing');
  });
  it('is behind only when records wait longer than the threshold', () => {
    expect(health({ ...base, state: 'delivering', lagRecords: 5, oldestUnacknowledgedAgeSeconds: 3 })).toBe('ok');
    expect(health({ ...base, state: 'delivering', lagRecords: 5, oldestUnacknowledgedAgeSeconds: 30 })).toBe('behind');
    expect(health({ ...base, state: 'delivering', lagRecords: 5, oldestUnacknowledgedAgeSeconds: 30 }, 60)).toBe('ok');
    expect(health({ ...base, lagRecords: 0, oldestUnacknowledgedAgeSeconds: 30 })).toBe('ok');
  });
  it('remembers records given up to the on-failure destination', () => {
    expect(health({ ...base, recordsFailed: 2 })).toBe('gave-up');
    expect(health({ ...base, recordsFailed: 2, state: 'retrying' })).toBe('failing');
  });
  it('says stopped and ok otherwise', () => {
    expect(health({ ...base, state: 'stopped' })).toBe('stopped');
    expect(health({ ...base, state: 'waiting-for-stream' })).toBe('ok');
  });
});

describe('rates', () => {
  it('divides counter growth by the seconds between reports', () => {
    const later = { ...base, recordsDelivered: 60, recordsFiltered: 11, recordsFailed: 2 };
    expect(rates(base, 1000, later, 3000)).toEqual({ delivered: 10, filtered: 0.5, failed: 1 });
  });
  it('has none without an earlier report, with a clock that did not move, or after a restart', () => {
    expect(rates(undefined, undefined, base, 1000)).toBeNull();
    expect(rates(base, 1000, base, 1000)).toBeNull();
    expect(rates(base, 1000, { ...base, recordsDelivered: 3 }, 2000)).toBeNull();
  });
});

describe('text', () => {
  it('quotes command arguments the way a shell would read them', () => {
    expect(handlerText(base)).toBe("python3 -c 'print('\\''hi there'\\'')' handler.py");
    expect(handlerText({ ...base, handler: { kind: 'url', url: 'http://127.0.0.1:9000/hook' } })).toBe('POST http://127.0.0.1:9000/hook');
  });
  it('lists the mapping settings, defaults left out', () => {
    expect(settingsText(base)).toEqual(['TRIM_HORIZON', 'batch 100', 'retries until expiry', 'no on-failure destination', 'timeout 60 s']);
    const all = {
      ...base,
      startingPosition: 'LATEST',
      batchingWindowSeconds: 2,
      filters: 2,
      maximumRetryAttempts: 1,
      maximumRecordAgeSeconds: 60,
      bisectBatchOnFunctionError: true,
      reportBatchItemFailures: true,
      onFailure: 'file:/tmp/failed.jsonl',
    };
    expect(settingsText(all)).toEqual([
      'LATEST', 'batch 100', 'window 2 s', '2 filters', '1 retry', 'max age 60 s', 'bisect on error', 'batchItemFailures',
      'on failure → file:/tmp/failed.jsonl', 'timeout 60 s',
    ]);
  });
  it('formats ages and sequence numbers', () => {
    expect(ageText(0)).toBe('—');
    expect(ageText(2.345)).toBe('2.3 s');
    expect(ageText(42.4)).toBe('42 s');
    expect(ageText(125)).toBe('2 min 5 s');
    expect(ageText(7320)).toBe('2 h 2 min');
    expect(shortSequence('000000000000000000042')).toBe('42');
    expect(shortSequence('000000000000000000000')).toBe('0');
    expect(shortSequence(null)).toBe('—');
  });
});
