import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';
import { modelOf } from '../model/modelOf.ts';
import { timeZonesNamed } from '../model/timeZonesNamed.ts';
import { loadSpecForBuild } from './snapshotPlugin.ts';

/** One file of PGlite's file bundle (`pglite.data`): its path and its bytes' place in the bundle. */
export interface BundleFile {
  filename: string;
  start: number;
  end: number;
}

/**
 * The files of PGlite's bundle that a database made from the build's snapshot never reads:
 * initdb's inputs (the catalog's `.bki`, the SQL scripts, sample configurations, SQL feature
 * lists), the extension build kit (`pgxs`), conversions between UTF-8 and other server encodings
 * (the database and every client are UTF-8), streaming replication and logical decoding's output
 * plugin, the time-zone abbreviation sets but `Default` (the one `timezone_abbreviations` names),
 * ICU's collation data (the database's locale provider is libc, `C`), full-text search's stemmers
 * and word lists (the migration searches with trigrams, `pg_trgm`, and never calls `to_tsvector`).
 * The extensions stay; of the time zones, see `unreadZone`.
 */
const UNREAD_WITH_A_SNAPSHOT = [
  /\/lib\/postgresql\/dict_snowball\.so$/,
  /\/share\/postgresql\/tsearch_data\//,
  /\/share\/postgresql\/[^/]+\.(bki|sql|sample|txt)$/,
  /\/lib\/postgresql\/pgxs\//,
  /\/lib\/postgresql\/[a-z0-9_]+_and_[a-z0-9_]+\.so$/,
  /\/lib\/postgresql\/(libpqwalreceiver|pgoutput)\.so$/,
  /\/share\/postgresql\/timezonesets\/(?!Default$)[^/]+$/,
  /\/icu\/[^/]+\/coll\//,
];

const ZONE_FILE = /\/share\/postgresql\/timezone\/(.+)$/;
/** Zones Postgres reads whatever the app: its `TimeZone` and `log_timezone` (UTC) and their aliases. */
const UTC_ZONES = /^(etc\/.*|utc|uct|universal|zulu|greenwich|gmt[-+]?0?)$/i;

/**
 * Whether a time-zone file of the bundle is one the app's database never reads: Postgres reads a
 * zone's file only when a query names the zone, and the compiled rules name only the zones of
 * `timeZonesNamed` (UTC, the app's zone, zones written in rules, the values of enums a rule takes
 * its zone from). Names are compared without regard to case, as Postgres finds them. A zone left
 * out would fail loudly ("time zone … not recognized"), never with a wrong time.
 */
function unreadZone(filename: string, named: ReadonlySet<string>): boolean {
  const zone = ZONE_FILE.exec(filename)?.[1];
  return zone !== undefined && !UTC_ZONES.test(zone) && !named.has(zone.toLowerCase());
}

/**
 * The file list PGlite's own code holds for its bundle (Emscripten's file packager writes it as
 * `{filename:"…",start:…,end:…}` into `pglite.js`).
 *
 * @example
 * pgliteBundleFiles('files:[{filename:"/a",start:0,end:3}]'); // [{ filename: '/a', start: 0, end: 3 }]
 */
export function pgliteBundleFiles(pgliteJs: string): BundleFile[] {
  return [...pgliteJs.matchAll(/filename:"([^"]+)",start:(\d+),end:(\d+)/g)].map((m) => ({
    filename: m[1] as string,
    start: Number(m[2]),
    end: Number(m[3]),
  }));
}

/**
 * PGlite's bundle with the bytes of the files a snapshot's database never reads set to zero: the
 * same length and every other file where PGlite's file list says (the list is in its code, so
 * files cannot be taken out), and a run of zeros compresses to almost nothing.
 *
 * `zones`: the time zones the app can name (`timeZonesNamed`); the others' files are zeroed too.
 *
 * @example
 * trimmedPgliteData(data, pgliteBundleFiles(pgliteJs), ['UTC', 'Europe/Berlin']).length === data.length; // true
 */
export function trimmedPgliteData(
  data: Uint8Array,
  files: readonly BundleFile[],
  zones: Iterable<string>,
): Uint8Array {
  const named = new Set([...zones].map((z) => z.toLowerCase()));
  const out = new Uint8Array(data);
  for (const f of files)
    if (
      (UNREAD_WITH_A_SNAPSHOT.some((re) => re.test(f.filename)) || unreadZone(f.filename, named)) &&
      f.end <= out.length
    )
      out.fill(0, f.start, f.end);
  return out;
}

const DATA_URL = '@electric-sql/pglite/pglite.data?url';
const RESOLVED = '\0ninefold-pglite-data-url';

/**
 * Vite plugin for the worker's bundle of a build that ships a database snapshot: the file bundle
 * the worker fetches first (`prefetchPglite.ts`, `…/pglite.data?url`) is `trimmedPgliteData`, an
 * asset of its own named by its own hash. PGlite's own reference to the full bundle stays in the
 * build: a start without a snapshot (initdb) is handed no bundle and fetches that one
 * (openWorkerDatabase.ts). The spec's model says which time zones the app can read
 * (`timeZonesNamed`).
 *
 * @example
 * worker: { plugins: () => [ninefoldPgliteDataPlugin('examples/helpdesk/spec.ts')] }
 */
export function ninefoldPgliteDataPlugin(specFile: string): Plugin {
  return {
    name: 'ninefold-pglite-data',
    apply: 'build',
    enforce: 'pre',
    resolveId: (id) => (id === DATA_URL ? RESOLVED : undefined),
    async load(id) {
      if (id !== RESOLVED) return undefined;
      const zones = timeZonesNamed(modelOf(await loadSpecForBuild(specFile)));
      const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
      const data = readFileSync(join(dist, 'pglite.data'));
      const files = pgliteBundleFiles(readFileSync(join(dist, 'pglite.js'), 'utf8'));
      const ref = this.emitFile({
        type: 'asset',
        name: 'pglite-trimmed.data',
        source: trimmedPgliteData(data, files, zones),
      });
      return `export default import.meta.ROLLUP_FILE_URL_${ref};\n`;
    },
  };
}
