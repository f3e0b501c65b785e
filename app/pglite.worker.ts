import { worker } from '@electric-sql/pglite/worker';
import { openWorkerDatabase } from '../src/backend/embedded/browser/openWorkerDatabase.ts';

// One database per app, shared by every tab through the worker's leader election; a first visit
// creates it from the build's snapshot (see src/cli/snapshotPlugin.ts).
worker({ init: (options) => openWorkerDatabase(options) });
