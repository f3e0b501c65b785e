import type { AppSpec } from '../../../src/spec/types.ts';
import { compileMigration } from '../../../src/sql/compileMigration.ts';
import { createServerDb, serverAvailable } from '../../../src/sql/testing/pgDb.ts';
import { createPgliteDb } from '../../../src/sql/testing/pgliteDb.ts';
import type { TestDb } from '../../../src/sql/testing/testDb.ts';
import { applyMigration } from '../../../src/sql/testing/users.ts';

export type BackendName = 'pglite' | 'server';

/**
 * One backend of an enforcement suite. `open(spec)` gives a database with the spec's migration
 * applied: on PGlite one instance per test file is reused (cold start is ~10 s) and wiped between
 * apps; on the server every call is a fresh database. `skip` says why the backend does not run.
 */
export interface Backend {
  name: BackendName;
  skip: string | false;
  open(spec: AppSpec): Promise<TestDb>;
  /** Releases what `open` made for this app (server: drops the database; PGlite: nothing). */
  release(db: TestDb): Promise<void>;
  /** Closes the shared PGlite instance at the end of the file. */
  closeAll(): Promise<void>;
}

const WIPE_SQL = `
drop schema if exists app cascade;
drop schema if exists auth cascade;
drop schema if exists public cascade;
create schema public;
`;

/**
 * The two backends every enforcement suite runs on. Without a server (and CI not 'true') the
 * server backend is skipped with one line on the console; under CI=true a missing server fails.
 */
export async function enforcementBackends(suite: string): Promise<Backend[]> {
  const hasServer = await serverAvailable();
  if (!hasServer && process.env.CI === 'true')
    throw new Error(`${suite}: CI=true but no Postgres server answers at DATABASE_URL`);
  if (!hasServer) console.warn(`${suite}: no Postgres server at DATABASE_URL, server backend skipped`);

  let shared: Promise<TestDb> | undefined;
  const pglite: Backend = {
    name: 'pglite',
    skip: false,
    async open(spec) {
      shared ??= createPgliteDb();
      const db = await shared;
      await db.exec(WIPE_SQL);
      await applyMigration(db, compileMigration(spec));
      return db;
    },
    async release() {},
    async closeAll() {
      if (shared) await (await shared).close();
      shared = undefined;
    },
  };
  const server: Backend = {
    name: 'server',
    skip: hasServer ? false : 'no Postgres server at DATABASE_URL',
    async open(spec) {
      const db = await createServerDb();
      try {
        await applyMigration(db, compileMigration(spec));
      } catch (e) {
        await db.close();
        throw e;
      }
      return db;
    },
    async release(db) {
      await db.close();
    },
    async closeAll() {},
  };
  return [pglite, server];
}
