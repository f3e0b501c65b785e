import type { PGliteInterface } from '@electric-sql/pglite';
import type { AppModel } from '../../model/appModel.ts';
import {
  callTarget,
  type DeliveryReport,
  type Destination,
  deliverDue,
  type RetryPolicy,
  sqlOutboxStore,
} from '../../outbox/deliver.ts';
import type { EmbeddedContext } from './context.ts';
import { asCaller, QUERY_OPTIONS } from './request.ts';

export interface OutboxEntry {
  id: string;
  call: string;
  payload: Record<string, unknown>;
  requestedBy: string | null;
  createdAt: string;
  /** The transition that queued it (`ticket.solve`), or null for a call a client asked for. */
  transition: string | null;
  status: 'pending' | 'sending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: string;
  deliveredAt: string | null;
  lastError: string | null;
  idempotencyKey: string;
}

/** What declared calls queued and how their delivery went, newest first; row-level security shows it to admins only. */
export async function readOutbox(ctx: EmbeddedContext): Promise<OutboxEntry[]> {
  if (ctx.model.calls.size === 0) return [];
  return asCaller(
    ctx,
    async (tx) => {
      const r = await tx.query<{
        id: string;
        call: string;
        payload: Record<string, unknown>;
        requested_by: string | null;
        created_at: string;
        transition: string | null;
        status: OutboxEntry['status'];
        attempts: number;
        next_attempt_at: string;
        delivered_at: string | null;
        last_error: string | null;
        idempotency_key: string;
      }>(
        `select id, call, payload, requested_by, created_at,
            case when transition is null then null else entity || '.' || transition end as transition,
            status, attempts, next_attempt_at, delivered_at, last_error, idempotency_key
          from app.outbox order by created_at desc, id`,
        [],
        QUERY_OPTIONS,
      );
      return r.rows.map((o) => ({
        id: o.id,
        call: o.call,
        payload: o.payload,
        requestedBy: o.requested_by,
        createdAt: o.created_at,
        transition: o.transition,
        status: o.status,
        attempts: o.attempts,
        nextAttemptAt: o.next_attempt_at,
        deliveredAt: o.delivered_at,
        lastError: o.last_error,
        idempotencyKey: o.idempotency_key,
      }));
    },
    { signedIn: true },
  );
}

export interface OutboxDeliveryOptions {
  /**
   * Base URLs by service name, for services that are not a host name (`accounting`,
   * `notify-email`): without one, their calls stay queued (an admin sees them pending).
   */
  destinations?: Record<string, string>;
  retry?: RetryPolicy;
  fetch?: typeof fetch;
  /** Per request, default 10 s. */
  timeoutMs?: number;
}

/**
 * The calls of `spec` the embedded backend can reach: a service that is a host (`api.example.com`,
 * `http://127.0.0.1:8787`) or has a configured base URL. Edge Functions exist only on Supabase.
 */
export function reachableCalls(model: AppModel, destinations: Record<string, string> = {}): string[] {
  return [...model.calls]
    .filter(([, c]) => Object.hasOwn(destinations, c.service) || callTarget(c.service).kind === 'host')
    .map(([name]) => name);
}

/**
 * One delivery round of the embedded backend's outbox (in the tab's worker, or Node), as the
 * owner: the same claim, backoff and idempotency key as the Supabase Edge Function (deliver.ts).
 *
 * @example
 * await deliverEmbeddedOutbox(backend.db, resolve(spec), { destinations: { accounting: 'http://127.0.0.1:8787' } });
 */
export async function deliverEmbeddedOutbox(
  db: Pick<PGliteInterface, 'query'>,
  model: AppModel,
  options: OutboxDeliveryOptions = {},
): Promise<DeliveryReport> {
  const destinations = options.destinations ?? {};
  const calls = reachableCalls(model, destinations);
  if (calls.length === 0) return { delivered: 0, retried: 0, failed: 0 };
  const destination: Destination = (c) => {
    if (Object.hasOwn(destinations, c.service)) return { url: destinations[c.service] as string };
    const target = callTarget(c.service);
    return target.kind === 'host' ? { url: target.origin } : null;
  };
  const store = sqlOutboxStore(async <T>(sql: string, params: unknown[]) => {
    const r = await db.query<T>(sql, params);
    return r.rows;
  });
  return deliverDue({
    store,
    destination,
    fetch: options.fetch ?? fetch,
    calls,
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
}
