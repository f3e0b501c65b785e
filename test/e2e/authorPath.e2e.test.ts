import { type ChildProcess, execFile, spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { ui } from '../../src/runtime/uiText.ts';
import { fillBlankTemplate } from './fillBlankTemplate.ts';
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  e2eAvailable,
  journey,
  newPage,
  openDefault,
  signInAsDemo,
  step,
} from './harness.ts';

/**
 * The README's "Your own app", followed as written on a machine with nothing but the clone: its
 * commands, verbatim and in order, run in a shell whose home folder is a fresh temporary one (so
 * `~/my-app` lands outside the repository). Between them the test does what the README asks the
 * author to do by hand (fill in doc.md), then opens the served app in Chromium, in the storage it
 * ships with: a demo account signs in, a rule from the document refuses a bad value with the
 * document's message, and a good row is created.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The commands of the README's "Your own app" steps, in the order the README gives them. */
function readmeAuthorCommands(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Your own app'));
  const steps = section.slice(section.indexOf('\n1. '), section.indexOf('\n\n', section.indexOf('\n1. ')));
  return [...steps.matchAll(/`([^`]+)`/g)]
    .map((m) => m[1] ?? '')
    .filter((c) => /^(npx ninefold |cd )/.test(c));
}

const EXPECTED = [
  'npx ninefold init --from blank ~/my-app',
  'cd ~/my-app && npm install',
  'npx ninefold check doc.md',
  'npx ninefold dev doc.md',
  'npx ninefold build doc.md',
  'npx ninefold preview dist',
];

/** The words of the bundler's chatter that `ninefold build` used to pass on (issue 31). */
const NOISE =
  /externalized|INEFFECTIVE_DYNAMIC_IMPORT|PLUGIN_TIMINGS|\[EVAL\]|MODULE_LEVEL_DIRECTIVE|rolldown|vite v\d|modules transformed|\.js\s+\d/;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let home = '';

/** A fresh machine's shell: this run's variables left out, home a new empty folder, no npm audit/fund/update chatter. */
function shellEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^(npm_|INIT_CWD$|VITEST|NODE_ENV$|VITE_|NINEFOLD_)/.test(k)) env[k] = v;
  return {
    ...env,
    HOME: home,
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
}

function sh(command: string, cwd: string): Promise<Run> {
  return new Promise((done) => {
    execFile(
      'sh',
      ['-c', command],
      { cwd, env: shellEnv(), maxBuffer: 16 * 1024 * 1024 },
      (e, stdout, stderr) =>
        done({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** A command that keeps running (a server): started in its own process group, resolved with the URL it prints. */
function serve(command: string, cwd: string, printed: RegExp): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn('sh', ['-c', command], { cwd, env: shellEnv(), detached: true });
  let said = '';
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`${command} printed no address:\n${said}`)), 120_000);
    const read = (chunk: Buffer) => {
      said += chunk.toString();
      const url = printed.exec(said)?.[1];
      if (url) {
        clearTimeout(timer);
        done({ url, child });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => fail(new Error(`${command} exited (${code}):\n${said}`)));
  });
}

/** Stops a server started by `serve`: its whole process group (npx, sh and node). */
function stop(child: ChildProcess | undefined): void {
  if (child?.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}

describe.skipIf(!e2eAvailable)("the README's author path, as written, outside the repository", () => {
  const commands = readmeAuthorCommands();
  const [init, install, check, dev, build, preview] = commands as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  let app = '';
  let preview_: ChildProcess | undefined;
  let devServer: ChildProcess | undefined;
  let url = '';
  let browser: Browser | undefined;
  let page: Page;
  let errors: string[];
  const it = journey();

  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'nf-author-home-'));
    app = join(home, 'my-app');
  });

  afterAll(async () => {
    await browser?.close();
    stop(devServer);
    stop(preview_);
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('issue 31.1: the README lists the author commands this test runs', async () => {
    expect(commands).toEqual(EXPECTED);
  });

  it("issue 31.1: init, run in the clone, makes ~/my-app depending on the clone, and refuses the clone's own folder", async () => {
    const inside = `my-app-${process.pid}`;
    const refused = await sh(init.replace('~/my-app', inside), ROOT);
    expect(refused.code, refused.stdout + refused.stderr).toBe(2);
    expect(refused.stderr).toContain('INIT_INSIDE_TOOLKIT');
    expect(existsSync(join(ROOT, inside))).toBe(false);

    const made = await sh(init, ROOT);
    expect(made.code, made.stdout + made.stderr).toBe(0);
    expect(made.stdout).toContain(`the Ninefold checkout at ${realpathSync(ROOT)}`);
    const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
    expect(pkg.dependencies).toEqual({ ninefold: `file:${realpathSync(ROOT)}` });
  });

  it('issue 31.1: npm install links the clone: one ninefold, no second React', async () => {
    const installed = await sh(install, ROOT);
    expect(installed.code, installed.stdout + installed.stderr).toBe(0);
    const modules = readdirSync(join(app, 'node_modules')).filter((n) => !n.startsWith('.'));
    // React, Vite and the rest come from the clone's node_modules: the built app holds one React.
    expect(modules).toEqual(['ninefold']);
    expect(lstatSync(join(app, 'node_modules/ninefold')).isSymbolicLink()).toBe(true);
    expect(realpathSync(join(app, 'node_modules/ninefold'))).toBe(realpathSync(ROOT));
  }, 120_000);

  it('issue 31.1: the filled-in document passes check, and dev serves it', async () => {
    writeFileSync(join(app, 'doc.md'), fillBlankTemplate(readFileSync(join(app, 'doc.md'), 'utf8')));
    const checked = await sh(check, app);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    expect(checked.stdout).toMatch(/✓ doc\.md: (no problems found|0 errors)/);
    const running = await serve(dev, app, /running at (http:\/\/\S+)/);
    devServer = running.child;
    const html = await (await fetch(running.url)).text();
    expect(html).toContain('id="root"');
    stop(devServer);
  }, 180_000);

  it(
    'issue 31 (low): ninefold build says where the app went, its size and how to serve it, and nothing of the bundler',
    async () => {
      const built = await sh(build, app);
      expect(built.code, built.stdout + built.stderr).toBe(0);
      const lines = built.stdout.trimEnd().split('\n');
      expect(lines[0]).toBe('✓ built doc.md into dist');
      expect(lines[1]).toMatch(
        /^ {2}size: [\d.]+ MB in \d+ files \([\d.]+ MB of it the in-browser database\); the first screen needs [\d.]+ KB of JavaScript \(gzip\)$/,
      );
      // The build's hint is the README's next command.
      expect(lines[2]).toMatch(new RegExp(`^ {2}serve it: ${preview} \\(`));
      expect(lines).toHaveLength(3);
      expect(`${built.stdout}\n${built.stderr}`).not.toMatch(NOISE);
      expect(existsSync(join(app, 'dist/index.html'))).toBe(true);
    },
    15 * 60_000,
  );

  it(
    'issue 31.1: the served app: a demo reader signs in, the document’s rule refuses a long title with its message, a book is created',
    async () => {
      const served = await serve(preview, app, /serving dist at (http:\/\/\S+)/);
      preview_ = served.child;
      url = served.url.replace(/\/$/, '');
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      ({ page, errors } = await newPage(browser));
      await step(page, 'author-path-app', async () => {
        // The shipped storage (a worker and IndexedDB), a first visit.
        await openDefault(page, url);
        await signInAsDemo(page, 'Reader');
        await page.getByRole('link', { name: 'Suggest a book', exact: true }).first().click();
        const title = page.getByRole('textbox', { name: 'Title' });
        // doc.md: "Title must be at most {titleMax} characters long." → TITLE_TOO_LONG, titleMax = 120.
        await title.fill('x'.repeat(121));
        await page.getByRole('button', { name: ui('create'), exact: true }).click();
        await page.getByText('Titles may be at most 120 characters long.').first().waitFor();
        await expect(title.getAttribute('aria-invalid')).resolves.toBe('true');
        await title.fill('The Left Hand of Darkness');
        await page.getByRole('textbox', { name: 'Author' }).fill('Ursula K. Le Guin');
        await page.getByRole('button', { name: ui('create'), exact: true }).click();
        await page.getByRole('heading', { level: 1, name: 'The Left Hand of Darkness' }).waitFor();
        await page.getByRole('link', { name: 'Books', exact: true }).first().click();
        await page.getByRole('link', { name: 'The Left Hand of Darkness' }).first().waitFor();
      });
      expect(errors).toEqual([]);
    },
    10 * 60_000,
  );
});
