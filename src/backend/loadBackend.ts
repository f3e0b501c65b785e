import type { SpecOrModel } from '../model/modelOf.ts';
import type { BackendEnv } from './chooseBackend.ts';
import { type EmbeddedStartOptions, type HostedStartOptions, startBackend } from './startBackend.ts';
import type { Backend } from './types.ts';

export {
  BackendConfigError,
  type BackendConfigProblem,
  type BackendEnv,
  chooseBackend,
  isPrivilegedKey,
} from './chooseBackend.ts';

/**
 * Starts the backend the environment chooses, the way the shipped app does (`startBackend`, the
 * composition root): the embedded one runs PGlite in the app's worker (in this process where
 * there is no `Worker`), and resolves once its database is open. Each adapter is loaded with a
 * dynamic `import()`, so a hosted app never downloads PGlite and an embedded app never downloads
 * supabase-js.
 *
 * @example
 * const backend = await loadBackend(spec, import.meta.env);
 */
export async function loadBackend(
  spec: SpecOrModel,
  env: BackendEnv,
  options: { embedded?: EmbeddedStartOptions; supabase?: HostedStartOptions } = {},
): Promise<Backend> {
  const { backend, ready } = await startBackend(spec, env, options);
  await ready;
  return backend;
}
