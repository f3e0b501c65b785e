import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InlineConfig, Plugin } from 'vite';
import { isDocPath, specFromDoc } from '../import/loadDoc.ts';
import { modelRuleTableModule } from '../model/modelRuleTable.ts';
import { recordModelRuleTable } from '../model/recordModelRuleTable.ts';
import { resolve as resolveModel } from '../model/resolve.ts';
import { ruleTable, ruleTableModule } from '../runtime/ruleTable.ts';
import { specLoaderAliases, viteAliases } from '../sourceAliases.ts';
import type { AppSpec } from '../spec/types.ts';
import { backendBuildChoice } from './backendEnv.ts';
import { buildSummary, QUIET_CHECKS, quietOnLog, shownPath } from './buildReport.ts';
import { firstScreenModules, ninefoldFirstScreenChunkPlugin } from './firstScreenChunkPlugin.ts';
import { ninefoldFirstScreenShimsPlugin } from './firstScreenShimsPlugin.ts';
import { ninefoldPgliteDataPlugin } from './pgliteDataPlugin.ts';
import { ninefoldScreenPreviewPlugin } from './screenPreviewPlugin.ts';
import { ninefoldSnapshotPlugin } from './snapshotPlugin.ts';
import { ninefoldStartPreloadPlugin } from './startPreloadPlugin.ts';
import { mantineClassesIn, ninefoldUsedCssPlugin } from './usedCssPlugin.ts';
import { ninefoldWorkerStartPlugin } from './workerStartPlugin.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const VIRTUAL = 'virtual:ninefold-spec';

/**
 * The spec file for a path: a file as is, a folder's `spec.ts` (or `spec.json`).
 *
 * @example
 * resolveSpecFile('examples/helpdesk') // '/…/examples/helpdesk/spec.ts'
 */
export function resolveSpecFile(specPath: string): string {
  const abs = resolve(specPath);
  if (existsSync(abs) && statSync(abs).isDirectory()) {
    for (const name of ['spec.ts', 'spec.json']) if (existsSync(join(abs, name))) return join(abs, name);
    throw new Error(`${specPath}: no spec.ts or spec.json in this folder`);
  }
  if (!existsSync(abs)) throw new Error(`${specPath}: no such file or folder`);
  return abs;
}

/**
 * The app's demo module beside its spec (`demo.ts`, exporting an `AppDemo` by default), if any.
 *
 * @example
 * demoFileFor('/…/examples/helpdesk/spec.ts'); // '/…/examples/helpdesk/demo.ts'
 */
export function demoFileFor(specFile: string): string | undefined {
  const file = join(dirname(specFile), 'demo.ts');
  return existsSync(file) ? file : undefined;
}

