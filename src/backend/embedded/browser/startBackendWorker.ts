// Its own small module: the app's entry chunk (app/main.tsx) imports it to start the worker before
// React, the backend's tab side or anything else has loaded.

export { appSlug } from '../../../runtime/appSlug.ts';

/**
 * Starts the backend's worker (`backendWorker.ts`) without waiting for anything: the app's entry
 * script calls it first, so PGlite's download and compile overlap everything else.
 *
 * @example
 * const worker = startBackendWorker('helpdesk');
 */
export function startBackendWorker(slug: string): Worker {
  return new Worker(new URL('./backendWorker.ts', import.meta.url), {
    type: 'module',
    name: `ninefold-${slug}`,
  });
}
