import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import { renderApp } from '../app/renderApp.tsx';
import { embeddedSchema } from '../src/backend/embedded/boot.ts';
import { connectBrowserBackend } from '../src/backend/embedded/browser/createBrowserBackend.ts';
import { followStudioLocale } from './followStudioLocale.ts';
import { HOST_KEY, type StudioHost } from './studioHost.ts';

/**
 * The live app of the studio: the app built from the studio's current document, on PGlite in a
 * worker, with one demo account per role. A database made by an earlier version of the document
 * is upgraded by the embedded backend's planner (every row kept) or refused, and the studio is told.
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
    const params = (e as { params?: { problems?: unknown } }).params;
    const problems = Array.isArray(params?.problems) ? params.problems.map(String) : [];
    host.report({ kind: 'failed', message: e instanceof Error ? e.message : String(e), problems });
    return;
  }
  const root = document.getElementById('root');
  if (!root) throw new Error('no #root');
  renderApp(root, host.spec, backend);
  // The studio's tests and benchmarks reach the running app's port (as the signed-in person).
  Object.assign(window, { __ninefoldPreview: { backend } });
  host.report({
    kind: 'ready',
    switchTo: async (account) => {
      await backend.auth.signOut();
      if (account) await backend.auth.signIn({ email: account.email, password: account.password });
    },
  });
}

const host = (window.parent as unknown as Record<string, StudioHost | undefined>)[HOST_KEY];
if (host) void start(host);
