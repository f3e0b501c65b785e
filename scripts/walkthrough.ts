/**
 * The walkthrough: every demo account of the three reference apps and of an app written from the
 * blank template, every screen of its navigation plus the detail and edit screens its lists link
 * to, at 360 and 1280 px, light and dark, photographed for a person to look at. The built apps run
 * in the storage they ship with (a worker and IndexedDB, a first visit with the demo data), as
 * the e2e harness builds them (test/e2e/harness.ts, cached builds shared with the e2e tests).
 * Each photographed screen is also checked by axe-core (serious and critical violations) and, at
 * 360 px, for a page wider than the screen; the findings are printed at the end and written to
 * `<out>/findings.txt`.
 *
 * Not a test (it takes minutes and its verdict is a person's): run it by hand.
 *   node scripts/run-ts.mjs scripts/walkthrough.ts [--out /tmp/walkthrough] [helpdesk expenses tasks blank]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build } from '../src/cli/devServer.ts';
import { fillBlankTemplate } from '../test/e2e/fillBlankTemplate.ts';
import { builtApp, CHROMIUM, CHROMIUM_ARGS, seriousAxeViolations } from '../test/e2e/harness.ts';
import { serveDist } from '../test/e2e/serveDist.ts';

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const OUT = resolve(outAt >= 0 ? (args[outAt + 1] ?? '/tmp/walkthrough') : '/tmp/walkthrough');
const APPS = ['helpdesk', 'expenses', 'tasks', 'blank'] as const;
type App = (typeof APPS)[number];
const chosen = args.filter((a, i) => (APPS as readonly string[]).includes(a) && args[i - 1] !== '--out');
const apps: App[] = chosen.length > 0 ? (chosen as App[]) : [...APPS];

const VARIANTS = [
  { width: 1280, scheme: 'light' },
  { width: 1280, scheme: 'dark' },
  { width: 360, scheme: 'light' },
  { width: 360, scheme: 'dark' },
] as const;

const findings: string[] = [];
let shots = 0;

/** The built app's folder: the e2e harness's cached build, or for `blank` the filled-in template built here. */
async function distOf(app: App): Promise<string> {
  if (app !== 'blank') return builtApp(`examples/${app}`);
  const dir = join(OUT, '.blank-app');
  mkdirSync(dir, { recursive: true });
  const doc = join(dir, 'doc.md');
  writeFileSync(doc, fillBlankTemplate(readFileSync(resolve('src/import/templates/blank.md'), 'utf8')));
  await build(doc, join(dir, 'dist'), () => undefined);
  return join(dir, 'dist');
}

/** Waits until no animation is running (a scheme switch starts colour transitions). */
async function settle(page: Page): Promise<void> {
  await page.waitForTimeout(120);
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
      undefined,
      { timeout: 3_000 },
    )
    .catch(() => undefined);
}

