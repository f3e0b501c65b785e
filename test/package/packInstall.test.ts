import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Ninefold used the way a user uses it: `npm pack` (which builds dist/ in `prepack`), the tarball
// installed into a fresh project outside the repository, and there the command line, the type
// declarations (tsc through package.json `exports`) and `import('ninefold')` in plain Node. The
// dependencies come from npm's cache (`--prefer-offline`); nothing is linked back to the repository.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURE = join(ROOT, 'test/package/fixture');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const typesReact = (
  JSON.parse(readFileSync(join(ROOT, 'node_modules/@types/react/package.json'), 'utf8')) as {
    version: string;
  }
).version;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The environment of a child process: the npm settings (cache, registry), not this run's package. */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^(npm_package_|npm_lifecycle_|INIT_CWD$|VITEST|NODE_ENV$|VITE_)/.test(k)) env[k] = v;
  return env;
}

function run(command: string, args: readonly string[], cwd: string): Promise<Run> {
  const started = Date.now();
  return new Promise((done) => {
    execFile(
      command,
      [...args],
      { cwd, env: childEnv(), maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        done({ code, stdout, stderr, ms: Date.now() - started });
      },
    );
  });
}

const ok = (r: Run): string => {
  if (r.code !== 0) throw new Error(`exit ${r.code}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
};

let work: string;
let app: string;
const timings: Record<string, number> = {};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ninefold-pack-'));
  const packs = join(work, 'packs');
  mkdirSync(packs);
  const pack = await run('npm', ['pack', '--pack-destination', packs, '--loglevel=error'], ROOT);
  ok(pack);
  timings.pack = pack.ms;
  const tarball = readdirSync(packs).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack made no tarball:\n${pack.stdout}\n${pack.stderr}`);

  app = join(work, 'notes-app');
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify({ name: 'notes-app', private: true, type: 'module' }, null, 2)}\n`,
  );
  copyFileSync(join(FIXTURE, 'spec.ts'), join(app, 'spec.ts'));
  copyFileSync(join(FIXTURE, 'user.ts'), join(app, 'user.ts'));
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        lib: ['ES2023', 'DOM'],
        jsx: 'react-jsx',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      include: ['*.ts'],
    }),
  );
  const install = await run(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      join(packs, tarball),
      `@types/react@${typesReact}`,
    ],
    app,
  );
  ok(install);
  timings.install = install.ms;
}, 900_000);

afterAll(() => {
  // Figures for docs/decisions.md and the report; the machine's load makes them noisy.
  console.log(`pack-and-install timings (ms): ${JSON.stringify(timings)}`);
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed package installed into a fresh project', () => {
  it('holds the built entry points and no tests', () => {
    const pkg = join(app, 'node_modules/ninefold');
    for (const file of [
      'dist/index.js',
      'dist/index.d.ts',
      'dist/react/index.d.ts',
      'bin/ninefold.js',
      'app/index.html',
    ])
      expect(existsSync(join(pkg, file)), file).toBe(true);
    const shipped = readdirSync(join(pkg, 'src'), { recursive: true }).map(String);
    expect(shipped.filter((f) => /\.test(-d)?\.ts$|__golden__/.test(f))).toEqual([]);
  });

  it('npx ninefold check, sql and doc work on the project’s specification', {
    timeout: 600_000,
  }, async () => {
    const check = await run('npx', ['ninefold', 'check', 'spec.ts'], app);
    expect(ok(check)).toContain('no problems found');
    const sql = ok(await run('npx', ['ninefold', 'sql', 'spec.ts'], app));
    expect(sql).toMatch(/create table (if not exists )?public\.note\b/i);
    expect(sql).toMatch(/create (or replace )?function public\.note_publish\b/i);
    const doc = ok(await run('npx', ['ninefold', 'doc', 'spec.ts'], app));
    expect(doc).toMatch(/^# Notes/m);
    timings.check = check.ms;
  });

  it('npx ninefold check fails on a broken specification with the exit code for errors', async () => {
    writeFileSync(
      join(app, 'broken.ts'),
      readFileSync(join(app, 'spec.ts'), 'utf8').replace("guard: 'author != me'", "guard: 'autor != me'"),
    );
    const check = await run('npx', ['ninefold', 'check', 'broken.ts'], app);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('did you mean "author"');
    rmSync(join(app, 'broken.ts'));
  });

  it('npx ninefold build builds the app', { timeout: 900_000 }, async () => {
    const build = await run('npx', ['ninefold', 'build', 'spec.ts', '-o', 'out'], app);
    ok(build);
    timings.build = build.ms;
    expect(readFileSync(join(app, 'out/index.html'), 'utf8')).toContain('<div id="root"');
    expect(readdirSync(join(app, 'out/assets')).some((f) => f.endsWith('.wasm'))).toBe(true);
  });

  it('issue 31.1: init from the installed copy depends on the same tarball, and that installs', {
    timeout: 600_000,
  }, async () => {
    const init = await run('npx', ['ninefold', 'init', '--from', 'blank', 'my-notes'], app);
    expect(ok(init)).toContain('package.json depends on ninefold from');
    const mine = join(app, 'my-notes');
    const pkg = JSON.parse(readFileSync(join(mine, 'package.json'), 'utf8'));
    // What this project installed (npm wrote `file:…tgz`), made absolute: never a registry range.
    expect(pkg.dependencies.ninefold).toMatch(/^file:\/.*\.tgz$/);
    ok(
      await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], mine),
    );
    expect(ok(await run('npx', ['ninefold', '--version'], mine)).trim()).toMatch(/^\d+\.\d+\.\d+$/);
    rmSync(mine, { recursive: true, force: true });
  });

  it('tsc type-checks a file that imports the package, through its declarations', async () => {
    const tsc = await run(process.execPath, [TSC, '-p', '.', '--listFiles'], app);
    const files = ok(tsc).split('\n');
    // The declarations from dist/, never the TypeScript sources the package also ships.
    expect(files.some((f) => f.endsWith('node_modules/ninefold/dist/index.d.ts'))).toBe(true);
    expect(files.filter((f) => /node_modules\/ninefold\/src\//.test(f))).toEqual([]);
    timings.tsc = tsc.ms;
  });

  it('tsc refuses a wrong use of the types', async () => {
    writeFileSync(
      join(app, 'wrong.ts'),
      "import type { RowOf } from 'ninefold';\nexport const n: RowOf<{ fields: {} }> = 1;\n",
    );
    const tsc = await run(process.execPath, [TSC, '-p', '.'], app);
    rmSync(join(app, 'wrong.ts'));
    expect(tsc.code).not.toBe(0);
    expect(tsc.stdout).toContain('wrong.ts');
  });

  it("import('ninefold') and its subpaths work in plain Node", async () => {
    const script = `
      const root = await import('ninefold');
      const out = { root: [typeof root.defineApp, typeof root.BackendError, typeof root.NinefoldApp, typeof root.createEmbeddedBackend, typeof root.createSupabaseBackend, typeof root.loadBackend] };
      for (const sub of ['spec', 'react', 'embedded', 'supabase', 'compiler']) out[sub] = Object.keys(await import('ninefold/' + sub)).sort();
      const spec = root.defineApp({ purpose: { name: 'X', summary: '', users: [] } });
      out.defineApp = spec.purpose.name;
      console.log(JSON.stringify(out));`;
    const node = ok(await run(process.execPath, ['--input-type=module', '-e', script], app));
    const out = JSON.parse(node) as Record<string, unknown>;
    expect(out.root).toEqual(['function', 'function', 'function', 'function', 'function', 'function']);
    expect(out.spec).toEqual(expect.arrayContaining(['defineApp', 'validateSpec']));
    expect(out.react).toEqual(expect.arrayContaining(['NinefoldApp', 'useList']));
    expect(out.embedded).toEqual(expect.arrayContaining(['createEmbeddedBackend']));
    expect(out.supabase).toEqual(['createSupabaseBackend']);
    expect(out.compiler).toEqual(expect.arrayContaining(['compileMigration', 'loadSpec', 'renderDoc']));
    expect(out.defineApp).toBe('X');
  });
});
