import type { AppSpec } from '../src/spec/types.ts';
import type { StartedBackend } from './startEmbedded.ts';

/**
 * Starts the backend the build's environment chose (`VITE_NINEFOLD_BACKEND`, see
 * src/cli/backendEnv.ts and docs/hosting.md). The build replaces
 * `import.meta.env.VITE_NINEFOLD_BACKEND` with the resolved choice, so the bundler drops the other
 * branch with its dynamic import: a hosted build contains no PGlite (no worker, wasm, data or
 * snapshot) and no demo accounts, and an embedded build contains no supabase-js.
 *
 * @example
 * const { backend, ready } = await startBackend(spec, new URLSearchParams(location.search));
 */
export async function startBackend(
  spec: AppSpec,
  params: URLSearchParams,
  /** The embedded backend's worker, when the entry script already started it. */
  worker?: Promise<Worker>,
): Promise<StartedBackend> {
  if (import.meta.env.VITE_NINEFOLD_BACKEND === 'supabase') {
    // The composition root checks the environment again, at start (src/backend/start/startHosted.ts).
    const { startHosted } = await import('../src/backend/start/startHosted.ts');
    const { backend, ready } = await startHosted(spec, {
      VITE_NINEFOLD_BACKEND: import.meta.env.VITE_NINEFOLD_BACKEND,
      VITE_SUPABASE_URL: import.meta.env.VITE_SUPABASE_URL,
      VITE_SUPABASE_ANON_KEY: import.meta.env.VITE_SUPABASE_ANON_KEY,
    });
    return { backend, ready, remembers: null };
  }
  return (await import('./startEmbedded.ts')).startEmbedded(spec, params, worker);
}
