import { PGlite } from '@electric-sql/pglite';
import { worker } from '@electric-sql/pglite/worker';

// One database per app, shared by every tab through the worker's leader election.
worker({
  init: (options) => PGlite.create({ dataDir: options.dataDir ?? 'idb://ninefold' }),
});
