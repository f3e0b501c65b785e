/**
 * The database side of the agreement suites: a fresh database (the server when one answers, else
 * PGlite) with a migration applied and then loosened, so generated rows are stored exactly as
 * generated (nulls in required columns, unknown enum values, dangling references).
 */
import pg from 'pg';
import {
  createServerDb,
  databaseUrl,
  quietOnTermination,
  serverAvailable,
} from '../../src/sql/testing/pgDb.ts';
import { createPgliteDb } from '../../src/sql/testing/pgliteDb.ts';
import type { Queryable, TestDb } from '../../src/sql/testing/testDb.ts';
import { applyMigration } from '../../src/sql/testing/users.ts';

/** One connection: every statement of a transaction must reach the same backend. */
export interface Session extends Queryable {
  readonly kind: 'pglite' | 'pg';
  close(): Promise<void>;
}

/** Whether the server is used: it answers, or CI requires it. */
export async function serverWanted(): Promise<boolean> {
  const up = await serverAvailable();
  if (!up && process.env.CI === 'true')
    throw new Error('CI=true but no Postgres server answers at DATABASE_URL');
  if (!up) console.log('agreement: no Postgres server at DATABASE_URL, running on PGlite');
  return up;
}

/**
 * Drops every constraint but primary keys (and every unique index), every NOT NULL but `id` in schema public and
 * app.user_roles: the suites store edge data the application would refuse, because the
 * evaluators must agree on it too (a form being filled, a row read before a migration).
 */
export const LOOSEN_SQL = `
do $$
declare c record;
begin
  for c in
    select n.nspname, t.relname, k.conname
    from pg_constraint k join pg_class t on t.oid = k.conrelid join pg_namespace n on n.oid = t.relnamespace
    where (n.nspname = 'public' or (n.nspname = 'app' and t.relname = 'user_roles')) and k.contype in ('c', 'u', 'f')
  loop
    execute format('alter table %I.%I drop constraint if exists %I cascade', c.nspname, c.relname, c.conname);
  end loop;
  -- Unique indexes that are no constraint (unique ignoring case: an index over lower(column)).
  for c in
    select n.nspname, x.relname
    from pg_index i join pg_class x on x.oid = i.indexrelid join pg_namespace n on n.oid = x.relnamespace
    where n.nspname = 'public' and i.indisunique and not i.indisprimary
      and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
  loop
    execute format('drop index %I.%I', c.nspname, c.relname);
  end loop;
  for c in
    select table_schema, table_name, column_name from information_schema.columns
    where table_schema = 'public' and is_nullable = 'NO' and column_name <> 'id'
      and table_name in (select tablename from pg_tables where schemaname = 'public')
  loop
    execute format('alter table %I.%I alter column %I drop not null', c.table_schema, c.table_name, c.column_name);
  end loop;
end $$;
`;

/** A fresh database with `migration` applied and loosened; `close()` drops it. */
export async function openAgreementDb(
  migration: string,
  server: boolean,
  /** Runs on the database as the migration left it, before it is loosened (the catalog audit). */
  beforeLoosen?: (db: TestDb) => Promise<void>,
): Promise<Session> {
  const db: TestDb = server ? await createServerDb() : await createPgliteDb();
  try {
    await applyMigration(db, migration);
    await beforeLoosen?.(db);
    await db.exec(LOOSEN_SQL);
  } catch (e) {
    await db.close();
    throw e;
  }
  if (db.kind === 'pglite')
    return { kind: 'pglite', query: (s, p) => db.query(s, p), close: () => db.close() };
  const name = (await db.query<{ d: string }>('select current_database() as d')).rows[0]?.d;
  const u = new URL(databaseUrl());
  u.pathname = `/${name}`;
  const client = quietOnTermination(new pg.Client({ connectionString: u.toString() }), 'agreement');
  await client.connect();
  return {
    kind: 'pg',
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const r = await client.query(sql, [...params]);
      return { rows: r.rows as T[], affectedRows: r.rowCount ?? 0 };
    },
    async close() {
      await client.end();
      await db.close();
    },
  };
}
