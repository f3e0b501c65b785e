import type { AuthEvent, Change, Session } from '../../types.ts';
import type { EmbeddedBackend } from '../createEmbeddedBackend.ts';
import type { Live } from '../live.ts';
import type { SessionStore } from '../sessionStore.ts';
import { type Answer, PORT_METHODS, type Request, toWireError } from './protocol.ts';

/**
 * The call in progress in the leader (calls are serialised there): the session token, clock and
 * origin it came with, and the auth events and changes it caused, which go back in its answer.
 * The backend reads its session store, clock and live channel through this.
 */
export function callScope(changes: () => BroadcastChannel | undefined) {
  let call: {
    token: string | null;
    saved?: { token: string | null };
    now: number | null;
    origin: string;
    auth: [AuthEvent, Session | null][];
    changes: Change[];
  } | null = null;
  const store: SessionStore = {
    // '' (not null) when signed out: the call's token is the whole truth, nothing falls back.
    load: () => (call?.saved ? call.saved.token : call?.token) ?? '',
    save: (token) => {
      if (call) call.saved = { token };
    },
  };
  const live: Live = {
    port: { subscribe: () => () => undefined },
    emit: (change) => {
      call?.changes.push(change);
      changes()?.postMessage({ ...change, origin: call?.origin });
    },
    close: () => undefined,
  };
  const tokenOf = (c: NonNullable<typeof call>) => (c.saved ? { token: c.saved.token } : {});

  /** Runs one port call on `backend` as the call `r` says, and answers with what it caused. */
  async function run(
    backend: EmbeddedBackend | undefined,
    r: Extract<Request, { kind: 'call' }>,
    origin: string,
  ): Promise<Answer> {
    call = { token: r.token, now: r.now, origin, auth: [], changes: [] };
    const current = call;
    const caused = () => ({ ...tokenOf(current), auth: current.auth, changes: current.changes });
    try {
      const [port, method] = r.path.split('.') as [string, string];
      if (!(PORT_METHODS as Record<string, readonly string[]>)[port]?.includes(method))
        throw new Error(`no such backend call: ${r.path}`);
      const target = (
        port === 'backend' ? backend : (backend as unknown as Record<string, object>)[port]
      ) as Record<string, (...a: unknown[]) => Promise<unknown>>;
      const value = await (target[method] as (...a: unknown[]) => Promise<unknown>).apply(target, r.args);
      return { ok: true, value, ...caused() };
    } catch (e) {
      return { ok: false, error: toWireError(e), ...caused() };
    } finally {
      call = null;
    }
  }

  return {
    store,
    live,
    run,
    now: () => new Date(call?.now ?? Date.now()),
    onAuth: (event: AuthEvent, session: Session | null) => {
      call?.auth.push([event, session]);
    },
  };
}
