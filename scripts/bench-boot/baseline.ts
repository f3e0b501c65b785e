/**
 * The boot benchmark's yardstick: plain PGlite in the page, persisted in IndexedDB, nothing of
 * Ninefold. A fresh browser profile measures initdb of a new database; the next launch of the same
 * profile measures reopening it. `window.__baselineMs` is the time to the first query's answer.
 */
import { PGlite } from '@electric-sql/pglite';

const started = performance.now();
const db = await PGlite.create({ dataDir: 'idb://bench-baseline' });
await db.query('select 1');
const ms = performance.now() - started;
Object.assign(window, { __baselineMs: ms });
const status = document.getElementById('status');
if (status) status.textContent = `ready in ${Math.round(ms)} ms`;
