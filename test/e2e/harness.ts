/**
 * Shared harness of the end-to-end tests: one production build per app (cached by the hash of
 * everything that goes into it, so several test files and several runs reuse it), a static
 * server, one headless Chromium per test file, screenshots on failure and axe-core checks.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { build, resolveSpecFile } from '../../src/cli/devServer.ts';
import { specFromDoc } from '../../src/import/loadDoc.ts';
import { ui } from '../../src/runtime/uiText.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../browser/testPage.ts';
import { fillBlankTemplate } from './fillBlankTemplate.ts';
import { serveDist } from './serveDist.ts';

export { CHROMIUM, CHROMIUM_ARGS };
/** Skip (with one line) where there is no Chromium, except on CI where the tests must run. */
export const e2eAvailable = existsSync(CHROMIUM) || process.env.CI === 'true';
if (!e2eAvailable) console.log(`e2e skipped: ${CHROMIUM} not found (apt-get install -y chromium)`);

export const RESULTS = resolve('test-results');
const CACHE = resolve('node_modules/.cache/ninefold-e2e');

/** Files whose content decides what a build contains (sources, not tests). */
function inputsOf(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'node_modules' && !name.startsWith('__')) inputsOf(p, out);
    } else if (/\.(tsx?|css|html|json|sql)$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

function buildKey(app: string): string {
  const h = createHash('sha256');
  const specDir = resolve(app);
  for (const f of [
    ...inputsOf(specDir),
    ...inputsOf(resolve('src')),
    ...inputsOf(resolve('app')),
    resolve('package-lock.json'),
  ]) {
    h.update(f);
    h.update(readFileSync(f));
  }
  return h.digest('hex').slice(0, 16);
}

/**
 * The specification an app folder builds from: its `spec.ts` or `spec.json`, or the nine-point
 * document `doc.md` of a folder that has one (an app written by an author, as `ninefold init` makes).
 */
function specFileOf(app: string): string {
  const doc = join(resolve(app), 'doc.md');
  return existsSync(doc) ? doc : resolveSpecFile(app);
}

/** A folder holding the blank template filled in as an author would (`fillBlankTemplate`), for the e2e harness. */
export function blankTemplateApp(): string {
  const dir = resolve('node_modules/.cache/ninefold-e2e-apps/reading-list');
  mkdirSync(dir, { recursive: true });
  const doc = join(dir, 'doc.md');
  const text = fillBlankTemplate(readFileSync(resolve('src/import/templates/blank.md'), 'utf8'));
  if (!existsSync(doc) || readFileSync(doc, 'utf8') !== text) writeFileSync(doc, text);
  return dir;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The built app for `app` (e.g. `examples/helpdesk`): built once per content hash into
 * `node_modules/.cache/ninefold-e2e/<app>-<hash>`; test files running in parallel wait for the
 * one that builds instead of building again.
 */
export async function builtApp(app: string): Promise<string> {
  const dir = join(CACHE, `${app.split('/').pop()}-${buildKey(app)}`);
  const done = join(dir, '.built');
  const lock = `${dir}.lock`;
  mkdirSync(CACHE, { recursive: true });
  for (;;) {
    if (existsSync(done)) return dir;
    try {
      mkdirSync(lock);
    } catch {
      // Someone else is building; a lock older than five minutes belongs to a dead run.
      if (Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 300_000)
        rmSync(lock, { recursive: true, force: true });
      await sleep(500);
      continue;
    }
    try {
      if (!existsSync(done)) {
        await build(specFileOf(app), dir);
        writeFileSync(done, new Date().toISOString());
        // Old builds are dead weight, but one may still be served by a file of this very run
        // (sources changed under it): only those older than an hour go.
        const prefix = `${app.split('/').pop()}-`;
        for (const n of readdirSync(CACHE)) {
          const built = statSync(join(CACHE, n, '.built'), { throwIfNoEntry: false });
          if (
            n.startsWith(prefix) &&
            join(CACHE, n) !== dir &&
            built &&
            Date.now() - built.mtimeMs > 3_600_000
          )
            rmSync(join(CACHE, n), { recursive: true, force: true });
        }
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

export async function loadSpec(app: string): Promise<AppSpec> {
  const file = specFileOf(app);
  if (file.endsWith('.md')) return specFromDoc(file);
  return (await import(file)).default as AppSpec;
}

export interface E2E {
  url: string;
  browser: Browser;
  spec: AppSpec;
  close(): Promise<void>;
}

/** Builds (or reuses) the app, serves it and launches one browser for a test file. */
export async function startE2E(app: string, extraArgs: string[] = []): Promise<E2E> {
  const [dir, spec] = await Promise.all([builtApp(app), loadSpec(app)]);
  const { url, server } = await serveDist(dir);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...extraArgs] });
  return {
    url,
    browser,
    spec,
    close: async () => {
      await browser.close();
      await new Promise<void>((r) => (server as Server).close(() => r()));
    },
  };
}

/**
 * A fresh browser profile (its own IndexedDB, localStorage and workers) for one test: the app in
 * its shipped mode (PGlite in the worker, persisted in IndexedDB — not `?memory`) starting from
 * its first visit. `colorScheme` is what the operating system prefers; `locale` the browser's language.
 */
export async function freshProfile(
  e2e: Pick<E2E, 'browser'>,
  options: { colorScheme?: 'light' | 'dark'; width?: number; height?: number; locale?: string } = {},
): Promise<BrowserContext> {
  return e2e.browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    colorScheme: options.colorScheme ?? 'light',
    // The browser's language (navigator.language, Accept-Language); the app picks its locale from it.
    ...(options.locale ? { locale: options.locale } : {}),
  });
}

/**
 * A test file's app, started before its tests and closed after them, and a fresh browser profile
 * for each test that asks (`fresh`, see `freshProfile`), all closed with the file. Call it inside
 * the file's `describe`: it registers its own `beforeAll` and `afterAll`.
 *
 * @example
 * const suite = appWithFreshProfiles('examples/helpdesk');
 * it('…', async () => openDefault((await newPage(await suite.fresh())).page, suite.e2e.url));
 */
export function appWithFreshProfiles(app: string): {
  readonly e2e: E2E;
  fresh(options?: Parameters<typeof freshProfile>[1]): Promise<BrowserContext>;
} {
  let started: E2E | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    started = await startE2E(app);
  }, 400_000);
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await started?.close();
  });
  const e2e = () => {
    if (!started) throw new Error(`${app} is not started (appWithFreshProfiles outside a describe?)`);
    return started;
  };
  return {
    get e2e() {
      return e2e();
    },
    fresh: async (options = {}) => {
      const c = await freshProfile(e2e(), options);
      contexts.push(c);
      return c;
    },
  };
}

