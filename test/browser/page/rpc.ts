/**
 * The test page's side of `test/browser/pageBackend.ts`: runs one Backend call by its path
 * (`data.create`), with the clock the Node side's test gives, and returns the result, or the
 * BackendError as data, plus the auth events and live changes the call caused. Bytes travel as
 * base64 because the call crosses the DevTools protocol as JSON.
 */
import type { BrowserBackend } from '../../../src/backend/embedded/browser/createBrowserBackend.ts';
import { BackendError } from '../../../src/backend/types.ts';

export type Wire = { ok: true; value: unknown } | { ok: false; error: WireError };
export type WireError = {
  code: string;
  params: Record<string, unknown>;
  field?: string;
  message: string;
  /** The original error behind an adapter's error, for diagnostics only. */
  cause?: string;
};
export type WireEvent =
  | { kind: 'auth'; event: string; session: unknown }
  | { kind: 'live'; sub: number; change: unknown };

/** The page's clock: `null` is the real one. The backend's `now` reads it. */
export const clock: { ms: number | null } = { ms: null };

const events: WireEvent[] = [];
const subscriptions = new Map<number, () => void>();

function encode(v: unknown): unknown {
  if (v instanceof Uint8Array) {
    let s = '';
    for (let i = 0; i < v.length; i += 0x8000) s += String.fromCharCode(...v.subarray(i, i + 0x8000));
    return { __u8: btoa(s) };
  }
  if (Array.isArray(v)) return v.map(encode);
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, encode(x)]));
  return v;
}

function decode(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(decode);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.__u8 === 'string') return Uint8Array.from(atob(o.__u8), (c) => c.charCodeAt(0));
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, decode(x)]));
  }
  return v;
}

export { decode as decodeWire, encode as encodeWire };

function describe(cause: unknown): string | undefined {
  if (cause === undefined) return undefined;
  const c = cause as { name?: unknown; code?: unknown; message?: unknown };
  return `${String(c?.name)} ${String(c?.code)} ${String(c?.message)}`;
}

/** Starts forwarding this backend's auth events (once per page). */
export function forwardAuth(backend: BrowserBackend): void {
  backend.auth.onChange((event, session) => events.push({ kind: 'auth', event, session: encode(session) }));
}

/**
 * One call: `path` is `port.method` (`auth.signIn`), or `live.subscribe` / `live.unsubscribe`
 * with a subscription number chosen by the caller.
 */
export async function call(
  backend: BrowserBackend,
  path: string,
  args: unknown[],
  clockMs: number | null,
): Promise<{ result: Wire; events: WireEvent[] }> {
  clock.ms = clockMs;
  const decoded = decode(args) as unknown[];
  let result: Wire;
  try {
    if (path === 'live.subscribe') {
      const [sub, target] = decoded as [number, { entity: string; id?: string }];
      subscriptions.set(
        sub,
        backend.live.subscribe(target, (change) => events.push({ kind: 'live', sub, change })),
      );
      result = { ok: true, value: null };
    } else if (path === 'live.unsubscribe') {
      const [sub] = decoded as [number];
      subscriptions.get(sub)?.();
      subscriptions.delete(sub);
      result = { ok: true, value: null };
    } else {
      const [port, method] = path.split('.') as [string, string];
      const target = (backend as unknown as Record<string, Record<string, (...a: unknown[]) => unknown>>)[
        port
      ];
      const fn = target?.[method];
      if (!target || typeof fn !== 'function') throw new Error(`no such backend call: ${path}`);
      result = { ok: true, value: encode(await fn.apply(target, decoded)) };
    }
  } catch (e) {
    result =
      e instanceof BackendError
        ? {
            ok: false,
            error: {
              code: e.code,
              params: e.params,
              field: e.field,
              message: e.message,
              cause: describe(e.cause),
            },
          }
        : { ok: false, error: { code: 'NOT_A_BACKEND_ERROR', params: {}, message: String(e) } };
  }
  return { result, events: events.splice(0) };
}
