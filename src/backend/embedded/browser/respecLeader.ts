import { modelOf } from '../../../model/modelOf.ts';
import type { AppSpec } from '../../../spec/types.ts';
import { embeddedSchema } from '../boot.ts';
import type { EmbeddedBackend } from '../createEmbeddedBackend.ts';
import { upgradeSchema } from '../upgradeSchema.ts';
import { type LeaderScope, leaderBackendOn } from './leaderBackend.ts';
import { type Answer, type InitMessage, type Request, toWireError } from './protocol.ts';

/**
 * The leader's backend for a new version of the spec, on the database it already has open (the
 * studio's live app: no worker, PGlite or IndexedDB load again). The schema is upgraded in place by
 * the embedded backend's upgrade (the planner of `ninefold migrate`, one transaction; the database
 * booted once already, so it has its model recorded); if that is refused, it throws SCHEMA_CHANGED
 * and `current` keeps running, untouched. Otherwise `current`'s timers stop (its database stays
 * open: it was given to it) and the new backend answers from now on. The first visit's snapshot and
 * the demo's people belong to the first spec: not reused (a new role gets its demo account).
 *
 * @example
 * ({ backend } = await respecLeader(backend, init, editedSpec, scope));
 */
export async function respecLeader(
  current: EmbeddedBackend,
  init: InitMessage,
  spec: AppSpec,
  the: LeaderScope,
): Promise<{ backend: EmbeddedBackend; schema: EmbeddedBackend['schema'] }> {
  const { loadDataDir: _d, snapshotUrl: _u, demoPeople: _p, ...rest } = init;
  const model = modelOf(spec);
  const target = await embeddedSchema(model);
  const schema = await upgradeSchema(current.db, model, target, {
    onProgress: the.progress,
    allowDestructive: init.allowDestructiveUpgrade === true,
  });
  // Its boot then finds the version it is built for: one read.
  const next = await leaderBackendOn(current.db, { ...rest, spec, schemaVersion: target.version }, the);
  await current.close();
  return { backend: next, schema };
}

/**
 * The leader's answer to `respec` requests (serveBackend.ts): the backend replaced, or the error
 * (SCHEMA_CHANGED with the planner's reasons) and the running backend kept.
 */
export function respecRequests(the: {
  running: () => { backend: EmbeddedBackend; init: InitMessage } | undefined;
  replace: (next: EmbeddedBackend) => void;
  scope: () => LeaderScope;
}) {
  return async (r: Extract<Request, { kind: 'respec' }>): Promise<Answer> => {
    try {
      const running = the.running();
      if (!running) throw new Error('respec: this worker does not hold the database');
      const next = await respecLeader(running.backend, running.init, r.spec, the.scope());
      the.replace(next.backend);
      return { ok: true, value: next.schema, auth: [], changes: [] };
    } catch (e) {
      return { ok: false, error: toWireError(e), auth: [], changes: [] };
    }
  };
}
