import type { SpecOrModel } from '../model/modelOf.ts';
import { type BackendEnv, chooseBackend } from './chooseBackend.ts';
import type { EmbeddedStartOptions, HostedStartOptions, Started } from './start/started.ts';

export type { EmbeddedStartOptions, HostedStartOptions, Started } from './start/started.ts';

/**
 * The composition root: the one place the choice between the hosted and the embedded backend is
 * made and each is started, for the shipped app (app/startBackend.ts and app/startEmbedded.ts call
 * its halves, start/startHosted.ts and start/startEmbedded.ts, by the build's choice) and for
 * library users (`loadBackend`). The embedded backend itself is put together in one place too
 * (embedded/assembleEmbedded.ts), in the app's worker or in this process. Each half loads its
 * adapter with a dynamic `import()` and is its own module, so the app's build reaches only the one
 * it calls: no PGlite, worker or snapshot in a hosted build, no supabase-js in an embedded one.
 *
 * @example
 * const { backend, ready } = await startBackend(spec, import.meta.env);
 */
export async function startBackend(
  spec: SpecOrModel,
  env: BackendEnv,
  options: { embedded?: EmbeddedStartOptions; supabase?: HostedStartOptions } = {},
): Promise<Started> {
  if (chooseBackend(env).kind === 'supabase')
    return (await import('./start/startHosted.ts')).startHosted(spec, env, options.supabase);
  return (await import('./start/startEmbedded.ts')).startEmbedded(spec, options.embedded ?? {});
}
