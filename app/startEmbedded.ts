import snapshot from 'virtual:ninefold-snapshot';
// Static, as the tab's side of the worker is this chunk's: the composition root's dynamic import
// of it (start/startEmbedded.ts) then fetches nothing more.
import {
  appSlug,
  connectBrowserBackend,
  startBackendWorker,
} from '../src/backend/embedded/browser/createBrowserBackend.ts';
import { firstVisitSnapshot } from '../src/backend/embedded/browser/firstVisitSnapshot.ts';
import { demoAccountPeople } from '../src/backend/embedded/demo/demoAccountPeople.ts';
import { demoAccounts } from '../src/backend/embedded/demo/demoAccounts.ts';
import { startEmbedded as startInWorker } from '../src/backend/start/startEmbedded.ts';
import type { Backend } from '../src/backend/types.ts';
import {
  type RememberedStart,
  type StartMemoryTarget,
  startMemoryKey,
} from '../src/runtime/rememberedStart.ts';
import type { AppSpec } from '../src/spec/types.ts';

/**
 * The embedded backend for the app's page: its own chunk (loaded by startBackend.ts with a dynamic
 * import, and only in embedded builds). The backend and PGlite run in a worker
 * (`startEmbedded` of src/backend/start/, the composition root `loadBackend` uses too), so this chunk is only
 * the tab's side of it. Everything here (demo accounts, the snapshot, the `?memory`, `?test` and `?bench` hooks)
 * exists only on the embedded backend: a hosted build does not contain this file.
 *
 * `?memory` runs the same worker on a throw-away in-memory database (`memory://`, a fresh one each
 * load): the end-to-end tests' hook (`testHook.ts`) needs owner access that must never reach a
 * persistent database, and a journey wants a database of its own; everything else (the worker, the
 * tab's protocol, the backend assembled in the worker) is what the app ships.
 *
 * The worker's backend is returned before its database is open (`ready` says when it is): its
 * calls wait in the worker, so the app can render meanwhile (app/main.tsx).
 */
export async function startEmbedded(
  spec: AppSpec,
  params: URLSearchParams,
  /** Started by the entry script (app/main.tsx); created here when it is not. */
  started?: Promise<Worker>,
): Promise<StartedBackend> {
  if (params.has('memory')) {
    const { backend, ready } = connectBrowserBackend({
      spec,
      schemaVersion: snapshot.version,
      seedDemoAccounts: true,
      // Planned here: the worker's clone of the spec has no registered demo (app/main.tsx waited for it).
      demoPeople: demoAccountPeople(spec, demoAccounts(spec)),
      dataDir: 'memory://',
    });
    await ready;
    if (params.has('bench')) Object.assign(window, { __ninefold: { backend, spec } });
    if (params.has('test')) (await import('./testHook.ts')).installTestHook(backend, spec);
    return { backend, ready: Promise.resolve(), remembers: null };
  }
  // Started before waiting for the snapshot: the worker fetches and compiles PGlite meanwhile.
  const worker = (await started) ?? startBackendWorker(appSlug(spec));
  const firstVisit = firstVisitSnapshot();
  const { backend, ready, signedIn } = await startInWorker(spec, {
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
    // A first visit creates the database from the build's snapshot (src/cli/snapshotPlugin.ts);
    // the app renders while it downloads (calls wait for it in the tab).
    loadDataDir: firstVisit.then((o) => o.loadDataDir),
    // …and a return visit to a database such a first visit left empty (closed before its unpack
    // was stored) fetches it in the worker (openWorkerDatabase.ts).
    ...(snapshot.url ? { snapshotUrl: new URL(snapshot.url, location.href).href } : {}),
  });
  // Test-only hook for the benchmarks (bulk seeding as the owner, signing in without the UI).
  // Once the database is open (scripts read `backend.schema`, which is known only then).
  if (params.has('bench')) void ready.then(() => Object.assign(window, { __ninefold: { backend, spec } }));
  // The persistent database may show what it held last time at once (src/react/startCache.ts):
  // its key names the database and the schema, so another database or version never matches.
  let open = false;
  ready.then(
    () => {
      open = true;
    },
    () => undefined,
  );
  return {
    backend,
    ready,
    // A first visit's demo accounts' first screens, worked out at build time on this very snapshot
    // (src/react/demoScreens.ts), show while the database is still being unpacked. A page left
    // before the unpack was stored is safe: the next visit fetches the snapshot again
    // (openWorkerDatabase.ts) and signs the clicked account in again (rememberedStart.ts).
    demoScreens: async () => (open ? null : demoFirstScreens(firstVisit)),
    remembers: { target: { key: startMemoryKey(appSlug(spec)), version: snapshot.version }, signedIn },
  };
}

async function demoFirstScreens(
  firstVisit: Promise<{ loadDataDir?: Blob }>,
): Promise<Record<string, RememberedStart> | null> {
  if (!(await firstVisit).loadDataDir) return null;
  return (await import('virtual:ninefold-demo-screens')).default;
}

/** A backend whose calls can be made now, and when its database is open. */
export interface StartedBackend {
  backend: Backend;
  ready: Promise<void>;
  /**
   * Where the app may remember a signed-in person's first screen between visits, and whether a
   * session token was stored at start; null: nothing is remembered (hosted, `?memory`).
   */
  remembers: { target: StartMemoryTarget; signedIn: boolean } | null;
  /** On a first visit, before the database is open: each demo account's first screens (else null). */
  demoScreens?: () => Promise<Record<string, RememberedStart> | null>;
}
