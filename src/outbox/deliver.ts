/**
 * The outbox deliverer (issue 11, finding 11), shared by the embedded backend's worker and the
 * `ninefold-outbox` Edge Function on Supabase. Self-contained on purpose (no imports): this folder
 * is copied into a project's `supabase/functions/ninefold-outbox/` as it is, and Deno runs it. It
 * sits outside both adapters (neither adapter imports the other) and imports nothing, so every
 * layer may use it (docs/architecture.md, "The layers").
 *
 * The database decides what is due and when (`public.outbox_claim`, `outbox_delivered`,
 * `outbox_failed` in the migration): a call is claimed under `for update skip locked` with a
 * lease, sent with its `Idempotency-Key`, then marked delivered, or failed with exponential
 * backoff and, after the last attempt, failed for good with its error (admins read it).
 */
import { CONTROL_CHARACTERS, isSingleLineKey } from './singleLine.ts';

/** One claimed call, as `public.outbox_claim` returns it. */
export interface ClaimedCall {
  id: string;
  call: string;
  payload: Record<string, unknown>;
  idempotencyKey: string;
  /** Attempts so far, this one included. */
  attempts: number;
  method: string;
  path: string;
  service: string;
}

/** Retry policy: attempt n waits `baseSeconds · 2^(n-1)` after failing; failed for good after `maxAttempts`. */
export interface RetryPolicy {
  maxAttempts: number;
  baseSeconds: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 8, baseSeconds: 30 };

/** The database side, over whatever connection the deliverer has (PGlite, PostgREST, pg). */
export interface OutboxStore {
  /** Claims up to `limit` due calls (only `calls`, when given) for `leaseSeconds`. */
  claim(calls: readonly string[] | null, limit: number, leaseSeconds: number): Promise<ClaimedCall[]>;
  delivered(id: string, response: unknown): Promise<void>;
  /** Returns the row's new status: `pending` (retried later) or `failed` (for good). */
  failed(id: string, error: string, policy: RetryPolicy): Promise<string | null>;
}

/** Where a call is sent: a URL and extra headers, or null when this deliverer cannot reach it. */
export type Destination = (call: ClaimedCall) => { url: string; headers?: Record<string, string> } | null;

/** Where a declared call goes: an Edge Function of the project, or an external host. */
export type CallTarget = { kind: 'function'; name: string } | { kind: 'host'; origin: string };

/**
 * A `service` with a dot or a scheme is a host name (`api.example.com`); anything else is an
 * Edge Function name (`notify`).
 *
 * @example
 * callTarget('notify'); // { kind: 'function', name: 'notify' }
 * callTarget('hooks.example.com'); // { kind: 'host', origin: 'https://hooks.example.com' }
 */
export function callTarget(service: string): CallTarget {
  if (/^https?:\/\//.test(service)) return { kind: 'host', origin: service.replace(/\/+$/, '') };
  if (service.includes('.')) return { kind: 'host', origin: `https://${service}` };
  return { kind: 'function', name: service };
}

/** A payload key a path parameter needs is missing. */
export class MissingPathParameter extends Error {
  constructor(readonly field: string) {
    super(`path parameter ${field} is missing`);
  }
}

/**
 * The request line of a call: `:params` of the path filled from the payload (URL-encoded); for
 * GET and DELETE the remaining payload goes to the query string, otherwise it is the JSON body.
 *
 * @example
 * callRequest({ method: 'GET', path: '/rates/:currency' }, { currency: 'EUR', day: '2026-01-02' });
 * // { path: '/rates/EUR?day=2026-01-02', body: undefined }
 */
export function callRequest(
  call: { method: string; path: string },
  payload: Record<string, unknown>,
): { path: string; body: Record<string, unknown> | undefined } {
  const used = new Set<string>();
  let path = call.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    used.add(name);
    const v = payload[name];
    if (v === undefined || v === null) throw new MissingPathParameter(name);
    return encodeURIComponent(String(v));
  });
  if (!path.startsWith('/')) path = `/${path}`;
  if (call.method === 'GET' || call.method === 'DELETE') {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(payload)) {
      if (used.has(k) || v === undefined || v === null) continue;
      query.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
    }
    const qs = query.toString();
    return { path: qs ? `${path}?${qs}` : path, body: undefined };
  }
  return { path, body: payload };
}

export interface DeliverOptions {
  store: OutboxStore;
  destination: Destination;
  fetch: typeof fetch;
  /** Calls this deliverer can reach (null: all). Others stay queued for a deliverer that can. */
  calls?: readonly string[] | null;
  retry?: RetryPolicy;
  /** Calls per round, default 10. */
  limit?: number;
  /** How long a claim holds before another deliverer may retry it, default 60 s. */
  leaseSeconds?: number;
  /** Per request, default 10 s. */
  timeoutMs?: number;
}

export interface DeliveryReport {
  delivered: number;
  retried: number;
  failed: number;
}

/**
 * One delivery round: claims the due calls and sends each once with its `Idempotency-Key`
 * header. A 2xx answer marks the call delivered (its JSON answer kept); anything else — an error
 * status, a timeout, a refused connection — is an attempt that failed, retried with backoff.
 *
 * @example
 * await deliverDue({ store, destination, fetch }); // { delivered: 1, retried: 0, failed: 0 }
 */
