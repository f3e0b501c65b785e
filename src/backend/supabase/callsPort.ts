import { callRequest as buildRequest, MissingPathParameter } from '../../outbox/deliver.ts';
import type { DeclaredCallSpec } from '../../spec/types.ts';
import { declaredCall, transitionCalls } from '../checkShape.ts';
import { BackendError, type CallsPort, type Session } from '../types.ts';
import { run, type SupabaseContext } from './supabaseContext.ts';

export { type CallTarget, callTarget } from '../../outbox/deliver.ts';

type Record_ = Record<string, unknown>;

/**
 * The request line of a call (the deliverer's `callRequest`), with a missing path parameter as
 * the catalogue's INVALID_INPUT.
 *
 * @example
 * callRequest({ method: 'GET', path: '/rates/:currency', ... }, { currency: 'EUR', day: '2026-01-02' });
 * // { path: '/rates/EUR?day=2026-01-02', body: undefined }
 */
export function callRequest(
  call: DeclaredCallSpec,
  payload: Record_,
): { path: string; body: Record_ | undefined } {
  try {
    return buildRequest(call, payload);
  } catch (e) {
    if (e instanceof MissingPathParameter)
      throw new BackendError('INVALID_INPUT', { field: e.field, problem: 'missing' });
    throw e;
  }
}

/**
 * Declared calls a client asks for. Nothing leaves the browser (issue 11, finding 11): the call is
 * queued in the project's outbox by `public.record_call`, which checks the caller's roles and the
 * payload in the database, and the `ninefold-outbox` Edge Function sends it (docs/hosting.md). A
 * call a transition lists is refused (FORBIDDEN, `reason: 'sent-by-transition'`): its transition
 * queues it when it commits. The roles are checked here first only to answer without a round trip.
 */
export function createCallsPort(ctx: SupabaseContext, session: () => Session | null): CallsPort {
  const bound = transitionCalls(ctx.model);
  return {
    async invoke(name, payload) {
      const call = declaredCall(ctx.model, name, payload);
      const s = session();
      if (!s) throw new BackendError('NOT_SIGNED_IN');
      const transitions = bound.get(name);
      if (transitions)
        throw new BackendError('FORBIDDEN', { call: name, reason: 'sent-by-transition', transitions });
      const held = s.user.roles.flatMap((r) => ctx.model.roles.get(r)?.implied ?? [r]);
      if (!call.roles.some((r) => held.includes(r))) throw new BackendError('FORBIDDEN', { call: name });
      const { data } = await run(ctx, ctx.client.rpc('record_call', { p_call: name, p_payload: payload }));
      return { queued: true, id: String(data ?? '') };
    },
  };
}
