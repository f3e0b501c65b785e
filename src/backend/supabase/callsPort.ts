import { effectiveRoles } from '../../runtime/roles.ts';
import type { DeclaredCallSpec } from '../../spec/types.ts';
import { checkShape, declaredCall } from '../checkShape.ts';
import { BackendError, type CallsPort, type Session } from '../types.ts';
import type { SupabaseContext } from './supabaseContext.ts';

type Record_ = Record<string, unknown>;

/** Where a declared call goes: an Edge Function of the project, or an external host. */
export type CallTarget = { kind: 'function'; name: string } | { kind: 'host'; origin: string };

/**
 * A `service` with a dot or a scheme is a host name (`api.example.com`); anything else is an
 * Edge Function name (`notify`).
 *
 * @example
 * callTarget('notify'); // { kind: 'function', name: 'notify' }
 * callTarget('hooks.example.com'); // { kind: 'host', origin: 'https://hooks.example.com' }
 */
export function callTarget(service: string): CallTarget {
  if (/^https?:\/\//.test(service)) return { kind: 'host', origin: service.replace(/\/+$/, '') };
  if (service.includes('.')) return { kind: 'host', origin: `https://${service}` };
  return { kind: 'function', name: service };
}

/**
 * The request line of a call: `:params` of the path filled from the payload (URL-encoded); for
 * GET and DELETE the remaining payload goes to the query string, otherwise it is the JSON body.
 *
 * @example
 * callRequest({ method: 'GET', path: '/rates/:currency', ... }, { currency: 'EUR', day: '2026-01-02' });
 * // { path: '/rates/EUR?day=2026-01-02', body: undefined }
 */
export function callRequest(
  call: DeclaredCallSpec,
  payload: Record_,
): { path: string; body: Record_ | undefined } {
  const used = new Set<string>();
  let path = call.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    used.add(name);
    const v = payload[name];
    if (v === undefined || v === null)
      throw new BackendError('INVALID_INPUT', { field: name, problem: 'missing' });
    return encodeURIComponent(String(v));
  });
  if (!path.startsWith('/')) path = `/${path}`;
  if (call.method === 'GET' || call.method === 'DELETE') {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(payload)) {
      if (used.has(k) || v === undefined || v === null) continue;
      query.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
    }
    const qs = query.toString();
    return { path: qs ? `${path}?${qs}` : path, body: undefined };
  }
  return { path, body: payload };
}

/**
 * Declared calls: checked against their payload shape and roles before anything leaves the
 * browser, sent to an Edge Function (`functions.invoke`, which carries the user's JWT) or to an
 * external host (plain `fetch`, never with the Supabase token), and the answer checked against the
 * response shape. The service itself must still check the caller: this is the experience, not
 * the enforcement.
 */
export function createCallsPort(
  ctx: SupabaseContext,
  session: () => Session | null,
  fetchImpl: typeof fetch,
): CallsPort {
  return {
    async invoke(name, payload) {
      const call = declaredCall(ctx.spec, name, payload);
      const s = session();
      if (!s) throw new BackendError('NOT_SIGNED_IN');
      const held = effectiveRoles(ctx.spec, s.user.roles);
      if (!call.roles.some((r) => held.includes(r))) throw new BackendError('FORBIDDEN', { call: name });

      const { path, body } = callRequest(call, payload);
      const target = callTarget(call.service);
      let data: unknown;
      if (target.kind === 'function') {
        const res = await ctx.client.functions.invoke(`${target.name}${path === '/' ? '' : path}`, {
          method: call.method,
          ...(body ? { body } : {}),
        });
        if (res.error) {
          const status = (res.error as { context?: { status?: unknown } }).context?.status;
          if (res.error.name === 'FunctionsFetchError') throw new BackendError('UNAVAILABLE', { call: name });
          throw new BackendError(call.error, {
            call: name,
            status: typeof status === 'number' ? status : null,
          });
        }
        data = res.data;
      } else {
        let res: Response;
        try {
          res = await fetchImpl(`${target.origin}${path}`, {
            method: call.method,
            headers: body ? { 'Content-Type': 'application/json' } : {},
            ...(body ? { body: JSON.stringify(body) } : {}),
          });
        } catch {
          throw new BackendError('UNAVAILABLE', { call: name });
        }
        if (!res.ok) throw new BackendError(call.error, { call: name, status: res.status });
        const text = await res.text();
        try {
          data = text === '' ? {} : JSON.parse(text);
        } catch {
          throw new BackendError(call.error, { call: name, reason: 'response-shape' });
        }
      }
      const answer = checkShape(call.response, data);
      if (answer.length > 0)
        throw new BackendError(call.error, { call: name, reason: 'response-shape', issues: answer });
      return data;
    },
  };
}