export async function deliverDue(o: DeliverOptions): Promise<DeliveryReport> {
  const retry = o.retry ?? DEFAULT_RETRY;
  const report: DeliveryReport = { delivered: 0, retried: 0, failed: 0 };
  const claimed = await o.store.claim(o.calls ?? null, o.limit ?? 10, o.leaseSeconds ?? 60);
  for (const c of claimed) {
    const error = await sendOne(o, c);
    if (error === null) {
      report.delivered++;
      continue;
    }
    // A refusal is failed for good at once (this attempt is the last one).
    const policy = error.final ? { ...retry, maxAttempts: Math.min(retry.maxAttempts, c.attempts) } : retry;
    const status = await o.store.failed(c.id, error.text, policy);
    if (status === 'failed') report.failed++;
    else report.retried++;
  }
  return report;
}

/**
 * Why a call must not be sent (finding 28.6): a control character or line break in a header
 * of the request, or in a payload value that is single-line by nature (`subject`, `to`, a name:
 * singleLine.ts), which the receiving service may put into a mail header. The database fills such
 * keys single-line; this catches a value that came another way (a client's input, an old row).
 */
export function headerProblem(headers: Record<string, string>, payload: unknown, at = ''): string | null {
  for (const [k, v] of Object.entries(headers))
    if (CONTROL_CHARACTERS.test(k) || CONTROL_CHARACTERS.test(v))
      return `refused: a control character in the request header ${JSON.stringify(k)}`;
  if (Array.isArray(payload)) {
    for (const [i, item] of payload.entries()) {
      const p = headerProblem({}, item, `${at}${i}.`);
      if (p) return p;
    }
  } else if (payload !== null && typeof payload === 'object') {
    for (const [k, v] of Object.entries(payload)) {
      if (typeof v === 'string' && isSingleLineKey(k) && CONTROL_CHARACTERS.test(v))
        return `refused: a control character or line break in the single-line payload value ${at}${k}`;
      const p = typeof v === 'object' ? headerProblem({}, v, `${at}${k}.`) : null;
      if (p) return p;
    }
  }
  return null;
}

async function sendOne(o: DeliverOptions, c: ClaimedCall): Promise<{ text: string; final?: boolean } | null> {
  const to = o.destination(c);
  if (!to) return { text: `no destination for service ${c.service}` };
  let request: ReturnType<typeof callRequest>;
  try {
    request = callRequest(c, c.payload);
  } catch (e) {
    return { text: e instanceof Error ? e.message : String(e) };
  }
  const headers: Record<string, string> = {
    ...(request.body ? { 'Content-Type': 'application/json' } : {}),
    'Idempotency-Key': c.idempotencyKey,
    ...(to.headers ?? {}),
  };
  // Never sent, and never retried: the same row would be refused again.
  const unsafe =
    headerProblem(headers, c.payload) ??
    (CONTROL_CHARACTERS.test(request.path) ? 'refused: a control character in the request path' : null);
  if (unsafe) return { text: unsafe, final: true };
  let res: Response;
  try {
    res = await o.fetch(`${to.url.replace(/\/+$/, '')}${request.path}`, {
      method: c.method,
      headers,
      ...(request.body ? { body: JSON.stringify(request.body) } : {}),
      signal: AbortSignal.timeout(o.timeoutMs ?? 10_000),
    });
  } catch (e) {
    return { text: `unreachable: ${e instanceof Error ? e.message : String(e)}` };
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) return { text: `HTTP ${res.status}: ${text.slice(0, 500)}` };
  let answer: unknown = null;
  try {
    answer = text === '' ? null : JSON.parse(text);
  } catch {
    answer = { text: text.slice(0, 2000) };
  }
  await o.store.delivered(c.id, answer);
  return null;
}

/** Rows of `public.outbox_claim` (snake_case, as any driver returns them) as claimed calls. */
export function claimedCalls(
  rows: readonly {
    id: string;
    call: string;
    payload: unknown;
    idempotency_key: string;
    attempts: number;
    method: string;
    path: string;
    service: string;
  }[],
): ClaimedCall[] {
  return rows.map((r) => ({
    id: r.id,
    call: r.call,
    payload: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as Record<string, unknown>,
    idempotencyKey: r.idempotency_key,
    attempts: r.attempts,
    method: r.method,
    path: r.path,
    service: r.service,
  }));
}

/** A store over any SQL connection that runs as the owner or `service_role` (`$1` parameters). */
export function sqlOutboxStore(query: <T>(sql: string, params: unknown[]) => Promise<T[]>): OutboxStore {
  return {
    async claim(calls, limit, leaseSeconds) {
      const rows = await query<Parameters<typeof claimedCalls>[0][number]>(
        'select * from public.outbox_claim($1::text[], $2::integer, $3::integer)',
        [calls === null ? null : [...calls], limit, leaseSeconds],
      );
      return claimedCalls(rows);
    },
    async delivered(id, response) {
      await query('select public.outbox_delivered($1::uuid, $2::jsonb)', [id, JSON.stringify(response)]);
    },
    async failed(id, error, policy) {
      const rows = await query<{ status: string | null }>(
        'select public.outbox_failed($1::uuid, $2::text, $3::integer, $4::double precision) as status',
        [id, error, policy.maxAttempts, policy.baseSeconds],
      );
      return rows[0]?.status ?? null;
    },
  };
}
