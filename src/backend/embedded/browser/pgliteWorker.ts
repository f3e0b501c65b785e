/**
 * The database worker of the embedded backend in the browser. PGlite's multi-tab worker: every tab
 * starts one, the tabs elect a leader (Web Locks) whose worker owns the database (IndexedDB), the
 * others forward their queries to it, and a new leader takes over when the leader's tab closes.
 */
import { PGlite } from '@electric-sql/pglite';
import { worker } from '@electric-sql/pglite/worker';

worker({
  async init(options) {
    return PGlite.create({ dataDir: options.dataDir ?? 'idb://ninefold' });
  },
});