/** Vite plugin: `import spec from 'virtual:ninefold-spec'` gives the chosen specification. */
export function ninefoldSpecPlugin(
  specFile: string,
  options: { demo?: boolean; inline?: boolean } = {},
): Plugin {
  // A build reads the spec once for all its modules (the spec, each language's texts, the rules).
  let loaded: Promise<AppSpec> | undefined;
  const specOnce = () => {
    loaded ??= isDocPath(specFile) ? specFromDoc(specFile) : loadTsSpec(specFile);
    return loaded;
  };
  return {
    name: 'ninefold-spec',
    resolveId: (id) =>
      id === VIRTUAL || id === RULES || id === MODEL_RULES || id.startsWith(TRANSLATIONS)
        ? `\0${id}`
        : undefined,
    async load(id) {
      if (id.startsWith(`\0${TRANSLATIONS}`)) {
        const locale = id.slice(`\0${TRANSLATIONS}:`.length);
        const table = (await specOnce()).translations?.[locale] ?? {};
        return `export default JSON.parse(${JSON.stringify(JSON.stringify(table))});\n`;
      }
      if (id === `\0${RULES}`) return ruleTableModule(ruleTable(resolveModel(await specOnce())));
      if (id === `\0${MODEL_RULES}`) return modelRuleTableModule(recordModelRuleTable(await specOnce()));
      if (id !== `\0${VIRTUAL}`) return undefined;
      // `demoLoaded`: the app's demo (its data, the accounts' hook and the seeding code) is a chunk
      // of its own, registered when it arrives, so it stays out of the entry chunk on the path to
      // the first screen; the tab awaits it before it starts the backend or renders (app/main.tsx).
      const none = 'export const demoLoaded = Promise.resolve();\n';
      const allHere = 'export const translationsLoaded = () => Promise.resolve();\n';
      if (isDocPath(specFile)) {
        // A nine-point document is imported in memory; the dev server reloads when it changes.
        this.addWatchFile(specFile);
        return `export default ${JSON.stringify(await specFromDoc(specFile))};\n${none}${allHere}`;
      }
      // Demo data belongs to the embedded backend only: a hosted build must not carry demo accounts.
      const demo = options.demo === false ? undefined : demoFileFor(specFile);
      // A build carries the spec as data, read at build time, and each language's texts as a chunk
      // of their own that only a person reading that language downloads (docs/decisions.md,
      // "Initial JavaScript"). The dev server imports the file itself, so an edit reloads it.
      const specModule = options.inline
        ? inlineSpecModule(await specOnce())
        : `export { default } from ${JSON.stringify(specFile.replace(/\\/g, '/'))};\n${allHere}`;
      if (!demo) return `${specModule}${none}`;
      // The app's own demo data (`demo.ts` beside the spec) is registered with the spec.
      return [
        options.inline
          ? specModule.replace('export default spec;', '')
          : `import spec from ${JSON.stringify(specFile.replace(/\\/g, '/'))};\n${allHere}`,
        `import { registerDemo } from ${JSON.stringify(join(ROOT, 'src/backend/embedded/demo/appDemo.ts').replace(/\\/g, '/'))};`,
        `export const demoLoaded = import(${JSON.stringify(demo.replace(/\\/g, '/'))}).then((m) => {`,
        '  registerDemo(spec, m.default);',
        '});',
        'export default spec;',
        '',
      ].join('\n');
    },
  };
}

const TRANSLATIONS = 'virtual:ninefold-translations';
const RULES = 'virtual:ninefold-rules';
const MODEL_RULES = 'virtual:ninefold-model-rules';
const RUNTIME_DIR = /[\\/]src[\\/]runtime[\\/][^\\/]+\.ts$/;
const MODEL_DIR = /[\\/]src[\\/]model[\\/][^\\/]+\.ts$/;
const BUILT_RULE_CHECKER = join(ROOT, 'src/runtime/builtRuleChecker.ts');
const BUILT_MODEL_RULE_CHECK = join(ROOT, 'src/model/builtModelRuleCheck.ts');

/**
 * Vite plugin (builds): the runtime's rule checker (src/runtime/ruleChecker.ts) becomes
 * builtRuleChecker.ts, which reads the trees `virtual:ninefold-rules` holds, and the model's
 * (src/model/modelRuleCheck.ts) becomes builtModelRuleCheck.ts, which reads the checks
 * `virtual:ninefold-model-rules` holds (the spec plugin makes both from the spec at build time):
 * a tab resolves its model without parsing a rule. Before Vite's own resolver, which would
 * resolve the relative import first.
 */
export function ninefoldBuiltRulesPlugin(): Plugin {
  return {
    name: 'ninefold-built-rules',
    enforce: 'pre',
    apply: 'build',
    resolveId(id, importer) {
      if (id === './ruleChecker.ts' && importer && RUNTIME_DIR.test(importer)) return BUILT_RULE_CHECKER;
      if (id === './modelRuleCheck.ts' && importer && MODEL_DIR.test(importer)) return BUILT_MODEL_RULE_CHECK;
      return undefined;
    },
  };
}

/** The spec a file exports, read at build time (src/spec/importSpecModule.ts). */
async function loadTsSpec(specFile: string): Promise<AppSpec> {
  const { importSpecExport } = await import('../spec/importSpecModule.ts');
  return (await importSpecExport(specFile)) as AppSpec;
}

/**
 * The spec as a JSON literal (parsed faster than the same object written as code, and without the
 * code that wrote it), its translations left out: `translationsLoaded(locale)` fetches that
 * language's table as its own chunk and puts it back in place before anything reads it.
 */