/** Photographs the current screen in every variant, with axe and the sideways check. */
async function photograph(page: Page, app: App, who: string, screen: string): Promise<void> {
  const dir = join(OUT, app);
  mkdirSync(dir, { recursive: true });
  for (const v of VARIANTS) {
    await page.mouse.move(-1, -1);
    await page.emulateMedia({ colorScheme: v.scheme });
    await page.setViewportSize({ width: v.width, height: v.width === 360 ? 740 : 900 });
    await settle(page);
    const at = `${app} ${who} ${screen} ${v.width} ${v.scheme}`;
    if (v.width === 360) {
      await page.waitForTimeout(400);
      const wider = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      if (wider > 0) findings.push(`${at}: the page is ${wider} px wider than the screen`);
    }
    await page.screenshot({ path: join(dir, `${who}-${v.width}-${v.scheme}-${screen}.png`), fullPage: true });
    shots++;
    for (const f of await seriousAxeViolations(page))
      findings.push(`${at}: axe ${f.impact} ${f.id}: ${f.nodes.slice(0, 3).join(' | ')}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });
  // The layout moves back to desktop width before the next click lands.
  await settle(page);
  await page.waitForTimeout(300);
}

/** Client-side navigation (keeps the session and the open database). */
async function go(page: Page, path: string): Promise<void> {
  await page.evaluate((p) => {
    history.pushState({}, '', p);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  // Lists and dashboards fill in after the heading.
  await page.waitForTimeout(700);
}

const slug = (s: string) =>
  s
    .replace(/[^\w]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);

/** The demo accounts on the sign-in screen: each button's role and name. */
async function demoButtons(page: Page): Promise<{ role: string; name: string }[]> {
  const buttons = page.locator('button').filter({ hasText: /@demo\.test|Demo / });
  return (await buttons.allInnerTexts()).map((t) => {
    const [role = '', name = ''] = t
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    return { role, name };
  });
}

/** Signed in once the backend confirmed the account. */
async function confirmed(page: Page, before = ''): Promise<void> {
  await page.getByRole('navigation').first().waitFor({ timeout: 180_000 });
  await page.waitForFunction(
    (old) =>
      document.documentElement.dataset.ninefoldSession === 'confirmed' &&
      (document.documentElement.dataset.ninefoldUser ?? old) !== old,
    before,
    { timeout: 180_000 },
  );
}

/** The navigation's links (path and text) at desktop width. */
async function navLinks(page: Page): Promise<{ path: string; name: string }[]> {
  const links = page.getByRole('navigation').first().locator('a[href]');
  const out: { path: string; name: string }[] = [];
  for (const l of await links.all()) {
    const path = new URL((await l.getAttribute('href')) ?? '/', 'http://x').pathname;
    const name = ((await l.innerText()) || path).replace(/\s+/g, ' ').trim();
    if (!out.some((o) => o.path === path)) out.push({ path, name });
  }
  return out;
}

/**
 * Links in the main area to a row's own screen (`/<things>/<id>`, `/admin/<things>/<id>`; not a
 * form, not a navigation screen), one per kind of row.
 */
async function rowLinks(page: Page, known: Set<string>, nav: ReadonlySet<string>): Promise<string[]> {
  const hrefs = await page
    .locator('main a[href]')
    .evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  const out: string[] = [];
  for (const h of hrefs) {
    const m = /^\/((?:[\w-]+\/)*[\w-]+)\/([^/]+)$/.exec(h);
    const kind = m?.[1] ?? '';
    if (!m || nav.has(h) || m[2] === 'new' || m[2] === 'edit' || known.has(kind)) continue;
    known.add(kind);
    out.push(h);
  }
  return out;
}

/** One account: its navigation, the row screens its lists link to, one edit form, the phone menu. */
async function walkAccount(page: Page, app: App, who: string): Promise<number> {
  let screens = 0;
  const nav = await navLinks(page);
  const navPaths = new Set(nav.map((n) => n.path));
  const kinds = new Set<string>();
  const rows: string[] = [];
  for (const { path, name } of nav) {
    await go(page, path);
    await photograph(page, app, who, `nav-${slug(name)}`);
    screens++;
    rows.push(...(await rowLinks(page, kinds, navPaths)));
  }
  let edit: string | undefined;
  // Up to five kinds of row, those a row's own screen links to (a ticket's requester) included.
  for (let i = 0; i < rows.length && i < 5; i++) {
    const path = rows[i] ?? '/';
    await go(page, path);
    await photograph(page, app, who, `row-${slug(path.split('/').slice(1, -1).join('-'))}`);
    screens++;
    rows.push(...(await rowLinks(page, kinds, navPaths)));
    edit ??= await page
      .locator('main a[href$="/edit"]')
      .first()
      .getAttribute('href', { timeout: 500 })
      .catch(() => undefined)
      .then((h) => h ?? undefined);
  }
  if (edit) {
    await go(page, new URL(edit, 'http://x').pathname);
    await photograph(page, app, who, `edit-${slug(edit.split('/')[1] ?? '')}`);
    screens++;
  }
  // The phone's menu, open.
  await page.setViewportSize({ width: 360, height: 740 });
  const burger = page.getByRole('button', { name: /navigation|menu/i }).first();
  if (await burger.isVisible().catch(() => false)) {
    await burger.click();
    await settle(page);
    await page.screenshot({ path: join(OUT, app, `${who}-360-light-menu-open.png`) });
    shots++;
    await burger.click().catch(() => undefined);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  return screens;
}

/** The blank-template app has no demo rows: the reader suggests a book through its form first. */
async function seedBlank(page: Page): Promise<void> {
  await go(page, '/books/new');
  await page.getByRole('textbox', { name: 'Title' }).fill('The Left Hand of Darkness');
  await page.getByRole('textbox', { name: 'Author' }).fill('Ursula K. Le Guin');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'The Left Hand of Darkness' }).waitFor();
}

async function walkApp(browser: Browser, app: App): Promise<string> {
  const dist = await distOf(app);
  const { url, server } = await serveDist(dist);
  // A fresh profile: a first visit, the shipped storage, the demo data unpacked.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  let screens = 0;
  try {
    await page.goto(url);
    await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 180_000 });
    await page.waitForFunction(
      () => performance.getEntriesByName('ninefold:backend-ready').length > 0,
      null,
      {
        timeout: 180_000,
      },
    );
    await photograph(page, app, 'anonymous', 'sign-in');
    const accounts = await demoButtons(page);
    for (const [i, account] of accounts.entries()) {
      const who = slug(`${account.role} ${account.name.replace(/^Demo |@demo\.test/g, '')}`).toLowerCase();
      const before = await page.evaluate(() => document.documentElement.dataset.ninefoldUser ?? '');
      if (i === 0)
        await page.locator('button').filter({ hasText: account.name }).first().click({ timeout: 60_000 });
      else {
        await page.mouse.move(1, 450);
        await page.getByRole('button', { name: 'Switch demo account' }).click();
        await page.getByRole('menuitem').filter({ hasText: account.name }).first().click();
      }
      await confirmed(page, before);
      if (app === 'blank' && i === 0) await seedBlank(page);
      const n = await walkAccount(page, app, who);
      screens += n;
      console.log(`${app}: ${account.role} (${account.name}): ${n} screens`);
    }
    await go(page, '/no-such-page');
    await photograph(page, app, 'anonymous', 'not-found');
  } catch (e) {
    await page.screenshot({ path: join(OUT, app, 'failure.png'), fullPage: true }).catch(() => undefined);
    findings.push(`${app}: the walk stopped: ${(e as Error).message.split('\n')[0]}`);
  } finally {
    await context.close();
    server.close();
  }
  for (const e of errors) findings.push(`${app}: console/page error: ${e.slice(0, 300)}`);
  return `${app}: ${screens} screens`;
}

const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
const summary: string[] = [];
try {
  for (const app of apps) summary.push(await walkApp(browser, app));
} finally {
  await browser.close();
}
const report = [
  ...summary,
  `${shots} screenshots in ${OUT}`,
  '',
  `findings (${findings.length}):`,
  ...findings,
];
writeFileSync(join(OUT, 'findings.txt'), `${report.join('\n')}\n`);
console.log(report.join('\n'));
