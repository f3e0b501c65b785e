/**
 * The worker's syncs: skipped when nothing was written, and never answered ahead of a sync still
 * storing. PGlite in Node (memory) on the same file-system layer; its `syncToFs` stands in for the
 * IndexedDB store, made slow here so that a sync is still running when the next query ends.
 */
import { PGlite } from '@electric-sql/pglite';
import { afterEach, describe, expect, it } from 'vitest';
import { pgliteSettings } from '../pgliteSettings.ts';
import { syncOnlyWhenWritten } from './syncOnlyWhenWritten.ts';

const STORE_MS = 300;

/** A PGlite whose every sync takes STORE_MS and is logged when it has stored. */
async function slowStore(log: string[]): Promise<PGlite> {
  const pg = await PGlite.create({
    dataDir: 'memory://',
    startParams: [...PGlite.defaultStartParams, ...pgliteSettings],
  });
  const sync = pg.syncToFs.bind(pg);
  pg.syncToFs = async () => {
    await new Promise((r) => setTimeout(r, STORE_MS));
    await sync();
    log.push('stored');
  };
  return syncOnlyWhenWritten(pg);
}

describe('syncOnlyWhenWritten', () => {
  let pg: PGlite | undefined;
  afterEach(async () => {
    await pg?.close();
    pg = undefined;
  });
  /** `pg` with a table `t`, and the log of its syncs from then on. */
  const storeWithTable = async (): Promise<{ db: PGlite; log: string[] }> => {
    const log: string[] = [];
    const db = await slowStore(log);
    pg = db;
    await db.exec('create table t (id int primary key)');
    log.length = 0;
    return { db, log };
  };

  it('a read answered while a write is still being stored waits until it is stored', async () => {
    const { db, log } = await storeWithTable();
    // A transaction's sync runs when it ends, outside PGlite's query lock (a query's own sync runs
    // inside it, so the next query waits for it anyway).
    const write = db
      .transaction(async (tx) => {
        await tx.query('insert into t values (1)');
      })
      .then(() => log.push('write answered'));
    // Asked once the write has committed, while its sync is storing.
    await new Promise((r) => setTimeout(r, STORE_MS / 3));
    const read = db.query('select count(*)::int as n from t').then((r) => {
      log.push('read answered');
      return r.rows[0];
    });
    expect(await read).toEqual({ n: 1 });
    await write;
    expect(log.indexOf('stored')).toBeGreaterThanOrEqual(0);
    expect(log.indexOf('read answered')).toBeGreaterThan(log.indexOf('stored'));
  }, 60_000);

  it('a statement asked while a transaction is being stored changes no file before it is stored', async () => {
    const { db, log } = await storeWithTable();
    const fs = db.Module.FS as unknown as Record<string, (...a: unknown[]) => number>;
    const write = fs.write as (...a: unknown[]) => number;
    fs.write = function (this: unknown, ...args: unknown[]) {
      if (log.includes('asked')) log.push('written');
      return write.apply(this, args);
    };
    const first = db.transaction(async (tx) => {
      await tx.query('insert into t values (1)');
    });
    // The transaction has ended and its sync is storing (a checkpoint or VACUUM asked now would
    // delete files that sync is about to read).
    await new Promise((r) => setTimeout(r, STORE_MS / 3));
    log.push('asked');
    await db.query('insert into t values (2)');
    await first;
    fs.write = write;
    expect(log.indexOf('written')).toBeGreaterThan(log.indexOf('stored'));
  }, 60_000);

  it('reads after a stored write run no sync of their own', async () => {
    const { db, log } = await storeWithTable();
    const started = performance.now();
    for (let i = 0; i < 3; i++) await db.query('select 1');
    expect(log).toEqual([]);
    expect(performance.now() - started).toBeLessThan(STORE_MS);
  }, 60_000);

  it('a transaction is stored before it is answered', async () => {
    const { db, log } = await storeWithTable();
    await db.transaction(async (tx) => {
      await tx.query('insert into t values (1)');
    });
    log.push('answered');
    expect(log).toEqual(['stored', 'answered']);
  }, 60_000);
});
