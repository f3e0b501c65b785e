import type { SpecOrModel } from '../../model/modelOf.ts';
import { type BackendEnv, chooseBackend } from '../chooseBackend.ts';
import type { HostedStartOptions, Started } from './started.ts';

/**
 * The hosted backend (the composition root's hosted half, src/backend/startBackend.ts), with the
 * environment checked again here, at start: the same rules (and the same refusal of a
 * service-role key) as at build time, in case a bundle was produced by another build setup. Its
 * own module: a hosted app's build reaches only this one, never the embedded backend's worker.
 *
 * @example
 * const { backend } = await startHosted(spec, import.meta.env);
 */
export async function startHosted(
  spec: SpecOrModel,
  env: BackendEnv,
  options: HostedStartOptions = {},
): Promise<Started> {
  const choice = chooseBackend(env);
  if (choice.kind !== 'supabase')
    throw new Error('This build is for a Supabase project, not the embedded backend.');
  const { createSupabaseBackend } = await import('../supabase/createSupabaseBackend.ts');
  const backend = await createSupabaseBackend({ ...options, spec, url: choice.url, anonKey: choice.anonKey });
  return { backend, ready: Promise.resolve(), signedIn: false };
}
