import type { AppSpec } from '../spec/types.ts';
import { type BackendEnv, chooseBackend } from './chooseBackend.ts';
import type { EmbeddedBackendOptions } from './embedded/createEmbeddedBackend.ts';
import type { SupabaseBackendOptions } from './supabase/createSupabaseBackend.ts';
import type { Backend } from './types.ts';

export {
  BackendConfigError,
  type BackendConfigProblem,
  type BackendEnv,
  chooseBackend,
  isPrivilegedKey,
} from './chooseBackend.ts';

/**
 * Starts the backend the environment chooses. Each adapter is loaded with a dynamic `import()`,
 * so a hosted app never downloads PGlite (the bundler puts it in a chunk that is never fetched)
 * and an embedded app never downloads supabase-js.
 *
 * @example
 * const backend = await loadBackend(spec, import.meta.env);
 */
export async function loadBackend(
  spec: AppSpec,
  env: BackendEnv,
  options: {
    embedded?: Omit<EmbeddedBackendOptions, 'spec'>;
    supabase?: Omit<SupabaseBackendOptions, 'spec' | 'url' | 'anonKey'>;
  } = {},
): Promise<Backend> {
  const choice = chooseBackend(env);
  if (choice.kind === 'supabase') {
    const { createSupabaseBackend } = await import('./supabase/createSupabaseBackend.ts');
    return createSupabaseBackend({ ...options.supabase, spec, url: choice.url, anonKey: choice.anonKey });
  }
  const { createEmbeddedBackend } = await import('./embedded/createEmbeddedBackend.ts');
  return createEmbeddedBackend({ ...options.embedded, spec });
}
