/**
 * The database worker of the embedded backend in the browser. PGlite's multi-tab worker: every tab
 * starts one, the tabs elect a leader (Web Locks) whose worker owns the database (IndexedDB), the
 * others forward their queries to it, and a new leader takes over when the leader's tab closes.
 */
import { worker } from '@electric-sql/pglite/worker';
import { openWorkerDatabase } from './openWorkerDatabase.ts';

worker({ init: (options) => openWorkerDatabase(options) });
