import { embeddedModel, embeddedSchemaSql } from '../src/backend/embedded/upgradeSchema.ts';
import { planMigration } from '../src/migrate/planMigration.ts';
import { resolve } from '../src/model/resolve.ts';
import type { AppSpec } from '../src/spec/types.ts';

/** What moving the live app from one document to the next would do. */
export interface LivePlan {
  /** One line per change, in the spec's words. */
  changes: string[];
  /** Why it cannot be done without losing or breaking rows, and what it would take; empty: go ahead. */
  refused: string[];
}

/**
 * The plan the preview database's upgrade will follow, made beforehand in the studio with the
 * planner `ninefold migrate` uses (and the embedded backend's upgrade runs again in the worker):
 * a refused plan never reaches the running app.
 *
 * @example
 * planLive(running, edited).refused; // ['state ticket.pending was removed: say where its rows go with …']
 */
export function planLive(running: AppSpec, next: AppSpec): LivePlan {
  const plan = planMigration(embeddedModel(resolve(running)), resolve(next), {
    target: 'embedded',
    sqlOf: embeddedSchemaSql,
  });
  return { changes: plan.changes, refused: plan.refused.map((r) => r.message) };
}
