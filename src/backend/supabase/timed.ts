import { hasTimedTransitions, RUN_TIMED_RPC } from '../../sql/emitTimed.ts';
import type { SupabaseContext } from './supabaseContext.ts';

const inFlight = new WeakMap<SupabaseContext, Promise<void>>();

/**
 * What time has done by the server's clock, before a read or a transition: `ninefold_run_timed()`
 * moves every row whose transition by time is due (pg_cron does the same every minute; this closes
 * the gap between two runs). Only for apps with such transitions, one request at a time; a failure
 * (a project migrated before the function existed) leaves the read as it is.
 */
export function runDueTransitions(ctx: SupabaseContext): Promise<void> {
  if (!hasTimedTransitions(ctx.model)) return Promise.resolve();
  let p = inFlight.get(ctx);
  if (!p) {
    p = Promise.resolve(ctx.client.rpc(RUN_TIMED_RPC))
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => inFlight.delete(ctx));
    inFlight.set(ctx, p);
  }
  return p;
}
