import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { clientSessionSql, type Queryable, type TestDb } from './testDb.ts';

/** The server tests use: DATABASE_URL, or the local default. */
export function databaseUrl(): string {
  return process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
}

/** Whether a Postgres server answers at `url` (within two seconds). */
export async function serverAvailable(url = databaseUrl()): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

/**
 * A pool or client for a test database that a server-ended connection cannot crash. `close()` of
 * `createServerDb` drops its database `with (force)`, which ends every connection still open to it
 * with `57P01 terminating connection due to administrator command`; pg reports that as an 'error'
 * event, and an event without a listener is an uncaught exception that vitest pins on whichever
 * test runs then (the "57P01 at teardown" flake). A query on the ended connection still fails.
 */
export function quietOnTermination<T extends pg.Pool | pg.Client>(c: T, label: string): T {
  const onError = (e: Error & { code?: string }) => {
    if (e.code !== '57P01') console.warn(`${label}: connection ended: ${e.message}`);
  };
  (c as pg.Pool).on('error', onError);
  // A pool's listener covers its idle connections only; a checked-out one needs its own.
  if (c instanceof pg.Pool) c.on('connect', (client) => client.on('error', onError));
  return c;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

function wrap(c: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const r = await c.query(sql, [...params]);
      return { rows: r.rows as T[], affectedRows: r.rowCount ?? 0 };
    },
  };
}

/**
 * A fresh database `ninefold_test_<random>` on the server, dropped by `close()`.
 */
export async function createServerDb(url = databaseUrl()): Promise<TestDb> {
  const name = `ninefold_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const connectionString = withDatabase(url, name);
  const pool = new pg.Pool({ connectionString, max: 4 });
  // An idle pooled connection the server ends (`57P01 terminating connection due to administrator
  // command`: the forced drop below, or a loaded server's own restart of a backend) is reported
  // as an 'error' event on the pool; without a listener Node throws it as an uncaught exception
  // in whichever test runs then. The pool replaces the connection; a query on it fails normally.
  let closing = false;
  pool.on('error', (e) => {
    if (!closing) console.warn(`test database ${name}: idle connection ended: ${e.message}`);
  });
  // A checked-out client is not covered by the pool's listener: one ended mid-test (a forced drop
  // by a timed-out file's teardown) would be an uncaught 'error' event too.
  pool.on('connect', (client) => {
    client.on('error', (e) => {
      if (!closing) console.warn(`test database ${name}: connection ended: ${e.message}`);
    });
  });
  return {
    kind: 'pg',
    connectionString,
    ...wrap(pool),
    async exec(sql) {
      await pool.query(sql);
    },
    async asUser(userId, fn) {
      const { claims, role } = clientSessionSql(userId);
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query(`select set_config('request.jwt.claims', $1, true)`, [claims]);
        await client.query(`set local role ${role}`);
        const result = await fn(wrap(client));
        await client.query('commit');
        return result;
      } catch (e) {
        await client.query('rollback').catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    },
    async asOwner(fn) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn(wrap(client));
        await client.query('commit');
        return result;
      } catch (e) {
        await client.query('rollback').catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    },
    async close() {
      closing = true;
      await pool.end();
      const a = new pg.Client({ connectionString: url });
      await a.connect();
      try {
        await a.query(`drop database if exists ${name} with (force)`);
      } finally {
        await a.end();
      }
    },
  };
}
