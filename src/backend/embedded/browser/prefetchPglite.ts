import fsBundleUrl from '@electric-sql/pglite/pglite.data?url';
import wasmUrl from '@electric-sql/pglite/pglite.wasm?url';
import { markWorker } from './workerMarks.ts';

export interface PrefetchedPglite {
  wasm: Promise<WebAssembly.Module | undefined>;
  fsBundle: Promise<Blob | undefined>;
}

let started: PrefetchedPglite | undefined;

/**
 * PGlite's WebAssembly (compiled while it streams in) and its file bundle, fetched once: the worker's
 * first, tiny script asks for them the moment it may start (`backendWorker.ts`), before the
 * backend's own code (PGlite's JS, the migration compiler, the rules) has downloaded and parsed,
 * and while the tab is still waiting for the snapshot and the workers elect a leader; the
 * database's open takes the same promises. A failure just leaves it to PGlite to fetch them
 * itself. Every worker prefetches: any of them may become the leader. A function, not a module's
 * side effect: the package declares its modules free of side effects, so an import for its effect
 * alone is dropped by the bundler.
 *
 * @example
 * const { wasm, fsBundle } = prefetchPglite();
 */
export function prefetchPglite(): PrefetchedPglite {
  started ??= {
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
  return started;
}
