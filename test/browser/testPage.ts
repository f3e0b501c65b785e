import { mkdir, mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize } from 'node:path';
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

/** Builds the test page (test/browser/page) with Vite into a temporary folder; returns the folder. */
export async function buildTestPage(): Promise<string> {
  const { build } = await import('vite');
  const outDir = await mkdtemp(join(tmpdir(), 'ninefold-browser-'));
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
];
