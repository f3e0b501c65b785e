/**
 * Vite plugin: the studio's base database (`buildBaseSnapshot`: initdb's output, made in Node), so
 * a new document's live app opens it instead of running initdb in the browser. A static build
 * emits it as a hashed asset; the studio's dev server serves it at `DEV_URL`.
 * `virtual:ninefold-studio-base` gives the page its address (relative to the page).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin, ResolvedConfig } from 'vite';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const VIRTUAL = 'virtual:ninefold-studio-base';
const DEV_URL = '/@ninefold/studio-base.tar.gz';
const CACHE = join(ROOT, 'node_modules/.cache/ninefold-snapshot');

/** The base snapshot, from the on-disk cache while PGlite and the code that makes it are unchanged. */
async function baseSnapshot(): Promise<Uint8Array> {
  const pgliteDir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  const inputs = [
    join(pgliteDir, 'pglite.wasm'),
    join(pgliteDir, 'initdb.wasm'),
    join(ROOT, 'src/backend/embedded/snapshot.ts'),
    join(ROOT, 'src/backend/embedded/pgliteSettings.ts'),
  ].map((f) => (existsSync(f) ? readFileSync(f) : Buffer.from(f)));
  const hash = createHash('sha256');
  for (const input of inputs) hash.update(input);
  const file = join(CACHE, `studio-base-${hash.digest('hex').slice(0, 16)}.tar.gz`);
  if (existsSync(file)) return new Uint8Array(readFileSync(file));
  const { buildBaseSnapshot } = await import('../backend/embedded/snapshot.ts');
  const tarball = await buildBaseSnapshot();
  mkdirSync(CACHE, { recursive: true });
  // Written aside and renamed: studios built at once (parallel test files) never read half a file.
  const aside = `${file}.${process.pid}.tmp`;
  writeFileSync(aside, tarball);
  renameSync(aside, file);
  for (const name of readdirSync(CACHE))
    if (name.startsWith('studio-base-') && join(CACHE, name) !== file)
      rmSync(join(CACHE, name), { force: true });
  return tarball;
}

/** The plugin (both the served and the built studio). */
export function studioBasePlugin(): Plugin {
  let config: ResolvedConfig | undefined;
  let url = DEV_URL;
  let pending: Promise<Uint8Array> | undefined;
  const tarball = () => {
    pending ??= baseSnapshot();
    return pending;
  };
  return {
    name: 'ninefold-studio-base',
    configResolved(resolved) {
      config = resolved;
    },
    async buildStart() {
      if (config?.command !== 'build') {
        // Served: made in the background, asked for only when a new document's app starts.
        tarball().catch((e: unknown) => config?.logger.error(`ninefold studio base: ${String(e)}`));
        return;
      }
      const source = await tarball();
      const hash = createHash('sha256').update(source).digest('hex').slice(0, 8);
      const fileName = `${config.build.assetsDir}/ninefold-studio-base-${hash}.tar.gz`;
      this.emitFile({ type: 'asset', fileName, source });
      // The built studio is served from any folder (base './'): relative to its pages.
      url = fileName;
    },
    resolveId: (id) => (id === VIRTUAL ? `\0${VIRTUAL}` : undefined),
    load: (id) => (id === `\0${VIRTUAL}` ? `export default ${JSON.stringify(url)};\n` : undefined),
    configureServer(server) {
      server.middlewares.use(DEV_URL, (_req, res) => {
        tarball().then(
          (bytes) => {
            res.setHeader('content-type', 'application/gzip');
            res.end(Buffer.from(bytes));
          },
          () => {
            res.statusCode = 500;
            res.end();
          },
        );
      });
    },
  };
}
