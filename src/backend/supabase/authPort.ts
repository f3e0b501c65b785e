import type { AuthChangeEvent, SupabaseClient, Session as SupabaseSession } from '@supabase/supabase-js';
import type { AppModel } from '../../model/appModel.ts';
import type { ErrorContext } from '../errors/mapDatabaseError.ts';
import { signUpNameError } from '../signUpCheck.ts';
import { type AuthEvent, type AuthPort, BackendError, type Session } from '../types.ts';
import { type AuthState, mapAuthError, mapPostgrestError } from './mapSupabaseError.ts';

/** The auth port plus what the other ports and `close()` need from it. */
export interface SupabaseAuth extends AuthPort, AuthState {
  /** A request was refused for its token: try one refresh, and report SESSION_EXPIRED if that fails. */
  tokenRejected(): void;
  /** Roles of `userId` changed: when it is the signed-in user, reload them and say USER_UPDATED. */
  rolesChanged(userId: string): Promise<void>;
  /** The last session seen (no request), or null. */
  current(): Session | null;
  close(): void;
}

/** The RPC returning a user's directly held roles (src/sql/emitRoles.ts: `public.user_roles`). */
export const ROLES_RPC = 'user_roles';

/**
 * Email + password auth on Supabase Auth. supabase-js keeps and refreshes the session; this turns
 * its sessions into the port's (with the user's app roles from `app.user_roles`) and its events
 * into the port's, telling an expiry (`SESSION_EXPIRED`) apart from a sign-out the user asked for.
 *
 * @example
 * const auth = createAuthPort(client, errorContext(spec));
 * const session = await auth.signIn({ email, password });
 */
export function createAuthPort(client: SupabaseClient, errors: ErrorContext, model?: AppModel): SupabaseAuth {
  const listeners = new Set<(event: AuthEvent, session: Session | null) => void>();
  let current: Session | null = null;
  let signingOut = false;
  /** The access token last announced with SIGNED_IN/TOKEN_REFRESHED, to drop repeats. */
  let announced: string | null = null;

  const state: AuthState = { signedIn: () => current !== null };
  const { toSession, forgetRoles } = sessionsOf(client, errors, state);

  function emit(event: AuthEvent, session: Session | null): void {
    // An expiry is noticed both by supabase-js (failed refresh) and by a refused request: say it once.
    if (event === 'SESSION_EXPIRED' && current === null) return;
    current = session;
    announced = session?.accessToken ?? null;
    for (const l of [...listeners]) l(event, session);
  }

  const { data: subscription } = client.auth.onAuthStateChange((event, s) => {
    // supabase-js holds its auth lock while calling back; awaiting a request here would deadlock.
    setTimeout(() => {
      if (event === 'SIGNED_OUT') {
        const was = current;
        const asked = signingOut;
        signingOut = false;
        forgetRoles();
        if (asked) emit('SIGNED_OUT', null);
        else if (was) emit('SESSION_EXPIRED', null);
        return;
      }
      const mapped = PORT_EVENT[event];
      if (!mapped || !s) return;
      // supabase-js re-announces SIGNED_IN when a tab regains focus; one per session is enough.
      if (mapped === 'SIGNED_IN' && announced === s.access_token) return;
      toSession(s).then(
        (session) => emit(mapped, session),
        () => undefined,
      );
    }, 0);
  });

  return {
    ...state,

    async signUp({ email, password, name }) {
      current = await toSession(await signUpSession(client, model, { email, password, name }));
      return current;
    },

    async signIn({ email, password }) {
      const { data, error } = await client.auth.signInWithPassword({ email, password });
      if (error) throw mapAuthError(error);
      current = await toSession(data.session);
      return current;
    },

    async signOut() {
      signingOut = true;
      // `local`: this device only; other devices keep their sessions, as with the embedded backend.
      const { error } = await client.auth.signOut({ scope: 'local' });
      if (error) {
        signingOut = false;
        throw mapAuthError(error);
      }
      current = null;
    },

    async session() {
      // getSession refreshes an expired access token with the refresh token when it can.
      const { data, error } = await client.auth.getSession();
      if (error || !data.session) return null;
      if ((data.session.expires_at ?? 0) * 1000 <= Date.now()) return null;
      const session = await toSession(data.session);
      current = session;
      return session;
    },

    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    current: () => current,

    async rolesChanged(userId) {
      if (current?.user.id !== userId) return;
      forgetRoles();
      const { data } = await client.auth.getSession();
      if (data.session) emit('USER_UPDATED', await toSession(data.session));
    },

    tokenRejected() {
      if (!current) return;
      client.auth.refreshSession().then(
        ({ error }) => {
          if (error) emit('SESSION_EXPIRED', null);
        },
        () => undefined,
      );
    },

    close() {
      subscription.subscription.unsubscribe();
      listeners.clear();
    },
  };
}

/** supabase-js's auth events that the port passes on under the same name. */
const PORT_EVENT: Partial<Record<AuthChangeEvent, AuthEvent>> = {
  SIGNED_IN: 'SIGNED_IN',
  TOKEN_REFRESHED: 'TOKEN_REFRESHED',
  USER_UPDATED: 'USER_UPDATED',
};

/**
 * Supabase sessions → the port's, with the user's app roles; the roles of the last token are
 * cached (one RPC per token, not per call) until `forgetRoles`.
 */
function sessionsOf(client: SupabaseClient, errors: ErrorContext, state: AuthState) {
  const rolesCache = new Map<string, readonly string[]>();

  async function rolesOf(userId: string, accessToken: string): Promise<readonly string[]> {
    const key = `${userId}:${accessToken}`;
    const hit = rolesCache.get(key);
    if (hit) return hit;
    const { data, error, status } = await client.rpc(ROLES_RPC, { p_user_id: userId });
    if (error) throw mapPostgrestError(error, status, errors, state);
    const roles = Array.isArray(data) ? data.filter((r): r is string => typeof r === 'string') : [];
    rolesCache.clear();
    rolesCache.set(key, roles);
    return roles;
  }

  async function toSession(s: SupabaseSession): Promise<Session> {
    const roles = await rolesOf(s.user.id, s.access_token);
    return {
      user: { id: s.user.id, email: s.user.email ?? '', roles },
      accessToken: s.access_token,
      expiresAt: (s.expires_at ?? Math.floor(Date.now() / 1000) + (s.expires_in ?? 0)) * 1000,
    };
  }

  return { toSession, forgetRoles: () => rolesCache.clear() };
}

/** auth.signUp: the new user's Supabase session, or why there is none. */
async function signUpSession(
  client: SupabaseClient,
  model: AppModel | undefined,
  { email, password, name }: { email: string; password: string; name?: string | undefined },
): Promise<SupabaseSession> {
  const refused = model ? signUpNameError(model, name) : undefined;
  if (refused) throw refused;
  const { data, error } = await client.auth.signUp({
    email,
    password,
    options: name === undefined ? {} : { data: { name } },
  });
  if (error) throw mapAuthError(error);
  // With "Confirm email" on, Supabase creates the user but gives no session until confirmed.
  if (!data.session)
    throw new BackendError('NOT_SIGNED_IN', { reason: 'email-confirmation-required', email });
  return data.session;
}
