import type { Transaction } from '@electric-sql/pglite';
import { mapDatabaseError } from '../errors/mapDatabaseError.ts';
import { BackendError, type Session, type SessionUser } from '../types.ts';
import type { EmbeddedContext } from './context.ts';
import { sha256 } from './passwords.ts';
import { PARSERS } from './rows.ts';
import { runDueTransitions } from './timed.ts';

/** Query options every adapter query uses (ISO timestamps, numeric as number). */
export const QUERY_OPTIONS = { parsers: PARSERS };

/** Thrown inside a transaction when the stored session is gone or past its expiry. */
class SessionGone extends Error {}

/**
 * Reads a session by its token, as the owner (this is the auth server's job, like GoTrue's).
 * Returns null when the token is unknown (signed out elsewhere) or expired.
 */
export async function readSession(
  tx: Pick<Transaction, 'query'>,
  token: string,
  now: Date,
): Promise<Session | null> {
  const found = await tx.query<{ id: string; email: string; expires_at: string }>(
    `select u.id, u.email, s.expires_at from ninefold.sessions s join auth.users u on u.id = s.user_id
      where s.token_hash = $1`,
    [await sha256(token)],
    QUERY_OPTIONS,
  );
  const row = found.rows[0];
  if (!row) return null;
  const expiresAt = Date.parse(row.expires_at);
  if (expiresAt <= now.getTime()) return null;
  const roles = await tx.query<{ role: string }>(
    'select role from app.user_roles where user_id = $1 order by role',
    [row.id],
  );
  const user: SessionUser = { id: row.id, email: row.email, roles: roles.rows.map((r) => r.role) };
  return { user, accessToken: token, expiresAt };
}

/** The signed-out caller's claims and role, as `set local` does. */
const ANON = `select set_config('request.jwt.claims', '{"role":"anon"}', true),
  set_config('request.jwt.claim.sub', '', true), set_config('role', 'anon', true)`;

/**
 * Reads the session and, in the same statement, sets the caller's claims and role for the rest
 * of the transaction (`set_config('role', …, true)` is `set local role`). One statement instead of
 * four: in the browser each statement is a dozen messages to the database worker, and every data
 * call pays this preamble. An expired session still sets them, but the caller then throws and the
 * transaction rolls back.
 */
async function enterSession(
  tx: Pick<Transaction, 'query'>,
  token: string,
  now: Date,
): Promise<Session | null> {
  const found = await tx.query<{ id: string; email: string; expires_at: string; roles: string[] }>(
    `select u.id, u.email, s.expires_at,
        array(select r.role from app.user_roles r where r.user_id = u.id order by r.role) as roles,
        set_config('request.jwt.claims', json_build_object('sub', u.id, 'role', 'authenticated',
          'email', u.email, 'aud', 'authenticated')::text, true),
        set_config('request.jwt.claim.sub', u.id::text, true),
        set_config('role', 'authenticated', true)
      from ninefold.sessions s join auth.users u on u.id = s.user_id
      where s.token_hash = $1`,
    [await sha256(token)],
    QUERY_OPTIONS,
  );
  const row = found.rows[0];
  if (!row) return null;
  const expiresAt = Date.parse(row.expires_at);
  if (expiresAt <= now.getTime()) return null;
  const user: SessionUser = { id: row.id, email: row.email, roles: [...row.roles] };
  return { user, accessToken: token, expiresAt };
}

/**
 * The token to use: the store is the truth (in the browser it is shared by every tab, so a sign-in
 * or sign-out in one tab applies to all); the in-memory copy covers stores that cannot keep it.
 */
export function currentToken(ctx: EmbeddedContext): string | null {
  return ctx.store.load() ?? ctx.current.token;
}

/**
 * Forgets an expired or revoked session and tells listeners. Only that token is forgotten: another
 * tab may already have stored a new one.
 */
export function expire(ctx: EmbeddedContext, token: string): void {
  const stored = ctx.store.load();
  if (stored === token) ctx.store.save(null);
  if (ctx.current.token === token || ctx.current.token === null) ctx.current = { token: null, session: null };
  ctx.emitAuth('SESSION_EXPIRED', null);
}

/**
 * Runs `fn` in one transaction as the caller: `request.jwt.claims` set and the role switched to
 * `authenticated` (or `anon` when signed out), exactly as PostgREST does on Supabase, so row-level
 * security decides what the caller sees. Never runs user work as the database owner.
 *
 * @example
 * await asCaller(ctx, (tx) => tx.query('select * from public.ticket'));
 */
export async function asCaller<T>(
  ctx: EmbeddedContext,
  fn: (tx: Transaction, user: SessionUser | null) => Promise<T>,
  options: { signedIn?: boolean } = {},
): Promise<T> {
  const token = currentToken(ctx);
  try {
    // Transitions that happen by time first, so the caller sees (and acts on) the state time gave.
    await runDueTransitions(ctx);
    return await ctx.db.transaction(async (tx) => {
      let user: SessionUser | null = null;
      if (token) {
        const session = await enterSession(tx, token, ctx.now());
        if (!session) throw new SessionGone();
        ctx.current = { token, session };
        user = session.user;
      }
      if (!user && options.signedIn) throw new BackendError('NOT_SIGNED_IN');
      if (!user) await tx.query(ANON);
      return fn(tx, user);
    });
  } catch (e) {
    if (e instanceof SessionGone && token) {
      expire(ctx, token);
      throw new BackendError('SESSION_EXPIRED');
    }
    throw mapDatabaseError(e, ctx.errors);
  }
}

/**
 * Read-only statements as the caller, in one transaction (`asCaller`): the session preamble, then
 * each statement with its parameters. Returns each statement's rows. (Before the backend moved into
 * the worker, each statement was about ten tab↔worker messages, and reads were sent as one
 * multi-statement text with the parameters inlined; next to PGlite a statement costs no message.)
 *
 * @example
 * const [rows] = await readAsCaller(ctx, [{ text: 'select * from public.ticket t where t.id = $1', params: [id] }]);
 */
export async function readAsCaller(
  ctx: EmbeddedContext,
  statements: readonly { text: string; params: readonly unknown[] }[],
): Promise<Record<string, unknown>[][]> {
  return asCaller(ctx, async (tx) => {
    const out: Record<string, unknown>[][] = [];
    for (const s of statements)
      out.push((await tx.query<Record<string, unknown>>(s.text, [...s.params], QUERY_OPTIONS)).rows);
    return out;
  });
}

/** Runs `fn` as the database owner: auth bookkeeping and setup only, never a user's data request. */
export async function asOwner<T>(ctx: EmbeddedContext, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  try {
    return await ctx.db.transaction(fn);
  } catch (e) {
    throw mapDatabaseError(e, ctx.errors);
  }
}
