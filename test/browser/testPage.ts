import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pgliteExtensions } from '../../src/backend/embedded/pgliteExtensions.ts';
import { specLoaderAliases, viteAliases } from '../../src/sourceAliases.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.data': 'application/octet-stream',
  '.gz': 'application/gzip',
  '.css': 'text/css',
};

/**
 * A fresh helpdesk database with its schema and nothing else (no users), dumped: the test page's
 * first visit of a database loads it, as the shipped app loads its build's snapshot, instead of
 * running initdb and the migration in the browser (a minute and more of wasm on a loaded 2-core
 * machine, per database). Cached by schema version and PGlite version.
 */
async function schemaSnapshot(): Promise<Uint8Array> {
  const [{ default: helpdesk }, { embeddedSchema }] = await Promise.all([
    import('../../examples/helpdesk/spec.ts'),
    import('../../src/backend/embedded/boot.ts'),
  ]);
  const { version } = await embeddedSchema(helpdesk);
  const pglite = JSON.parse(await readFile('node_modules/@electric-sql/pglite/package.json', 'utf8')) as {
    version: string;
  };
  const cached = join(
    'node_modules/.cache/ninefold-browser',
    `schema-${version.slice(0, 16)}-${pglite.version}.tar.gz`,
  );
  try {
    return new Uint8Array(await readFile(cached));
  } catch {
    // Built below.
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { createEmbeddedBackend } = await import('../../src/backend/embedded/createEmbeddedBackend.ts');
  const db = await PGlite.create({ initDbStartParams: ['--wal-segsize=1'], extensions: pgliteExtensions });
  const backend = await createEmbeddedBackend({ spec: helpdesk, db });
  // As the build's snapshot (snapshot.ts): no template databases, 40% fewer files to store.
  await db.exec(`update pg_database set datistemplate = false where datname in ('template0', 'template1')`);
  await db.exec('drop database template0');
  await db.exec('drop database template1');
  await db.exec('vacuum analyze');
  await db.exec('checkpoint');
  const tarball = new Uint8Array(await (await db.dumpDataDir('gzip')).arrayBuffer());
  await backend.close();
  await db.close();
  await mkdir(dirname(cached), { recursive: true });
  await writeFile(`${cached}.tmp${process.pid}`, tarball);
  await rename(`${cached}.tmp${process.pid}`, cached);
  return tarball;
}

/** Files whose content decides what the test page's build contains (sources, not tests). */
function inputsOf(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'node_modules' && !name.startsWith('__')) inputsOf(p, out);
    } else if (/\.(tsx?|css|html|json|sql)$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

/** The hash of everything the built page depends on: the page, the sources, the helpdesk spec, this file, the lockfile. */
function pageKey(): string {
  const h = createHash('sha256');
  for (const f of [
    ...inputsOf(fileURLToPath(new URL('./page/', import.meta.url))),
    ...inputsOf(resolve('src')),
    ...inputsOf(resolve('examples/helpdesk')),
    fileURLToPath(import.meta.url),
    resolve('package-lock.json'),
  ]) {
    h.update(f);
    h.update(readFileSync(f));
  }
  return h.digest('hex').slice(0, 16);
}

async function viteBuildTestPage(outDir: string): Promise<void> {
  const { build } = await import('vite');
  const snapshot = schemaSnapshot();
  await build({
    root: fileURLToPath(new URL('./page/', import.meta.url)),
    base: './',
    logLevel: 'error',
    configFile: false,
    // The page imports the helpdesk spec, which imports `ninefold` by name (src/sourceAliases.ts).
    resolve: { alias: viteAliases(specLoaderAliases()) },
    build: { outDir, emptyOutDir: true, target: 'es2022', minify: false, reportCompressedSize: false },
    worker: { format: 'es' },
  });
  await writeFile(join(outDir, 'schema.tar.gz'), await snapshot);
}

/**
 * The built test page, once per content hash in `node_modules/.cache/ninefold-browser/page-<hash>`:
 * every browser test file used to build the same page again (about 10 s of CPU each). A file that
 * finds another building waits on its lock directory instead of building twice.
 */
async function cachedTestPage(): Promise<string> {
  const cache = resolve('node_modules/.cache/ninefold-browser');
  const dir = join(cache, `page-${pageKey()}`);
  const done = join(dir, '.built');
  const lock = `${dir}.lock`;
  await mkdir(cache, { recursive: true });
  for (;;) {
    if (await stat(done).catch(() => undefined)) return dir;
    try {
      await mkdir(lock);
    } catch {
      // Someone else is building; a lock older than five minutes belongs to a dead run.
      const since = (await stat(lock).catch(() => undefined))?.mtimeMs ?? Date.now();
      if (Date.now() - since > 300_000) await rm(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    try {
      if (!(await stat(done).catch(() => undefined))) {
        await viteBuildTestPage(dir);
        await writeFile(done, new Date().toISOString());
        // Older pages are dead weight, unless one is still served by a file of this run (an hour).
        for (const n of await readdir(cache)) {
          const built = await stat(join(cache, n, '.built')).catch(() => undefined);
          if (
            n.startsWith('page-') &&
            join(cache, n) !== dir &&
            built &&
            Date.now() - built.mtimeMs > 3_600_000
          )
            await rm(join(cache, n), { recursive: true, force: true });
        }
      }
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
}

/**
 * The built test page (test/browser/page) in a temporary folder of its own (the caller removes
 * it); the Vite build itself runs once per content hash (`cachedTestPage`).
 */
export async function buildTestPage(): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'ninefold-browser-'));
  await cp(await cachedTestPage(), outDir, { recursive: true });
  return outDir;
}

/** A tiny static server for a built folder, on a free localhost port (a secure context for WebCrypto). */
export async function serveStatic(dir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
    try {
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Debian's Chromium, with the flags a headless CI box needs. */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // Chromium 156.0.8078.108 (Debian) starts the address bar's WebUI popup in a renderer of its
  // own at every launch, headless too: about 1.4 s of CPU in the first 2.5 s, which on two cores
  // made a page opened right after launch 2–3 times slower (docs/performance.md, "Machine and
  // method"). No test or benchmark uses the address bar.
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
];
