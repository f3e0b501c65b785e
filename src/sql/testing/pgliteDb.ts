import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pgliteExtensions } from '../../backend/embedded/pgliteExtensions.ts';
import { clientSessionSql, type Queryable, type TestDb } from './testDb.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
let emptyCluster: Promise<Blob> | undefined;

/**
 * The data directory `initdb` makes, as a tarball: a new database loads it instead of running
 * initdb (a second wasm module and the whole bootstrap: 2–4 s on a loaded 2-core machine, against
 * about 0.6 s to load the tarball). Cached on disk by PGlite version, so each test file (its own
 * process) skips initdb too; kept in memory for the next database of the same file.
 */
function emptyClusterTarball(): Promise<Blob> {
  emptyCluster ??= (async () => {
    const { version } = JSON.parse(
      await readFile(`${ROOT}node_modules/@electric-sql/pglite/package.json`, 'utf8'),
    ) as { version: string };
    const cached = `${ROOT}node_modules/.cache/ninefold-pglite/initdb-${version}.tar`;
    try {
      return new Blob([await readFile(cached)]);
    } catch {
      // Made below.
    }
    const db = await PGlite.create();
    try {
      const tarball = await db.dumpDataDir('none');
      await mkdir(dirname(cached), { recursive: true });
      // Written under a private name, then renamed: a parallel file never reads half a tarball.
      const tmp = `${cached}.tmp${process.pid}`;
      await writeFile(tmp, new Uint8Array(await tarball.arrayBuffer()));
      await rename(tmp, cached);
      return tarball;
    } finally {
      await db.close();
    }
  })();
  return emptyCluster;
}

/** A fresh in-memory PGlite database behind the `TestDb` interface. */
export async function createPgliteDb(): Promise<TestDb> {
  const db = await PGlite.create({ extensions: pgliteExtensions, loadDataDir: await emptyClusterTarball() });
  const wrap = (q: Pick<PGlite, 'query'>): Queryable => ({
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const r = await q.query<T>(sql, [...params]);
      return r.affectedRows === undefined ? { rows: r.rows } : { rows: r.rows, affectedRows: r.affectedRows };
    },
  });
  return {
    kind: 'pglite',
    ...wrap(db),
    async exec(sql) {
      await db.exec(sql);
    },
    async asUser(userId, fn) {
      const { claims, role } = clientSessionSql(userId);
      return db.transaction(async (tx) => {
        await tx.query(`select set_config('request.jwt.claims', $1, true)`, [claims]);
        await tx.exec(`set local role ${role}`);
        return fn(wrap(tx));
      });
    },
    async asOwner(fn) {
      return db.transaction(async (tx) => fn(wrap(tx)));
    },
    async close() {
      await db.close();
    },
  };
}
