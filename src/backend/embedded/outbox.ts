import type { EmbeddedContext } from './context.ts';
import { asCaller, QUERY_OPTIONS } from './request.ts';

export interface OutboxEntry {
  id: string;
  call: string;
  payload: Record<string, unknown>;
  requestedBy: string | null;
  createdAt: string;
}

/** What declared calls recorded, newest first; row-level security shows it to admins only. */
export async function readOutbox(ctx: EmbeddedContext): Promise<OutboxEntry[]> {
  return asCaller(
    ctx,
    async (tx) => {
      const r = await tx.query<{
        id: string;
        call: string;
        payload: Record<string, unknown>;
        requested_by: string | null;
        created_at: string;
      }>(
        'select id, call, payload, requested_by, created_at from app.outbox order by created_at desc, id',
        [],
        QUERY_OPTIONS,
      );
      return r.rows.map((o) => ({
        id: o.id,
        call: o.call,
        payload: o.payload,
        requestedBy: o.requested_by,
        createdAt: o.created_at,
      }));
    },
    { signedIn: true },
  );
}
