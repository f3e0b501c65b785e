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
    // Checked again here, at start: the same rules (and the same refusal of a service-role key)
    // as at build time, in case a bundle was produced by another build setup.
    const { chooseBackend } = await import('../src/backend/chooseBackend.ts');
    const choice = chooseBackend({
      VITE_NINEFOLD_BACKEND: import.meta.env.VITE_NINEFOLD_BACKEND,
      VITE_SUPABASE_URL: import.meta.env.VITE_SUPABASE_URL,
      VITE_SUPABASE_ANON_KEY: import.meta.env.VITE_SUPABASE_ANON_KEY,
    });
    if (choice.kind !== 'supabase')
      throw new Error('This build is for a Supabase project, not the embedded backend.');
    const { createSupabaseBackend } = await import('../src/backend/supabase/createSupabaseBackend.ts');
    const backend = await createSupabaseBackend({ spec, url: choice.url, anonKey: choice.anonKey });
    return { backend, ready: Promise.resolve(), remembers: null };
  }
  return (await import('./startEmbedded.ts')).startEmbedded(spec, params, worker);
}
