import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Switching the reference app from embedded to Supabase is a change of environment only: the same
// `ninefold build` with `VITE_*` variables (here from a `.env` file) gives a build without PGlite,
// and no build carries a secret. The builds run as child processes of the real command line, each
// in its own working directory, so the `.env` files and variables are exactly the ones set here.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SPEC = join(ROOT, 'examples/helpdesk');
const FAKE_URL = 'https://fakeprojectref.supabase.co';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A JWT-shaped key with the claims Supabase puts in its legacy API keys (the signature is fake). */
const fakeKey = (role: string) =>
  `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ iss: 'supabase', ref: 'fakeprojectref', role, iat: 1700000000, exp: 4102444800 })}.c2lnbmF0dXJlLW5vdC1yZWFs`;
const ANON_KEY = fakeKey('anon');
const SERVICE_KEY = fakeKey('service_role');

/**
 * Values of the local environment that must never reach a bundle: whatever secret-looking
 * variables this machine has, plus canaries set for the builds (so the check has something to
 * find even where none is set).
 */
const CANARIES = {
  SUPABASE_SERVICE_ROLE_KEY: process.env.SUPABASE_SERVICE_ROLE_KEY ?? SERVICE_KEY,
  SUPABASE_DB_URL:
    process.env.SUPABASE_DB_URL ??
    'postgres://postgres:canary-db-password-4711@db.fakeprojectref.supabase.co:5432/postgres',
  NINEFOLD_TEST_SECRET_CANARY: 'canary-7f3c2a9e51d84b06',
};
const localSecrets = (): string[] => {
  const values = Object.entries(process.env)
    .filter(
      ([name, v]) =>
        /KEY|SECRET|TOKEN|PASSWORD|PASSWD|DB_URL|DATABASE_URL/i.test(name) && v && v.length >= 12,
    )
    .filter(([name]) => !name.startsWith('VITE_'))
    .map(([, v]) => v as string);
  return [...new Set([...values, ...Object.values(CANARIES)])];
};

type Build = { cwd: string } & ({ ok: true; files: Map<string, Buffer> } | { ok: false; output: string });

/** `ninefold build` in a fresh directory with only the given `VITE_*` variables and `.env` file. */
function ninefoldBuild(name: string, vite: Record<string, string>, dotEnv?: string): Promise<Build> {
  const cwd = mkdtempSync(join(tmpdir(), `ninefold-${name}-`));
  if (dotEnv !== undefined) writeFileSync(join(cwd, '.env'), dotEnv);
  const env: NodeJS.ProcessEnv = {};
  // Not vitest's NODE_ENV=test either: it would make Vite bundle React's development build.
  for (const [k, v] of Object.entries(process.env)) if (!/^(VITE_|VITEST|NODE_ENV$)/.test(k)) env[k] = v;
  Object.assign(env, CANARIES, vite);
  return new Promise((done) => {
    execFile(
      process.execPath,
      [join(ROOT, 'bin/ninefold.js'), 'build', SPEC, '-o', 'dist'],
      { cwd, env, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return done({ cwd, ok: false, output: `${stdout}\n${stderr}` });
        done({ cwd, ok: true, files: readTree(join(cwd, 'dist')) });
      },
    );
  });
}

function readTree(dir: string, base = dir, out = new Map<string, Buffer>()): Map<string, Buffer> {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) readTree(path, base, out);
    else out.set(relative(base, path), readFileSync(path));
  }
  return out;
}

/** A file's text for scanning: gzip (the database snapshot) unpacked, everything as latin1. */
const textOf = (name: string, bytes: Buffer) =>
  (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('latin1');
const totalBytes = (b: Build & { ok: true }) => [...b.files.values()].reduce((n, f) => n + f.length, 0);

const JWT = /eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]*/g;
const jwtClaims = (jwt: string): Record<string, unknown> => {
  try {
    return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
  } catch {
    return {};
  }
};

