import fsBundleUrl from '@electric-sql/pglite/pglite.data?url';
import wasmUrl from '@electric-sql/pglite/pglite.wasm?url';
import { markWorker } from './workerMarks.ts';

/**
 * PGlite's WebAssembly (compiled while it streams in) and its file bundle, fetched the moment the
 * worker's first, tiny script runs (`backendWorker.ts`): before the backend's own code (PGlite's
 * JS, the migration compiler, the rules) has downloaded and parsed, and while the tab is still
 * waiting for the snapshot and the workers elect a leader. A failure just leaves it to PGlite to
 * fetch them itself. Every worker prefetches: any of them may become the leader.
 */
export const prefetched = {
  wasm: WebAssembly.compileStreaming(fetch(wasmUrl))
    .then((m) => {
      markWorker('wasm-compiled');
      return m;
    })
    .catch(() => undefined),
  fsBundle: fetch(fsBundleUrl)
    .then((r) => (r.ok ? r.blob() : undefined))
    .then((b) => {
      markWorker('data-fetched');
      return b;
    })
    .catch(() => undefined),
};