/**
 * Opens the app in its default storage (no `?memory`) and waits for the first heading and for
 * the database to be open: the screens show before it is (app/main.tsx), and a test acting on
 * them at once would mostly measure how long a loaded machine takes to unpack the demo database.
 * The early screens themselves are tested in rememberedStart.e2e.test.ts.
 */
export async function openDefault(page: Page, url: string, path = '/'): Promise<void> {
  await page.goto(`${url}${path}`);
  // A first visit unpacks the demo database into IndexedDB: slow on a loaded machine.
  await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 180_000 });
  await page.waitForFunction(() => performance.getEntriesByName('ninefold:backend-ready').length > 0, null, {
    timeout: 180_000,
  });
}

/** A blank page of the app's origin (its storage, locks and workers), not the app. */
export async function blankPage(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.route(`${url}/__blank`, (r) =>
    r.fulfill({ body: '<html><body></body></html>', contentType: 'text/html' }),
  );
  await page.goto(`${url}/__blank`);
  return page;
}

/**
 * Holds the app's database leader lock from a blank page of its origin until `release`: the app's
 * worker cannot open the database meanwhile, so "before the database is open" is certain rather
 * than a race.
 */
export async function holdDatabase(
  context: BrowserContext,
  url: string,
  slug: string,
): Promise<{ release: () => Promise<void> }> {
  const holder = await blankPage(context, url);
  await holder.evaluate(
    (name) =>
      new Promise<void>((held) => {
        void navigator.locks.request(name, () => {
          held();
          return new Promise<void>((r) => Object.assign(window, { __release: r }));
        });
      }),
    `ninefold-backend-leader:ninefold-${slug}`,
  );
  return {
    release: async () => {
      await holder.evaluate(() => (window as unknown as { __release: () => void }).__release());
      await holder.close();
    },
  };
}

/** A page that records uncaught page errors (a test asserts there are none). */
export async function newPage(target: Browser | BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await target.newPage({ viewport: { width: 1280, height: 900 } });
  // Waiting longer than this for one element means the app is broken, not slow.
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // A screen that throws is caught by the router (CrashPage) and never becomes a page error; a
  // rule the build did not check (src/runtime/builtRuleChecker.ts) is only said in the console.
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (/^ninefold: (screen crashed|rule not in the build's table)/.test(m.text())) errors.push(m.text());
  });
  return { page, errors };
}