function inlineSpecModule(spec: AppSpec): string {
  const { translations, ...rest } = spec;
  const locales = Object.keys(translations ?? {});
  const loaders = locales
    .map((l) => `${JSON.stringify(l)}: () => import(${JSON.stringify(`${TRANSLATIONS}:${l}`)})`)
    .join(', ');
  return [
    `const spec = JSON.parse(${JSON.stringify(JSON.stringify(rest))});`,
    ...(translations ? ['spec.translations = {};'] : []),
    `const loaders = { ${loaders} };`,
    'export const translationsLoaded = (locale) => {',
    '  const load = Object.hasOwn(loaders, locale) ? loaders[locale] : undefined;',
    '  return load ? load().then((m) => { spec.translations[locale] = m.default; }) : Promise.resolve();',
    '};',
    'export default spec;',
    '',
  ].join('\n');
}

/**
 * The Vite configuration of a Ninefold app for one spec (dev and build share it). The backend
 * comes from the `VITE_*` environment (`.env` files in the current directory, then the process
 * environment; see src/cli/backendEnv.ts): a bad configuration throws here, before any bundling.
 */
export async function viteConfig(
  specFile: string,
  outDir = 'dist',
  mode = 'production',
  firstScreen?: ReadonlySet<string>,
  usedCss?: ReadonlySet<string>,
): Promise<InlineConfig> {
  const react = (await import('@vitejs/plugin-react')).default;
  const envDir = process.cwd();
  const backend = backendBuildChoice(mode, envDir);
  return {
    configFile: false,
    root: join(ROOT, 'app'),
    envDir,
    define: backend.define,
    // The specification imports `ninefold` like any user's file; it resolves to the same sources
    // the app is built from (one copy of each module), and to the authoring entry only, so the
    // spec never pulls the embedded adapter into a hosted build (src/sourceAliases.ts).
    resolve: { alias: viteAliases(specLoaderAliases()) },
    plugins: [
      react(),
      // floating-ui and react-remove-scroll off the list's first-screen path (docs/decisions.md,
      // "Initial JavaScript").
      ninefoldFirstScreenShimsPlugin(),
      // …and the list's first screen one chunk, not forty (a build's second pass).
      ...(firstScreen ? [ninefoldFirstScreenChunkPlugin(firstScreen)] : []),
      // …and Mantine's style sheets without the components the app never draws (the same pass).
      ...(usedCss ? [ninefoldUsedCssPlugin(usedCss)] : []),
      // …asked for from the HTML with the backend's start, not one import after another.
      ninefoldStartPreloadPlugin(),
      ninefoldSpecPlugin(specFile, { demo: backend.kind === 'embedded', inline: mode === 'production' }),
      ...(mode === 'production' ? [ninefoldBuiltRulesPlugin()] : []),
      // A hosted app has no database in the browser, so no snapshot to emit.
      ninefoldSnapshotPlugin(specFile, { enabled: backend.kind === 'embedded' }),
      // The embedded backend's worker starts from the HTML, before the entry chunk loads.
      ...(backend.kind === 'embedded' ? [ninefoldWorkerStartPlugin(specFile)] : []),
      // …and a return visit shows the last screen's picture before any code runs.
      ...(backend.kind === 'embedded' ? [ninefoldScreenPreviewPlugin(specFile)] : []),
    ],
    // PGlite ships its own WebAssembly and data files; pre-bundling would break their URLs.
    optimizeDeps: { exclude: ['@electric-sql/pglite'] },
    // The worker is bundled on its own: the same notes about Ninefold's own code stay quiet there.
    // In an embedded build it fetches a PGlite file bundle without what a database made from the
    // snapshot never reads (src/cli/pgliteDataPlugin.ts).
    worker: {
      format: 'es',
      plugins: () => (backend.kind === 'embedded' ? [ninefoldPgliteDataPlugin(specFile)] : []),
      rolldownOptions: { checks: QUIET_CHECKS, onLog: quietOnLog },
    },
    server: { fs: { allow: [ROOT, dirname(specFile)] } },
    build: {
      outDir: resolve(outDir),
      emptyOutDir: true,
      target: 'es2022',
      chunkSizeWarningLimit: 2000,
      // The bundler's notes about Ninefold's own app (PGlite's eval and node: imports, timings)
      // are not the author's to act on (src/cli/buildReport.ts); anything else still shows.
      rolldownOptions: { checks: QUIET_CHECKS, onLog: quietOnLog },
    },
    logLevel: 'info',
  };
}

