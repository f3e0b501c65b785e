/**
 * A bulk write leaves the current WAL segment (and at most one Postgres made ahead) behind, not
 * every segment it wrote: PGlite in Node on the same file-system layer the worker's IndexedDB
 * store syncs from.
 */
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteSettings } from '../pgliteSettings.ts';
import { checkpointWhenWalGrows } from './checkpointWhenWalGrows.ts';

describe('checkpointWhenWalGrows', () => {
  let pg: PGlite;
  const walSegments = async () => {
    const dir = (await pg.query<{ d: string }>('select current_setting($1) as d', ['data_directory'])).rows[0]
      ?.d;
    return (pg.Module.FS.readdir(`${dir}/pg_wal`) as string[]).filter((f) => /^[0-9A-F]{24}$/.test(f)).length;
  };
  const sinceCheckpoint = async () =>
    Number(
      (
        await pg.query<{ n: string }>(
          'select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), (pg_control_checkpoint()).redo_lsn)::bigint as n',
        )
      ).rows[0]?.n,
    );
  beforeAll(async () => {
    pg = checkpointWhenWalGrows(
      await PGlite.create({
        dataDir: 'memory://',
        startParams: [...PGlite.defaultStartParams, ...pgliteSettings],
      }),
      1024 * 1024,
    );
    await pg.exec('create table t (id int primary key, body text)');
    await pg.exec('checkpoint');
  }, 60_000);
  afterAll(async () => {
    await pg?.close();
  });

  it('leaves a small write alone', async () => {
    await pg.query(`insert into t values (0, 'one row')`);
    expect(await sinceCheckpoint()).toBeGreaterThan(0);
  });

  it('checkpoints after a transaction that wrote more WAL than the limit, and drops the old segments', async () => {
    // About 20 MB of WAL: more than one 16 MB segment.
    await pg.transaction(async (tx) => {
      await tx.query(`insert into t select g, repeat(md5(g::text), 30) from generate_series(1, 20000) g`);
    });
    expect(await sinceCheckpoint()).toBeLessThan(64 * 1024);
    expect(await walSegments()).toBeLessThanOrEqual(2);
  }, 60_000);

  it('vacuums first: a later scan of the rows it wrote changes no data file', async () => {
    // 20,000 rows of about 1 kB: more than a quarter of the buffers (pgliteSettings), so a scan
    // reads through a small ring of them and writes back any page it dirtied, as a hint bit
    // set on a row the first time it is read after its commit would.
    const fs = pg.Module.FS as unknown as Record<string, (...a: unknown[]) => number>;
    const write = fs.write as (...a: unknown[]) => number;
    let dataWrites = 0;
    fs.write = function (this: unknown, ...args: unknown[]) {
      const path = (args[0] as { path?: unknown } | null)?.path;
      if (typeof path === 'string' && path.includes('/base/')) dataWrites++;
      return write.apply(this, args);
    };
    try {
      await pg.query('select count(*) from t where body is not null');
      expect(dataWrites).toBe(0);
    } finally {
      fs.write = write;
    }
  }, 60_000);

  it("never lands inside the next caller's transaction", async () => {
    // The next transaction, queued behind the bulk write, starts the moment the write's ends: the
    // upkeep after the write must wait for it, not run (and fail) inside it.
    const bulk = pg.transaction(async (tx) => {
      await tx.query(`update t set body = body || 'y'`);
    });
    const next = pg.transaction(async (tx) => {
      await tx.query('select 1');
      await new Promise((r) => setTimeout(r, 50));
      return (await tx.query<{ n: number }>('select count(*)::int as n from t')).rows[0]?.n;
    });
    await bulk;
    await expect(next).resolves.toBe(20001);
    expect(await sinceCheckpoint()).toBeLessThan(64 * 1024);
  }, 60_000);

  it('checkpoints after a single statement too', async () => {
    await pg.query(`update t set body = body || 'x'`);
    expect(await sinceCheckpoint()).toBeLessThan(64 * 1024);
    expect(await walSegments()).toBeLessThanOrEqual(2);
  }, 60_000);
});
