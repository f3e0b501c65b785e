import snapshot from 'virtual:ninefold-snapshot';
import { createBrowserBackend } from '../src/backend/embedded/browser/createBrowserBackend.ts';
import { firstVisitSnapshot } from '../src/backend/embedded/browser/firstVisitSnapshot.ts';
import {
  appSlug,
  createEmbeddedBackend,
  type EmbeddedBackend,
} from '../src/backend/embedded/createEmbeddedBackend.ts';
import { demoAccounts, seedDemoAccounts } from '../src/backend/embedded/demo/demoAccounts.ts';
import type { AppSpec } from '../src/spec/types.ts';

/**
 * The embedded backend for the app's page: its own chunk (loaded by startBackend.ts with a dynamic
 * import, and only in embedded builds), so the database client, the migration compiler and the
 * rule engine are not in the entry chunk. The database runs in the worker of
 * `createBrowserBackend` — the same composition root the browser tests use, so the shipped mode
 * (worker, IndexedDB) is the one under test. Everything here (demo accounts, the snapshot, the
 * `?memory`, `?test` and `?bench` hooks) exists only on the embedded backend: a hosted build does
 * not contain this file.
 */
async function open(spec: AppSpec, memory: boolean): Promise<EmbeddedBackend> {
  const schemaVersion = snapshot.version;
  if (memory) return createEmbeddedBackend({ spec, schemaVersion, dataDir: 'memory://' });
  try {
    // A first visit creates the database from the build's snapshot (src/cli/snapshotPlugin.ts).
    return await createBrowserBackend({ spec, schemaVersion, ...(await firstVisitSnapshot()) });
  } catch (e) {
    console.warn('PGlite worker unavailable, running the database in the page', e);
    return createEmbeddedBackend({ spec, schemaVersion, dataDir: `idb://ninefold-${appSlug(spec)}` });
  }
}

/**
 * Opens the database, applies the migration if needed and makes sure the demo accounts exist.
 *
 * @example
 * const backend = await startEmbedded(spec, new URLSearchParams(location.search));
 */
export async function startEmbedded(spec: AppSpec, params: URLSearchParams): Promise<EmbeddedBackend> {
  const memory = params.has('memory');
  const backend = await open(spec, memory);
  // Demo accounts (idempotent): the sign-in page offers one per role. Hashing their passwords
  // (PBKDF2) costs a few hundred ms, so a return visit that already has them skips it.
  const emails = demoAccounts(spec).map((a) => a.email);
  const have = await backend.asOwner(
    async (tx) =>
      (
        await tx.query<{ n: number }>('select count(*)::int as n from auth.users where email = any($1)', [
          emails,
        ])
      ).rows[0]?.n ?? 0,
  );
  if (have < emails.length) await backend.asOwner((tx) => seedDemoAccounts(tx, spec));
  // Test-only hook for scripts/bench-ui.ts (bulk seeding as the owner, signing in without the UI).
  if (params.has('bench')) Object.assign(window, { __ninefold: { backend, spec } });
  // End-to-end tests only, and only on a throw-away in-memory database (see testHook.ts).
  if (memory && params.has('test')) (await import('./testHook.ts')).installTestHook(backend, spec);
  return backend;
}
