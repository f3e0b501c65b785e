/**
 * Issue 16: the built app of a generated specification (`test/generated/specArb.ts`) renders every
 * screen for every demo role. For each of `FC_SCREEN_SPECS` specifications (2 by default, seed
 * `FC_SEED`): the app is built like a user's (`ninefold build`, one cached build per spec), opened
 * in Chromium in its default storage (PGlite in the worker, IndexedDB; `?bench` only exposes the
 * backend so rows can be made as the owner), rows are created for every entity (one per demo account
 * and state, references to earlier rows), and each demo role signs in and visits every screen:
 * lists, dashboards, boards, forms, and the detail and edit screens of a row it can read and of one
 * it cannot. It fails on a page error, a console error, the crash screen, a route built without its
 * parameter ("route … needs :x"), the catalogue's INTERNAL message, or a row the role can read
 * that its detail screen calls not found. A failing specification is printed in full (the
 * generator's specs are small: at most three entities); fast-check shrinks it while time allows.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAccounts } from '../../src/backend/embedded/demo/demoAccounts.ts';
import { resolve as resolveModel } from '../../src/model/resolve.ts';
import { routeTable } from '../../src/runtime/routeTable.ts';
import { ui } from '../../src/runtime/uiText.ts';
import type { AppSpec } from '../../src/spec/types.ts';
import { columnSql, tableSql } from '../enforcement/support/model.ts';
import { parentFirst } from '../enforcement/support/seed.ts';
import { checkAndCompile } from '../generated/runGenerated.ts';
import { specArb } from '../generated/specArb.ts';
import {
  builtApp,
  CHROMIUM,
  CHROMIUM_ARGS,
  dismissToasts,
  e2eAvailable,
  go,
  shoot,
  signInAsDemo,
  switchDemo,
} from './harness.ts';
import { serveDist } from './serveDist.ts';
import { rowValues, screenFaults } from './studioScreens.ts';

// Seed 7 by default: its two specifications let some role read rows of an entity with a detail
// screen, which the last assertion needs (with 20261123 every detail row is owner-only since the
// arbitrary grew relationship roles); any seed must pass the fault checks.
const seed = process.env.FC_SEED === undefined ? 7 : Number(process.env.FC_SEED);
const specs = process.env.FC_SCREEN_SPECS === undefined ? 2 : Number(process.env.FC_SCREEN_SPECS);
const SPEC_DIRS = resolve('node_modules/.cache/ninefold-e2e-specs');

/** The backend `?bench` puts on `window` (app/startEmbedded.ts), as far as this test uses it. */
interface BenchWindow {
  __ninefold: {
    backend: {
      asOwner<T>(
        fn: (tx: { query(sql: string, p?: unknown[]): Promise<{ rows: unknown[] }> }) => Promise<T>,
      ): Promise<T>;
      data: { list(entity: string, q: unknown): Promise<{ rows: { id: string }[] }> };
    };
  };
}

