#!/usr/bin/env node
// `npm run bench:bytes -- <build dir> [--follow a,b,c] [--json]`: the tab's initial JavaScript of a
// built app (`npx ninefold build examples/helpdesk -o /tmp/x`), without building anything itself.
// Starts at the module scripts `index.html` loads, follows every static import between chunks
// (`import … from "./x.js"`, `import "./x.js"`, `export … from "./x.js"`) and only the dynamic
// imports a return visit to the list takes before its first row is painted (named explicitly:
// a dynamic import is a chunk the page may never load, so counting all of them would count every
// screen). Prints each chunk's gzip -9 size and the total. The worker's scripts are not followed:
// they are started by `new Worker(…)`, not imported, and are not the tab's code.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const DEFAULT_FOLLOW = ['startBackend', 'startEmbedded', 'firstScreen'];

const args = process.argv.slice(2);
const option = (name) => (args.indexOf(name) >= 0 ? args[args.indexOf(name) + 1] : undefined);
const dir = args.find((a, i) => !a.startsWith('--') && !['--follow'].includes(args[i - 1]));
if (!dir) {
  console.error('usage: npm run bench:bytes -- <build dir> [--follow startBackend,renderApp,…] [--json]');
  process.exit(2);
}
const follow = new Set(option('--follow')?.split(',') ?? DEFAULT_FOLLOW);
const root = resolve(dir);

/** A chunk's name without Vite's `-[hash]` suffix (`ListScreen-DyrAzYZ8.js` → `ListScreen`). */
const chunkName = (file) => basename(file).replace(/-[A-Za-z0-9_-]{8}\.js$/, '');

const html = readFileSync(join(root, 'index.html'), 'utf8');
const entries = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+\.js)"/g)].map((m) => m[1]);
if (entries.length === 0) {
  console.error(`bench:bytes: ${root}/index.html loads no module script (not a build dir?)`);
  process.exit(2);
}

const STATIC = /(?:\bimport|\bexport)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["'`](\.\.?\/[^"'`]+\.js)["'`]/g;
const DYNAMIC = /\bimport\(\s*["'`](\.\.?\/[^"'`]+\.js)["'`]\s*\)/g;

/** path (relative to the build dir) → { gzip, raw, via } in discovery order. */
const chunks = new Map();
const queue = entries.map((e) => ({ path: e.replace(/^\//, ''), via: 'index.html' }));
while (queue.length > 0) {
  const { path, via } = queue.shift();
  if (chunks.has(path)) continue;
  const source = readFileSync(join(root, path));
  chunks.set(path, { raw: source.length, gzip: gzipSync(source, { level: 9 }).length, via });
  const text = source.toString('utf8');
  const here = path.slice(0, path.lastIndexOf('/') + 1);
  const from = chunkName(path);
  for (const m of text.matchAll(STATIC)) queue.push({ path: join(here, m[1]), via: `${from} (static)` });
  for (const m of text.matchAll(DYNAMIC)) {
    if (follow.has(chunkName(m[1]))) queue.push({ path: join(here, m[1]), via: `${from} (dynamic)` });
  }
}

// A named chunk missing from the closure means the names above no longer match the build.
const missing = [...follow].filter((name) => ![...chunks.keys()].some((p) => chunkName(p) === name));

const rows = [...chunks].map(([path, c]) => ({ chunk: basename(path), ...c }));
const total = rows.reduce((sum, r) => sum + r.gzip, 0);
const totalRaw = rows.reduce((sum, r) => sum + r.raw, 0);
if (args.includes('--json')) {
  console.log(
    JSON.stringify({ dir: root, follow: [...follow], missing, chunks: rows, total, totalRaw }, null, 2),
  );
} else {
  const kb = (n) => (n / 1024).toFixed(1);
  const width = Math.max(...rows.map((r) => r.chunk.length), 5);
  console.log(
    `${'chunk'.padEnd(width)}  ${'gzip -9 KB'.padStart(10)}  ${'raw KB'.padStart(8)}  reached from`,
  );
  for (const r of [...rows].sort((a, b) => b.gzip - a.gzip)) {
    console.log(`${r.chunk.padEnd(width)}  ${kb(r.gzip).padStart(10)}  ${kb(r.raw).padStart(8)}  ${r.via}`);
  }
  console.log(
    `${'total'.padEnd(width)}  ${kb(total).padStart(10)}  ${kb(totalRaw).padStart(8)}  ${rows.length} chunks`,
  );
  const other = readdirSync(join(root, 'assets')).filter((f) => f.endsWith('.js')).length - rows.length;
  console.log(`(${other} other chunks of the build are not on this path)`);
}
if (missing.length > 0) {
  console.error(`bench:bytes: not reached: ${missing.join(', ')} (renamed chunk? pass --follow)`);
  process.exit(1);
}