/** Everything in a text that looks like a secret, as `<kind>: <excerpt>`. */
function findSecrets(text: string, local: readonly string[]): string[] {
  const found: string[] = [];
  for (const jwt of text.match(JWT) ?? []) {
    const role = jwtClaims(jwt).role;
    if (role !== undefined && role !== 'anon' && role !== 'authenticated')
      found.push(`JWT with role ${String(role)}`);
  }
  const patterns: [string, RegExp][] = [
    ['new-style secret key', /sb_secret_[\w-]{8,}/],
    ['service-role variable with a value', /SUPABASE_SERVICE_ROLE_KEY["'`]?\s*[:=]\s*["'`]?[\w.-]{12,}/],
    ['private key', /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----/],
    ['database URL with a password', /postgres(?:ql)?:\/\/[^\s:@/'"`<>]+:[^\s@/'"`<>]+@/],
  ];
  for (const [kind, re] of patterns) {
    const m = re.exec(text);
    if (m) found.push(`${kind}: ${m[0].slice(0, 40)}`);
  }
  for (const value of local)
    if (text.includes(value)) found.push(`local environment value ${value.slice(0, 6)}…`);
  return found;
}

const secretsIn = (b: Build & { ok: true }) =>
  [...b.files].flatMap(([name, bytes]) =>
    findSecrets(textOf(name, bytes), localSecrets()).map((s) => `${name}: ${s}`),
  );

const PGLITE = /pglite|postgres\.wasm/i;

let embedded: Build;
let hosted: Build;
let refused: Build;

beforeAll(async () => {
  // In parallel (two cores): the embedded build reuses the snapshot cache in node_modules/.cache.
  [embedded, hosted, refused] = await Promise.all([
    ninefoldBuild('embedded', {}),
    ninefoldBuild(
      'hosted',
      {},
      `# as a deployer writes it\nVITE_NINEFOLD_BACKEND=supabase\nVITE_SUPABASE_URL=${FAKE_URL}\nVITE_SUPABASE_ANON_KEY=${ANON_KEY}\n`,
    ),
    ninefoldBuild('refused', {
      VITE_NINEFOLD_BACKEND: 'supabase',
      VITE_SUPABASE_URL: FAKE_URL,
      VITE_SUPABASE_ANON_KEY: SERVICE_KEY,
    }),
  ]);
}, 120_000);

afterAll(() => {
  for (const b of [embedded, hosted, refused]) if (b) rmSync(b.cwd, { recursive: true, force: true });
});

function built(b: Build): Build & { ok: true } {
  if (!b.ok) throw new Error(`build failed:\n${b.output}`);
  return b;
}

describe('the secret scanner', () => {
  it('finds each kind of secret it is meant to find', () => {
    expect(findSecrets(`const k="${SERVICE_KEY}"`, [])).toEqual(['JWT with role service_role']);
    expect(findSecrets(`x="${ANON_KEY}"`, [])).toEqual([]);
    expect(findSecrets('k="sb_secret_abcdefgh1234"', [])).toHaveLength(1);
    expect(findSecrets('e.startsWith(`sb_secret_`)', [])).toEqual([]);
    expect(findSecrets('SUPABASE_SERVICE_ROLE_KEY="abcdefghijklmnop"', [])).toHaveLength(1);
    expect(findSecrets('-----BEGIN RSA PRIVATE KEY-----', [])).toHaveLength(1);
    expect(findSecrets('postgres://postgres:hunter22@db.x.supabase.co:5432/postgres', [])).toHaveLength(1);
    expect(findSecrets('postgres://postgres@127.0.0.1:5432/test', [])).toEqual([]);
    expect(findSecrets('a canary-7f3c2a9e51d84b06 b', [CANARIES.NINEFOLD_TEST_SECRET_CANARY])).toHaveLength(
      1,
    );
  });
});

/** The files a build's page asks for with `<link rel=modulepreload>`, relative to the build. */
function preloadsOf(b: ReturnType<typeof built>): string[] {
  const html = b.files.get('index.html')?.toString() ?? '';
  return [...html.matchAll(/<link rel="modulepreload"[^>]*href="\/([^"]+)"/g)].map((m) => m[1] ?? '');
}

describe('building the helpdesk app', () => {
  it('embedded by default: PGlite, its worker and the first-visit snapshot are there', () => {
    const b = built(embedded);
    const names = [...b.files.keys()];
    expect(names.some((n) => n.endsWith('.wasm') && PGLITE.test(n))).toBe(true);
    expect(names.some((n) => /backendWorker.*\.js$/.test(n))).toBe(true);
    expect(names.some((n) => n.endsWith('.tar.gz'))).toBe(true);
    expect(b.files.get('index.html')?.toString()).toContain('__ninefoldSnapshot');
    // The first screen's and the backend's start are asked for from the HTML (startPreloadPlugin.ts).
    expect(preloadsOf(b)).toEqual(expect.arrayContaining([expect.stringMatching(/^assets\/firstScreen-/)]));
    expect(preloadsOf(b)).toEqual(expect.arrayContaining([expect.stringMatching(/^assets\/startEmbedded-/)]));
    // Nothing of the hosted adapter: supabase-js sends this header on every request.
    expect([...b.files].some(([, f]) => f.toString('latin1').includes('X-Client-Info'))).toBe(false);
  });

  it('with VITE_NINEFOLD_BACKEND=supabase in .env: no PGlite anywhere, and far smaller', () => {
    const h = built(hosted);
    const e = built(embedded);
    const mentions = [...h.files]
      .filter(([name, bytes]) => PGLITE.test(name) || PGLITE.test(textOf(name, bytes)))
      .map(([name]) => name);
    expect(mentions).toEqual([]);
    expect([...h.files.keys()].filter((n) => /\.(wasm|data|tar\.gz)$|worker/.test(n))).toEqual([]);
    const js = [...h.files].filter(([n]) => n.endsWith('.js')).map(([, f]) => f.toString());
    // The environment reached the bundle (so the scans above looked at a real hosted build) ...
    expect(js.some((t) => t.includes(FAKE_URL) && t.includes(ANON_KEY))).toBe(true);
    expect(js.some((t) => t.includes('X-Client-Info'))).toBe(true);
    // ... and the embedded-only parts did not: demo accounts, snapshot, test and bench hooks.
    for (const marker of ['@demo.test', '__ninefoldTest', '__ninefoldSnapshot', '__ninefold:'])
      expect(
        js.some((t) => t.includes(marker)),
        marker,
      ).toBe(false);
    expect(h.files.get('index.html')?.toString()).not.toContain('__ninefoldSnapshot');
    // Its start is asked for from the HTML too, and every file asked for is one the build has.
    const preloads = preloadsOf(h);
    expect(preloads.some((f) => h.files.get(f)?.toString().includes('X-Client-Info'))).toBe(true);
    expect(preloads.filter((f) => !h.files.has(f))).toEqual([]);
    const [hostedSize, embeddedSize] = [totalBytes(h), totalBytes(e)];
    console.log(`helpdesk build: embedded ${embeddedSize} bytes, hosted ${hostedSize} bytes`);
    expect(hostedSize * 5).toBeLessThan(embeddedSize);
  });

  it("keeps the styles of every Mantine class the app's code names, and none of a component it never draws", () => {
    // src/cli/usedCssPlugin.ts: Mantine's sheets are filtered by the classes the first pass's
    // JavaScript names. Whatever the build's JavaScript names and Mantine styles must be styled.
    const mantine = ['core', 'dates', 'notifications']
      .map((p) => readFileSync(join(ROOT, `node_modules/@mantine/${p}/styles.css`), 'utf8'))
      .join('\n');
    const classes = (text: string) => new Set(text.match(/\bm_[0-9a-f]{8}\b/g) ?? []);
    const styled = classes(mantine);
    // A component the reference app never draws: its root class is nowhere in either build.
    const slider = readFileSync(join(ROOT, 'node_modules/@mantine/core/styles/Slider.css'), 'utf8');
    const sliderRoot = slider.match(/\bm_[0-9a-f]{8}\b/)?.[0] ?? '';
    for (const b of [built(embedded), built(hosted)]) {
      const files = [...b.files];
      const css = classes(
        files
          .filter(([n]) => n.endsWith('.css'))
          .map(([, f]) => f.toString())
          .join('\n'),
      );
      const named = classes(
        files
          .filter(([n]) => n.endsWith('.js'))
          .map(([, f]) => f.toString())
          .join('\n'),
      );
      const missing = [...named].filter((c) => styled.has(c) && !css.has(c));
      expect(missing).toEqual([]);
      expect(css.size).toBeGreaterThan(100);
      expect(css.size).toBeLessThan(styled.size);
      expect(named.has(sliderRoot)).toBe(false);
      expect(css.has(sliderRoot)).toBe(false);
    }
  });

  it('neither build contains anything that looks like a secret', () => {
    expect(secretsIn(built(embedded))).toEqual([]);
    expect(secretsIn(built(hosted))).toEqual([]);
  });

  it('refuses a service-role key in VITE_SUPABASE_ANON_KEY, with a message that says what to do', () => {
    expect(refused.ok).toBe(false);
    const output = refused.ok ? '' : refused.output;
    expect(output).toContain('VITE_SUPABASE_ANON_KEY holds a service-role (secret) key');
    expect(output).toContain('anon (publishable) key');
    expect(output).not.toContain(SERVICE_KEY);
  });
});
