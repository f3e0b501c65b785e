/**
 * "Every screen for every role" of generated specifications in ONE built studio (`ninefold build
 * --studio`): each specification's document (`ninefold doc`'s printer) is opened through a share
 * link (`#doc=1.<data>`) in a fresh browser context, its live app starts on PGlite in the page's
 * worker, rows are made as the owner through the backend the preview page already exposes to the
 * studio's tests (`__ninefoldPreview`, studio/preview.tsx), and each demo role, chosen in "Signed
 * in as", visits every screen. The faults are generatedScreens.e2e.test.ts's: a page error, a
 * console error, the crash screen, "route … needs :x", the INTERNAL message, a readable row whose
 * detail says not found. Used by scripts/bench-screens.ts and generatedScreensStudio.e2e.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { type Browser, chromium, type Frame, type Page } from 'playwright-core';
import { demoAccounts } from '../../src/backend/embedded/demo/demoAccounts.ts';
import { buildStudio } from '../../src/cli/studioServer.ts';
import { renderDoc } from '../../src/doc/renderDoc.ts';
import { resolve as resolveModel } from '../../src/model/resolve.ts';
import { type RouteEntry, routeTable } from '../../src/runtime/routeTable.ts';
import { ui } from '../../src/runtime/uiText.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { diagnose } from '../../studio/diagnose.ts';
import { columnSql, tableSql } from '../enforcement/support/model.ts';
import { parentFirst } from '../enforcement/support/seed.ts';
import { CHROMIUM, CHROMIUM_ARGS, shoot } from './harness.ts';
import { serveDist } from './serveDist.ts';

/** One built studio, served, and one Chromium for every specification. */
export interface StudioBench {
  url: string;
  /** Chromium, launched again if it went away (a crash would otherwise fail every later spec). */
  browser(): Promise<Browser>;
  close(): Promise<void>;
}

