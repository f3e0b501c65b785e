/**
 * `ninefold-outbox`: the Supabase Edge Function that sends the declared calls transitions queued
 * in `app.outbox` (issue 11, finding 11), and removes the Storage objects of deleted file rows
 * queued in `app.file_removals` (finding 9). Copy this folder into `supabase/functions/` and
 * schedule it (docs/hosting.md, "Declared calls"). Each run delivers what is due, with retries,
 * backoff and the `Idempotency-Key` header (deliver.ts), then removes the due objects through the
 * Storage API with the same retry scheme (removeFiles.ts).
 *
 * Environment: `SUPABASE_URL` and `SUPABASE_SERVICE_ROLE_KEY` (provided by Supabase);
 * `OUTBOX_TRIGGER_SECRET` (yours: the scheduler sends it as `Authorization: Bearer <secret>`, so
 * nobody else can start a run); optional `NINEFOLD_SERVICE_<SERVICE>` base URLs (for example
 * `NINEFOLD_SERVICE_ACCOUNTING=https://books.example.com`) for services that are neither a host
 * name nor an Edge Function of this project.
 */
import { type ClaimedCall, callTarget, deliverDue, sqlOutboxStore } from './deliver.ts';
import { removeQueuedFiles, sqlFileRemovalStore } from './removeFiles.ts';

// Deno's globals, declared here so the file also type-checks with the repository's TypeScript.
declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(handler: (request: Request) => Response | Promise<Response>): unknown;
};

const env = (name: string): string => {
  const v = Deno.env.get(name);
  if (!v) throw new Error(`${name} is not set`);
  return v;
};

/** PostgREST has no such function (PGRST202): the migration made none (no files entity, no calls). */
class MissingFunction extends Error {}

/** Calls `public.<fn>` through PostgREST with the service-role key (outbox functions are service-only). */
async function rpc<T>(fn: string, args: Record<string, unknown>): Promise<T[]> {
  const key = env('SUPABASE_SERVICE_ROLE_KEY');
  const res = await fetch(`${env('SUPABASE_URL')}/rest/v1/rpc/${fn}`, {
    method: 'POST',
    headers: { apikey: key, Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(args),
  });
  if (res.status === 404) throw new MissingFunction(fn);
  if (!res.ok) throw new Error(`${fn}: HTTP ${res.status} ${await res.text()}`);
  const data = (await res.json()) as T[] | T;
  return Array.isArray(data) ? data : [data];
}

const FUNCTIONS = [
  ['select * from public.outbox_claim', 'outbox_claim', ['p_calls', 'p_limit', 'p_lease_seconds']],
  ['select public.outbox_delivered', 'outbox_delivered', ['p_id', 'p_response']],
  ['select public.outbox_failed', 'outbox_failed', ['p_id', 'p_error', 'p_max_attempts', 'p_base_seconds']],
  [
    'select bucket, path, attempts from public.ninefold_file_removals',
    'ninefold_file_removals',
    ['p_limit', 'p_lease_seconds'],
  ],
  ['select public.ninefold_file_removed', 'ninefold_file_removed', ['p_bucket', 'p_path']],
  [
    'select public.ninefold_file_removal_failed',
    'ninefold_file_removal_failed',
    ['p_bucket', 'p_path', 'p_error', 'p_max_attempts', 'p_base_seconds'],
  ],
] as const;

// The shared store speaks SQL; here each statement becomes its PostgREST RPC with named arguments.
const query = async <T>(sql: string, params: unknown[]): Promise<T[]> => {
  const f = FUNCTIONS.find(([prefix]) => sql.startsWith(prefix));
  if (!f) throw new Error(`unexpected statement: ${sql}`);
  const args = Object.fromEntries(
    f[2].map((name, i) => [name, name === 'p_response' ? JSON.parse(String(params[i])) : params[i]]),
  );
  const rows = await rpc<Record<string, unknown>>(f[1], args);
  // `outbox_failed` and `ninefold_file_removal_failed` answer a bare text; the stores read `status`.
  return (f[1].endsWith('_failed') ? rows.map((status) => ({ status })) : rows) as T[];
};
const store = sqlOutboxStore(query);
const files = sqlFileRemovalStore(query);

function destination(c: ClaimedCall): { url: string; headers?: Record<string, string> } | null {
  const override = Deno.env.get(`NINEFOLD_SERVICE_${c.service.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`);
  if (override) return { url: override };
  const target = callTarget(c.service);
  if (target.kind === 'host') return { url: target.origin };
  // An Edge Function of this project, called with the service-role key (it is the server calling).
  const key = env('SUPABASE_SERVICE_ROLE_KEY');
  return {
    url: `${env('SUPABASE_URL')}/functions/v1/${target.name}`,
    headers: { Authorization: `Bearer ${key}`, apikey: key },
  };
}

async function unlessMissing<T>(run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof MissingFunction) return null;
    throw e;
  }
}

Deno.serve(async (request) => {
  if (request.headers.get('Authorization') !== `Bearer ${env('OUTBOX_TRIGGER_SECRET')}`)
    return new Response('forbidden', { status: 403 });
  // A spec without declared calls has no outbox, one without files entities no removal queue.
  const report = (await unlessMissing(() => deliverDue({ store, destination, fetch }))) ?? {
    delivered: 0,
    retried: 0,
    failed: 0,
  };
  const key = env('SUPABASE_SERVICE_ROLE_KEY');
  const removed = await unlessMissing(() =>
    removeQueuedFiles({
      store: files,
      storage: { url: `${env('SUPABASE_URL')}/storage/v1`, serviceKey: key },
      fetch,
    }),
  );
  return Response.json({ ...report, files: removed });
});
