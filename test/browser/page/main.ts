/**
 * Test page: the embedded backend as library users start it (`loadBackend`, the composition root
 * the app uses): in a worker with IndexedDB persistence, exposed on `window.nf`
 * for the browser tests and the boot benchmark to drive. `?db=idb://name` picks the database;
 * `&opfs=1` keeps a new one in OPFS instead (the `name` folder).
 * `nf.call` runs one Backend call for `test/browser/pageBackend.ts` (the conformance suite).
 */
import helpdesk from '../../../examples/helpdesk/spec.ts';
import type { BrowserBackend } from '../../../src/backend/embedded/browser/createBrowserBackend.ts';
import { databaseExists, OPFS } from '../../../src/backend/embedded/browser/databaseExists.ts';
import { seedDemoAccounts } from '../../../src/backend/embedded/demo/seedDemoAccounts.ts';
import { loadBackend } from '../../../src/backend/loadBackend.ts';
import type { Change } from '../../../src/backend/types.ts';
import type { AppSpec } from '../../../src/spec/types.ts';
import { call, clock, forwardAuth } from './rpc.ts';

const changes: Change[] = [];
/** Lines the leader's worker sent while upgrading the database (the app shows them on the boot screen). */
const upgradeLines: string[] = [];
const dataDir = new URLSearchParams(location.search).get('db') ?? undefined;
const preferOpfs = new URLSearchParams(location.search).get('opfs') === '1';
const started = performance.now();
// `?spec=v2`: the helpdesk with one more field (upgrade.browser.test.ts opens a v1 database with it).
const spec: AppSpec =
  new URLSearchParams(location.search).get('spec') === 'v2'
    ? {
        ...helpdesk,
        entities: {
          ...helpdesk.entities,
          category: {
            ...(helpdesk.entities.category as AppSpec['entities'][string]),
            fields: {
              ...helpdesk.entities.category?.fields,
              code: { type: 'text', label: 'Code', default: 'general' },
            },
          },
        },
      }
    : helpdesk;
/** A database this browser does not have yet starts from the schema snapshot (testPage.ts), as the app's first visit does. */
async function firstVisit(): Promise<{ loadDataDir?: Blob }> {
  const idb = dataDir ?? 'idb://ninefold-helpdesk';
  if (await databaseExists(idb)) return {};
  if (preferOpfs && (await databaseExists(`${OPFS}${idb.slice('idb://'.length)}`))) return {};
  const r = await fetch('./schema.tar.gz');
  return r.ok ? { loadDataDir: await r.blob() } : {};
}

const ready = firstVisit()
  .then((snapshot) =>
    loadBackend(
      spec,
      {},
      {
        embedded: {
          ...snapshot,
          ...(dataDir ? { dataDir } : {}),
          ...(preferOpfs ? { preferOpfs } : {}),
          now: () => new Date(clock.ms ?? Date.now()),
          onUpgradeProgress: (line) => upgradeLines.push(line),
        },
      },
    ),
  )
  // The embedded backend in a browser is the worker's (the test below checks it is).
  .then((backend) => backend as BrowserBackend)
  .then((backend) => {
    backend.live.subscribe({ entity: 'ticket' }, (c) => changes.push(c));
    forwardAuth(backend);
    const bootMs = performance.now() - started;
    const status = document.getElementById('status');
    if (status) status.textContent = `ready in ${Math.round(bootMs)} ms`;
    return { backend, bootMs };
  });

Object.assign(window, {
  nf: {
    ready,
    changes,
    upgradeLines,
    call: async (path: string, args: unknown[], clockMs: number | null) =>
      call((await ready).backend, path, args, clockMs),
    seedDemoAccounts: async () => {
      const { backend } = await ready;
      await backend.asOwner((tx) => seedDemoAccounts(tx, helpdesk));
    },
  },
});
