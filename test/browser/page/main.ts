/**
 * Test page: the embedded backend in a worker with IndexedDB persistence, exposed on `window.nf`
 * for the browser tests and the boot benchmark to drive. `?db=idb://name` picks the database.
 */
import helpdesk from '../../../examples/helpdesk/spec.ts';
import { createBrowserBackend } from '../../../src/backend/embedded/browser/createBrowserBackend.ts';
import type { Change } from '../../../src/backend/types.ts';

const changes: Change[] = [];
const dataDir = new URLSearchParams(location.search).get('db') ?? undefined;
const started = performance.now();
const ready = createBrowserBackend({ spec: helpdesk, ...(dataDir ? { dataDir } : {}) }).then((backend) => {
  backend.live.subscribe({ entity: 'ticket' }, (c) => changes.push(c));
  const bootMs = performance.now() - started;
  const status = document.getElementById('status');
  if (status) status.textContent = `ready in ${Math.round(bootMs)} ms`;
  return { backend, bootMs };
});

Object.assign(window, { nf: { ready, changes } });
