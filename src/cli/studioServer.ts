import { existsSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InlineConfig, Plugin } from 'vite';
import { isDocPath } from '../import/loadDoc.ts';
import { specLoaderAliases, viteAliases } from '../sourceAliases.ts';
import type { AppSpec } from '../spec/types.ts';
import { QUIET_CHECKS, quietOnLog } from './buildReport.ts';
import { resolveSpecFile } from './devServer.ts';
import { studioBasePlugin } from './studioBasePlugin.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const STUDIO_DIR = join(ROOT, 'studio');
/** The dev server's door to the document: GET reads it, PUT saves it. */
export const DOC_ENDPOINT = '/__ninefold/studio/doc';

/** What the studio opens: the text, where a save writes it, and what to call it. */
export interface StudioDocument {
  text: string;
  /** The file a save writes. */
  file: string;
  /** The path as the author typed it (or the file's, relative to the current folder). */
  name: string;
}

/**
 * The document the studio opens for a path: a nine-point document as it is; a spec folder (or
 * `spec.ts`) as the document `ninefold doc` prints, saved as `doc.md` beside it (the TypeScript is
 * never overwritten); nothing: `doc.md` in the current folder, or the blank template until it is saved.
 *
 * @example
 * await studioDocument('docs/helpdesk.md'); // { text: '# Helpdesk…', file: '/…/docs/helpdesk.md', … }
 */
export async function studioDocument(path: string | undefined, cwd = process.cwd()): Promise<StudioDocument> {
  if (path === undefined) {
    const file = resolve(cwd, 'doc.md');
    const text = existsSync(file)
      ? await readFile(file, 'utf8')
      : await readFile(join(ROOT, 'src/import/templates/blank.md'), 'utf8');
    return { text, file, name: 'doc.md' };
  }
  const abs = resolve(cwd, path);
  if (isDocPath(abs)) return { text: await readFile(abs, 'utf8'), file: abs, name: path };
  const specFile = resolveSpecFile(abs);
  const { importSpecExport } = await import('../spec/importSpecModule.ts');
  const { renderDoc } = await import('../doc/renderDoc.ts');
  const spec = (await importSpecExport(specFile)) as AppSpec;
  const file = join(statSync(abs).isDirectory() ? abs : dirname(abs), 'doc.md');
  const text = existsSync(file) ? await readFile(file, 'utf8') : renderDoc(spec);
  return { text, file, name: relative(cwd, file) || 'doc.md' };
}

const INITIAL_DOC = 'virtual:ninefold-studio-doc';

/**
 * Vite plugin: the document's endpoint on the studio's dev server (`served`), or, in a static
 * build, the document the studio starts from (`virtual:ninefold-studio-doc`: `{ text, name }` or null).
 */
export function studioDocPlugin(doc: StudioDocument | undefined, mode: 'served' | 'built'): Plugin {
  return {
    name: 'ninefold-studio-doc',
    resolveId: (id) => (id === INITIAL_DOC ? `\0${INITIAL_DOC}` : undefined),
    load(id) {
      if (id !== `\0${INITIAL_DOC}`) return undefined;
      const initial = mode === 'built' && doc ? { text: doc.text, name: doc.name } : null;
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(initial))});\n`;
    },
    configureServer(server) {
      if (mode !== 'served' || !doc) return;
      server.middlewares.use(DOC_ENDPOINT, (req, res) => {
        void serveDoc(doc, req, res);
      });
    },
  };
}

/** The endpoint: GET `{ text, name }`, PUT the text (written to the file). */
export async function serveDoc(
  doc: StudioDocument,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  res.setHeader('content-type', 'application/json');
  if (req.method === 'GET') {
    res.end(JSON.stringify({ text: doc.text, name: doc.name }));
    return;
  }
  if (req.method !== 'PUT') {
    res.statusCode = 405;
    res.end(JSON.stringify({ error: 'GET or PUT' }));
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    await writeFile(doc.file, text);
    doc.text = text;
    res.end(JSON.stringify({ saved: doc.name }));
  } catch (e) {
    res.statusCode = 500;
    res.end(JSON.stringify({ error: e instanceof Error ? e.message : String(e) }));
  }
}

/** The studio's Vite configuration: its own pages (studio/), the package's sources, PGlite as is. */
export async function studioConfig(
  doc: StudioDocument | undefined,
  mode: 'served' | 'built',
  outDir?: string,
): Promise<InlineConfig> {
  const react = (await import('@vitejs/plugin-react')).default;
  return {
    configFile: false,
    root: STUDIO_DIR,
    envDir: false,
    // A built studio is served from any folder: its files refer to each other relatively.
    base: './',
    resolve: { alias: viteAliases(specLoaderAliases()) },
    plugins: [react(), studioDocPlugin(doc, mode), studioBasePlugin()],
    optimizeDeps: { exclude: ['@electric-sql/pglite'] },
    worker: { format: 'es', rolldownOptions: { checks: QUIET_CHECKS, onLog: quietOnLog } },
    server: { fs: { allow: [ROOT] } },
    build: {
      outDir: resolve(outDir ?? 'dist-studio'),
      emptyOutDir: true,
      target: 'es2022',
      chunkSizeWarningLimit: 4000,
      rolldownOptions: {
        input: { index: join(STUDIO_DIR, 'index.html'), preview: join(STUDIO_DIR, 'preview.html') },
        checks: QUIET_CHECKS,
        onLog: quietOnLog,
      },
    },
    logLevel: 'warn',
  };
}

/**
 * `ninefold studio [doc.md | spec folder]`: the studio on a local port, on that document; a save
 * writes the file. Resolves with the address once it listens; the process keeps serving.
 *
 * @example
 * await studio('docs/helpdesk.md', { port: 5180 }); // 'http://localhost:5180/'
 */
export async function studio(
  path: string | undefined,
  options: { port?: number; cwd?: string } = {},
): Promise<{ url: string; close: () => Promise<void> }> {
  const { createServer } = await import('vite');
  const doc = await studioDocument(path, options.cwd);
  const config = await studioConfig(doc, 'served');
  const server = await createServer({
    ...config,
    server: { ...config.server, ...(options.port ? { port: options.port } : {}) },
  });
  await server.listen();
  const url = server.resolvedUrls?.local[0] ?? `http://localhost:${server.config.server.port ?? 5173}/`;
  return { url, close: () => server.close() };
}

/**
 * `ninefold build --studio [doc]`: the studio as static files, hostable anywhere. Without a server,
 * the document is kept in the browser's storage; it starts from `doc` (or the blank template).
 *
 * @example
 * await buildStudio('docs/helpdesk.md', 'site'); // site/index.html, site/preview.html, site/assets/
 */
export async function buildStudio(
  path: string | undefined,
  outDir: string,
  cwd = process.cwd(),
): Promise<void> {
  const vite = await import('vite');
  const doc = path === undefined ? undefined : await studioDocument(path, cwd);
  await vite.build(await studioConfig(doc, 'built', resolve(cwd, outDir)));
}
