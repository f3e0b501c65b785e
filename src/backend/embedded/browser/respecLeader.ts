import type { AppSpec } from '../../../spec/types.ts';
import type { EmbeddedBackend } from '../createEmbeddedBackend.ts';
import { type LeaderScope, leaderBackendOn } from './leaderBackend.ts';
import type { InitMessage } from './protocol.ts';

/**
 * The leader's backend for a new version of the spec, on the database it already has open (the
 * studio's live app: no worker, PGlite or IndexedDB load again). The schema is upgraded in place by
 * the embedded backend's boot (the planner of `ninefold migrate`, one transaction); if that is
 * refused, it throws SCHEMA_CHANGED and `current` keeps running, untouched. Otherwise `current`'s
 * timers stop (its database stays open: it was given to it) and the new backend answers from now on.
 * The build's schema version, the first visit's snapshot and the demo's people belong to the first
 * spec: not reused (a new role gets its demo account from the new spec).
 *
 * @example
 * backend = await respecLeader(backend, init, editedSpec, scope);
 */
export async function respecLeader(
  current: EmbeddedBackend,
  init: InitMessage,
  spec: AppSpec,
  the: LeaderScope,
): Promise<EmbeddedBackend> {
  const { schemaVersion: _v, loadDataDir: _d, snapshotUrl: _u, demoPeople: _p, ...rest } = init;
  const next = await leaderBackendOn(current.db, { ...rest, spec }, the);
  await current.close();
  return next;
}
