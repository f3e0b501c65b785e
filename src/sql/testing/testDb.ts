/**
 * One interface over the two databases tests run on: PGlite in-process and a Postgres server.
 * Later suites (permission matrix, attacks, races, client/server agreement) reuse it for both.
 */

export interface QueryResult<T> {
  rows: T[];
  /** Rows changed by INSERT/UPDATE/DELETE, where the driver reports it. */
  affectedRows?: number;
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
}

export interface TestDb extends Queryable {
  readonly kind: 'pglite' | 'pg';
  /** For `pg`: the connection string of the test database (e.g. for tests opening their own connections). */
  readonly connectionString?: string;
  /** Runs a script of several statements (no parameters), as the owner. */
  exec(sql: string): Promise<void>;
  /**
   * Runs `fn` in one transaction as a client: `authenticated` with the user's JWT claims, or `anon`
   * when `userId` is null. Committed if `fn` resolves, rolled back (and rethrown) if it throws.
   */
  asUser<T>(userId: string | null, fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** Runs `fn` in one transaction as the owner (trusted); committed or rolled back like `asUser`. */
  asOwner<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The statements that make a transaction run as a Supabase client. */
export function clientSessionSql(userId: string | null): { claims: string; role: 'anon' | 'authenticated' } {
  const role = userId === null ? 'anon' : 'authenticated';
  const claims = JSON.stringify(userId === null ? { role } : { sub: userId, role });
  return { claims, role };
}

/** A database error in the driver-neutral shape tests assert on. */
export interface DbErrorInfo {
  code?: string;
  message: string;
  detail?: string;
  constraint?: string;
}

/** Reads SQLSTATE, message, detail and constraint from a pg or PGlite error. */
export function dbError(e: unknown): DbErrorInfo {
  if (typeof e !== 'object' || e === null) return { message: String(e) };
  const r = e as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const out: DbErrorInfo = { message: str(r.message) ?? String(e) };
  const code = str(r.code);
  const detail = str(r.detail);
  const constraint = str(r.constraint);
  if (code !== undefined) out.code = code;
  if (detail !== undefined) out.detail = detail;
  if (constraint !== undefined) out.constraint = constraint;
  return out;
}

/** Runs `fn` and returns the database error it raised; fails if it raised none. */
export async function expectDbError(fn: () => Promise<unknown>): Promise<DbErrorInfo> {
  try {
    await fn();
  } catch (e) {
    return dbError(e);
  }
  throw new Error('expected a database error, but the statement succeeded');
}
