import type { Transaction } from '@electric-sql/pglite';
import { signUpNameError } from '../signUpCheck.ts';
import { type AuthEvent, type AuthPort, BackendError, type Session } from '../types.ts';
import type { EmbeddedContext } from './context.ts';
import { DUMMY_HASH, hashPassword, randomToken, sha256, verifyPassword } from './passwords.ts';
import { asOwner, currentToken, expire, readSession } from './request.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Supabase's default minimum. */
export const MIN_PASSWORD_LENGTH = 6;

async function startSession(ctx: EmbeddedContext, tx: Transaction, userId: string): Promise<Session> {
  const token = randomToken();
  const expiresAt = ctx.now().getTime() + ctx.sessionTtlMs;
  await tx.query(
    `insert into ninefold.sessions (token_hash, user_id, created_at, expires_at) values ($1, $2, $3, $4)`,
    [await sha256(token), userId, ctx.now().toISOString(), new Date(expiresAt).toISOString()],
  );
  await tx.query('update auth.users set last_sign_in_at = $2 where id = $1', [
    userId,
    ctx.now().toISOString(),
  ]);
  const session = await readSession(tx, token, ctx.now());
  if (!session) throw new BackendError('INTERNAL');
  return session;
}

function signedIn(ctx: EmbeddedContext, session: Session): Session {
  ctx.current = { token: session.accessToken, session };
  ctx.store.save(session.accessToken);
  ctx.emitAuth('SIGNED_IN', session);
  return session;
}

/**
 * Auth mirroring Supabase's: `auth.users` rows with PBKDF2 password hashes, opaque session tokens
 * whose hashes live in `ninefold.sessions`, expiry checked on every request.
 *
 * @example
 * const session = await backend.auth.signUp({ email: 'ana@example.com', password: 'secret-1' });
 */
export function createAuthPort(
  ctx: EmbeddedContext,
  listeners: Set<(e: AuthEvent, s: Session | null) => void>,
): AuthPort {
  return {
    async signUp({ email, password, name }) {
      const normalized = email.trim().toLowerCase();
      if (!EMAIL.test(normalized)) throw new BackendError('INVALID_INPUT', { field: 'email' }, 'email');
      if (password.length < MIN_PASSWORD_LENGTH) {
        throw new BackendError('WEAK_PASSWORD', { min: MIN_PASSWORD_LENGTH }, 'password');
      }
      const refused = signUpNameError(ctx.model, name);
      if (refused) throw refused;
      const hash = await hashPassword(password);
      const session = await asOwner(ctx, async (tx) => {
        const taken = await tx.query('select 1 from auth.users where lower(email) = $1', [normalized]);
        if (taken.rows.length > 0) throw new BackendError('EMAIL_TAKEN', {}, 'email');
        // The migration's trigger on auth.users creates the profile row and grants the sign-up roles.
        const meta = name ? { name } : {};
        const created = await tx.query<{ id: string }>(
          `insert into auth.users (email, encrypted_password, raw_user_meta_data, email_confirmed_at, created_at, updated_at)
           values ($1, $2, $3, $4, $4, $4) returning id`,
          [normalized, hash, JSON.stringify(meta), ctx.now().toISOString()],
        );
        const id = created.rows[0]?.id;
        if (!id) throw new BackendError('INTERNAL');
        return startSession(ctx, tx, id);
      });
      return signedIn(ctx, session);
    },

    async signIn({ email, password }) {
      const normalized = email.trim().toLowerCase();
      const found = await asOwner(ctx, (tx) =>
        tx.query<{ id: string; encrypted_password: string | null }>(
          'select id, encrypted_password from auth.users where lower(email) = $1',
          [normalized],
        ),
      );
      const user = found.rows[0];
      // Verify even for unknown emails so timing does not reveal which emails have accounts.
      const ok = await verifyPassword(password, user?.encrypted_password ?? DUMMY_HASH);
      if (!user || !ok) throw new BackendError('INVALID_CREDENTIALS');
      const session = await asOwner(ctx, (tx) => startSession(ctx, tx, user.id));
      return signedIn(ctx, session);
    },

    async signOut() {
      const token = currentToken(ctx);
      // The session row goes first, then the stored token: other tabs re-read the session when the
      // stored token changes and must then find it gone, not still valid for a moment.
      try {
        if (token) {
          const hash = await sha256(token);
          await asOwner(ctx, (tx) => tx.query('delete from ninefold.sessions where token_hash = $1', [hash]));
        }
      } finally {
        ctx.current = { token: null, session: null };
        ctx.store.save(null);
      }
      ctx.emitAuth('SIGNED_OUT', null);
    },

    async session() {
      const token = currentToken(ctx);
      if (!token) return null;
      const session = await asOwner(ctx, (tx) => readSession(tx, token, ctx.now()));
      if (!session) {
        expire(ctx, token);
        return null;
      }
      ctx.current = { token, session };
      return session;
    },

    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
