import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import spec from 'virtual:ninefold-spec';
import type { PGliteInterface } from '@electric-sql/pglite';
import { PGliteWorker } from '@electric-sql/pglite/worker';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import {
  appSlug,
  createEmbeddedBackend,
  type EmbeddedBackend,
} from '../src/backend/embedded/createEmbeddedBackend.ts';
import { demoAccounts, seedDemoAccounts } from '../src/backend/embedded/demo/demoAccounts.ts';
import { NinefoldApp } from '../src/react/NinefoldApp.tsx';
import { ui } from '../src/runtime/uiText.ts';

const text = (id: string, value: string) => {
  const el = document.getElementById(id);
  if (el) el.textContent = value;
};

/** The database in a worker (shared across tabs, persisted in IndexedDB); in-page if workers fail. */
async function openDatabase(dataDir: string): Promise<PGliteInterface | undefined> {
  if (new URLSearchParams(location.search).has('memory')) return undefined;
  try {
    const w = new Worker(new URL('./pglite.worker.ts', import.meta.url), { type: 'module' });
    const db = await PGliteWorker.create(w, { dataDir });
    return db as unknown as PGliteInterface;
  } catch (e) {
    console.warn('PGlite worker unavailable, running the database in the page', e);
    return undefined;
  }
}

async function boot(): Promise<void> {
  document.title = spec.purpose.name;
  text('boot-title', ui('appLoading', { name: spec.purpose.name }));
  text('boot-detail', ui('appLoadingDetail'));
  const memory = new URLSearchParams(location.search).has('memory');
  const dataDir = memory ? 'memory://' : `idb://ninefold-${appSlug(spec)}`;
  const db = await openDatabase(dataDir);
  const backend: EmbeddedBackend = await createEmbeddedBackend({ spec, ...(db ? { db } : { dataDir }) });
  // Demo accounts (idempotent): the sign-in page offers one per role.
  await backend.asOwner((tx) => seedDemoAccounts(tx, spec));
  // Test-only hook for scripts/bench-ui.ts (bulk seeding as the owner, signing in without the UI).
  if (new URLSearchParams(location.search).has('bench')) Object.assign(window, { __ninefold: { backend, spec } });
  // End-to-end tests only, and only on a throw-away in-memory database (see testHook.ts).
  if (memory && new URLSearchParams(location.search).has('test'))
    (await import('./testHook.ts')).installTestHook(backend, spec);
  const root = document.getElementById('root');
  if (!root) throw new Error('no #root');
  createRoot(root).render(
    <StrictMode>
      <NinefoldApp spec={spec} backend={backend} demoAccounts={demoAccounts(spec)} />
    </StrictMode>,
  );
}

boot().catch((e: unknown) => {
  console.error(e);
  text('boot-title', ui('appFailed'));
  text('boot-detail', e instanceof Error ? e.message : String(e));
});
