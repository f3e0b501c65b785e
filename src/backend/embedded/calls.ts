import { declaredCall } from '../checkShape.ts';
import { BackendError, type CallsPort } from '../types.ts';
import type { CallHandler, EmbeddedContext } from './context.ts';
import { asCaller } from './request.ts';

/**
 * Declared calls: the payload is checked against the call's shape, the caller's roles by the
 * database (`app.record_outbox`), then the local handler runs. Without a handler the call is
 * recorded in the outbox, which is what the reference apps' hosted calls would send.
 *
 * @example
 * await backend.calls.invoke('notifyRequester', { ticketId, message: 'Solved' });
 */
export function createCallsPort(ctx: EmbeddedContext): CallsPort {
  const outbox = (name: string) => async (payload: unknown) =>
    asCaller(
      ctx,
      async (tx) => {
        const r = await tx.query<{ id: string }>('select app.record_outbox($1, $2::jsonb) as id', [
          name,
          JSON.stringify(payload),
        ]);
        return r.rows[0]?.id ?? '';
      },
      { signedIn: true },
    );

  return {
    async invoke(name, payload) {
      const call = declaredCall(ctx.spec, name, payload);
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
