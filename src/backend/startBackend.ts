import type { AppSpec } from '../spec/types.ts';
import { type BackendEnv, chooseBackend } from './chooseBackend.ts';
import type { AssembleEmbeddedOptions } from './embedded/assembleEmbedded.ts';
import type { BrowserBackendOptions } from './embedded/browser/createBrowserBackend.ts';
import type { SupabaseBackendOptions } from './supabase/createSupabaseBackend.ts';
import type { Backend } from './types.ts';

/** A backend whose calls can be made now, and when its database is open. */
export interface Started<B extends Backend = Backend> {
  backend: B;
  /** Settles when the backend is ready (at once for a hosted one); rejects with why it cannot be. */
  ready: Promise<void>;
  /** Whether a session token was stored when it started (someone may still be signed in). */
  signedIn: boolean;
}

/** How the embedded backend runs: in the app's worker (a browser), or in this process (Node, tests). */
export type EmbeddedStartOptions = Omit<BrowserBackendOptions, 'spec'>;
export type HostedStartOptions = Omit<SupabaseBackendOptions, 'spec' | 'url' | 'anonKey'>;

/**
 * The composition root: the one place the choice between the hosted and the embedded backend is
 * made and each is started, for the shipped app (app/startBackend.ts, app/startEmbedded.ts) and
 * for library users (`loadBackend`). Each adapter is loaded with a dynamic `import()` in its own
 * function, so a build that calls only one of them (the app's, by its build-time choice) contains
 * only that one: no PGlite, worker or snapshot in a hosted build, no supabase-js in an embedded one.
 *
 * @example
 * const { backend, ready } = await startBackend(spec, import.meta.env);
 */
export async function startBackend(
  spec: AppSpec,
  env: BackendEnv,
  options: { embedded?: EmbeddedStartOptions; supabase?: HostedStartOptions } = {},
): Promise<Started> {
  const choice = chooseBackend(env);
  return choice.kind === 'supabase'
    ? startHosted(spec, env, options.supabase)
    : startEmbedded(spec, options.embedded ?? {});
}

/**
 * The hosted backend, with the environment checked again here, at start: the same rules (and the
 * same refusal of a service-role key) as at build time, in case a bundle was produced by another
 * build setup.
 */
export async function startHosted(
  spec: AppSpec,
  env: BackendEnv,
  options: HostedStartOptions = {},
): Promise<Started> {
  const choice = chooseBackend(env);
  if (choice.kind !== 'supabase')
    throw new Error('This build is for a Supabase project, not the embedded backend.');
  const { createSupabaseBackend } = await import('./supabase/createSupabaseBackend.ts');
  const backend = await createSupabaseBackend({ ...options, spec, url: choice.url, anonKey: choice.anonKey });
  return { backend, ready: Promise.resolve(), signedIn: false };
}

/**
 * The embedded backend as the app ships it: PGlite and the backend in the app's worker
 * (backendWorker.ts), this tab sending one message per call. Where there is no `Worker` (Node,
 * server-side code, tests) it runs in this process, assembled the same way as in the worker.
 */
export async function startEmbedded(spec: AppSpec, options: EmbeddedStartOptions): Promise<Started> {
  if (typeof Worker === 'undefined') {
    const { assembleEmbedded } = await import('./embedded/assembleEmbedded.ts');
    const backend = await assembleEmbedded(await inProcess(spec, options));
    return { backend, ready: Promise.resolve(), signedIn: false };
  }
  const { connectBrowserBackend } = await import('./embedded/browser/createBrowserBackend.ts');
  const { backend, ready, signedIn } = connectBrowserBackend({ ...options, spec });
  return { backend, ready: ready.then(() => undefined), signedIn };
}

/** The worker's options, for the same backend in this process. */
async function inProcess(spec: AppSpec, o: EmbeddedStartOptions): Promise<AssembleEmbeddedOptions> {
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
