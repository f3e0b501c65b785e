import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/**
 * The PGlite extensions every Ninefold database is created with. The migration runs
 * `create extension pg_trgm` (trigram indexes for search, src/sql/emitTables.ts); PGlite can only
 * create an extension whose bundle it was started with, and a database whose indexes use it must
 * be reopened with it too. pg_trgm's bundle is 15 KB.
 *
 * @example
 * const db = await PGlite.create({ extensions: pgliteExtensions });
 */
export const pgliteExtensions = { pg_trgm };
