import type { PGliteInterface } from '@electric-sql/pglite';
import type { SpecOrModel } from '../../model/modelOf.ts';
import { assembleEmbedded } from './assembleEmbedded.ts';
import type { EmbeddedBackend } from './createEmbeddedBackend.ts';
import { pgliteExtensions } from './pgliteExtensions.ts';
import { pgliteSettings } from './pgliteSettings.ts';

/** A pre-initialised data directory: what a first visit loads instead of running initdb and the migration. */
export interface DatabaseSnapshot {
  /** `dumpDataDir('gzip')` of the database (PGlite's `loadDataDir` takes it as is). */
  tarball: Uint8Array;
  /** The schema version recorded in it (`embeddedSchema(spec).version`). */
  version: string;
  /** Whether it holds the app's demo data (otherwise only the demo accounts). */
  demo: boolean;
  /** What `options.firstScreens` made of the database before it was dumped (demo accounts' first screens). */
  firstScreens?: unknown;
}

/**
 * Builds a database the way the embedded backend's boot does (auth stand-in, migration, embedded
 * extras, version row: the same `bootSchema`), adds the demo data (or only the demo accounts),
 * and dumps it. Password hashes are made here with the same PBKDF2 scheme as sign-up; the demo
 * passwords are public anyway (the sign-in screen shows them).
 *
 * @example
 * const { tarball, version } = await buildSnapshot(helpdesk, { demo: true });
 * const backend = await createEmbeddedBackend({ spec: helpdesk, loadDataDir: new Blob([tarball]) });
 */
export async function buildSnapshot(
  spec: SpecOrModel,
  options: {
    demo?: boolean;
    now?: Date;
    /** Reads the seeded database through the backend before the dump (it must leave nothing behind). */
    firstScreens?: (backend: EmbeddedBackend) => Promise<unknown>;
  } = {},
): Promise<DatabaseSnapshot> {
  const demo = options.demo ?? true;
  const db = await snapshotDatabase();
  const backend = await assembleEmbedded({
    spec,
    db,
    demo: demo ? 'data' : 'accounts',
    ...(options.now ? { demoNow: options.now } : {}),
  });
  try {
    const firstScreens = options.firstScreens ? await options.firstScreens(backend) : undefined;
    await db.exec(SHED_CATALOG_SQL);
    return {
      tarball: await compactDump(db),
      version: backend.schema.version,
      demo,
      ...(firstScreens === undefined ? {} : { firstScreens }),
    };
  } finally {
    await backend.close();
    await db.close();
  }
}

/**
 * A new database as snapshots are made: the settings the browser's database runs with, 1 MB WAL
 * segments, no data checksums (why: `buildSnapshot`).
 */
async function snapshotDatabase(): Promise<PGliteInterface> {
  const { PGlite } = await import('@electric-sql/pglite');
  // 1 MB WAL segments instead of 16: the data directory (downloaded, then written to IndexedDB
  // on a first visit) shrinks by 15 MB; Postgres reads the size from pg_control when it opens it.
  // No data checksums: with them, the first read of a page after each start that sets a hint bit
  // writes the whole page into the WAL, so a plain read dirtied a WAL file and paid a full
  // IndexedDB sync (50-100 ms a list read after a bulk load) before its answer; without them a
  // hint bit stays in memory until the next write's checkpoint (docs/decisions.md).
  // The settings the browser's database runs with (pgliteSettings.ts): with `wal_recycle=off` the
  // checkpoint before the dump deletes the WAL segments the migration and the demo data filled,
  // where it kept them, full of old records, renamed for later use. Nine of them were 2.6 MB of
  // the 4.3 MB tarball every first visit downloads.
  return PGlite.create({
    initDbStartParams: ['--wal-segsize=1', '--no-data-checksums'],
    startParams: [...PGlite.defaultStartParams, ...pgliteSettings],
    extensions: pgliteExtensions,
  });
}

/** The data directory dumped as small as it goes (gzip tarball, as `loadDataDir` takes it). */
async function compactDump(db: PGliteInterface): Promise<Uint8Array> {
  // The template databases serve only `create database`, which the embedded backend never runs;
  // without them the data directory has 40% fewer files, and PGlite's IndexedDB layer compares
  // every file after each query, so each query gets cheaper in the browser.
  await db.exec(`update pg_database set datistemplate = false where datname in ('template0', 'template1')`);
  await db.exec('drop database template0');
  await db.exec('drop database template1');
  // Dead tuples and planner statistics: a smaller tarball, and first queries plan as they will
  // later. `vacuum full` first rewrites every table and index compactly (120 KB less gzip).
  await db.exec('vacuum full');
  await db.exec('vacuum analyze');
  // The system catalogs' statistics go: the app's queries read its own tables, and the few
  // catalog reads (the boot's schema check) plan on their indexes without them.
  await db.exec('delete from pg_catalog.pg_statistic where starelid < 16384');
  await db.exec('vacuum full pg_catalog.pg_statistic');
  // A fresh WAL segment: the one in use held the records of the migration and the demo data
  // (a checkpoint keeps the segment its redo point is in); the new one is mostly zeros.
  await db.exec('select pg_switch_wal()');
  await db.exec('checkpoint');
  const tar = new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer());
  // Compressed here at zlib's best level, in blocks of at most 4,096 symbols (memLevel 6), whose
  // codes fit the catalog's, the data's and the zeros' bytes apart: 2.7% smaller than PGlite's
  // own gzip (helpdesk: 1,048 → 1,020 KB), which every first visit downloads. Node only
  // (builds); 8 (zlib's default) gave 1,037 KB, 4 gave 1,031 KB.
  const { gzipSync } = await import('node:zlib');
  return new Uint8Array(gzipSync(tar, { level: 9, memLevel: 6 }));
}

/**
 * A database as initdb leaves it, made in Node and dumped: what the studio's live app of a new
 * document opens instead of running initdb in the browser (4–5 s there, about 1 MB gzip here).
 * Its catalog stays whole (`information_schema` too): every document's migration runs on it.
 */
export async function buildBaseSnapshot(): Promise<Uint8Array> {
  const db = await snapshotDatabase();
  try {
    return await compactDump(db);
  } finally {
    await db.close();
  }
}

/**
 * What the browser's database never reads, removed before the dump (a first visit downloads every
 * byte of it): the descriptions of built-in objects (psql's `\df+` text, ~90 KB gzip) and the
 * `information_schema` views (their definitions are most of `pg_rewrite`'s TOAST table, ~250 KB
 * gzip). The app's own comments stay; its code reads the system catalogs (`boot.ts`).
 */
export const SHED_CATALOG_SQL = [
  // 16384 is FirstNormalObjectId: below it, objects initdb made.
  'delete from pg_catalog.pg_description where objoid < 16384',
  'delete from pg_catalog.pg_shdescription where objoid < 16384',
  'drop schema information_schema cascade',
].join(';\n');
