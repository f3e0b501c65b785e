/**
 * Vite plugin: a pre-initialised database for the app's first visit. At build time PGlite runs in
 * Node, the embedded backend's own boot applies the schema (auth stand-in, migration, extras,
 * version row) and the demo data is seeded; the data directory is dumped and emitted as a hashed
 * asset. `index.html` gets a tiny inline script that, when this browser has no database yet,
 * starts downloading the snapshot before any JavaScript bundle has loaded; the database worker
 * then creates its IndexedDB database from it (PGlite `loadDataDir`) instead of running initdb
 * and the migration. `virtual:ninefold-snapshot` gives the app the schema version the build
 * computed, so a return visit only compares versions.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin, ResolvedConfig } from 'vite';
import type { AppDemo } from '../backend/embedded/demo/appDemo.ts';
import { isDocPath, specFromDoc } from '../import/loadDoc.ts';
import { resolve as resolveModel } from '../model/resolve.ts';
import { inlineScriptJson } from '../printers/codeText.ts';
import type { AppSpec } from '../spec/types.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const VIRTUAL = 'virtual:ninefold-snapshot';
/** The demo accounts' first screens (src/react/demoScreens.ts): a chunk of its own, fetched on a demo click. */
const VIRTUAL_SCREENS = 'virtual:ninefold-demo-screens';
const DEV_URL = '/@ninefold/snapshot.tar.gz';
const CACHE = join(ROOT, 'node_modules/.cache/ninefold-snapshot');

/** What `virtual:ninefold-snapshot` exports (see app/ninefold-snapshot.d.ts). */
export interface SnapshotInfo {
  /** `embeddedSchema(spec).version`: what the snapshot holds and what boot compares against. */
  version: string;
  /** Where the snapshot is served (null when the plugin is off). */
  url: string | null;
  /** Whether the snapshot holds the demo data, not only the demo accounts. */
  demo: boolean;
  /** The IndexedDB database PGlite keeps `idb://ninefold-<app>` in (its presence means "return visit"). */
  idbName: string;
}

/**
 * The inline `<head>` script: on a first visit (no IndexedDB database yet, not `?memory`) it
 * starts the snapshot download at once and leaves the promise on `window.__ninefoldSnapshot`
 * (see `firstVisitSnapshot`). Plain ES2017 so it runs before, and without, any bundle.
 *
 * @example
 * snapshotPrefetchScript('/assets/ninefold-helpdesk-1a2b3c4d.tar.gz', '/pglite/ninefold-helpdesk')
 */