/**
 * Runs the app for a spec in Vite's dev server and prints the URL.
 *
 * @example
 * await dev('examples/helpdesk'); // Helpdesk running at http://localhost:5173/
 */
export async function dev(specPath: string): Promise<void> {
  const { createServer } = await import('vite');
  const specFile = resolveSpecFile(specPath);
  const server = await createServer({
    ...(await viteConfig(specFile, 'dist', 'development')),
    logLevel: 'warn',
  });
  await server.listen();
  const url = server.resolvedUrls?.local[0] ?? `http://localhost:${server.config.server.port ?? 5173}/`;
  process.stdout.write(`Ninefold: ${specPath} running at ${url}\n`);
}

/**
 * Builds the app for a spec into `outDir` (static files; serve them from any web server) and
 * says where it went, how big it is and how to serve it.
 *
 * @example
 * await build('examples/expenses', 'dist/expenses');
 */
export async function build(
  specPath: string,
  outDir = 'dist',
  out: (text: string) => void = (t) => process.stdout.write(t),
): Promise<void> {
  const vite = await import('vite');
  const specFile = resolveSpecFile(specPath);
  // Two passes: the first, unminified and not written, shows which modules the list's first
  // screen runs (src/cli/firstScreenChunkPlugin.ts) and which Mantine classes the app's code names
  // (src/cli/usedCssPlugin.ts); the second puts those modules in one chunk and keeps those classes'
  // styles only.
  const config = await viteConfig(specFile, outDir);
  const trial = await vite.build({
    ...config,
    build: { ...config.build, write: false, minify: false },
    logLevel: 'silent',
  });
  const chunks = (Array.isArray(trial) ? trial : [trial]).flatMap((o) => ('output' in o ? o.output : []));
  const firstScreen = firstScreenModules(chunks);
  const usedCss = mantineClassesIn(chunks.flatMap((c) => (c.type === 'chunk' ? [c.code] : [])));
  // Vite's own progress lines (every file with its size) are left out: the summary says it all.
  const built = await vite.build({
    ...(await viteConfig(specFile, outDir, 'production', firstScreen, usedCss)),
    logLevel: 'warn',
  });
  for (const line of buildSummary(specPath, outDir, outputsOf(built))) out(`${line}\n`);
}

/** The chunks and assets of a build result (one output, several, or none for a watcher). */
function outputsOf(result: unknown): { type: string }[] {
  const outputs: unknown[] = Array.isArray(result) ? result : [result];
  return outputs.flatMap((o) =>
    o && typeof o === 'object' && 'output' in o ? (o.output as { type: string }[]) : [],
  );
}

/**
 * Serves a built app (`ninefold build`'s folder) with Vite's preview server: unknown paths get
 * `index.html`, as the app's routes need. Resolves once it listens; the process keeps serving.
 *
 * @example
 * await preview('/home/me/my-app/dist', 4173, console.log); // serving dist at http://localhost:4173/
 */
export async function preview(dir: string, port: number, out: (text: string) => void): Promise<number> {
  if (!existsSync(join(dir, 'index.html'))) {
    out(`✗ ${shownPath(dir)} has no index.html; build the app first: npx ninefold build doc.md\n`);
    return 2;
  }
  const vite = await import('vite');
  const server = await vite.preview({
    configFile: false,
    // The folder's parent as the root: Vite warns when the output folder is its own root.
    root: dirname(dir),
    envDir: false,
    logLevel: 'warn',
    build: { outDir: basename(dir) },
    preview: { port: Number.isInteger(port) ? port : 4173, open: false },
  });
  const url = server.resolvedUrls?.local[0] ?? `http://localhost:${port}/`;
  out(`Ninefold: serving ${shownPath(dir)} at ${url} (Ctrl+C stops it)\n`);
  return 0;
}