/** Keeps a full-page screenshot in test-results/ (the CI artifact). */
export async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(RESULTS, { recursive: true });
  await page
    .screenshot({ path: join(RESULTS, `${name.replace(/[^\w.-]+/g, '-')}.png`), fullPage: true })
    .catch(() => undefined);
}

/** Runs one named step; on failure keeps a screenshot named after it and rethrows. */
export async function step(page: Page, name: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    await shoot(page, `failure-${name}`);
    // What a screen reader would get, next to the picture: names, roles, states.
    const aria = await page
      .locator('body')
      .ariaSnapshot({ timeout: 2_000 })
      .catch(() => '');
    if (aria) writeFileSync(join(RESULTS, `failure-${name}.aria.yml`), aria);
    throw e;
  }
}

/** Opens the app in memory (`?memory`, plus `&test` for the test hook) and waits for sign-in. */
export async function openApp(page: Page, url: string, query = 'memory&test'): Promise<void> {
  await page.goto(`${url}/?${query}`);
  await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 60_000 });
}

/** Signs in with the demo account of `roleLabel` from the sign-in screen. */
export async function signInAsDemo(page: Page, roleLabel: string): Promise<void> {
  // The first account of a role unless the label says which (expenses has two finance accounts).
  await page
    .getByRole('button', { name: new RegExp(`^${roleLabel}`) })
    .first()
    .click({ timeout: 60_000 });
  // The sign-in screen shows before the database is open (app/main.tsx), and on a first visit
  // the account's first screens show at the click: the sign-in itself waits for the demo
  // database to be unpacked, slow on a loaded machine. Done once the backend has confirmed it.
  await page.getByRole('navigation').first().waitFor({ timeout: 180_000 });
  await page.waitForFunction(
    () =>
      document.documentElement.dataset.ninefoldSession === 'confirmed' &&
      (document.documentElement.dataset.ninefoldUser ?? '') !== '',
    null,
    { timeout: 180_000 },
  );
}

/**
 * A first visit to the helpdesk in default storage: signs in as its demo agent, opens the ticket
 * list from the menu and waits for its first row; returns that row's title.
 */
export async function openTicketsAsAgent(page: Page, url: string): Promise<string> {
  await openDefault(page, url);
  await signInAsDemo(page, 'Agent');
  // The agent lands on the dashboard; the ticket list is one click away.
  await page.getByRole('navigation').getByRole('link', { name: 'Tickets', exact: true }).click();
  const first = page.locator('main tbody tr a').first();
  await first.waitFor({ timeout: 60_000 });
  return (await first.textContent()) ?? '';
}

/** Switches demo account from the header menu (same tab, same in-memory database). */
export async function switchDemo(page: Page, roleLabel: string): Promise<void> {
  await dismissToasts(page);
  // In the language the app speaks (a test in German sets the locale first).
  await page.getByRole('button', { name: ui('demoSwitch') }).click();
  const before = await page.evaluate(() => document.documentElement.dataset.ninefoldUser ?? '');
  await page
    .getByRole('menuitem', { name: new RegExp(`^${roleLabel}`) })
    .first()
    .click();
  await page.getByRole('navigation').first().waitFor({ timeout: 30_000 });
  // Switched once the backend has signed the other account in (the screens may show before the
  // database is open, and the old account's screens stay until then).
  await page.waitForFunction(
    (old) =>
      document.documentElement.dataset.ninefoldSession === 'confirmed' &&
      (document.documentElement.dataset.ninefoldUser ?? old) !== old,
    before,
    { timeout: 180_000 },
  );
}

/** Closes every notification, as a person would before reaching what it covers. */
export async function dismissToasts(page: Page): Promise<void> {
  // A pointer resting on a toast pauses its timer; move it away, then let them go.
  await page.mouse.move(1, 450);
  const toasts = page.locator('.mantine-Notification-root');
  for (let i = 0; i < 10 && (await toasts.count()) > 0; i++)
    await toasts
      .first()
      .getByRole('button')
      .click({ timeout: 1_000 })
      .catch(() => undefined);
  await expect.poll(() => toasts.count(), { timeout: 10_000 }).toBe(0);
}

/**
 * Opens a picker (a Select's combobox) and returns its options' texts, read while its list is
 * open: a closed picker draws no options. A click that lands during another popover's closing
 * animation can be lost, so it clicks again while the picker is closed (a click on an open one
 * would close it).
 */
