import snapshot from 'virtual:ninefold-snapshot';
import {
  appSlug,
  type BrowserBackend,
  createBrowserBackend,
  startBackendWorker,
} from '../src/backend/embedded/browser/createBrowserBackend.ts';
import { firstVisitSnapshot } from '../src/backend/embedded/browser/firstVisitSnapshot.ts';
import type { EmbeddedBackend } from '../src/backend/embedded/createEmbeddedBackend.ts';
import type { AppSpec } from '../src/spec/types.ts';

/**
 * The embedded backend for the app's page: its own chunk (loaded by startBackend.ts with a dynamic
 * import, and only in embedded builds). The backend and PGlite run in a worker
 * (`createBrowserBackend`, the same composition root the browser tests use), so this chunk is only
 * the tab's side of it. Everything here (demo accounts, the snapshot, the `?memory`, `?test` and `?bench` hooks)
 * exists only on the embedded backend: a hosted build does not contain this file.
 *
 * `?memory` runs the backend in the page on a throw-away database: the end-to-end tests' hook
 * (`testHook.ts`) needs owner access that must never reach a persistent database.
 */
export async function startEmbedded(
  spec: AppSpec,
  params: URLSearchParams,
  /** Started by the entry script (app/main.tsx); created here when it is not. */
  started?: Promise<Worker>,
): Promise<EmbeddedBackend | BrowserBackend> {
  if (params.has('memory')) {
    const { createMemoryBackend } = await import('./memoryBackend.ts');
    const backend = await createMemoryBackend(spec, snapshot.version);
    if (params.has('bench')) Object.assign(window, { __ninefold: { backend, spec } });
    if (params.has('test')) (await import('./testHook.ts')).installTestHook(backend, spec);
    return backend;
  }
  // Started before waiting for the snapshot: the worker fetches and compiles PGlite meanwhile.
  const worker = (await started) ?? startBackendWorker(appSlug(spec));
  const backend = await createBrowserBackend({
    spec,
    schemaVersion: snapshot.version,
    seedDemoAccounts: true,
    worker,
    // Where a new database goes: see docs/decisions.md ("Storage: OPFS or IndexedDB").
    preferOpfs: import.meta.env.VITE_NINEFOLD_STORAGE === 'opfs',
    // A database made by an older version of the spec is upgraded in place (upgradeSchema.ts): the
    // boot screen says so. Under `ninefold dev` a field removed from the spec leaves the local data too.
    onUpgradeProgress: (line) => {
      const el = document.getElementById('boot-detail');
      if (el) el.textContent = line;
    },
    allowDestructiveUpgrade: import.meta.env.DEV === true,
    // A first visit creates the database from the build's snapshot (src/cli/snapshotPlugin.ts).
    ...(await firstVisitSnapshot()),
  });
  // Test-only hook for the benchmarks (bulk seeding as the owner, signing in without the UI).
  if (params.has('bench')) Object.assign(window, { __ninefold: { backend, spec } });
  return backend;
}
