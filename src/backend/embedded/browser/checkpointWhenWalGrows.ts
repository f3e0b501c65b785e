import { type PGlite, protocol } from '@electric-sql/pglite';

/** WAL written since the last checkpoint above which the next write's end runs one. */
export const CHECKPOINT_AFTER_WAL_BYTES = 4 * 1024 * 1024;

/**
 * PGlite runs Postgres in single-user mode, where nothing checkpoints on its own: every WAL
 * segment written since the database was made stays, and an open (a return visit) loads them all
 * from IndexedDB and replays them before the first query (100,000 bulk-inserted tickets left
 * hundreds of MB and a 4 s open). The bytes Postgres writes into `pg_wal` are counted as they go
 * through the file system; once `limit` of them were written, the query or transaction that wrote
 * them is followed by a CHECKPOINT, which deletes the old segments (`wal_recycle=off`,
 * pgliteSettings.ts), before its caller gets the answer, so the next IndexedDB sync
 * stores the data files and drops the old segments together.
 *
 * A VACUUM runs first, in place of the autovacuum single-user mode lacks: it sets the hint bits
 * and visibility of the rows just written, once. Without it every later read of those rows set
 * the hint bits again, in memory; a page so dirtied and evicted (a scan larger than a quarter of
 * the buffers) rewrote its file, and PGlite's IndexedDB layer stores a changed file whole: after
 * 100,000 bulk-inserted tickets, the first count of a return visit stored the 18.6 MB ticket table
 * again (about 0.5 s in the worker). Its own IndexedDB sync is left to the checkpoint's.
 *
 * @example
 * const pg = checkpointWhenWalGrows(await PGlite.create({ startParams: [...PGlite.defaultStartParams, ...pgliteSettings] }));
 */
export function checkpointWhenWalGrows(pg: PGlite, limit = CHECKPOINT_AFTER_WAL_BYTES): PGlite {
  const fs = pg.Module.FS as unknown as Record<string, unknown>;
  let walBytes = 0;
  const write = fs.write as (...args: unknown[]) => number;
  fs.write = function (this: unknown, ...args: unknown[]) {
    const written = write.apply(this, args);
    const path = (args[0] as { path?: unknown } | null)?.path;
    if (typeof path === 'string' && path.includes('/pg_wal/')) walBytes += written;
    return written;
  };
  const exec = pg.exec.bind(pg);
  // Outside a transaction only: a query inside one (tx.query does not come through here, but a
  // caller's own BEGIN does) ends with its COMMIT.
  const checkpointIfDue = async () => {
    if (walBytes < limit || pg.isInTransaction()) return;
    const written = walBytes;
    walBytes = 0;
    try {
      await vacuumUnsynced(pg);
      await exec('checkpoint');
    } catch (e) {
      // The checkpoint's statement ends with the IndexedDB sync that stores the write it follows:
      // a full IndexedDB is that write's failure (STORAGE_FULL), never to be answered as success
      // (the sync is not retried until the next write: openWorkerDatabase.ts). Not retried after
      // reads either (each would fail): the next writes count their WAL anew.
      if ((e as { name?: unknown } | null)?.name === 'QuotaExceededError') throw e;
      // Anything else: the write it follows was stored and is answered as such; the next write
      // tries the checkpoint again.
      walBytes += written;
    }
  };
  const after =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const result = await fn(...args);
      await checkpointIfDue();
      return result;
    };
  pg.query = after(pg.query.bind(pg)) as typeof pg.query;
  pg.exec = after(exec) as typeof pg.exec;
  pg.transaction = after(pg.transaction.bind(pg)) as typeof pg.transaction;
  return pg;
}

/**
 * VACUUM without PGlite's IndexedDB sync after it (the checkpoint's sync stores both). Under
 * PGlite's transaction lock, as `exec` is: a transaction queued behind the write starts the moment
 * the write's ends, and a VACUUM sent into it would fail and abort it (a demo sign-in right after
 * the harness's 100,000-ticket seed failed so).
 */
async function vacuumUnsynced(pg: PGlite): Promise<void> {
  try {
    await pg._runExclusiveTransaction(() =>
      // PGlite's query lock as its statements take it (syncOnlyWhenWritten.ts waits there for
      // the sync in flight).
      pg._runExclusiveQuery(async () => {
        if (pg.isInTransaction()) return;
        await pg.execProtocol(protocol.serialize.query('vacuum'), { syncToFs: false });
      }),
    );
  } catch {
    // Only upkeep: the checkpoint still runs, and the next one vacuums again.
  }
}