/** Builds the studio (the blank template as its own document: every spec comes by link), serves it, launches Chromium. */
export async function startStudioBench(): Promise<StudioBench> {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-studio-screens-'));
  await buildStudio(undefined, dir);
  const { url, server } = await serveDist(dir);
  const launch = () => chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  let browser = await launch();
  return {
    url,
    browser: async () => {
      if (!browser.isConnected()) browser = await launch();
      return browser;
    },
    close: async () => {
      await browser.close();
      await new Promise<void>((r) => (server as Server).close(() => r()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The share link's fragment for `text` (studio/shareLink.ts: deflate-raw, base64url, format 1). */
export function shareFragment(text: string): string {
  return `doc=1.${deflateRawSync(Buffer.from(text, 'utf8')).toString('base64url')}`;
}

/**
 * The document `ninefold doc` prints for `spec` and the specification the studio reads back from
 * it (the same import, validation and lints as its editor); a document with errors says which.
 */
export function studioDocument(spec: AppSpec): { text: string; spec: AppSpec } | { problems: string[] } {
  const text = renderDoc(spec);
  const d = diagnose(text);
  const errors = d.diagnostics.filter((x) => x.severity === 'error');
  if (!d.spec || errors.length > 0)
    return { problems: errors.map((x) => `line ${x.line}: ${x.code} ${x.message}`) };
  return { text, spec: d.spec };
}

/** What one specification's visit found and did. */
export interface ScreensOutcome {
  faults: string[];
  /** Screens (routes) visited by at least one role. */
  screens: number;
  /** Role × screen pairs visited. */
  pairs: number;
  /** Visits (a screen with a row parameter is visited with a readable and a hidden row). */
  visits: number;
  rows: number;
  /** Detail screens of a row the role reads. */
  details: number;
  /** Detail screens of a row the role may not read that say not found (the check's own control). */
  hiddenNotFound: number;
  /** Visits whose screen says a read failed (`LoadFailed`: a refusal said, not a fault). */
  loadFailed: number;
  /** Milliseconds: the studio opened and its live app running, rows made, every visit. */
  ms: {
    open: number;
    seed: number;
    visits: number;
    signIn: number;
    paths: number;
    toasts: number;
    settle: number;
    check: number;
  };
}

/** The backend the live app's page exposes (studio/preview.tsx), as far as this uses it. */
interface PreviewWindow {
  __ninefoldPreview: {
    backend: {
      asOwner<T>(
        fn: (tx: { query(sql: string, p?: unknown[]): Promise<{ rows: unknown[] }> }) => Promise<T>,
      ): Promise<T>;
      data: { list(entity: string, q: unknown): Promise<{ rows: { id: string }[] }> };
    };
  };
}

/** The live app's frame (the studio page's only child frame). */
function liveFrame(page: Page): Frame {
  const frame = page.frames().find((f) => f.parentFrame() === page.mainFrame());
  if (!frame) throw new Error('no live app frame');
  return frame;
}

/** Owner SQL in the live app's page; a statement that fails resolves to null. */
async function ownerQuery(frame: Frame, sql: string, params: unknown[] = [], replica = false) {
  return frame.evaluate(
    async ([text, p, r]) => {
      try {
        const res = await (window as unknown as PreviewWindow).__ninefoldPreview.backend.asOwner(
          async (tx) => {
            // Triggers off, as the behaviour suite seeds (CHECK constraints still apply).
            if (r) await tx.query('set local session_replication_role = replica');
            return tx.query(text as string, p as unknown[]);
          },
        );
        return res.rows as Record<string, unknown>[];
      } catch {
        return null;
      }
    },
    [sql, params, replica] as const,
  );
}

/** A value for each field of a new row `n` (also generatedScreens.e2e.test.ts's). */
export function rowValues(
  spec: AppSpec,
  entity: string,
  user: string,
  state: string | null,
  n: number,
  ids: Record<string, string[]>,
): Record<string, unknown> {
  const e = spec.entities[entity];
  const st = spec.states[entity];
  const values: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(e?.fields ?? {})) {
    if (f.owner) values[name] = user;
    else if (st && name === st.field) values[name] = state;
    else if (f.type === 'text') values[name] = `${entity} ${n}`;
    else if (f.type === 'longtext') values[name] = n % 2 === 0 ? `https://example.com/${n}` : null;
    else if (f.type === 'number') values[name] = [0, 11, 5][n % 3];
    else if (f.type === 'boolean') values[name] = n % 2 === 0;
    else if (f.type === 'date') values[name] = n % 2 === 0 ? '2026-01-02' : null;
    else if (f.type === 'datetime') values[name] = n % 2 === 0 ? '2026-11-23T10:00:00Z' : null;
    else if (f.type === 'enum') values[name] = f.values?.[n % (f.values?.length ?? 1)];
    else if (f.type === 'tags') values[name] = n % 3 === 0 ? ['red'] : [];
    else if (f.type === 'ref' && f.ref) {
      const pool = ids[f.ref] ?? [];
      values[name] = pool.length > 0 && n % 3 !== 0 ? pool[n % pool.length] : null;
    }
  }
  return values;
}

/** One row per demo account and state of every entity but the profile, as the owner (parents first). */
async function seedRows(frame: Frame, spec: AppSpec): Promise<number> {
  const profile = Object.entries(spec.entities).find(([, e]) => e.profile)?.[0];
  const emails = demoAccounts(spec).map((a) => a.email);
  const users = await ownerQuery(
    frame,
    'select id::text as id from auth.users where email = any($1::text[]) order by email',
    [emails],
  );
  if (!users) throw new Error('the demo accounts could not be read as the owner');
  const userIds = users.map((r) => String(r.id));
  const ids: Record<string, string[]> = {};
  let n = 0;
  for (const entity of parentFirst(spec)) {
    if (entity === profile || !spec.entities[entity]) continue;
    const st = spec.states[entity];
    const made: string[] = [];
    ids[entity] = made;
    for (const user of userIds)
      for (const state of st ? Object.keys(st.states) : [null]) {
        n += 1;
        const values = rowValues(spec, entity, user, state, n, ids);
        const cols = Object.keys(values).map((k) => columnSql(spec, entity, k));
        const sql = `insert into ${tableSql(entity)} (${cols.join(', ')}) values (${cols.map((_, i) => `$${i + 1}`).join(', ')}) returning id::text as id`;
        // One transaction per row: a row a CHECK refuses is left out.
        const row = await ownerQuery(frame, sql, Object.values(values), true);
        if (row?.[0]) made.push(String(row[0].id));
      }
  }
  return Object.values(ids).reduce((s, l) => s + l.length, 0);
}

/** Rows of `entity` the signed-in person reads, through the backend the screens use. */
function readableIds(frame: Frame, entity: string): Promise<string[]> {
  return frame.evaluate(async (e) => {
    try {
      const r = await (window as unknown as PreviewWindow).__ninefoldPreview.backend.data.list(e, {
        limit: 1000,
      });
      return r.rows.map((x) => String(x.id));
    } catch {
      return [];
    }
  }, entity);
}

/**
 * What a screen shows that no screen of a valid specification may show (the app's page, or the
 * studio's preview frame).
 */
export async function screenFaults(frame: Pick<Frame, 'locator'>): Promise<string[]> {
  const text = await frame
    .locator('body')
    .innerText({ timeout: 5_000 })
    .catch(() => '');
  const out: string[] = [];
  if (text.includes(ui('crashTitle'))) out.push(`the crash screen ("${ui('crashTitle')}")`);
  const needs = text.match(/route \S+ needs :\w+/);
  if (needs) out.push(`"${needs[0]}"`);
  if (text.includes(ui('error_INTERNAL'))) out.push(`the catalogue's INTERNAL message`);
  // A list whose screen names no columns still shows what its rows are (ListScreen's defaults).
  const headers = await frame.locator('main table thead th').allInnerTexts();
  if ((await frame.locator('main table thead').count()) > 0 && !headers.some((h) => h.trim() !== ''))
    out.push('a table with no column');
  return out;
}

/** Client-side navigation in the live app (its page, worker and database stay). */
async function go(frame: Frame, path: string): Promise<void> {
  await frame.evaluate((p) => {
    history.pushState({}, '', p);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/**
 * Waits for the screen's heading and for its loaders and skeletons to go (lists fill in after it);
 * false when one still shows after 10 s (a read that never answers, or a failure shown as loading).
 */
async function settled(frame: Frame): Promise<boolean> {
  await frame.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 20_000 });
  const done = await frame
    .waitForFunction(
      () =>
        document.querySelectorAll('.mantine-Loader-root, .mantine-Skeleton-root[data-visible]').length === 0,
      null,
      { timeout: 10_000, polling: 50 },
    )
    .then(() => true)
    .catch(() => false);
  await frame.waitForTimeout(100);
  return done;
}

/** Closes the notifications, so a message is blamed on the screen that raised it. */
async function closeToasts(frame: Frame): Promise<void> {
  const close = frame.locator('.mantine-Notification-root button');
  for (let i = 0; i < 10 && (await close.count()) > 0; i++)
    await close
      .first()
      .click({ timeout: 1_000 })
      .catch(() => undefined);
}

/** Signs in as `email` in the studio's "Signed in as"; done once the live app's backend confirmed it. */
async function signInAs(page: Page, email: string): Promise<void> {
  await page.getByLabel('Signed in as').selectOption({ value: email });
  await liveFrame(page).waitForFunction(
    (who) =>
      document.documentElement.dataset.ninefoldSession === 'confirmed' &&
      document.documentElement.dataset.ninefoldUser === who,
    email,
    { timeout: 60_000 },
  );
}

/** Opens the studio on `text` by its share link and waits for the live app to run it. */
async function openLiveApp(page: Page, url: string, text: string): Promise<Frame> {
  await page.goto(`${url}/index.html#${shareFragment(text)}`);
  await page.locator('html[data-studio="ready"]').waitFor({ timeout: 120_000 });
  // The live app's panel shown, so its screens lay out as a person sees them.
  await page.getByRole('tab', { name: 'Live app' }).click();
  const live = page.locator('#live');
  await page.waitForFunction(
    () => ['ready', 'failed'].includes(document.getElementById('live')?.dataset.state ?? ''),
    null,
    { timeout: 180_000, polling: 100 },
  );
  if ((await live.getAttribute('data-state')) !== 'ready') {
    const refusal = await page
      .locator('#live-refusal')
      .innerText({ timeout: 1_000 })
      .catch(() => '');
    throw new Error(`the live app did not start: ${refusal}`);
  }
  const frame = liveFrame(page);
  await frame.waitForFunction(() => '__ninefoldPreview' in window, null, { timeout: 60_000 });
  return frame;
}

/**
 * Where a role goes for `route`: its path, or for a row's screen the path of a row the role reads
 * and of one it does not (each when there is one), as a person would type it.
 */
async function routePaths(
  frame: Frame,
  route: RouteEntry,
): Promise<{ path: string; readable: boolean | null }[]> {
  if (route.params.length === 0) return [{ path: route.path, readable: null }];
  if (!route.entity) return [];
  const readable = await readableIds(frame, route.entity);
  const all = (await ownerQuery(frame, `select id::text as id from ${tableSql(route.entity)}`)) ?? [];
  const hidden = all.map((r) => String(r.id)).filter((id) => !readable.includes(id));
  // The row's id in the route's own parameter (the app's links are the code under test).
  const at = (id: string) => route.path.replace(/:\w+/g, encodeURIComponent(id));
  return [
    ...(readable[0] ? [{ path: at(readable[0]), readable: true }] : []),
    ...(hidden[0] ? [{ path: at(hidden[0]), readable: false }] : []),
  ];
}

/** Visits one path as the signed-in role; adds what it found to `out`. */
async function visit(
  frame: Frame,
  route: RouteEntry,
  { path, readable }: { path: string; readable: boolean | null },
  out: ScreensOutcome,
  where: string,
): Promise<void> {
  out.visits += 1;
  let t = Date.now();
  await closeToasts(frame);
  out.ms.toasts += Date.now() - t;
  t = Date.now();
  await go(frame, path);
  if (!(await settled(frame))) out.faults.push(`${where}: still loading after 10 s`);
  out.ms.settle += Date.now() - t;
  t = Date.now();
  for (const f of await screenFaults(frame)) out.faults.push(`${where}: ${f}`);
  if ((await frame.getByText(ui('loadFailed'), { exact: true }).count()) > 0) out.loadFailed += 1;
  out.ms.check += Date.now() - t;
  if (readable === null || route.kind !== 'detail') return;
  const notFound = await frame.getByRole('heading', { level: 1, name: ui('notFoundTitle') }).count();
  if (readable) out.details += 1;
  else if (notFound > 0) out.hiddenNotFound += 1;
  if (readable && notFound > 0) out.faults.push(`${where}: a row the role reads is "${ui('notFoundTitle')}"`);
}

/**
 * Runs `spec` (as the studio reads its document back) in the studio at `url` and has every demo
 * role visit every screen; stops at the first screen with a fault.
 */
export async function everyScreenInStudio(
  browser: Browser,
  url: string,
  doc: { text: string; spec: AppSpec },
  label: string,
): Promise<ScreensOutcome> {
  const { spec } = doc;
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 }, locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const out: ScreensOutcome = {
    faults: [],
    screens: 0,
    pairs: 0,
    visits: 0,
    rows: 0,
    details: 0,
    hiddenNotFound: 0,
    loadFailed: 0,
    ms: { open: 0, seed: 0, visits: 0, signIn: 0, paths: 0, toasts: 0, settle: 0, check: 0 },
  };
  let where = 'boot';
  page.on('pageerror', (e) => out.faults.push(`${where}: page error: ${e.message}`));
  // The page's console carries its frames' messages: the live app's too.
  page.on('console', (m) => {
    if (m.type() === 'error') out.faults.push(`${where}: console error: ${m.text().slice(0, 300)}`);
  });
  const visited = new Set<string>();
  try {
    let t = Date.now();
    const frame = await openLiveApp(page, url, doc.text);
    out.ms.open = Date.now() - t;
    where = 'seeding';
    t = Date.now();
    out.rows = await seedRows(frame, spec);
    out.ms.seed = Date.now() - t;
    t = Date.now();
    const table = routeTable(resolveModel(spec));
    for (const account of demoAccounts(spec)) {
      where = `${account.role}: sign-in`;
      const s0 = Date.now();
      await signInAs(page, account.email);
      await settled(frame);
      out.ms.signIn += Date.now() - s0;
      for (const route of table.routes) {
        const p0 = Date.now();
        const paths = await routePaths(frame, route);
        out.ms.paths += Date.now() - p0;
        if (paths.length > 0) {
          out.pairs += 1;
          visited.add(route.name);
        }
        for (const p of paths) {
          where = `${account.role} ${route.name} ${p.path}`;
          await visit(frame, route, p, out, where);
          if (out.faults.length > 0) {
            await shoot(page, `studio-generated-${label}-${account.role}-${route.name}`);
            return out;
          }
        }
      }
    }
    out.ms.visits = Date.now() - t;
  } catch (e) {
    await shoot(page, `studio-generated-${label}-failure`);
    out.faults.push(`${where}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
  } finally {
    out.screens = visited.size;
    await context.close();
  }
  return out;
}
