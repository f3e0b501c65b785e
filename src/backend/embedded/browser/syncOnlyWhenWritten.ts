import type { PGlite } from '@electric-sql/pglite';
import { checkpointWhenWalGrows } from './checkpointWhenWalGrows.ts';

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
 * The worker's PGlite with its IndexedDB syncs made cheap and ordered (and checkpointed, see
 * checkpointWhenWalGrows).
 *
 * - Each query ends with `syncToFs()`, and PGlite's IndexedDB layer then compares every file of
 *   the data directory with the store, reads included: hundreds of ms per query on the worker's
 *   only thread (measured: `select 1` took 0.7–4 s in the page on a busy machine, 1 ms of it in
 *   Postgres). Postgres changed nothing when none of the FS's write calls ran since the last
 *   sync, so that sync is skipped; any write makes the next one a full sync (which also carries
 *   anything an earlier skipped one could have missed).
 * - A skipped sync still waits for the sync in flight: every answer comes after everything
 *   written before it is stored. Without that, a query answered while an earlier write's sync was
 *   still storing (a bulk write's, 12 s of it) and a tab closed then lost that sync: after a
 *   100,000-row insert, the one that deletes the WAL segments a checkpoint removed, so the next
 *   visit read 597 MB of dead WAL from IndexedDB (a 12 s open; docs/performance.md).
 * - PGlite syncs after each query outside a transaction, but not after a transaction's COMMIT
 *   (its in-transaction flag is still set then): the commit would reach IndexedDB only with the
 *   next query, and a tab closed before that loses it. Each transaction is synced when it ends,
 *   and the next statement waits for that sync.
 *
 * @example
 * const pg = syncOnlyWhenWritten(await PGlite.create({ dataDir: 'idb://ninefold-helpdesk' }));
 */
export function syncOnlyWhenWritten(opened: PGlite): PGlite {
  const pg = checkpointWhenWalGrows(opened);
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
  const transaction = pg.transaction.bind(pg);
  pg.transaction = async <T>(fn: Parameters<typeof transaction<T>>[0]): Promise<T> => {
    try {
      return await transaction(fn);
    } finally {
      await pg.syncToFs();
    }
  };
  const sync = pg.syncToFs.bind(pg);
  // The last sync started: PGlite runs its syncs one after another, so it ends after every
  // earlier one.
  let storing: Promise<void> = Promise.resolve();
  pg.syncToFs = async () => {
    // Its failure is the write's that made it (answered to that caller); a reader only waits.
    if (!dirty) return storing.catch(() => undefined);
    // Cleared first: a write during this sync makes the next one run.
    dirty = false;
    storing = sync();
    try {
      await storing;
    } catch (e) {
      // Retried by the next call, except when IndexedDB is full: then it would fail every read of
      // every tab (STORAGE_FULL) until reload; the next write retries it, with all that is pending.
      if ((e as { name?: unknown } | null)?.name !== 'QuotaExceededError') dirty = true;
      throw e;
    }
  };
  // Every statement starts once the sync in flight has stored: a sync reads the files one by one,
  // asynchronously, and a statement that deleted or truncated one meanwhile (a checkpoint's WAL
  // segments, a VACUUM's) failed it with ENOENT, and with it the write it stored (a demo sign-in
  // answered just after a bulk write's upkeep failed so). A query's own sync runs inside PGlite's
  // query lock; a transaction's (above) ends outside it.
  const exclusive = pg._runExclusiveQuery.bind(pg);
  pg._runExclusiveQuery = <T>(fn: () => Promise<T>): Promise<T> =>
    exclusive(async () => {
      await storing.catch(() => undefined);
      return fn();
    });
  return pg;
}
