/**
 * Boot time of the built app (examples/helpdesk) in headless Chromium, median of RUNS runs each,
 * every run in a fresh browser profile (`--user-data-dir`):
 * - first visit: app shell painted (first contentful paint), sign-in screen ready (database open),
 *   first data row visible (the page clicks the demo Agent account the moment it appears, then
 *   the tickets list shows a row), and the bytes transferred by kind;
 * - return visit: the same profile launched again (IndexedDB and HTTP cache kept, still signed in).
 * Two builds: with the database snapshot (src/cli/snapshotPlugin.ts) and without it (the browser
 * runs initdb and the migration itself, i.e. before the snapshot), plus plain PGlite in the same
 * run as the yardstick (new database: initdb; reopen), since the machine's load varies.
 *
 * Run: npm run bench:boot            (RUNS=7 npm run bench:boot for more runs)
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { resolveSpecFile, viteConfig } from '../src/cli/devServer.ts';
import { ninefoldSnapshotPlugin } from '../src/cli/snapshotPlugin.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/browser/testPage.ts';

const RUNS = Number(process.env.RUNS ?? 5);
const APP = 'examples/helpdesk';

type Kind = 'js' | 'wasm' | 'data' | 'snapshot' | 'css' | 'html' | 'other';
const kindOf = (path: string): Kind =>
  path.endsWith('.tar.gz')
    ? 'snapshot'
    : path.endsWith('.js')
      ? 'js'
      : path.endsWith('.wasm')
        ? 'wasm'
        : path.endsWith('.data')
          ? 'data'
          : path.endsWith('.css')
            ? 'css'
            : path.endsWith('.html') || !extname(path)
              ? 'html'
              : 'other';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

/** A static server like a production host: hashed assets cached for a year, HTML revalidated. */
async function serve(dir: string) {
  const bytes = new Map<Kind, number>();
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    let file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      file = join(dir, 'index.html');
      body = await readFile(file);
    }
    const types: Record<string, string> = {
      '.html': 'text/html; charset=utf-8',
      '.js': 'text/javascript',
      '.css': 'text/css',
      '.wasm': 'application/wasm',
    };
    res.writeHead(200, {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
      'cache-control': path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    bytes.set(kindOf(file), (bytes.get(kindOf(file)) ?? 0) + body.byteLength);
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    /** Bytes served since the last call, by kind. */
    take: () => {
      const out = Object.fromEntries(bytes) as Partial<Record<Kind, number>>;
      bytes.clear();
      return out;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function buildApp(outDir: string, snapshot: boolean): Promise<void> {
  const { build } = await import('vite');
  const specFile = resolveSpecFile(APP);
  const config = await viteConfig(specFile, outDir);
  const plugins = (config.plugins ?? []).map((p) =>
    p && typeof p === 'object' && 'name' in p && p.name === 'ninefold-snapshot'
      ? ninefoldSnapshotPlugin(specFile, { enabled: snapshot })
      : p,
  );
  await build({ ...config, plugins, logLevel: 'error' });
  const { build: viteBuild } = await import('vite');
  await viteBuild({
    root: fileURLToPath(new URL('./bench-boot/', import.meta.url)),
    base: '/baseline/',
    configFile: false,
    logLevel: 'error',
    optimizeDeps: { exclude: ['@electric-sql/pglite'] },
    build: { outDir: join(outDir, 'baseline'), emptyOutDir: true, target: 'es2022' },
  });
}

/**
 * Records, in the page, when the shell painted, when the sign-in screen (demo account buttons)
 * appeared, when the signed-in app appeared and when the first list row appeared; with `signIn`
 * it clicks the demo Agent account at once (no test-driver latency in the figures).
 */
const MARKS = (signIn: boolean) => `(() => {
  const marks = {};
  window.__bootMarks = marks;
  const check = () => {
    if (!document.body) return;
    const now = performance.now();
    if (!marks.signIn) {
      const b = [...document.querySelectorAll('button')].find((x) => /^Agent/.test(x.textContent.trim()));
      if (b) { marks.signIn = now; if (${signIn}) b.click(); }
    }
    if (!marks.app && document.querySelector('nav')) marks.app = now;
    if (!marks.row && [...document.querySelectorAll('tbody tr')].some((tr) => tr.querySelectorAll('td').length > 1)) marks.row = now;
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
})();`;

interface Visit {
  paint: number;
  ready: number;
  app: number;
  row: number;
  bytes: Partial<Record<Kind, number>>;
}

async function visit(
  context: BrowserContext,
  url: string,
  signIn: boolean,
  hasRows: boolean,
): Promise<Visit> {
  await context.addInitScript(MARKS(signIn));
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`${url}/tickets`);
  const marks = await page.waitForFunction(
    (rows) => {
      const m = (window as unknown as { __bootMarks?: Record<string, number> }).__bootMarks;
      // Without the snapshot there is no demo data: the signed-in app is the last mark.
      return (rows ? m?.row : m?.app) ? m : null;
    },
    hasRows,
    { timeout: 180_000, polling: 50 },
  );
  const m = (await marks.jsonValue()) as Record<string, number>;
  const paint = await page.evaluate(
    () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
  );
  return {
    paint,
    ready: m.signIn ?? m.app ?? Number.NaN,
    app: m.app ?? Number.NaN,
    row: m.row ?? Number.NaN,
    bytes: {},
  };
}

async function baseline(context: BrowserContext, url: string): Promise<number> {
  const page = await context.newPage();
  await page.goto(`${url}/baseline/`);
  const ms = await page.waitForFunction(
    () => (window as unknown as { __baselineMs?: number }).__baselineMs,
    null,
    {
      timeout: 180_000,
    },
  );
  const value = (await ms.jsonValue()) as number;
  await page.close();
  return value;
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.log(`bench:boot skipped: ${CHROMIUM} not found`);
    return;
  }
  // Plain require: the TypeScript loader's interop breaks playwright-core's own CommonJS imports.
  const { chromium } = createRequire(import.meta.url)('playwright-core') as typeof import('playwright-core');
  const launch = (dir: string) =>
    chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const results: Record<string, { first: Visit[]; again: Visit[] }> = {};
  const plain = { create: [] as number[], reopen: [] as number[] };
  const work = await mkdtemp(join(tmpdir(), 'ninefold-bench-boot-'));
  try {
    for (const variant of ['no snapshot (before)', 'snapshot'] as const) {
      const dist = join(work, variant.startsWith('no') ? 'before' : 'after');
      await buildApp(dist, variant === 'snapshot');
      const server = await serve(dist);
      results[variant] = { first: [], again: [] };
      try {
        for (let i = 0; i < RUNS; i++) {
          const profile = await mkdtemp(join(work, 'profile-'));
          let context = await launch(profile);
          server.take();
          const first = await visit(context, server.url, true, variant === 'snapshot');
          first.bytes = server.take();
          if (variant === 'snapshot') plain.create.push(await baseline(context, server.url));
          await context.close();
          context = await launch(profile);
          server.take();
          const again = await visit(context, server.url, false, variant === 'snapshot');
          again.bytes = server.take();
          if (variant === 'snapshot') plain.reopen.push(await baseline(context, server.url));
          await context.close();
          await rm(profile, { recursive: true, force: true });
          results[variant].first.push(first);
          results[variant].again.push(again);
          console.error(
            `${variant} run ${i + 1}: first ${JSON.stringify(first)} return ${JSON.stringify(again)}`,
          );
        }
      } finally {
        await server.close();
      }
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }

  const ms = (xs: number[]) => (xs.some((x) => Number.isNaN(x)) ? 'n/a' : `${Math.round(median(xs))} ms`);
  const kb = (vs: Visit[], kinds: Kind[]) =>
    `${Math.round(median(vs.map((v) => kinds.reduce((s, k) => s + (v.bytes[k] ?? 0), 0))) / 1024)} KB`;
  const rows: string[] = [`| | no snapshot (before) | snapshot (after) |`, `|---|---:|---:|`];
  const row = (label: string, f: (r: { first: Visit[]; again: Visit[] }) => string) => {
    const b = results['no snapshot (before)'];
    const a = results.snapshot;
    if (b && a) rows.push(`| ${label} | ${f(b)} | ${f(a)} |`);
  };
  row('first visit: app shell painted (FCP)', (r) => ms(r.first.map((v) => v.paint)));
  row('first visit: sign-in screen ready (database open)', (r) => ms(r.first.map((v) => v.ready)));
  row('first visit: signed-in app shown (incl. demo sign-in)', (r) => ms(r.first.map((v) => v.app)));
  row('first visit: first data row visible (incl. demo sign-in)', (r) => ms(r.first.map((v) => v.row)));
  row('return visit: app shell painted (FCP)', (r) => ms(r.again.map((v) => v.paint)));
  row('return visit: signed-in app shown', (r) => ms(r.again.map((v) => v.app)));
  row('return visit: first data row visible', (r) => ms(r.again.map((v) => v.row)));
  row('first visit bytes: JS', (r) => kb(r.first, ['js']));
  row('first visit bytes: wasm', (r) => kb(r.first, ['wasm']));
  row('first visit bytes: PGlite file bundle (.data)', (r) => kb(r.first, ['data']));
  row('first visit bytes: snapshot', (r) => kb(r.first, ['snapshot']));
  row('first visit bytes: CSS + HTML', (r) => kb(r.first, ['css', 'html']));
  row('return visit bytes: all (HTTP cache kept)', (r) =>
    kb(r.again, ['js', 'wasm', 'data', 'snapshot', 'css', 'html', 'other']),
  );
  rows.push(`| plain PGlite, same run: new database (initdb) | ${ms(plain.create)} | |`);
  rows.push(`| plain PGlite, same run: reopen | ${ms(plain.reopen)} | |`);
  console.log(
    `Chromium headless, median of ${RUNS} runs, fresh profile per run; ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${new Date().toISOString()}\n`,
  );
  console.log(rows.join('\n'));
}

await main();
