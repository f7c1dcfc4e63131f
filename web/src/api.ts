// The DynamoDB JSON API of the server the console came from (POST / with X-Amz-Target), signed
// with SigV4 (aws4fetch) when the user entered a key. The key lives in sessionStorage only.
import { AwsClient } from 'aws4fetch';

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  region: string;
}

const CREDS_KEY = 'monotable.console.credentials';

export function loadCredentials(): Credentials | null {
  try {
    const raw = sessionStorage.getItem(CREDS_KEY);
    return raw ? (JSON.parse(raw) as Credentials) : null;
  } catch {
    return null;
  }
}

export function saveCredentials(c: Credentials | null): void {
  if (c) sessionStorage.setItem(CREDS_KEY, JSON.stringify(c));
  else sessionStorage.removeItem(CREDS_KEY);
  signer = null;
}

export class DynamoError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
  get short(): string {
    return this.type.replace(/^.*#/, '');
  }
  // The server wants a signature (or refused the one sent).
  get isAuth(): boolean {
    return /MissingAuthenticationToken|UnrecognizedClient|InvalidSignature|IncompleteSignature|AccessDenied|SignatureDoesNotMatch/.test(
      this.type,
    );
  }
}

let signer: AwsClient | null = null;

function currentSigner(): AwsClient | null {
  if (signer) return signer;
  const c = loadCredentials();
  if (!c) return null;
  if (!globalThis.crypto?.subtle) {
    throw new DynamoError(
      'ConsoleError',
      'Signing needs the browser\'s Web Crypto, which it offers only on https:// or localhost pages. Open the console at http://localhost:PORT/console/ or through monotable\'s TLS port.',
      0,
    );
  }
  signer = new AwsClient({
    accessKeyId: c.accessKeyId,
    secretAccessKey: c.secretAccessKey,
    sessionToken: c.sessionToken || undefined,
    service: 'dynamodb',
    region: c.region || 'us-east-1',
  });
  return signer;
}

export const endpoint = (): string => `${location.protocol}//${location.host}/`;

// Every call the console made, newest last, for the activity readout.
export const activity: { op: string; ms: number; ok: boolean }[] = [];

export async function call<T = any>(op: string, body: object, prefix = 'DynamoDB_20120810'): Promise<T> {
  const init: RequestInit = {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-amz-json-1.0', 'X-Amz-Target': `${prefix}.${op}` },
    body: JSON.stringify(body),
  };
  const started = performance.now();
  const s = currentSigner();
  let response: Response;
  try {
    response = s ? await s.fetch(endpoint(), init) : await fetch(endpoint(), init);
  } catch (e) {
    throw new DynamoError('ConsoleError', `cannot reach the server at ${endpoint()} (${(e as Error).message}); is monotable still running?`, 0);
  }
  const text = await response.text();
  activity.push({ op, ms: performance.now() - started, ok: response.ok });
  if (activity.length > 200) activity.shift();
  let parsed: any = {};
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    throw new DynamoError('ConsoleError', `unreadable answer (${response.status}): ${text.slice(0, 200)}`, response.status);
  }
  if (!response.ok) {
    throw new DynamoError(parsed.__type ?? `HTTP ${response.status}`, parsed.message ?? parsed.Message ?? text, response.status);
  }
  return parsed as T;
}

// A GET of the server's own JSON (the heat map), signed like the API calls when a key is set:
// with credentials configured the server answers it only to a signed request.
export async function getJson<T = any>(path: string): Promise<T> {
  const url = `${location.protocol}//${location.host}${path}`;
  const s = currentSigner();
  let response: Response;
  try {
    response = s ? await s.fetch(url, { method: 'GET' }) : await fetch(url);
  } catch (e) {
    throw new DynamoError('ConsoleError', `cannot reach the server at ${endpoint()} (${(e as Error).message}); is monotable still running?`, 0);
  }
  const text = await response.text();
  let parsed: any = {};
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    throw new DynamoError('ConsoleError', `unreadable answer (${response.status}): ${text.slice(0, 200)}`, response.status);
  }
  if (!response.ok) {
    throw new DynamoError(parsed.__type ?? `HTTP ${response.status}`, parsed.message ?? parsed.Message ?? text, response.status);
  }
  return parsed as T;
}

export const streams = <T = any>(op: string, body: object) => call<T>(op, body, 'DynamoDBStreams_20120810');

export function errorText(e: unknown): string {
  if (e instanceof DynamoError) return `${e.short}: ${e.message}`;
  return e instanceof Error ? e.message : String(e);
}

// BatchWriteItem in chunks of 25, retrying unprocessed items with a short back-off.
export async function batchWrite(
  table: string,
  requests: object[],
  progress?: (done: number) => void,
): Promise<void> {
  let done = 0;
  for (let i = 0; i < requests.length; i += 25) {
    let pending: object[] = requests.slice(i, i + 25);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 8) throw new Error(`${pending.length} writes stayed unprocessed`);
      if (attempt > 0) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
      const out = await call<{ UnprocessedItems?: Record<string, object[]> }>('BatchWriteItem', {
        RequestItems: { [table]: pending },
      });
      const left = out.UnprocessedItems?.[table] ?? [];
      done += pending.length - left.length;
      pending = left;
      progress?.(done);
    }
  }
}
