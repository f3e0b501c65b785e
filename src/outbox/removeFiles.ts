/**
 * The second job of the `ninefold-outbox` Edge Function (issue 11, finding 9): the Storage objects
 * of deleted file rows, which the migration queues in `app.file_removals`, are removed through the
 * Storage API — the only supported way to delete them on Supabase. Same scheme as the calls
 * (deliver.ts): entries are taken leased (`public.ninefold_file_removals`), a 2xx answer removes
 * the entry (`ninefold_file_removed`), anything else is a failed attempt retried with backoff and
 * failed for good after the last (`ninefold_file_removal_failed`). Only a relative import of the
 * same folder: the folder is copied into `supabase/functions/` as it is.
 */
import { DEFAULT_RETRY, type RetryPolicy } from './deliver.ts';

/** One queued object, as `public.ninefold_file_removals` returns it. */
export interface QueuedFile {
  bucket: string;
  path: string;
  /** Attempts so far, this one included. */
  attempts: number;
}

/** The database side of the queue (service role or owner). */
export interface FileRemovalStore {
  take(limit: number, leaseSeconds: number): Promise<QueuedFile[]>;
  removed(file: QueuedFile): Promise<void>;
  /** Returns the entry's new status: `pending` (retried later) or `failed` (for good). */
  failed(file: QueuedFile, error: string, policy: RetryPolicy): Promise<string | null>;
}

/** The project's Storage API: its base URL (`<project URL>/storage/v1`) and the service-role key. */
export interface StorageApi {
  url: string;
  serviceKey: string;
}

export interface RemoveOptions {
  store: FileRemovalStore;
  storage: StorageApi;
  fetch: typeof fetch;
  retry?: RetryPolicy;
  /** Objects per run, default 100. */
  limit?: number;
  leaseSeconds?: number;
  /** Per request, default 10 s. */
  timeoutMs?: number;
}

export interface RemovalReport {
  removed: number;
  retried: number;
  failed: number;
}

/**
 * One run over the queue: each due object is deleted with the Storage API's
 * `DELETE /object/<bucket>` and `{ "prefixes": [<path>] }` (what `storage.from(bucket).remove([path])`
 * sends). An object already gone answers 200 with an empty list: removed too.
 *
 * @example
 * await removeQueuedFiles({ store, storage: { url, serviceKey }, fetch }); // { removed: 2, retried: 0, failed: 0 }
 */
export async function removeQueuedFiles(o: RemoveOptions): Promise<RemovalReport> {
  const retry = o.retry ?? DEFAULT_RETRY;
  const report: RemovalReport = { removed: 0, retried: 0, failed: 0 };
  for (const f of await o.store.take(o.limit ?? 100, o.leaseSeconds ?? 60)) {
    const error = await removeOne(o, f);
    if (error === null) {
      await o.store.removed(f);
      report.removed++;
      continue;
    }
    if ((await o.store.failed(f, error, retry)) === 'failed') report.failed++;
    else report.retried++;
  }
  return report;
}

async function removeOne(o: RemoveOptions, f: QueuedFile): Promise<string | null> {
  let res: Response;
  try {
    res = await o.fetch(`${o.storage.url.replace(/\/+$/, '')}/object/${encodeURIComponent(f.bucket)}`, {
      method: 'DELETE',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${o.storage.serviceKey}`,
        apikey: o.storage.serviceKey,
      },
      body: JSON.stringify({ prefixes: [f.path] }),
      signal: AbortSignal.timeout(o.timeoutMs ?? 10_000),
    });
  } catch (e) {
    return `unreachable: ${e instanceof Error ? e.message : String(e)}`;
  }
  const text = await res.text().catch(() => '');
  return res.ok ? null : `HTTP ${res.status}: ${text.slice(0, 500)}`;
}

/** A store over any SQL connection that runs as the owner or `service_role` (`$1` parameters). */
export function sqlFileRemovalStore(
  query: <T>(sql: string, params: unknown[]) => Promise<T[]>,
): FileRemovalStore {
  return {
    take: (limit, leaseSeconds) =>
      query<QueuedFile>(
        'select bucket, path, attempts from public.ninefold_file_removals($1::integer, $2::integer)',
        [limit, leaseSeconds],
      ),
    async removed(f) {
      await query('select public.ninefold_file_removed($1::text, $2::text)', [f.bucket, f.path]);
    },
    async failed(f, error, policy) {
      const rows = await query<{ status: string | null }>(
        'select public.ninefold_file_removal_failed($1::text, $2::text, $3::text, $4::integer, $5::double precision) as status',
        [f.bucket, f.path, error, policy.maxAttempts, policy.baseSeconds],
      );
      return rows[0]?.status ?? null;
    },
  };
}