/** A folder with the spec as `spec.json`, named after its content (the build cache keys on it too). */
function specFolder(spec: AppSpec): string {
  const json = JSON.stringify(spec, null, 1);
  let h = 0;
  for (const ch of json) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  const dir = join(SPEC_DIRS, `gen-${(h >>> 0).toString(16)}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'spec.json'), json);
  return dir;
}

/** One row per demo account and state of every entity, as the owner (parents first). */
async function seedRows(page: Page, spec: AppSpec): Promise<number> {
  const profile = Object.entries(spec.entities).find(([, e]) => e.profile)?.[0];
  const emails = demoAccounts(spec).map((a) => a.email);
  const users = (await page.evaluate(
    (list) =>
      (window as unknown as BenchWindow).__ninefold.backend.asOwner((tx) =>
        tx.query('select id::text as id from auth.users where email = any($1::text[]) order by email', [
          list,
        ]),
      ),
    emails,
  )) as { rows: { id: string }[] };
  const userIds = users.rows.map((r) => r.id);
  const ids: Record<string, string[]> = {};
  let n = 0;
  for (const entity of parentFirst(spec)) {
    if (entity === profile) continue;
    const e = spec.entities[entity];
    if (!e) continue;
    const st = spec.states[entity];
    ids[entity] = [];
    for (const user of userIds)
      for (const state of st ? Object.keys(st.states) : [null]) {
        n += 1;
        const values = rowValues(spec, entity, user, state, n, ids);
        const cols = Object.keys(values).map((k) => columnSql(spec, entity, k));
        const sql = `insert into ${tableSql(entity)} (${cols.join(', ')}) values (${cols.map((_, i) => `$${i + 1}`).join(', ')}) returning id::text as id`;
        // One transaction per row: a row a rule refuses (a row rule over other rows) is left out.
        const id = await page.evaluate(
          async ([text, params]) => {
            try {
              // Triggers off, as the behaviour suite seeds: rows every role may see exist even when a
              // row rule over other rows would refuse them (CHECK constraints still apply).
              const r = await (window as unknown as BenchWindow).__ninefold.backend.asOwner(async (tx) => {
                await tx.query('set local session_replication_role = replica');
                return tx.query(text as string, params as unknown[]);
              });
              return (r.rows[0] as { id: string }).id;
            } catch {
              return null;
            }
          },
          [sql, Object.values(values)] as const,
        );
        if (id) ids[entity]?.push(id);
      }
  }
  return Object.values(ids).reduce((s, l) => s + l.length, 0);
}

/** Rows of `entity` the signed-in user can read, through the backend the screens use. */
async function readableIds(page: Page, entity: string): Promise<string[]> {
  return page.evaluate(async (e) => {
    try {
      const r = await (window as unknown as BenchWindow).__ninefold.backend.data.list(e, { limit: 1000 });
      return r.rows.map((x) => String(x.id));
    } catch {
      return [];
    }
  }, entity);
}

async function ownerIds(page: Page, entity: string, spec: AppSpec): Promise<string[]> {
  const r = (await page.evaluate(
    (sql) => (window as unknown as BenchWindow).__ninefold.backend.asOwner((tx) => tx.query(sql as string)),
    `select id::text as id from ${tableSql(entity)}`,
  )) as { rows: { id: string }[] };
  void spec;
  return r.rows.map((x) => x.id);
}

/** Visits every screen of `spec`'s built app for each demo role; returns the faults found. */
async function visitEverything(
  browser: Browser,
  url: string,
  spec: AppSpec,
  label: string,
): Promise<{ faults: string[]; visits: number; rows: number; details: number }> {
  const context: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const faults: string[] = [];
  let where = 'boot';
  page.on('pageerror', (e) => faults.push(`${where}: page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') faults.push(`${where}: console error: ${m.text().slice(0, 300)}`);
  });
  let visits = 0;
  let details = 0;
  try {
    // The shipped storage (no ?memory); a first visit unpacks the build's snapshot into IndexedDB.
    await page.goto(`${url}/?bench`);
    await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 180_000 });
    await page.waitForFunction(() => '__ninefold' in window, null, { timeout: 180_000 });
    const rows = await seedRows(page, spec);
    const table = routeTable(resolveModel(spec));
    const accounts = demoAccounts(spec);
    for (const [i, account] of accounts.entries()) {
      const roleLabel = spec.roles.roles[account.role]?.label ?? account.role;
      where = `${account.role}: sign-in`;
      if (i === 0) await signInAsDemo(page, roleLabel);
      else await switchDemo(page, roleLabel);
      for (const route of table.routes) {
        const paths: { path: string; readable: boolean | null }[] = [];
        if (route.params.length === 0) paths.push({ path: route.path, readable: null });
        else if (route.entity) {
          const readable = await readableIds(page, route.entity);
          const hidden = (await ownerIds(page, route.entity, spec)).filter((id) => !readable.includes(id));
          // The URL a person would type: the row's id in the route's own parameter (the app's links
          // are built by the code under test, so the test does not use it).
          const at = (id: string) => route.path.replace(/:\w+/g, encodeURIComponent(id));
          if (readable[0]) paths.push({ path: at(readable[0]), readable: true });
          if (hidden[0]) paths.push({ path: at(hidden[0]), readable: false });
        }
        for (const { path, readable } of paths) {
          where = `${account.role} ${route.name} ${path}`;
          visits += 1;
          await dismissToasts(page).catch(() => undefined);
          await go(page, path);
          await page.getByRole('heading', { level: 1 }).first().waitFor();
          // Lists, boards and dashboards fill in after the heading.
          await page.waitForLoadState('networkidle');
          await page.waitForTimeout(250);
          for (const f of await screenFaults(page)) faults.push(`${where}: ${f}`);
          if (readable === true && route.kind === 'detail') {
            details += 1;
            const notFound = await page.getByRole('heading', { level: 1, name: ui('notFoundTitle') }).count();
            if (notFound > 0) faults.push(`${where}: a row the role reads is "${ui('notFoundTitle')}"`);
          }
          if (faults.length > 0) {
            await shoot(page, `generated-${label}-${account.role}-${route.name}`);
            return { faults, visits, rows, details };
          }
        }
      }
    }
    return { faults, visits, rows, details };
  } catch (e) {
    await shoot(page, `generated-${label}-failure`);
    faults.push(`${where}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    return { faults, visits, rows: 0, details };
  } finally {
    await context.close();
  }
}

describe.skipIf(!e2eAvailable)('generated specifications: every screen for every role', () => {
  let browser: Browser;
  const servers: Server[] = [];
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    for (const s of servers) await new Promise<void>((r) => s.close(() => r()));
  });

  it(`${specs} generated specifications render every screen for every demo role with no error`, async () => {
    let visits = 0;
    let rows = 0;
    let built = 0;
    let details = 0;
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(specArb, async (spec) => {
        checkAndCompile(spec);
        const dir = specFolder(spec);
        const dist = await builtApp(dir);
        built += 1;
        const { url, server } = await serveDist(dist);
        servers.push(server);
        const o = await visitEverything(browser, url, spec, dir.split('/').pop() ?? 'spec');
        visits += o.visits;
        rows += o.rows;
        details += o.details;
        if (o.faults.length > 0)
          throw new Error(`${o.faults.length} fault(s):\n  ${o.faults.slice(0, 10).join('\n  ')}`);
        expect(o.visits).toBeGreaterThan(0);
      }),
      // Each spec is a build and a boot in Chromium: few runs, and shrinking stops after the limit
      // with the smallest failing specification found so far (printed in full by fast-check).
      { seed, numRuns: specs, interruptAfterTimeLimit: 420_000, markInterruptAsFailure: false },
    );
    console.log(
      `generated screens: ${specs} specifications (${built} builds), ${rows} rows, ${visits} screen visits (${details} details of a readable row), 0 faults (seed ${seed}, ${Date.now() - started} ms)`,
    );
    expect(visits).toBeGreaterThan(0);
    // Lists with rows and detail screens of readable rows were seen (links built, rows rendered).
    expect(details).toBeGreaterThan(0);
  }, 600_000);
});
