import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import baseUrl from 'virtual:ninefold-studio-base';
import { embeddedSchema } from '../src/backend/embedded/boot.ts';
import { connectBrowserBackend } from '../src/backend/embedded/browser/createBrowserBackend.ts';
import { BackendError } from '../src/backend/types.ts';
import { followStudioLocale } from './followStudioLocale.ts';
import { mountLiveApp } from './liveApp.tsx';
import { HOST_KEY, type PreviewRefusal, type StudioHost } from './studioHost.ts';

/** The upgrade's refusal (SCHEMA_CHANGED and the planner's reasons) as the studio shows it. */
function refusalOf(e: unknown): PreviewRefusal {
  const params = (e as { params?: { problems?: unknown } }).params;
  const problems = Array.isArray(params?.problems) ? params.problems.map(String) : [];
  return { message: e instanceof Error ? e.message : String(e), problems };
}

/**
 * The studio's base database (initdb's output, src/cli/studioBasePlugin.ts) when this document's
 * live app has no database yet: opened instead of running initdb in the page's worker (4–5 s).
 * Null when the database exists or the file cannot be had (then initdb runs, as before).
 */
async function baseForNewDatabase(dataDir: string, url: string): Promise<Blob | null> {
  if (!dataDir.startsWith('idb://') || !indexedDB.databases) return null;
  const name = `/pglite/${dataDir.slice('idb://'.length)}`;
  if ((await indexedDB.databases()).some((d) => d.name === name)) return null;
  try {
    const response = await fetch(url);
    return response.ok ? await response.blob() : null;
  } catch {
    return null;
  }
}

/**
 * The live app of the studio: the app built from the studio's current document, on PGlite in a
 * worker, with one demo account per role. A database made by an earlier version of the document
 * is upgraded by the embedded backend's planner (every row kept) or refused, and the studio is told.
 * Each later version comes through `update`: the same worker upgrades the open database
 * (`respec`) and the same React root renders the new spec; nothing reloads.
 */
async function start(host: StudioHost): Promise<void> {
  const base = new URL(baseUrl, location.href).href;
  const loadDataDir = baseForNewDatabase(host.dataDir, base);
  await followStudioLocale();
  const { version } = await embeddedSchema(host.spec);
  const { backend, ready } = connectBrowserBackend({
    spec: host.spec,
    schemaVersion: version,
    seedDemoAccounts: true,
    dataDir: host.dataDir,
    loadDataDir,
    // A database left without files (a page closed during its first start) starts from it too.
    snapshotUrl: base,
  });
  try {
    await ready;
  } catch (e) {
    host.report({ kind: 'failed', ...refusalOf(e) });
    return;
  }
  const root = document.getElementById('root');
  if (!root) throw new Error('no #root');
  const app = mountLiveApp(root, backend);
  await app.show(host.spec);
  // The studio's tests and benchmarks reach the running app's port (as the signed-in person).
  Object.assign(window, { __ninefoldPreview: { backend } });
  host.report({
    kind: 'ready',
    switchTo: async (account) => {
      await backend.auth.signOut();
      if (account) await backend.auth.signIn({ email: account.email, password: account.password });
    },
    update: async (spec) => {
      try {
        await backend.respec(spec);
      } catch (e) {
        if (e instanceof BackendError && e.code === 'SCHEMA_CHANGED') return refusalOf(e);
        throw e;
      }
      await app.show(spec);
      return null;
    },
  });
}

const host = (window.parent as unknown as Record<string, StudioHost | undefined>)[HOST_KEY];
if (host) void start(host);
