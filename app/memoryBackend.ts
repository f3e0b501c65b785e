import { assembleEmbedded } from '../src/backend/embedded/assembleEmbedded.ts';
import type { EmbeddedBackend } from '../src/backend/embedded/createEmbeddedBackend.ts';
import type { AppSpec } from '../src/spec/types.ts';

/**
 * `?memory`: the backend in the page on a throw-away in-memory database (the end-to-end tests'
 * owner hook needs one). Its own chunk: the shipped mode (the worker) never loads the backend's
 * code into the tab. Assembled like the worker's (assembleEmbedded.ts).
 *
 * @example
 * const backend = await createMemoryBackend(spec, snapshot.version);
 */
export function createMemoryBackend(spec: AppSpec, schemaVersion: string): Promise<EmbeddedBackend> {
  return assembleEmbedded({ spec, schemaVersion, dataDir: 'memory://', demo: 'accounts' });
}
