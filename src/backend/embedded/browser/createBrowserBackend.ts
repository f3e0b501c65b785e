import { PGliteWorker } from '@electric-sql/pglite/worker';
import {
  appSlug,
  createEmbeddedBackend,
  type EmbeddedBackend,
  type EmbeddedBackendOptions,
} from '../createEmbeddedBackend.ts';
import { decodeWorkerError, mapRejections } from './workerErrors.ts';

export interface BrowserBackendOptions extends Omit<EmbeddedBackendOptions, 'db'> {
  /** The database worker; defaults to `pgliteWorker.ts` next to this file (bundled by Vite). */
  worker?: Worker;
}

/**
 * The embedded backend in a browser tab: PGlite in a shared, leader-elected worker, persisted in
 * IndexedDB (`idb://ninefold-<app>` unless `dataDir` says otherwise), one database for every tab
 * of the app. The session token is kept in localStorage, so a reload stays signed in.
 *
 * @example
 * const backend = await createBrowserBackend({ spec: helpdesk });
 */
export async function createBrowserBackend(
  options: BrowserBackendOptions,
): Promise<EmbeddedBackend & { isLeader: () => boolean }> {
  const slug = appSlug(options.spec);
  const worker =
    options.worker ??
    new Worker(new URL('./pgliteWorker.ts', import.meta.url), { type: 'module', name: `ninefold-${slug}` });
  const dataDir = options.dataDir ?? `idb://ninefold-${slug}`;
  const db = await PGliteWorker.create(worker, {
    dataDir,
    // Tabs with the same id share one database and one leader, so the id names the database: with
    // the app's alone, a tab on another `dataDir` used the first tab's database. The default keeps
    // its old id (a tab of the previous build must not become a second leader of the same files).
    id: dataDir === `idb://ninefold-${slug}` ? `ninefold-${slug}` : `ninefold-${slug}:${dataDir}`,
    // A first visit's snapshot: the leader's worker creates the database from it (openWorkerDatabase.ts).
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  // The worker packs each error's SQLSTATE, constraint, … into its message; unpack before mapping.
  mapRejections(
    db,
    ['execProtocol', 'execProtocolStream', 'execProtocolRaw', 'execProtocolRawStream', 'syncToFs'],
    decodeWorkerError,
  );
  const backend = await createEmbeddedBackend({ ...options, db });
  const close = backend.close;
  return Object.assign(backend, {
    isLeader: () => db.isLeader,
    close: async () => {
      await close();
      await db.close();
    },
  });
}
