import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
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
 * The live app of the studio: the app built from the studio's current document, on PGlite in a
 * worker, with one demo account per role. A database made by an earlier version of the document
 * is upgraded by the embedded backend's planner (every row kept) or refused, and the studio is told.
 * Each later version comes through `update`: the same worker upgrades the open database
 * (`respec`) and the same React root renders the new spec; nothing reloads.
 */
async function start(host: StudioHost): Promise<void> {
  await followStudioLocale();
  const { version } = await embeddedSchema(host.spec);
  const { backend, ready } = connectBrowserBackend({
    spec: host.spec,
    schemaVersion: version,
    seedDemoAccounts: true,
    dataDir: host.dataDir,
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