export function snapshotPrefetchScript(url: string, idbName: string): string {
  // The database may also live in OPFS (`memfs2opfs://<name>`: the folder <name> with a non-empty
  // global/pg_control, see openWorkerDatabase.ts); the name is the IndexedDB one without `/pglite/`.
  const opfsName = idbName.replace(/^\/pglite\//, '');
  return `window.__ninefoldSnapshot=(async()=>{if(/[?&]memory(?:[&=]|$)/.test(location.search))return null;const d=indexedDB.databases?await indexedDB.databases():[];if(d.some(x=>x.name===${inlineScriptJson(idbName)}))return null;try{const o=await navigator.storage.getDirectory();const h=await(await o.getDirectoryHandle(${inlineScriptJson(opfsName)})).getDirectoryHandle("global");if((await(await h.getFileHandle("pg_control")).getFile()).size>0)return null}catch(e){}const r=await fetch(${inlineScriptJson(url)});return r.ok?await r.blob():null})().catch(()=>null);`;
}

/** The spec a build is made from (with its demo registered), as the plugins load it. */
export const loadSpecForBuild = (specFile: string): Promise<AppSpec> => loadSpec(specFile);

async function loadSpec(specFile: string): Promise<AppSpec> {
  if (isDocPath(specFile)) return specFromDoc(specFile);
  const { importSpecExport, importSpecModule } = await import('../spec/importSpecModule.ts');
  const spec = (await importSpecExport(specFile)) as AppSpec;
  // The app's own demo data (`demo.ts` beside the spec), as the app entry registers it.
  const demoFile = join(dirname(specFile), 'demo.ts');
  if (existsSync(demoFile)) {
    const { registerDemo } = await import('../backend/embedded/demo/appDemo.ts');
    registerDemo(spec, (await importSpecModule(demoFile)).default as AppDemo | undefined);
  }
  return spec;
}

/**
 * PGlite's package.json wherever the package manager put it: beside Ninefold in a user's project
 * (`node_modules/@electric-sql/pglite`), not inside Ninefold's own folder.
 */
function pglitePackageJson(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (
    !existsSync(join(dir, 'package.json')) ||
    !readFileSync(join(dir, 'package.json'), 'utf8').includes('"@electric-sql/pglite"')
  ) {
    const up = dirname(dir);
    if (up === dir) throw new Error('@electric-sql/pglite: package.json not found');
    dir = up;
  }
  return join(dir, 'package.json');
}

/** Today's UTC midnight: the demo data's "now", so the cached snapshot is reused all day. */
function demoDay(): Date {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

/**
 * The snapshot for a spec, from the on-disk cache when its inputs (schema text, demo plan,
 * PGlite version) are unchanged: building one takes PGlite seconds, and every `vite build`
 * (and every end-to-end test build) would pay them.
 */
async function snapshotFor(
  spec: AppSpec,
  demo: boolean,
): Promise<{ tarball: Uint8Array; version: string; screens: unknown }> {
  const { embeddedSchema } = await import('../backend/embedded/boot.ts');
  const { demoPlanFor } = await import('../backend/embedded/demo/demoPlanFor.ts');
  const { buildSnapshot } = await import('../backend/embedded/snapshot.ts');
  const { appSlug } = await import('../backend/embedded/createEmbeddedBackend.ts');
  const now = demoDay();
  const { sql, version } = await embeddedSchema(spec);
  const pglite = JSON.parse(readFileSync(pglitePackageJson(), 'utf8')) as { version: string };
  const plan = demo
    ? JSON.stringify(demoPlanFor(spec, now), (_k, v: unknown) =>
        v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v,
      )
    : 'accounts';
  // The code that builds and seeds it is an input too (the schema text covers the migration).
  const code = [
    'snapshot.ts',
    'demo/seedDemo.ts',
    'demo/demoAccounts.ts',
    'demo/demoAccountPeople.ts',
    'passwords.ts',
  ]
    .map((f) => readFileSync(join(ROOT, 'src/backend/embedded', f), 'utf8'))
    .concat(
      // The demo accounts' first screens are asked as the app asks them (their query keys).
      [
        'src/react/demoScreens.ts',
        'src/react/hooks.ts',
        'src/runtime/listScreenQueries.ts',
        'src/backend/embedded/snapshot.ts',
      ].map((f) => readFileSync(join(ROOT, f), 'utf8')),
    )
    .join('\n');
  const key = createHash('sha256')
    .update(`${pglite.version}\n${sql}\n${plan}\n${code}`)
    .digest('hex')
    .slice(0, 16);
  const file = join(CACHE, `${appSlug(spec)}-${key}.tar.gz`);
  const screensFile = `${file}.screens.json`;
  if (existsSync(file) && existsSync(screensFile))
    return {
      tarball: new Uint8Array(readFileSync(file)),
      version,
      screens: JSON.parse(readFileSync(screensFile, 'utf8')),
    };
  const { demoScreens } = await import('../react/demoScreens.ts');
  const { demoAccounts } = await import('../backend/embedded/demo/demoAccounts.ts');
  const snapshot = await buildSnapshot(spec, {
    demo,
    now,
    // Only with the demo data: with accounts alone every list is empty anyway.
    ...(demo
      ? {
          firstScreens: (backend) =>
            demoScreens(resolveModel(spec), backend, demoAccounts(spec), now.getTime() + 7 * 86_400_000),
        }
      : {}),
  });
  const screens = snapshot.firstScreens ?? null;
  mkdirSync(CACHE, { recursive: true });
  // Written aside and renamed: a build reading the cache meanwhile (parallel test builds) never
  // sees half a file.
  writeFileSync(`${file}.${process.pid}.tmp`, snapshot.tarball);
  renameSync(`${file}.${process.pid}.tmp`, file);
  writeFileSync(`${screensFile}.${process.pid}.tmp`, JSON.stringify(screens));
  renameSync(`${screensFile}.${process.pid}.tmp`, screensFile);
  // Older snapshots of this app are dead weight (each is a few MB).
  for (const name of readdirSync(CACHE))
    if (
      name.startsWith(`${appSlug(spec)}-`) &&
      !name.endsWith('.tmp') &&
      join(CACHE, name) !== file &&
      join(CACHE, name) !== screensFile
    )
      rmSync(join(CACHE, name), { force: true });
  return { tarball: snapshot.tarball, version: snapshot.version, screens };
}

/**
 * The plugin. `demo` (default true) puts the demo data in the snapshot: a first visit shows
 * rows at once, and seeding in the browser (hundreds of rows, PBKDF2 hashes) never happens.
 * `enabled: false` emits no snapshot (the version module still exists).
 *
 * @example
 * plugins: [react(), ninefoldSpecPlugin(specFile), ninefoldSnapshotPlugin(specFile)]
 */
export function ninefoldSnapshotPlugin(
  specFile: string,
  options: { demo?: boolean; enabled?: boolean } = {},
): Plugin {
  const demo = options.demo ?? true;
  let config: ResolvedConfig | undefined;
  let info: SnapshotInfo | undefined;
  let pending: Promise<{ tarball: Uint8Array; version: string; screens: unknown }> | undefined;
  let specEdited = false;
  const snapshot = async () => {
    pending ??= loadSpec(specFile).then((spec) => snapshotFor(spec, demo));
    return pending;
  };
  const idbNameOf = async () => {
    const { appSlug } = await import('../backend/embedded/createEmbeddedBackend.ts');
    // PGlite mounts `idb://<name>` at /pglite/<name>; Emscripten's IDBFS names the database after the mount.
    return `/pglite/ninefold-${appSlug(await loadSpec(specFile))}`;
  };

  return {
    name: 'ninefold-snapshot',
    configResolved(resolved) {
      config = resolved;
    },
    async buildStart() {
      if (options.enabled === false) {
        // No snapshot (benchmarks' "before"): the browser runs initdb and the migration itself.
        const { embeddedSchema } = await import('../backend/embedded/boot.ts');
        const { version } = await embeddedSchema(await loadSpec(specFile));
        info = { version, url: null, demo: false, idbName: await idbNameOf() };
        return;
      }
      if (config?.command !== 'build') {
        // Dev: the schema version now (cheap), the snapshot in the background.
        const { embeddedSchema } = await import('../backend/embedded/boot.ts');
        const { version } = await embeddedSchema(await loadSpec(specFile));
        info = { version, url: DEV_URL, demo, idbName: await idbNameOf() };
        snapshot().catch((e: unknown) => config?.logger.error(`ninefold snapshot: ${String(e)}`));
        return;
      }
      const { tarball, version } = await snapshot();
      const { appSlug } = await import('../backend/embedded/createEmbeddedBackend.ts');
      const hash = createHash('sha256').update(tarball).digest('hex').slice(0, 8);
      const fileName = `${config.build.assetsDir}/ninefold-${appSlug(await loadSpec(specFile))}-${hash}.tar.gz`;
      this.emitFile({ type: 'asset', fileName, source: tarball });
      info = { version, url: `${config.base}${fileName}`, demo, idbName: await idbNameOf() };
    },
    resolveId: (id) => (id === VIRTUAL || id === VIRTUAL_SCREENS ? `\0${id}` : undefined),
    async load(id) {
      if (id === `\0${VIRTUAL_SCREENS}`) {
        // Only a build's snapshot has them (dev serves its snapshot later, in the background).
        const screens = config?.command === 'build' && info?.url ? (await snapshot()).screens : null;
        return `export default ${JSON.stringify(screens ?? null)};\n`;
      }
      if (id !== `\0${VIRTUAL}`) return undefined;
      if (!info) throw new Error('ninefold snapshot: not ready (buildStart did not run)');
      if (specEdited) {
        // `ninefold dev` after a spec edit: the page reloads and boots with the new version, so
        // the database is upgraded in place (upgradeSchema.ts) instead of skipped as unchanged.
        specEdited = false;
        const { embeddedSchema } = await import('../backend/embedded/boot.ts');
        info = { ...info, version: (await embeddedSchema(await loadSpec(specFile))).version };
      }
      return `export default ${JSON.stringify(info)};\n`;
    },
    transformIndexHtml() {
      if (!info?.url) return [];
      return [
        {
          tag: 'script',
          children: snapshotPrefetchScript(info.url, info.idbName),
          injectTo: 'head-prepend',
        },
      ];
    },
    configureServer(server) {
      server.watcher.on('change', (file) => {
        if (!resolve(file).startsWith(dirname(resolve(specFile)))) return;
        specEdited = true;
        pending = undefined;
        const mod = server.moduleGraph.getModuleById(`\0${VIRTUAL}`);
        if (mod) server.moduleGraph.invalidateModule(mod);
      });
      if (options.enabled === false) return;
      server.middlewares.use(DEV_URL, (_req, res) => {
        snapshot().then(
          ({ tarball }) => {
            res.writeHead(200, { 'content-type': 'application/gzip', 'cache-control': 'no-store' });
            res.end(tarball);
          },
          (e: unknown) => {
            res.writeHead(500).end(String(e));
          },
        );
      });
    },
  };
}
