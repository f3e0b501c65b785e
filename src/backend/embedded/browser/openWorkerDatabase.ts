import { PGlite } from '@electric-sql/pglite';
import fsBundleUrl from '@electric-sql/pglite/pglite.data?url';
import wasmUrl from '@electric-sql/pglite/pglite.wasm?url';

/**
 * Started as soon as the worker script runs, i.e. while the tab is still waiting for the snapshot
 * and the tabs elect a leader: the WebAssembly compiles and the file bundle downloads in parallel
 * instead of after `init`. A failure just leaves it to PGlite to fetch them itself.
 */
const prefetched = {
  wasm: WebAssembly.compileStreaming(fetch(wasmUrl)).catch(() => undefined),
  fsBundle: fetch(fsBundleUrl)
    .then((r) => (r.ok ? r.blob() : undefined))
    .catch(() => undefined),
};

/** Where the leader's worker opens the database (serveBackend.ts). */
export interface WorkerDatabaseOptions {
  dataDir?: string;
  /** A snapshot to create the database from; only used when the database does not exist yet. */
  loadDataDir?: Blob | File;
}

/**
 * Opens the database in the leader's worker: from the snapshot on a first visit (no initdb, no
 * migration), else the existing IndexedDB database.
 *
 * @example
 * const db = await openWorkerDatabase({ dataDir: 'idb://ninefold-helpdesk' });
 */
export async function openWorkerDatabase(options: WorkerDatabaseOptions): Promise<PGlite> {
  const [pgliteWasmModule, fsBundle] = await Promise.all([prefetched.wasm, prefetched.fsBundle]);
  const base = {
    dataDir: options.dataDir ?? 'idb://ninefold',
    // Not `relaxedDurability`: with it the IndexedDB sync of one query overlaps the next query's
    // file changes, and in Chromium that ends in ErrnoError (test/browser caught it).
    ...(pgliteWasmModule ? { pgliteWasmModule } : {}),
    ...(fsBundle ? { fsBundle } : {}),
  };
  if (options.loadDataDir) {
    try {
      return syncOnlyWhenWritten(await PGlite.create({ ...base, loadDataDir: options.loadDataDir }));
    } catch (e) {
      // Another tab created the database between this tab's check and now: open that one.
      if (!String(e).includes('already exists')) throw e;
    }
  }
  return syncOnlyWhenWritten(await PGlite.create(base));
}

/** Every Emscripten FS call through which Postgres changes a file or the tree. */
const WRITES = [
  'write',
  'msync',
  'allocate',
  'truncate',
  'ftruncate',
  'unlink',
  'rename',
  'mkdir',
  'rmdir',
  'mknod',
  'symlink',
  'chmod',
  'utime',
];

/**
 * Each transaction ends with `syncToFs()`, and PGlite's IndexedDB layer then compares every
 * file of the data directory with the store, reads included: hundreds of ms per query on the
 * worker's only thread (measured: `select 1` took 0.7–4 s in the page on a busy machine, 1 ms of it
 * in Postgres). Postgres changed nothing when none of the FS's write calls ran since the last
 * sync, so that sync is skipped; any write makes the next one a full sync (which also carries
 * anything an earlier skipped one could have missed).
 */
function syncOnlyWhenWritten(pg: PGlite): PGlite {
  const fs = pg.Module.FS as unknown as Record<string, unknown>;
  let dirty = true;
  for (const name of WRITES) {
    const original = fs[name];
    if (typeof original !== 'function') continue;
    fs[name] = function (this: unknown, ...args: unknown[]) {
      dirty = true;
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
  }
  // PGlite syncs after each query outside a transaction, but not after a transaction's COMMIT
  // (its in-transaction flag is still set then): the commit would reach IndexedDB only with the
  // next query, and a tab closed before that loses it. Each transaction is synced when it ends.
  const transaction = pg.transaction.bind(pg);
  pg.transaction = async <T>(fn: Parameters<typeof transaction<T>>[0]): Promise<T> => {
    try {
      return await transaction(fn);
    } finally {
      await pg.syncToFs();
    }
  };
  const sync = pg.syncToFs.bind(pg);
  pg.syncToFs = async () => {
    if (!dirty) return;
    // Cleared first: a write during this sync makes the next one run.
    dirty = false;
    try {
      await sync();
    } catch (e) {
      // Retried by the next call, except when IndexedDB is full: then it would fail every read of
      // every tab (STORAGE_FULL) until reload; the next write retries it, with all that is pending.
      if ((e as { name?: unknown } | null)?.name !== 'QuotaExceededError') dirty = true;
      throw e;
    }
  };
  return pg;
}
