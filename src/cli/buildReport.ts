import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * What `ninefold build` tells the author, and what it keeps to itself. The bundler's notes about
 * Ninefold's own app and its dependencies are not the author's to act on; everything else it
 * says still reaches the terminal.
 */

/** A log as Rolldown hands it to `onLog` (the fields we read). */
interface BundlerLog {
  code?: string;
  plugin?: string;
  message: string;
}

/**
 * Rolldown checks that only ever fire on Ninefold's own code (`build.rolldownOptions.checks`):
 * PGlite is imported statically by the worker and dynamically by the tab on purpose, and the
 * plugin timings say how long our plugins took on a busy machine.
 */
export const QUIET_CHECKS = {
  ineffectiveDynamicImport: false,
  bundlerTimings: false,
  pluginTimings: false,
} as const;

/**
 * Whether a bundler log is about Ninefold's own app rather than the author's document: PGlite's
 * Emscripten glue uses `eval` and imports `node:*` modules for its Node build (externalized, never
 * run in the browser); React's libraries start with "use client"; timing reports.
 *
 * @example
 * isNinefoldNoise({ code: 'EVAL', message: '…' }) // true
 */
export function isNinefoldNoise(log: BundlerLog): boolean {
  if (
    log.code &&
    ['EVAL', 'MODULE_LEVEL_DIRECTIVE', 'PLUGIN_TIMINGS', 'INEFFECTIVE_DYNAMIC_IMPORT'].includes(log.code)
  )
    return true;
  return (
    log.plugin === 'rolldown:vite-resolve' && /Module "node:[\w/]+" has been externalized/.test(log.message)
  );
}

/** `rolldownOptions.onLog`: Ninefold's own noise dropped, the rest passed on to Vite's logger. */
export function quietOnLog(
  level: string,
  log: BundlerLog,
  handler: (level: never, log: never) => void,
): void {
  if (level !== 'error' && isNinefoldNoise(log)) return;
  handler(level as never, log as never);
}

/** An output chunk of the build (the fields we read). */
interface Chunk {
  type: 'chunk';
  name: string;
  fileName: string;
  isEntry: boolean;
  imports: readonly string[];
  dynamicImports: readonly string[];
  code: string;
}

/**
 * The dynamic imports a first visit takes before the first list screen shows (its backend and the
 * screen's one chunk): the same names `npm run bench:bytes` follows (scripts/initial-js.mjs).
 */
const FIRST_PATH: ReadonlySet<string> = new Set(['startBackend', 'startEmbedded', 'firstScreen']);

/**
 * The JavaScript a first visit runs before its first screen: the entry chunks, every chunk they
 * import statically, and the dynamic imports on the way to the first screen (`FIRST_PATH`);
 * other screens' chunks wait until they are opened. Gzip -9, counted as `npm run bench:bytes`.
 */
export function initialJs(output: readonly { type: string }[]): {
  files: number;
  bytes: number;
  gzip: number;
} {
  const chunks = new Map<string, Chunk>();
  for (const o of output) if (o.type === 'chunk') chunks.set((o as Chunk).fileName, o as Chunk);
  const seen = new Set<string>();
  const queue = [...chunks.values()].filter((c) => c.isEntry).map((c) => c.fileName);
  let bytes = 0;
  let gzip = 0;
  while (queue.length > 0) {
    const name = queue.shift() as string;
    const chunk = chunks.get(name);
    if (seen.has(name) || !chunk) continue;
    seen.add(name);
    const code = Buffer.from(chunk.code);
    bytes += code.length;
    gzip += gzipSync(code, { level: 9 }).length;
    queue.push(...chunk.imports);
    queue.push(...chunk.dynamicImports.filter((d) => FIRST_PATH.has(chunks.get(d)?.name ?? '')));
  }
  return { files: seen.size, bytes, gzip };
}

/** The built folder's files and bytes, and how many of them are the in-browser database. */
function folderSize(dir: string): { files: number; bytes: number; database: number } {
  let files = 0;
  let bytes = 0;
  let database = 0;
  for (const entry of readdirSync(dir, { recursive: true })) {
    const s = statSync(join(dir, String(entry)));
    if (!s.isFile()) continue;
    files++;
    bytes += s.size;
    // PGlite's WebAssembly and data files, and the demo database's snapshot (embedded builds only).
    if (/\.(wasm|data|tar\.gz)$/.test(String(entry))) database += s.size;
  }
  return { files, bytes, database };
}

const size = (n: number) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${(n / 1024).toFixed(1)} KB`;

/** The folder as the author would type it: relative to where they are, when it is below it. */
export function shownPath(dir: string, cwd = process.cwd()): string {
  const rel = relative(cwd, resolve(cwd, dir));
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? resolve(cwd, dir) : rel;
}

/**
 * The lines `ninefold build` ends with: where the app went, how big it is, how to serve it.
 *
 * @example
 * buildSummary('doc.md', 'dist', output)
 * // ['✓ built doc.md into dist',
 * //  '  size: 19.7 MB in 71 files (17.9 MB of it the in-browser database); the first screen needs 150.7 KB of JavaScript (gzip)',
 * //  '  serve it: npx ninefold preview dist (or any static web server that answers unknown paths with index.html)']
 */
export function buildSummary(
  specPath: string,
  outDir: string,
  output: readonly { type: string }[],
): string[] {
  const where = shownPath(outDir);
  const all = folderSize(resolve(outDir));
  const first = initialJs(output);
  const database = all.database > 0 ? ` (${size(all.database)} of it the in-browser database)` : '';
  return [
    `✓ built ${specPath} into ${where}`,
    `  size: ${size(all.bytes)} in ${all.files} files${database}; ` +
      `the first screen needs ${size(first.gzip)} of JavaScript (gzip)`,
    `  serve it: npx ninefold preview ${where.includes(' ') ? JSON.stringify(where) : where}` +
      ' (or any static web server that answers unknown paths with index.html)',
  ];
}
