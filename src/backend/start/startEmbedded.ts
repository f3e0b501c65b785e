import { isModel, type SpecOrModel } from '../../model/modelOf.ts';
import type { AssembleEmbeddedOptions } from '../embedded/assembleEmbedded.ts';
import type { EmbeddedStartOptions, Started } from './started.ts';

/**
 * The embedded backend as the app ships it: PGlite and the backend in the app's worker
 * (backendWorker.ts), this tab sending one message per call. Where there is no `Worker` (Node,
 * server-side code, tests) it runs in this process, assembled the same way as in the worker.
 * Its own module (the composition root's embedded half, src/backend/startBackend.ts): an embedded
 * app's build reaches only this one, never supabase-js.
 *
 * @example
 * const { backend, ready } = await startEmbedded(spec, { schemaVersion, seedDemoAccounts: true });
 */
export async function startEmbedded(spec: SpecOrModel, options: EmbeddedStartOptions): Promise<Started> {
  if (typeof Worker === 'undefined') {
    const { assembleEmbedded } = await import('../embedded/assembleEmbedded.ts');
    const backend = await assembleEmbedded(await inProcess(spec, options));
    return { backend, ready: Promise.resolve(), signedIn: false };
  }
  // The worker resolves the spec itself: the spec is data and crosses to it, a model does not.
  if (isModel(spec)) throw new Error(WORKER_NEEDS_SPEC);
  const { connectBrowserBackend } = await import('../embedded/browser/createBrowserBackend.ts');
  const { backend, ready, signedIn } = connectBrowserBackend({ ...options, spec });
  return { backend, ready: ready.then(() => undefined), signedIn };
}

const WORKER_NEEDS_SPEC =
  "The embedded backend runs in the app's worker here, which is sent the app's specification (a resolved model cannot cross to a worker): pass the spec, not resolve(spec).";

/** The worker's options, for the same backend in this process. */
async function inProcess(spec: SpecOrModel, o: EmbeddedStartOptions): Promise<AssembleEmbeddedOptions> {
  const loadDataDir = (await o.loadDataDir) ?? undefined;
  return {
    spec,
    ...(o.dataDir ? { dataDir: o.dataDir } : {}),
    ...(o.schemaVersion ? { schemaVersion: o.schemaVersion } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
    ...(o.now ? { now: o.now } : {}),
    ...(o.onUpgradeProgress ? { onUpgradeProgress: o.onUpgradeProgress } : {}),
    ...(o.allowDestructiveUpgrade ? { allowDestructiveUpgrade: true } : {}),
    ...(o.callDestinations ? { outbox: { destinations: o.callDestinations } } : {}),
    ...(o.seedDemoAccounts ? { demo: 'accounts' as const } : {}),
  };
}
