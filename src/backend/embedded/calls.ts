import { declaredCall, transitionCalls } from '../checkShape.ts';
import { BackendError, type CallsPort } from '../types.ts';
import type { CallHandler, EmbeddedContext } from './context.ts';
import { asCaller } from './request.ts';

/**
 * Declared calls a client asks for: the payload is checked against the call's shape, the caller's
 * roles by the database (`public.record_call`), then the local handler runs. Without a handler the
 * call is queued in the outbox, which the deliverer sends (outbox.ts). A call a transition lists
 * is refused here (FORBIDDEN, `reason: 'sent-by-transition'`): its transition queues it when it
 * commits, so no client can skip it or send it for a transition that never happened.
 *
 * @example
 * await backend.calls.invoke('lookupRates', { currency: 'EUR' });
 */
export function createCallsPort(ctx: EmbeddedContext): CallsPort {
  const bound = transitionCalls(ctx.model);
  const outbox = (name: string) => async (payload: unknown) =>
    asCaller(
      ctx,
      async (tx) => {
        const r = await tx.query<{ id: string }>('select public.record_call($1, $2::jsonb) as id', [
          name,
          JSON.stringify(payload),
        ]);
        return r.rows[0]?.id ?? '';
      },
      { signedIn: true },
    );

  return {
    async invoke(name, payload) {
      const call = declaredCall(ctx.model, name, payload);
      const transitions = bound.get(name);
      if (transitions)
        throw new BackendError('FORBIDDEN', { call: name, reason: 'sent-by-transition', transitions });
      const record = outbox(name);
      const handler: CallHandler | undefined = ctx.handlers[name];
      if (!handler) return { queued: true, id: await record(payload) };
      // With a handler the roles are checked here (the outbox function checks them itself).
      const userId = await asCaller(
        ctx,
        async (tx, user) => {
          const r = await tx.query<{ ok: boolean | null }>(
            'select bool_or(app.has_role(auth.uid(), x)) as ok from unnest($1::text[]) x',
            [call.roles],
          );
          if (!r.rows[0]?.ok) throw new BackendError('FORBIDDEN', { call: name });
          return user?.id ?? '';
        },
        { signedIn: true },
      );
      try {
        return await handler(payload, { userId, outbox: record });
      } catch (e) {
        if (e instanceof BackendError) throw e;
        throw new BackendError(call.error, { call: name });
      }
    },
  };
}