export async function pickerOptions(page: Page, picker: Locator): Promise<string[]> {
  const options = page.getByRole('listbox').getByRole('option');
  let texts: string[] = [];
  await vi.waitFor(
    async () => {
      // Mantine marks an open picker with data-expanded as soon as it opens (aria-expanded waits
      // for its list to mount).
      if ((await picker.getAttribute('data-expanded')) === null) await picker.click();
      await options.first().waitFor({ timeout: 2_000 });
      texts = await options.allTextContents();
      expect(texts.length).toBeGreaterThan(0);
    },
    { timeout: 30_000, interval: 500 },
  );
  return texts;
}

/** Client-side navigation (keeps the in-memory database, unlike page.goto). */
export async function go(page: Page, path: string): Promise<void> {
  await page.evaluate((p) => {
    history.pushState({}, '', p);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** The test hook of app/testHook.ts, present only with `?memory&test`. */
export interface TestHook {
  sql(
    text: string,
    params?: unknown[],
    changed?: { entity: string; id: string; kind: string },
  ): Promise<Record<string, unknown>[]>;
  call(port: 'data' | 'files', method: string, ...args: unknown[]): Promise<unknown>;
}

/** Runs `fn(hook)` in the page; a backend refusal comes back as `{ error: code }`. */
export async function viaHook(
  page: Page,
  port: 'data' | 'files',
  method: string,
  ...args: unknown[]
): Promise<{ ok: unknown } | { error: string }> {
  return page.evaluate(
    async ([p, m, a]) => {
      const hook = (window as unknown as { __ninefoldTest: TestHook }).__ninefoldTest;
      // Bytes do not cross into the page; `{ __bytes: n }` stands for n bytes made here.
      const revive = (v: unknown): unknown =>
        v && typeof v === 'object' && '__bytes' in v
          ? new Uint8Array(Number((v as { __bytes: number }).__bytes))
          : v && typeof v === 'object' && !Array.isArray(v)
            ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, revive(x)]))
            : v;
      try {
        return { ok: await hook.call(p as 'data', m as string, ...(a as unknown[]).map(revive)) };
      } catch (e) {
        return { error: String((e as { code?: string }).code ?? e) };
      }
    },
    [port, method, args] as const,
  );
}

/** Owner SQL through the test hook; `changed` ({ entity, id }) makes open screens refetch. */
export async function ownerSql(
  page: Page,
  text: string,
  params: unknown[] = [],
  changed?: { entity: string; id: string },
): Promise<Record<string, unknown>[]> {
  return page.evaluate(
    ([t, p, c]) =>
      (window as unknown as { __ninefoldTest: TestHook }).__ninefoldTest.sql(
        t,
        p,
        c ? { ...c, kind: 'update' } : undefined,
      ),
    [text, params, changed] as const,
  );
}

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: string[];
}

/** axe-core on the current page: the serious and critical violations (empty when clean). */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  const has = await page.evaluate(() => 'axe' in window);
  if (!has)
    await page.addScriptTag({ content: readFileSync(resolve('node_modules/axe-core/axe.min.js'), 'utf8') });
  const violations = await page.evaluate(async () => {
    const w = window as unknown as {
      axe: {
        run(): Promise<{
          violations: {
            id: string;
            impact: string | null;
            nodes: { target: string[]; failureSummary?: string }[];
          }[];
        }>;
      };
    };
    const r = await w.axe.run();
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`.slice(0, 300)),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** A file of `bytes` bytes for a file input. */
export function fileOf(name: string, bytes: number, mimeType = 'application/pdf') {
  const buffer = Buffer.alloc(bytes, 0x41);
  buffer.write('%PDF-1.4\n');
  return { name, mimeType, buffer };
}

/**
 * `it` for the steps of one journey: once a step fails the later ones are skipped (they would
 * only fail for the same reason, slowly), so the report points at the first broken step.
 */
export function journey() {
  let broken = false;
  return (name: string, fn: () => Promise<void>, timeout = 60_000) =>
    it(
      name,
      async (ctx) => {
        if (broken) ctx.skip(`an earlier step of the journey failed`);
        try {
          await fn();
        } catch (e) {
          broken = true;
          throw e;
        }
      },
      timeout,
    );
}

/**
 * After posting a message from a text box (a comment): waits until `text` is shown as posted and
 * the box is empty again. The list can show the new row a moment before the form clears its box,
 * so a bare `getByText(text)` then matches two elements (strict-mode error), and typing the next
 * message before the box cleared loses it.
 */
export async function waitForPosted(
  page: Page,
  text: string,
  box = page.getByLabel('Message'),
): Promise<void> {
  await page.getByRole('paragraph').filter({ hasText: text }).first().waitFor({ timeout: 15_000 });
  await expect.poll(() => box.inputValue(), { timeout: 15_000 }).toBe('');
}
