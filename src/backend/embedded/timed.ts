import { hasTimedTransitions, RUN_TIMED, timedTransitions } from '../../sql/emitTimed.ts';
import type { EmbeddedContext } from './context.ts';

const timedApps = new WeakMap<object, readonly string[]>();

/** The entities with transitions that happen by time (`after`), worked out once per model. */
function timedEntities(ctx: EmbeddedContext): readonly string[] {
  let entities = timedApps.get(ctx.model);
  if (!entities) {
    entities = hasTimedTransitions(ctx.model)
      ? [...ctx.model.tables.values()].filter((t) => timedTransitions(t).length > 0).map((t) => t.entity)
      : [];
    timedApps.set(ctx.model, entities);
  }
  return entities;
}

/**
 * What time has done by the backend's clock (`ctx.now()`), before a call reads or writes: every
 * transition that happens by time and is due moves, as the system, in a transaction of its own
 * (`app.run_timed(p_now)`). So a read never shows a row in a state it has left by time, without a
 * background job; the worker runs it on every call. Rows that moved are announced as changes.
 */
export async function runDueTransitions(ctx: EmbeddedContext): Promise<void> {
  const entities = timedEntities(ctx);
  if (entities.length === 0) return;
  const res = await ctx.db.query<{ n: number }>(`select ${RUN_TIMED}($1::timestamptz) as n`, [
    ctx.now().toISOString(),
  ]);
  if ((res.rows[0]?.n ?? 0) > 0)
    for (const entity of entities) ctx.emitChange({ entity, id: '*', kind: 'update' });
}

/**
 * Runs what is due every `intervalMs` while the backend is open, so a screen left open sees a loan
 * become overdue without anyone calling (the moved rows arrive as live changes). Returns the stop;
 * nothing runs for an app without transitions by time. A failed round is the next round's work.
 */
export function runDueTransitionsEvery(ctx: EmbeddedContext, intervalMs: number): () => void {
  if (timedEntities(ctx).length === 0 || intervalMs <= 0) return () => {};
  const timer = setInterval(() => {
    runDueTransitions(ctx).catch(() => {});
  }, intervalMs);
  return () => clearInterval(timer);
}
