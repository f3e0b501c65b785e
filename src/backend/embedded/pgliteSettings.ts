/**
 * Settings every Ninefold PGlite starts with, after PGlite's own start parameters. PGlite runs
 * Postgres in single-user mode: no autovacuum and no checkpointer run beside it, so what those
 * would keep small is kept small here.
 *
 * - `wal_recycle=off`: a checkpoint (checkpointWhenWalGrows.ts) deletes the WAL segments it no
 *   longer needs instead of keeping them, full size, for later use: PGlite's IndexedDB layer stores
 *   every file and loads them all again at each open.
 * - `gin_pending_list_limit=64kB`: new rows' trigram entries wait in each GIN index's pending list,
 *   which every search reads whole, until the list outgrows this limit (or a vacuum, which never
 *   comes). At the default 4 MB, 100,000 bulk-inserted tickets left 2.7 MB lists on the ticket's five
 *   searchable columns and a search for `777` took 20 ms in the index scans; at 64 kB, 1.4 ms. The
 *   bulk insert itself took no longer.
 * - `shared_buffers=32MB` (Postgres's default 128MB): single-user Postgres zeroes its whole shared
 *   memory at every start (a `memset` in WebAssembly) before the first query: a worker CPU
 *   profile of a return visit (`bench:start --trace f --trace-after ms`) had 540 ms of `memset`
 *   in the database's open at 128 MB, 154 ms at 32 MB (Node: 700 → 330 ms an open). The data files
 *   are in memory already (PGlite's file system), so the buffers only save copies. A smaller pool
 *   evicts sooner, and an evicted dirty page rewrites its file, which the IndexedDB layer stores
 *   whole: the VACUUM after a bulk write (checkpointWhenWalGrows.ts) leaves reads nothing to dirty.
 *
 * @example
 * await PGlite.create({ startParams: [...PGlite.defaultStartParams, ...pgliteSettings] });
 */
export const pgliteSettings = [
  '-c',
  'wal_recycle=off',
  '-c',
  'gin_pending_list_limit=64kB',
  '-c',
  'shared_buffers=32MB',
];
